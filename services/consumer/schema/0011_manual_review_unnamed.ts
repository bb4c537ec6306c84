// Consumer API, dispute reviews without the reviewer's address (docs/security/data.md "Dispute reviews"):
// an accepted dispute's 'Manual Review' property value, which the owner reads on Test Detail and in
// their data export, says that a reviewer accepted the result and when, no longer which reviewer.
// Values written before named the reviewer's e-mail address ("Accepted on review by <address> at
// <UTC time>"); they are rewritten to the new wording (results/reviews.ts manualReviewText), keeping
// the time. A value of any other shape loses everything but "Accepted on review by a reviewer". Who
// decided stays in the audit trail (consumer_dispute_reviews). Only SQL that PostgreSQL 13+ and
// PGlite both accept.
import { sql } from "kysely";
import type { Kysely } from "kysely";
import type { Migration } from "../../../lib/db/migrate.ts";

/** utcText's "YYYY-MM-DD HH:MM UTC" at the end of a value. */
const UTC_TIME_AT_END = "[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2} UTC$";

export const manualReviewUnnamed: Migration = {
  async up(db: Kysely<any>) {
    await sql`update consumer_test_result_property_values
      set match_info = case
        when match_info ~ ${`^Accepted on review by .* at ${UTC_TIME_AT_END}`} then 'Accepted on review by a reviewer at ' || substring(match_info from ${UTC_TIME_AT_END})
        else 'Accepted on review by a reviewer'
      end
      where name = 'Manual Review'`.execute(db);
  },
  // The addresses are not written back: the owner was never meant to read them, and the audit trail keeps them.
  async down() {},
};
