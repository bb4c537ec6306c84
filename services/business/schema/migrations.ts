// The business API's migrations, in order. Names are permanent once deployed.
import type { Migration } from "../../../lib/db/migrate.ts";
import { business } from "./0001_business.ts";

/** Migration table of the business API (kept apart from identity_… and consumer_… in a shared database). */
export const BUSINESS_MIGRATION_TABLE = "business_migration";

/** Every business migration by name; pass to migrateToLatest with BUSINESS_MIGRATION_TABLE. */
export const businessMigrations: Record<string, Migration> = {
  "0001_business": business,
};
