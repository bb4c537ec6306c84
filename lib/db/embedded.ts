// The one embedded database (docs/architecture/README.md §1, §2 "database"): when no DATABASE_URL is
// given, every embedded reference service and the web app's session store keep their tables in
// one PGlite instance under DATA_DIR/db, each under its own prefix (identity_, consumer_, app_).
// Each instance costs its own WebAssembly memory, buffer cache and start-up image (about
// 150-250 MB resident), so one instance instead of two is the largest saving at rest.
//
// A DATA_DIR of the earlier layout (one database per service: DATA_DIR/identity,
// DATA_DIR/consumer, and DATA_DIR/app for sessions) is merged at the first start: the new database
// is built in DATA_DIR/db.merging with every migration, each old database is migrated to the
// current schema and its rows are copied table by table (PostgreSQL's COPY, text format, so every
// type survives as it is), and only then is DATA_DIR/db.merging renamed to DATA_DIR/db. The old
// directories are kept, renamed to `<name>.before-merge`, for the operator to delete. A crash
// during the merge leaves DATA_DIR/db.merging, which the next start throws away and rebuilds.
import { existsSync } from "node:fs";
import { rename, rm } from "node:fs/promises";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import { databaseOn, openPglite } from "./database.ts";

/** One owner's schema: the name of its migration bookkeeping table, and how to bring a database up to date. */
export interface SchemaOwner {
  /** Its database's directory in the earlier layout (DATA_DIR/<name>): identity, consumer or app. */
  name: string;
  /** The bookkeeping table its migrations write (e.g. identity_migration); `${table}_lock` is its lock. */
  migrationTable: string;
  /** Runs the owner's migrations on `db`. */
  migrate(db: Kysely<any>): Promise<unknown>;
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

async function tablesOf(pglite: PGlite): Promise<string[]> {
  const { rows } = await pglite.query<{ table_name: string }>(
    "select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name",
  );
  return rows.map((row) => row.table_name);
}

async function columnsOf(pglite: PGlite, table: string): Promise<string[]> {
  const { rows } = await pglite.query<{ column_name: string }>(
    "select column_name from information_schema.columns where table_schema = 'public' and table_name = $1 order by ordinal_position",
    [table],
  );
  return rows.map((row) => row.column_name);
}

/**
 * Copies every table of the database in `from` that `target` also has, except migration
 * bookkeeping, after migrating `from` with the owners whose bookkeeping it holds.
 * @returns rows copied per table
 */
async function copyInto(target: PGlite, from: string, owners: readonly SchemaOwner[]): Promise<Record<string, number>> {
  const source = await openPglite(from);
  const sourceDb = databaseOn<unknown>(source);
  try {
    const present = new Set(await tablesOf(source));
    for (const owner of owners) if (present.has(owner.migrationTable)) await owner.migrate(sourceDb);
    const bookkeeping = new Set(owners.flatMap((owner) => [owner.migrationTable, `${owner.migrationTable}_lock`]));
    const targetTables = new Set(await tablesOf(target));
    const copied: Record<string, number> = {};
    // Foreign keys are checked by triggers, which replica mode skips: tables can come in any order.
    await target.exec("set session_replication_role = replica");
    for (const table of await tablesOf(source)) {
      if (bookkeeping.has(table) || !targetTables.has(table)) continue;
      const columns = (await columnsOf(target, table)).map(quote).join(", ");
      const out = await source.query(`copy ${quote(table)} (${columns}) to '/dev/blob'`);
      if (!out.blob) continue;
      await target.query(`copy ${quote(table)} (${columns}) from '/dev/blob'`, [], { blob: out.blob });
      const { rows } = await target.query<{ n: number }>(`select count(*)::int as n from ${quote(table)}`);
      copied[table] = rows[0]?.n ?? 0;
    }
    await target.exec("set session_replication_role = origin");
    return copied;
  } finally {
    await sourceDb.destroy();
  }
}

/**
 * Opens the one embedded database of `dataDir` (DATA_DIR/db), merging the databases of the
 * earlier layout into it first when they are there (see the top of this file). The owners'
 * migrations are run on it here only for a merge; the services still run their own at start.
 * @returns the open database; the caller destroys it after the services that use it have closed
 * @throws Error when a database cannot be opened, migrated or copied (DATA_DIR/db is then not
 *   created, and the old directories are untouched)
 */
export async function openEmbeddedDatabase(dataDir: string, owners: readonly SchemaOwner[], logger: Logger): Promise<Kysely<any>> {
  const dir = path.join(dataDir, "db");
  const merging = path.join(dataDir, "db.merging");
  // Only the databases of the owners in use: an upstream configured elsewhere keeps its old directory.
  const earlier = owners.map((owner) => path.join(dataDir, owner.name)).filter((old) => existsSync(path.join(old, "PG_VERSION")));
  await rm(merging, { recursive: true, force: true });
  if (earlier.length > 0 && !existsSync(path.join(dir, "PG_VERSION"))) {
    const started = performance.now();
    const target = await openPglite(merging);
    const targetDb = databaseOn<unknown>(target);
    try {
      for (const owner of owners) await owner.migrate(targetDb);
      for (const old of earlier) {
        const copied = await copyInto(target, old, owners);
        logger.info({ from: path.basename(old), rows: copied }, "embedded database merged into DATA_DIR/db");
      }
    } finally {
      await targetDb.destroy();
    }
    await rename(merging, dir);
    logger.info({ ms: Math.round(performance.now() - started) }, "one embedded database now holds every service's tables");
  }
  // After a merge, or a crash between the rename above and these: the old ones step aside.
  for (const old of earlier) await rename(old, existsSync(`${old}.before-merge`) ? `${old}.before-merge-${Date.now()}` : `${old}.before-merge`);
  return databaseOn<any>(await openPglite(dir));
}
