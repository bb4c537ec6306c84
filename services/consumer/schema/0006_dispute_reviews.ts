// Consumer API, disputes that get answered (services/consumer/README.md "Dispute reviews"):
// a reviewer of the provider's staff accepts a disputed result (it becomes valid, with a 'Manual
// Review' property value saying when; it also named the reviewer until 0011_manual_review_unnamed) or declines it with a response (the
// result's dispute_response_comment). Every decision is a row of consumer_dispute_reviews, the
// audit trail: who, when, the decision, the response, and the validity before and after. A result
// carries its last decision, and for an accepted one the profile's checked fields it was accepted
// against, so that a later profile change runs matching by the rules again. Only SQL that
// PostgreSQL 13+ and PGlite both accept.
import { sql } from "kysely";
import type { Kysely } from "kysely";
import type { Migration } from "../../../lib/db/migrate.ts";

export const disputeReviews: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable("consumer_test_results")
      .addColumn("review_decision", "text", (c) => c.check(sql`review_decision in ('accept', 'decline')`))
      .execute();
    await db.schema.alterTable("consumer_test_results").addColumn("reviewed_at", "timestamptz").execute();
    // The profile's first name, last name and date of birth an accepted result was accepted against (JSON text).
    await db.schema.alterTable("consumer_test_results").addColumn("review_profile", "text").execute();
    // The review queue: open disputes, oldest first.
    await db.schema.createIndex("consumer_test_results_open_disputes_idx").on("consumer_test_results").column("disputed_at").where(sql.ref("dispute_status"), "=", 1).execute();

    await sql`alter table consumer_test_result_property_values drop constraint consumer_test_result_property_values_name_check`.execute(db);
    await sql`alter table consumer_test_result_property_values add constraint consumer_test_result_property_values_name_check check (name in ('First Name', 'Last Name', 'Date of Birth', 'Manual Review'))`.execute(db);

    await db.schema
      .createTable("consumer_dispute_reviews")
      .addColumn("id", "uuid", (c) => c.primaryKey())
      .addColumn("result_id", "uuid", (c) => c.notNull().references("consumer_test_results.id").onDelete("cascade"))
      .addColumn("reviewer_identity_user_id", "text", (c) => c.notNull())
      .addColumn("reviewer_email", "text", (c) => c.notNull())
      .addColumn("decision", "text", (c) => c.notNull().check(sql`decision in ('accept', 'decline')`))
      .addColumn("response_comment", "text", (c) => c.notNull().check(sql`char_length(response_comment) between 1 and 1000`))
      .addColumn("valid_before", "boolean", (c) => c.notNull())
      .addColumn("valid_after", "boolean", (c) => c.notNull())
      .addColumn("created_at", "timestamptz", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("consumer_dispute_reviews_created_idx").on("consumer_dispute_reviews").column("created_at").execute();
    await db.schema.createIndex("consumer_dispute_reviews_result_idx").on("consumer_dispute_reviews").column("result_id").execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable("consumer_dispute_reviews").ifExists().execute();
    await sql`delete from consumer_test_result_property_values where name = 'Manual Review'`.execute(db);
    await sql`alter table consumer_test_result_property_values drop constraint consumer_test_result_property_values_name_check`.execute(db);
    await sql`alter table consumer_test_result_property_values add constraint consumer_test_result_property_values_name_check check (name in ('First Name', 'Last Name', 'Date of Birth'))`.execute(db);
    await db.schema.dropIndex("consumer_test_results_open_disputes_idx").ifExists().execute();
    for (const column of ["review_profile", "reviewed_at", "review_decision"]) await db.schema.alterTable("consumer_test_results").dropColumn(column).execute();
  },
};
