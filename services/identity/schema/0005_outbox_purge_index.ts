// Identity authority, fifth schema: an index for the outbox's hourly purge of finished mails
// (services/identity/outbox.ts: status not pending, created before the keep time). Without it the
// purge read the whole outbox every hour (tests/integration/query-plans.test.ts,
// bench/query-plans.results.md). Only SQL that PostgreSQL 13+ and PGlite accept.
import type { Kysely } from "kysely";
import type { Migration } from "../../../lib/db/migrate.ts";

export const outboxPurgeIndex: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.createIndex("identity_outbox_created_at_idx").on("identity_outbox").column("created_at").execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropIndex("identity_outbox_created_at_idx").ifExists().execute();
  },
};
