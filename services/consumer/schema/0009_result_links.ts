// Consumer API, results by link (docs/product/labs.md §10.8): a result fetched from its lab's own site records
// the host it came from; null for an upload. The link itself is never stored (a lab's result link
// is a secret of the patient's). Only SQL that PostgreSQL 13+ and PGlite both accept.
import type { Kysely } from "kysely";
import type { Migration } from "../../../lib/db/migrate.ts";

export const resultLinks: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable("consumer_test_results").addColumn("fetched_from", "text").execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable("consumer_test_results").dropColumn("fetched_from").execute();
  },
};
