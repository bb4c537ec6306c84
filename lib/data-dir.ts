// DATA_DIR is owner-only (docs/security/data.md "DATA_DIR"; docs/decisions/0015-owner-only-data-dir.md):
// it holds the embedded database (password hashes, e-mail addresses, results, the sealed signing
// key), the kept secrets, the mail outbox and the lock, so no other local user may read or write
// any of it. Every process that writes there (server.ts, services/*/main.ts, lib/db/backup-cli.ts)
// calls `ownerOnlyUmask()` first, so what it creates is 0700/0600 whatever umask it was started
// with, then `secureDataDir()`, which tightens what an earlier version or a copy left looser.
//
// Imported by server.ts with Node's type stripping: node modules only.
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, realpathSync, chmodSync, fchmodSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import path from "node:path";

/** The permission bits of group and others; none is set on anything in DATA_DIR. */
export const GROUP_OTHER_BITS = 0o077;

/**
 * Sets the process's umask to 0o077, so that every file and directory it creates from now on
 * (PGlite's, the lock's, the outbox's, the kept secrets') has no group or other bits, whatever
 * umask the process was started with. Call it before anything writes to DATA_DIR. Node's
 * `process.umask(mask)` works in the main thread only.
 * @returns the umask the process had before (for a log line)
 */
export function ownerOnlyUmask(): number {
  return process.umask(GROUP_OTHER_BITS);
}

/** An entry under DATA_DIR owned by another user: the process stops rather than share the directory with them. */
export class ForeignEntryError extends Error {
  readonly entry: string;
  readonly uid: number;
  constructor(entry: string, uid: number, ownUid: number) {
    super(
      `${entry} belongs to another user (uid ${uid}, this process runs as uid ${ownUid}): ` +
        `DATA_DIR and everything in it must belong to the user that runs SafeWindow. ` +
        `Check who put it there, then remove it or chown it to uid ${ownUid}.`,
    );
    this.name = "ForeignEntryError";
    this.entry = entry;
    this.uid = uid;
  }
}

/** What `secureDataDir` did. */
export interface SecuredDataDir {
  /** The real path of DATA_DIR. */
  dataDir: string;
  /** Entries (paths relative to DATA_DIR, "." for itself) that had group or other bits, now cleared. */
  tightened: string[];
}

/**
 * Makes `dataDir` (created 0700 when missing) and everything under it owner-only: clears the
 * group and other permission bits of DATA_DIR and of every directory and file in it, top down (a
 * directory is closed to others before its entries are looked at, so nobody else can swap one
 * for a link meanwhile). DATA_DIR's own path is resolved (the operator named it); no symbolic
 * link under it is followed or changed, and each file or directory is changed through a
 * descriptor opened with O_NOFOLLOW. Synchronous: ~1,200 entries take a few ms.
 * @returns the real path and the entries that were looser (empty for an owner-only DATA_DIR)
 * @throws ForeignEntryError when DATA_DIR or an entry under it (a link included) belongs to
 *   another user; entries before it may already be tightened
 */
export function secureDataDir(dataDir: string): SecuredDataDir {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const root = realpathSync(dataDir);
  const ownUid = process.geteuid?.() ?? -1;
  const tightened: string[] = [];
  const visit = (full: string, relative: string): void => {
    try {
      visitEntry(full, relative);
    } catch (error) {
      // Removed meanwhile (a running server's temporary file, when a second start looks): nothing to tighten.
      if ((error as NodeJS.ErrnoException).code === "ENOENT" && relative !== ".") return;
      throw error;
    }
  };
  const visitEntry = (full: string, relative: string): void => {
    const seen = lstatSync(full);
    if (ownUid >= 0 && seen.uid !== ownUid) throw new ForeignEntryError(full, seen.uid, ownUid);
    if (seen.isSymbolicLink()) return;
    if (seen.isFile() || seen.isDirectory()) {
      const fd = openSync(full, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
      let replaced = false;
      try {
        const opened = fstatSync(fd);
        // Replaced between lstat and open: look again rather than change what was not checked.
        replaced = opened.ino !== seen.ino || opened.dev !== seen.dev;
        if (!replaced && opened.mode & GROUP_OTHER_BITS) {
          fchmodSync(fd, opened.mode & 0o7777 & ~GROUP_OTHER_BITS);
          tightened.push(relative);
        }
      } finally {
        closeSync(fd);
      }
      if (replaced) return visit(full, relative);
    } else if (seen.mode & GROUP_OTHER_BITS) {
      // A socket or a FIFO: nothing SafeWindow makes, but no reason to leave it open either.
      chmodSync(full, seen.mode & 0o7777 & ~GROUP_OTHER_BITS);
      tightened.push(relative);
    }
    if (seen.isDirectory()) {
      for (const name of readdirSync(full).sort()) visit(path.join(full, name), relative === "." ? name : path.join(relative, name));
    }
  };
  visit(root, ".");
  return { dataDir: root, tightened };
}

/**
 * The one log line of a start that tightened DATA_DIR: how many entries, and up to five of them.
 * @param rotation what the start does about the identity signing key, said in the same line
 */
export function tightenedMessage(secured: SecuredDataDir, rotation: string): string {
  const shown = secured.tightened.slice(0, 5).join(", ");
  const more = secured.tightened.length > 5 ? ` and ${secured.tightened.length - 5} more` : "";
  return (
    `DATA_DIR ${secured.dataDir} was open to other local users: ${secured.tightened.length} entries ` +
    `(${shown}${more}) made owner-only (directories 0700, files 0600); ${rotation}`
  );
}

/**
 * A secret kept in `dataDir/name` (32 random bytes, base64url, one line), created 0600 with
 * O_EXCL when missing, so two processes never keep two different ones.
 * @throws the file system's error when the file cannot be read or created
 */
export function keptDataDirSecret(dataDir: string, name: string): string {
  const file = path.join(dataDir, name);
  try {
    return readFileSync(file, "utf8").trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const secret = randomBytes(32).toString("base64url");
  try {
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: "wx" });
  } catch (error) {
    // Another process made it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return readFileSync(file, "utf8").trim();
    throw error;
  }
  return secret;
}
