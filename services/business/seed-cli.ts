// `npm run seed:venues -- EMAIL [EMAIL ...]` (docs/venues.md "Sample venues"; services/business/README.md):
// writes the sample venues (seed.ts) into the business API's database and makes each EMAIL their
// licensed administrator. With DATABASE_URL, into PostgreSQL (the server may run). Else into the embedded
// database of DATA_DIR (default ./data), which belongs to one process at a time: stop the server
// first (docs/decisions/0008). Migrates the business tables first, so it also works before the first
// start. Exit codes: 0 done, 1 refused or failed (the reason on stderr), 2 wrong usage.
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { DataDirInUseError, lockDataDir } from "../../lib/data-dir-lock.ts";
import { createDatabase } from "../../lib/db/database.ts";
import { migrateToLatest } from "../../lib/db/migrate.ts";
import { BUSINESS_MIGRATION_TABLE, businessMigrations } from "./schema/migrations.ts";
import type { BusinessDatabase } from "./schema/tables.ts";
import { seedVenues } from "./seed.ts";

const emails = process.argv.slice(2);
if (emails.length === 0 || !emails.every((email) => z.email().safeParse(email).success)) {
  console.error("usage: npm run seed:venues -- EMAIL [EMAIL ...]   (the sample venues' licensed administrators; DATA_DIR or DATABASE_URL from the environment)");
  process.exit(2);
}

const databaseUrl = process.env.DATABASE_URL || undefined;
const dataDir = path.resolve(process.env.DATA_DIR || "./data");
try {
  if (!databaseUrl) await mkdir(dataDir, { recursive: true });
  const lock = databaseUrl ? undefined : await lockDataDir(dataDir, { onLost: () => {} });
  try {
    // The embedded layout keeps every service's tables in DATA_DIR/db (lib/db/embedded.ts); a
    // business API run alone (main.ts) keeps its own in DATA_DIR/business.
    const alone = !existsSync(path.join(dataDir, "db", "PG_VERSION")) && existsSync(path.join(dataDir, "business", "PG_VERSION"));
    const db = await createDatabase<BusinessDatabase>(databaseUrl ? { databaseUrl, name: "business" } : { dataDir, name: alone ? "business" : "db" });
    try {
      await migrateToLatest(db, businessMigrations, BUSINESS_MIGRATION_TABLE);
      for (const email of emails) {
        const outcome = await seedVenues(db, email);
        console.log(
          outcome.groupCreated || outcome.locationsAdded || outcome.administratorAdded
            ? `sample venues written: group ${outcome.groupCreated ? "created" : "kept"}, ${outcome.locationsAdded} locations added, ${email} ${outcome.administratorAdded ? "made" : "already"} licensed administrator`
            : `the sample venues were already there with ${email}; nothing changed`,
        );
      }
    } finally {
      await db.destroy();
    }
  } finally {
    await lock?.release();
  }
} catch (error) {
  console.error(error instanceof DataDirInUseError ? `${error.message}\nStop that server before seeding, or seed PostgreSQL with DATABASE_URL.` : error);
  process.exitCode = 1;
}
