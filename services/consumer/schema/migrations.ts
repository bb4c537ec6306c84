// The consumer API's migrations, in order. Names are permanent once deployed; later areas
// (results/, subscriptions) add "0002_…", "0003_…" here.
import type { Migration } from "../../../lib/db/migrate.ts";
import { profiles } from "./0001_profiles.ts";
import { results } from "./0002_results.ts";
import { subscriptions } from "./0003_subscriptions.ts";
import { reportIdentity } from "./0004_report_identity.ts";
import { resultPages } from "./0005_result_pages.ts";
import { disputeReviews } from "./0006_dispute_reviews.ts";
import { outbox } from "./0007_outbox.ts";
import { visits } from "./0008_visits.ts";
import { resultLinks } from "./0009_result_links.ts";
import { resultProof } from "./0010_result_proof.ts";
import { manualReviewUnnamed } from "./0011_manual_review_unnamed.ts";
import { checkinGuesses } from "./0012_checkin_guesses.ts";
import { mailLanguage } from "./0013_mail_language.ts";
import { findingsAsValues } from "./0014_findings_as_values.ts";
import { passKeys } from "./0015_pass_keys.ts";

/** Migration table of the consumer API (kept apart from identity_… in a shared database). */
export const CONSUMER_MIGRATION_TABLE = "consumer_migration";

/** Every consumer migration by name; pass to migrateToLatest with CONSUMER_MIGRATION_TABLE. */
export const consumerMigrations: Record<string, Migration> = {
  "0001_profiles": profiles,
  "0002_results": results,
  "0003_subscriptions": subscriptions,
  "0004_report_identity": reportIdentity,
  "0005_result_pages": resultPages,
  "0006_dispute_reviews": disputeReviews,
  "0007_outbox": outbox,
  "0008_visits": visits,
  "0009_result_links": resultLinks,
  "0010_result_proof": resultProof,
  "0011_manual_review_unnamed": manualReviewUnnamed,
  "0012_checkin_guesses": checkinGuesses,
  "0013_mail_language": mailLanguage,
  "0014_findings_as_values": findingsAsValues,
  "0015_pass_keys": passKeys,
};
