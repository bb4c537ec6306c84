// Kysely factory shared by the reference services (docs/architecture/README.md §2 "database", §3 lib/db).
// One code path for both engines: embedded PGlite when no DATABASE_URL is given, PostgreSQL
// through `pg` otherwise, with the same type parsers pinned on both so rows look identical.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import { NodeFS } from "@electric-sql/pglite/nodefs";
import { Kysely, PostgresDialect, sql } from "kysely";
import { PreparedPGliteDialect } from "./prepared.ts";

const execFileAsync = promisify(execFile);

export interface DatabaseOptions {
  /** Directory holding embedded databases; PGlite keeps its files in `${dataDir}/${name}`. */
  dataDir?: string;
  /** `postgres://` / `postgresql://` connection string; when set, `dataDir` is not used. */
  databaseUrl?: string;
  /** The database's short name (e.g. "identity"): the PGlite sub-directory. */
  name: string;
  /** Maximum pooled connections for PostgreSQL (default 10). Ignored for PGlite. */
  poolSize?: number;
}

/** PostgreSQL type OIDs whose parsing we pin (pg_type.oid). */
const OID = { INT8: 20, DATE: 1082, TIMESTAMP: 1114, TIMESTAMPTZ: 1184 } as const;

const TIMESTAMP_TEXT =
  /^(\d{4,})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:(Z)|([+-])(\d{2})(?::?(\d{2}))?(?::?(\d{2}))?)?( BC)?$/;

/**
 * Parses PostgreSQL's text output of `timestamptz` / `timestamp` (DateStyle ISO) into a Date.
 * A value without a zone (plain `timestamp`) is read as UTC on both engines. Sub-millisecond
 * digits are dropped; `infinity` / `-infinity` become the largest / smallest Date.
 * @throws Error when the text is not an ISO timestamp (e.g. a server with DateStyle != ISO).
 */
export function parseTimestamp(text: string): Date {
  if (text === "infinity") return new Date(8.64e15);
  if (text === "-infinity") return new Date(-8.64e15);
  const m = TIMESTAMP_TEXT.exec(text);
  if (!m) throw new Error(`Unexpected timestamp text from the database: ${JSON.stringify(text)}`);
  const [, y, mo, d, h, mi, s, frac, zulu, sign, oh, om, os, bc] = m;
  let year = Number(y);
  if (bc) year = 1 - year;
  const ms = frac ? Number(frac.padEnd(3, "0").slice(0, 3)) : 0;
  const date = new Date(0);
  date.setUTCFullYear(year, Number(mo) - 1, Number(d));
  date.setUTCHours(Number(h), Number(mi), Number(s), ms);
  if (!zulu && sign) {
    const offsetSeconds = Number(oh) * 3600 + Number(om ?? 0) * 60 + Number(os ?? 0);
    date.setTime(date.getTime() - (sign === "-" ? -1 : 1) * offsetSeconds * 1000);
  }
  return date;
}

/**
 * Parses an `int8` (bigint, count(*)) as a JS number. Values beyond 2^53 lose precision:
 * our schemas use uuids for ids, int8 only for counts and sizes.
 */
function parseInt8(text: string): number {
  return Number(text);
}

/** `date` stays the 'YYYY-MM-DD' text PostgreSQL sends (no time zone shifts). */
function parseDate(text: string): string {
  return text;
}

/**
 * Server settings of an embedded (PGlite) database. PostgreSQL's default buffer cache of 128 MB
 * lives in the WebAssembly memory, which never shrinks: each instance grew by up to 128 MB over
 * its first minute under load and kept it (bench/soak.results.md). 16 MB holds the app's working
 * set (sessions, profiles, the result list; images are read once per view) and bounds that
 * growth; measured on a reopened database after 6 000 writes of 100 KB rows: 483 MB resident
 * instead of 572 MB (docs/architecture/README.md §2). PostgreSQL servers are configured by operators.
 */
const embeddedSettings = ["-c", "shared_buffers=16MB"];

const pinnedParsers: Record<number, (text: string) => unknown> = {
  [OID.INT8]: parseInt8,
  [OID.DATE]: parseDate,
  [OID.TIMESTAMP]: parseTimestamp,
  [OID.TIMESTAMPTZ]: parseTimestamp,
};

/**
 * Opens the embedded PostgreSQL (PGlite) whose files are in `dir`, with the app's server settings
 * and type parsers (reopening ~0.3 s). A directory without a database first gets one from
 * `initializePglite` (~3-5 s). The caller closes it (`close()`, or `destroy()` of a Kysely made
 * with `databaseOn`).
 * @throws Error when the database cannot be created or opened
 */
export async function openPglite(dir: string): Promise<PGlite> {
  if (!existsSync(path.join(dir, "PG_VERSION"))) await initializePglite(dir);
  return startPglite(dir);
}

/**
 * PGlite's file system on `dir` (its Node file system), except that nothing it creates or changes
 * gets group or other permission bits (docs/decisions/0015-owner-only-data-dir.md). PostgreSQL
 * asks for 0600 files, but PGlite's WebAssembly build applies its own umask (0o022) and then sets
 * the mode with chmod, which the process's umask does not limit: the files of a new or restored
 * database came out 0666 and pg_internal.init 0644. Its `mknod` and `chmod` are wrapped here to
 * clear those bits, whatever the process's umask.
 */
export function ownerOnlyFs(dir: string): NodeFS {
  return new OwnerOnlyNodeFS(dir);
}

class OwnerOnlyNodeFS extends NodeFS {
  override async init(...args: Parameters<NodeFS["init"]>): ReturnType<NodeFS["init"]> {
    const { emscriptenOpts } = await super.init(...args);
    const ownerOnly = (module: { FS: object }) => {
      const fs = module.FS as Record<"mknod" | "chmod", (target: unknown, mode: number, ...rest: unknown[]) => unknown>;
      const { mknod, chmod } = fs;
      fs.mknod = (target, mode, ...rest) => mknod.call(fs, target, mode & ~0o077, ...rest);
      fs.chmod = (target, mode, ...rest) => chmod.call(fs, target, mode & ~0o077, ...rest);
    };
    return { emscriptenOpts: { ...emscriptenOpts, preRun: [...(emscriptenOpts.preRun ?? []), ownerOnly] } };
  }
}

async function startPglite(dir: string): Promise<PGlite> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const pglite = new PGlite({ fs: ownerOnlyFs(dir), parsers: pinnedParsers, startParams: [...PGlite.defaultStartParams, ...embeddedSettings] });
  await pglite.waitReady;
  return pglite;
}

const initdbScript = fileURLToPath(new URL("./initdb.ts", import.meta.url));

/**
 * Creates a database in `dir` (which is missing or empty) in a child process of the same Node,
 * then moves it into place. Creating a database in this process left about 70 MB resident for
 * good (initdb's WebAssembly memory is never given back to the system; a worker thread did not
 * give it back either), so a first start sat at ~360 MB at rest against ~290 MB for a restart
 * (bench/pages.results.md, docs/architecture/README.md §2 "database"). The child writes into a sibling
 * directory renamed onto `dir` when complete: a crash or kill during initdb leaves no
 * half-made database, only a `.initdb-*` directory removed on the next attempt.
 * @throws Error with initdb's last output when the child fails
 */
export async function initializePglite(dir: string): Promise<void> {
  const parent = path.dirname(dir);
  await mkdir(parent, { recursive: true });
  const prefix = `${path.basename(dir)}.initdb-`;
  for (const entry of await readdir(parent)) {
    if (entry.startsWith(prefix)) await rm(path.join(parent, entry), { recursive: true, force: true });
  }
  const staging = path.join(parent, `${prefix}${process.pid}-${randomBytes(4).toString("hex")}`);
  try {
    await execFileAsync(process.execPath, [initdbScript, staging], { timeout: 120_000, maxBuffer: 1024 * 1024 });
  } catch (err) {
    await rm(staging, { recursive: true, force: true });
    const output = (err as { stderr?: string }).stderr?.trim().split("\n").slice(-5).join("\n");
    throw new Error(`Could not create the embedded database in ${dir}${output ? `: ${output}` : ""}`, { cause: err });
  }
  // rename(2) replaces an empty directory; a directory with files in it (not a database) is kept.
  try {
    await rename(staging, dir);
  } catch (err) {
    await rm(staging, { recursive: true, force: true });
    throw new Error(`${dir} holds files but no database: move them away or choose another DATA_DIR`, { cause: err });
  }
}

/** initdb.ts's work: create the database in `dir` in this process and close it. */
export async function createPgliteHere(dir: string): Promise<void> {
  const pglite = await startPglite(dir);
  await pglite.close();
}

/** A Kysely instance on an open PGlite; its `destroy()` closes the PGlite. */
export function databaseOn<DB>(pglite: PGlite): Kysely<DB> {
  const db = new Kysely<DB>({ dialect: new PreparedPGliteDialect(pglite) });
  pglites.set(db, pglite);
  return db;
}

const pglites = new WeakMap<Kysely<any>, PGlite>();

/** The PGlite under a database that databaseOn made (a backup dumps it); undefined for PostgreSQL. */
export function pgliteOf(db: Kysely<any>): PGlite | undefined {
  return pglites.get(db);
}

/**
 * Opens a Kysely instance on PGlite (data in `${dataDir}/${name}`, created on first use,
 * ~3-5 s; reopening ~0.3 s) or, when `databaseUrl` is set, on a `pg` Pool. Both engines
 * return int8 as number, `date` as 'YYYY-MM-DD' string and timestamptz as Date.
 * The caller owns the instance: `db.destroy()` closes PGlite / ends the pool.
 * @throws Error when neither dataDir nor databaseUrl is given, or the database does not answer
 *   `select 1` (the message never contains the connection string).
 */
export async function createDatabase<DB>(opts: DatabaseOptions): Promise<Kysely<DB>> {
  let db: Kysely<DB>;
  if (opts.databaseUrl) {
    // Loaded only for PostgreSQL: the embedded default never holds the driver (about 1.5 MiB of heap).
    const { default: pg } = await import("pg");
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: opts.poolSize ?? 10,
      // Per-pool parsers rather than pg.types.setTypeParser: never change process-wide state
      // that other code sharing the `pg` module may rely on.
      types: {
        getTypeParser: ((oid: number, format?: "text" | "binary") => {
          const pinned = pinnedParsers[oid];
          if (pinned && format !== "binary") return pinned;
          return format === "binary" ? pg.types.getTypeParser(oid, "binary") : pg.types.getTypeParser(oid);
        }) as typeof pg.types.getTypeParser,
      },
    });
    db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  } else {
    if (!opts.dataDir) throw new Error("createDatabase: give either dataDir (PGlite) or databaseUrl (PostgreSQL)");
    db = databaseOn<DB>(await openPglite(path.resolve(opts.dataDir, opts.name)));
  }
  try {
    await sql`select 1`.execute(db);
  } catch (err) {
    await db.destroy().catch(() => {});
    const reason = err instanceof Error ? err.message : String(err);
    throw new Error(`Database "${opts.name}" does not answer: ${reason}`, { cause: err });
  }
  return db;
}
