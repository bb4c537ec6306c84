// The person's own data (services/consumer/README.md "The person's own data"): everything the
// consumer API keeps about the signed-in user, for the app's 'Download my data' (docs/product/screens.md §2.5).
// The JSON here; the images and the original PDFs are served one by one by getimage and getpdf, so that
// no answer holds them all at once.
import type { Kysely } from "kysely";
import type { DataExport } from "../../contracts/consumer.ts";
import { toConsumerProfile } from "./profiles.ts";
import { listResults, propertyValueOf } from "./results/store.ts";
import type { ConsumerDatabase } from "./schema/tables.ts";
import { listPublishers, listSubscribers } from "./subscriptions.ts";
import { allVisits } from "./visits.ts";

/**
 * The user's data (contracts/consumer.ts dataExportSchema): the e-mail address last seen in their token
 * and the mail language kept with it (null: none said), the profile, every result with its checks, its dispute (comment, response, the decisions: what and
 * when) and whether its PDF is kept, both follow lists, and every visit. A user without a profile gets null and
 * empty lists. Reads only rows of `identityUserId`'s own profile.
 * @param now the export's time stamp.
 */
export async function exportConsumerData(db: Kysely<ConsumerDatabase>, identityUserId: string, now: Date): Promise<DataExport> {
  const [profileRow, emailRow] = await Promise.all([
    db.selectFrom("consumer_profiles").selectAll().where("identity_user_id", "=", identityUserId).executeTakeFirst(),
    db.selectFrom("consumer_identity_emails").select(["email", "language"]).where("identity_user_id", "=", identityUserId).executeTakeFirst(),
  ]);
  const base = { exportedAt: now.toISOString(), email: emailRow?.email ?? null, language: emailRow?.language ?? null };
  if (!profileRow) return { ...base, profile: null, results: [], followers: [], following: [], visits: [] };

  const [results, extra, checks, reviews, followers, following, visits] = await Promise.all([
    listResults(db, identityUserId),
    db
      .selectFrom("consumer_test_results as r")
      .leftJoin("consumer_test_result_files as f", "f.result_id", "r.id")
      .select(["r.id", "r.created_at", "r.disputed_at", (eb) => eb("f.result_id", "is not", null).as("has_pdf")])
      .where("r.consumer_id", "=", profileRow.id)
      .execute(),
    db
      .selectFrom("consumer_test_result_property_values as v")
      .innerJoin("consumer_test_results as r", "r.id", "v.result_id")
      .select(["v.result_id", "v.id", "v.name", "v.finding"])
      .where("r.consumer_id", "=", profileRow.id)
      .orderBy("v.result_id")
      .orderBy("v.position")
      .execute(),
    db
      .selectFrom("consumer_dispute_reviews as d")
      .innerJoin("consumer_test_results as r", "r.id", "d.result_id")
      .select(["d.result_id", "d.decision", "d.response_comment", "d.created_at"])
      .where("r.consumer_id", "=", profileRow.id)
      .orderBy("d.created_at")
      .execute(),
    listSubscribers(db, identityUserId),
    listPublishers(db, identityUserId),
    allVisits(db, profileRow.id),
  ]);
  const byId = new Map(extra.map((r) => [r.id, r]));
  return {
    ...base,
    profile: toConsumerProfile(profileRow),
    results: results.map((result) => {
      const row = byId.get(result.sF_TestResultId);
      return {
        ...result,
        uploadedAt: (row?.created_at ?? new Date(result.testDate)).toISOString(),
        disputedAt: row?.disputed_at?.toISOString() ?? null,
        propertyValues: checks
          .filter((c) => c.result_id === result.sF_TestResultId)
          .map(propertyValueOf),
        reviews: reviews
          .filter((d) => d.result_id === result.sF_TestResultId)
          .map((d) => ({ decision: d.decision, responseComment: d.response_comment, reviewedAt: d.created_at.toISOString() })),
        originalPdf: Boolean(row?.has_pdf),
      };
    }),
    followers,
    following,
    visits,
  };
}
