// Consumer API, its mail outbox (services/consumer/README.md "Mail"): the mail that tells a
// user their dispute was decided is a row of consumer_outbox, written in the decision's transaction, and
// sent by the shared queue engine (services/shared/outbox.ts) with the same columns and rules as the
// identity authority's outbox. The row keeps what the mail says (the decision, the response, the result's
// lab and collection time), so a later change to the result does not change a mail already queued. Only
// SQL that PostgreSQL 13+ and PGlite both accept.
import { sql } from "kysely";
import type { Kysely } from "kysely";
import type { Migration } from "../../../lib/db/migrate.ts";

export const outbox: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable("consumer_outbox")
      .addColumn("id", "uuid", (c) => c.primaryKey())
      .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('dispute_decided')`))
      .addColumn("recipient", "text", (c) => c.notNull())
      // The result the mail is about; a deleted result (or account) takes its pending mail with it.
      .addColumn("result_id", "uuid", (c) => c.notNull().references("consumer_test_results.id").onDelete("cascade"))
      .addColumn("decision", "text", (c) => c.notNull().check(sql`decision in ('accept', 'decline')`))
      .addColumn("response_comment", "text", (c) => c.notNull())
      .addColumn("public_name", "text", (c) => c.notNull())
      .addColumn("collected_at", "timestamptz", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('pending', 'sent', 'cancelled', 'failed')`))
      .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("next_attempt_at", "timestamptz", (c) => c.notNull())
      .addColumn("claimed_by", "uuid")
      .addColumn("claimed_until", "timestamptz")
      .addColumn("last_error", "text")
      .addColumn("created_at", "timestamptz", (c) => c.notNull())
      .addColumn("finished_at", "timestamptz")
      .execute();
    await db.schema.createIndex("consumer_outbox_due_idx").on("consumer_outbox").column("next_attempt_at").where(sql.ref("status"), "=", "pending").execute();
    await db.schema.createIndex("consumer_outbox_result_idx").on("consumer_outbox").column("result_id").execute();
    // The purge of finished rows reads by age.
    await db.schema.createIndex("consumer_outbox_created_at_idx").on("consumer_outbox").column("created_at").execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable("consumer_outbox").ifExists().execute();
  },
};
