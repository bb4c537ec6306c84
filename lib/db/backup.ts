// Backups of the embedded data (docs/operating.md "Backups"). A backup is one zip file holding what a
// DATA_DIR must keep to come back as it was:
//   manifest.json             { format: 1, createdAt }
//   db.tar.gz                 PGlite's dump of DATA_DIR/db (every service's tables and the sessions),
//                             taken by the process that has the database open, so it is consistent
//   session-secret,           the kept secrets (when DATA_DIR holds them): without the session secret
//   identity-client-secret,   every browser would be signed out after a restore, and without the
//   identity-signing-secret   signing secret the identity authority could not unseal its key
// Everything written (the backup file, the restored DATA_DIR) is owner-only: files 0600,
// directories 0700 (docs/decisions/0015-owner-only-data-dir.md).
//   outbox/*.eml              the mails written as files (no SMTP_URL)
// With DATABASE_URL the data is PostgreSQL's: back it up with pg_dump instead (README).
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { strFromU8, strToU8, unzipSync, zipSync } from "fflate";
import type { Zippable } from "fflate";
import { ownerOnlyFs } from "./database.ts";

/** The format this code writes and reads. */
export const BACKUP_FORMAT = 1;

/** The kept secrets of a DATA_DIR (server.ts keptSecret), copied when present. */
export const KEPT_SECRETS = ["session-secret", "identity-client-secret", "identity-signing-secret", "consumer-pass-secret"] as const;

/** A file that is not a backup this code can restore, or a DATA_DIR that is not empty enough to restore into. */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BackupError";
  }
}

/**
 * Writes a backup of `dataDir` to `file` (written beside it first, then renamed: a backup that did not
 * finish never has the name asked for).
 * @param pglite the open database of DATA_DIR/db (the running server's, or one the caller opened)
 * @returns the backup's size in bytes
 */
export async function writeBackup(pglite: PGlite, dataDir: string, file: string): Promise<number> {
  const dump = await pglite.dumpDataDir("gzip");
  const entries: Zippable = {
    "manifest.json": strToU8(JSON.stringify({ format: BACKUP_FORMAT, createdAt: new Date().toISOString() })),
    // Already gzip: stored, not compressed twice.
    "db.tar.gz": [new Uint8Array(await dump.arrayBuffer()), { level: 0 }],
  };
  for (const name of KEPT_SECRETS) {
    const secret = path.join(dataDir, name);
    if (existsSync(secret)) entries[name] = await readFile(secret);
  }
  const outbox = path.join(dataDir, "outbox");
  for (const name of existsSync(outbox) ? await readdir(outbox) : []) {
    if (name.endsWith(".eml")) entries[`outbox/${name}`] = await readFile(path.join(outbox, name));
  }
  const zipped = zipSync(entries, { level: 6 });
  await mkdir(path.dirname(path.resolve(file)), { recursive: true, mode: 0o700 });
  const partial = `${file}.partial`;
  await writeFile(partial, zipped, { mode: 0o600 });
  await rename(partial, file);
  return zipped.length;
}

/**
 * Restores `file` into `dataDir`, which must hold no database yet (a new, empty DATA_DIR, or one whose
 * `db` was moved away): the database, the kept secrets and the outbox. The next server started on
 * `dataDir` runs its migrations on the restored database as usual.
 * @throws BackupError when the file is not a backup of this format, or `dataDir` already holds a database
 */
export async function restoreBackup(file: string, dataDir: string): Promise<void> {
  const target = path.join(dataDir, "db");
  if (existsSync(target) && (await readdir(target)).length > 0) throw new BackupError(`${target} already holds a database: restore into an empty DATA_DIR`);
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(new Uint8Array(await readFile(file)));
  } catch {
    throw new BackupError(`${file} is not a SafeWindow backup (not a zip file)`);
  }
  const manifest = files["manifest.json"] ? (JSON.parse(strFromU8(files["manifest.json"])) as { format?: unknown }) : undefined;
  if (manifest?.format !== BACKUP_FORMAT || !files["db.tar.gz"]) throw new BackupError(`${file} is not a SafeWindow backup of format ${BACKUP_FORMAT}`);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  for (const name of KEPT_SECRETS) if (files[name]) await writeFile(path.join(dataDir, name), files[name], { mode: 0o600 });
  const mails = Object.keys(files).filter((name) => /^outbox\/[^/]+\.eml$/.test(name));
  if (mails.length > 0) await mkdir(path.join(dataDir, "outbox"), { recursive: true, mode: 0o700 });
  for (const name of mails) await writeFile(path.join(dataDir, name), files[name]!, { mode: 0o600 });
  const restored = new PGlite({ fs: ownerOnlyFs(target), loadDataDir: new Blob([files["db.tar.gz"].slice()]) });
  await restored.waitReady;
  await restored.close();
}
