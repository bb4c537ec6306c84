// In-code migrations for the reference services (docs/architecture/README.md §3 lib/db). Each service
// passes its own migration table name and prefixes its tables (identity_…, consumer_…),
// so several services can share one PostgreSQL database.
import type { Kysely } from "kysely";
import { Migrator } from "kysely/migration";
import type { Migration, MigrationProvider, MigrationResult } from "kysely/migration";

export type { Migration };

class InCodeMigrationProvider implements MigrationProvider {
  readonly #migrations: Record<string, Migration>;
  constructor(migrations: Record<string, Migration>) {
    this.#migrations = migrations;
  }
  async getMigrations(): Promise<Record<string, Migration>> {
    return this.#migrations;
  }
}

/**
 * Runs every migration of `migrations` not yet applied, in name order, each in a transaction.
 * Names are sorted as strings, so give them a sortable prefix ("0001_initial").
 * `tableName` is the service's own migration table (e.g. "identity_migration"); its lock
 * table is `${tableName}_lock`. Applied names must stay stable forever.
 * @returns the names of the migrations applied by this call (empty when already up to date).
 * @throws Error naming the failing migration and the database's reason.
 */
export async function migrateToLatest(
  db: Kysely<any>,
  migrations: Record<string, Migration>,
  tableName: string,
): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: new InCodeMigrationProvider(migrations),
    migrationTableName: tableName,
    migrationLockTableName: `${tableName}_lock`,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r: MigrationResult) => r.status === "Error");
    const reason = error instanceof Error ? error.message : String(error);
    const where = failed ? `migration "${failed.migrationName}"` : "reading the migration state";
    throw new Error(`Migrations for ${tableName} failed at ${where}: ${reason}`, { cause: error });
  }
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}
