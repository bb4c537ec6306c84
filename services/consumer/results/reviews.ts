// Dispute reviews (services/consumer/README.md "Dispute reviews"): the provider's reviewers
// read the open disputes, oldest first, and accept or decline each with a response. Accepting makes
// the result valid, records a 'Manual Review' property value saying that a reviewer accepted it and
// when (never which reviewer: the owner reads it), and recomputes the consumer's window; declining
// keeps it invalid. Either way the response is the result's disputeResponseComment (docs/product/screens.md
// §2 test detail's response branch) and the decision is a row of the audit trail, which names the
// reviewer. A reviewer reads only results under dispute (open, or decided); every other result stays
// its owner's alone. A reviewer never decides a dispute of their own results (docs/security/data.md
// "Dispute reviews"): the queue leaves them out and the calls that name one refuse.
import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { disputeQueueMax } from "../../../contracts/consumer.ts";
import type { DisputeQueueEntry, DisputeReview, ReviewDecision } from "../../../contracts/consumer.ts";
import { ForbiddenError } from "../errors.ts";
import type { ConsumerOutbox } from "../outbox.ts";
import type { ConsumerDatabase } from "../schema/tables.ts";
import { mailLanguageOf } from "../../shared/language.ts";
import type { ClaimedRow } from "../../shared/outbox.ts";
import { DisputeRuleError, ResultNotFoundError } from "./errors.ts";
import type { PdfPool } from "./pool.ts";
import type { Finding } from "../../../contracts/result-words.ts";
import { findingColumn, imageOfResult, isResultId, propertyValueOf, refreshConsumerWindow } from "./store.ts";

/** Who may review disputes: e-mail addresses of the provider's staff (the consumer API's `reviewers` option), compared case-insensitively. */
export interface Reviewers {
  /** True when the token's verified e-mail is a reviewer's. */
  has(email: string | undefined): boolean;
}

/** The reviewer list of `emails` (blank entries ignored). */
export function reviewerList(emails: readonly string[]): Reviewers {
  const set = new Set(emails.map((e) => e.trim().toLowerCase()).filter(Boolean));
  return { has: (email) => email !== undefined && set.has(email.trim().toLowerCase()) };
}

/**
 * True when `user` is a reviewer: the token's e-mail is on the list and confirmed (`email_verified`),
 * so an account someone registers under a listed address gets nothing until its owner confirms it.
 */
export function isReviewer(reviewers: Reviewers, user: { email?: string; emailVerified: boolean }): boolean {
  return user.email !== undefined && user.emailVerified && reviewers.has(user.email);
}

/** The caller's reviewer identity (see isReviewer). @throws ForbiddenError (403) for anyone else. */
export function requireReviewer(
  reviewers: Reviewers,
  user: { identityUserId: string; email?: string; emailVerified: boolean },
): { identityUserId: string; email: string } {
  if (!isReviewer(reviewers, user) || !user.email) throw new ForbiddenError("Only the provider's dispute reviewers may make this call.");
  return { identityUserId: user.identityUserId, email: user.email };
}

/** A reviewer asked for, or tried to decide, a dispute of their own results: 403 forbidden, like any refused review call. */
export class OwnDisputeError extends ForbiddenError {
  constructor() {
    super("A reviewer never decides a dispute of their own results; another reviewer decides it.");
    this.name = "OwnDisputeError";
  }
}

/**
 * The finding of an accepted dispute's 'Manual Review' property value, which the owner reads on Test
 * Detail: that a reviewer accepted it and when (the API answers it as UTC text, which the app
 * localizes), never which reviewer (docs/security/data.md "Dispute reviews"; the audit trail names them).
 */
export function manualReviewFinding(at: Date): Finding {
  return { kind: "accepted", at: at.toISOString() };
}

/** @throws OwnDisputeError when the result of `resultId` (a well-formed id) belongs to `reviewer`. */
async function refuseOwnResult(db: Kysely<ConsumerDatabase>, reviewer: { identityUserId: string }, resultId: string): Promise<void> {
  const own = await db
    .selectFrom("consumer_test_results as r")
    .innerJoin("consumer_profiles as p", "p.id", "r.consumer_id")
    .select("r.id")
    .where("r.id", "=", resultId)
    .where("p.identity_user_id", "=", reviewer.identityUserId)
    .executeTakeFirst();
  if (own) throw new OwnDisputeError();
}

/** The response is required, at most 1000 characters (like the dispute comment). */
export const RESPONSE_COMMENT_MAX = 1000;

/**
 * The open disputes `reviewer` may decide, oldest first (at most disputeQueueMax): each result with its
 * owner's name, what the PDF said, the checks and the user's comment; never the reviewer's own
 * results. With `testResultId`, only that result's dispute (none when it is not open, or not a
 * result id).
 * @throws OwnDisputeError (403) when `testResultId` is a result of the reviewer's own, disputed or not.
 */
export async function disputeQueue(db: Kysely<ConsumerDatabase>, reviewer: { identityUserId: string }, testResultId?: string): Promise<DisputeQueueEntry[]> {
  if (testResultId !== undefined && !isResultId(testResultId)) return [];
  if (testResultId !== undefined) await refuseOwnResult(db, reviewer, testResultId);
  const rows = await db
    .selectFrom("consumer_test_results as r")
    .innerJoin("consumer_profiles as p", "p.id", "r.consumer_id")
    .select([
      "r.id",
      "r.public_name",
      "r.testing_company_name",
      "r.test_name",
      "r.result",
      "r.collected_at",
      "r.dispute_comment",
      "r.disputed_at",
      "r.page_count",
      "p.first_name",
      "p.last_name",
      "p.safe_window_id",
    ])
    .where("r.dispute_status", "=", 1)
    .where("r.review_decision", "is", null)
    .where("p.identity_user_id", "<>", reviewer.identityUserId)
    .$if(testResultId !== undefined, (q) => q.where("r.id", "=", testResultId ?? ""))
    .orderBy("r.disputed_at")
    .orderBy("r.id")
    .limit(disputeQueueMax)
    .execute();
  if (rows.length === 0) return [];
  const checks = await db
    .selectFrom("consumer_test_result_property_values")
    .select(["result_id", "id", "name", "finding"])
    .where(
      "result_id",
      "in",
      rows.map((r) => r.id),
    )
    .orderBy("result_id")
    .orderBy("position")
    .execute();
  return rows.map((r) => ({
    sF_TestResultId: r.id,
    firstName: r.first_name,
    lastName: r.last_name,
    safeWindowId: r.safe_window_id,
    publicName: r.public_name,
    testingCompanyName: r.testing_company_name,
    testName: r.test_name,
    result: r.result,
    testDate: r.collected_at.toISOString(),
    disputeComment: r.dispute_comment ?? "",
    disputedAt: (r.disputed_at ?? r.collected_at).toISOString(),
    ...(r.page_count === null ? {} : { pageCount: r.page_count }),
    propertyValues: checks.filter((c) => c.result_id === r.id).map(propertyValueOf),
  }));
}

/**
 * A page of a disputed result's PDF for a reviewer (base64 JPEG, like getimage).
 * @throws ResultNotFoundError when no result with that id is under dispute; PageNotFoundError past its pages.
 */
export async function disputeImage(db: Kysely<ConsumerDatabase>, pool: PdfPool, resultId: string, page: number): Promise<string> {
  if (!isResultId(resultId)) throw new ResultNotFoundError();
  const row = await db.selectFrom("consumer_test_results").select("id").where("id", "=", resultId).where("dispute_status", "=", 1).executeTakeFirst();
  if (!row) throw new ResultNotFoundError();
  return imageOfResult(db, pool, resultId, page);
}

/**
 * Decides an open dispute, in one transaction: the result row is locked, the decision stored on it
 * and in the audit trail (with the reviewer's identity user id and e-mail address), on accept the
 * result made valid, a 'Manual Review' property value added (manualReviewFinding: no reviewer named)
 * and the consumer's window recomputed, and the mail that tells the owner queued in `outbox` (to the
 * address of their latest token, in their kept language; none when the API never saw one).
 * @returns the owner's consumer id, the new validity, and the queued mail, to `outbox.deliver` once committed.
 * @throws ResultNotFoundError when no such result is disputed; OwnDisputeError (403) when the result
 *   is the reviewer's own; DisputeRuleError response_required, response_too_long, or
 *   already_reviewed (decided before, by this or another reviewer).
 */
export async function reviewDispute(
  db: Kysely<ConsumerDatabase>,
  outbox: Pick<ConsumerOutbox, "enqueue">,
  reviewer: { identityUserId: string; email: string },
  resultId: string,
  decision: ReviewDecision,
  responseComment: string,
  now: Date,
): Promise<{ consumerId: string; valid: boolean; mail: ClaimedRow | null }> {
  const response = responseComment.trim();
  if (response === "") throw new DisputeRuleError("response_required", (w) => w.response_required());
  if ([...response].length > RESPONSE_COMMENT_MAX) throw new DisputeRuleError("response_too_long", (w) => w.response_too_long(RESPONSE_COMMENT_MAX));
  if (!isResultId(resultId)) throw new ResultNotFoundError();
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom("consumer_test_results as r")
      .innerJoin("consumer_profiles as p", "p.id", "r.consumer_id")
      .leftJoin("consumer_identity_emails as e", "e.identity_user_id", "p.identity_user_id")
      .select(["r.id", "r.consumer_id", "r.valid", "r.dispute_status", "r.review_decision", "r.public_name", "r.collected_at", "p.first_name", "p.last_name", "p.dob", "p.identity_user_id", "e.email", "e.language"])
      .where("r.id", "=", resultId)
      .forUpdate("r")
      .executeTakeFirst();
    if (row?.identity_user_id === reviewer.identityUserId) throw new OwnDisputeError();
    if (!row || row.dispute_status !== 1) throw new ResultNotFoundError();
    if (row.review_decision !== null) throw new DisputeRuleError("already_reviewed", (w) => w.already_reviewed());
    const valid = decision === "accept" ? true : row.valid;
    await trx
      .updateTable("consumer_test_results")
      .set({
        valid,
        review_decision: decision,
        reviewed_at: now,
        review_profile: decision === "accept" ? JSON.stringify({ firstName: row.first_name, lastName: row.last_name, dob: row.dob }) : null,
        dispute_response_comment: response,
        updated_at: now,
      })
      .where("id", "=", resultId)
      .execute();
    if (decision === "accept") {
      const last = await trx
        .selectFrom("consumer_test_result_property_values")
        .select((eb) => eb.fn.max("position").as("position"))
        .where("result_id", "=", resultId)
        .executeTakeFirst();
      await trx
        .insertInto("consumer_test_result_property_values")
        .values({
          id: randomUUID(),
          result_id: resultId,
          name: "Manual Review",
          finding: findingColumn(manualReviewFinding(now)),
          position: Number(last?.position ?? -1) + 1,
        })
        .execute();
      await refreshConsumerWindow(trx, row.consumer_id);
    }
    await trx
      .insertInto("consumer_dispute_reviews")
      .values({
        id: randomUUID(),
        result_id: resultId,
        reviewer_identity_user_id: reviewer.identityUserId,
        reviewer_email: reviewer.email,
        decision,
        response_comment: response,
        valid_before: row.valid,
        valid_after: valid,
        created_at: now,
      })
      .execute();
    const mail = row.email
      ? await outbox.enqueue(trx, {
          kind: "dispute_decided",
          to: row.email,
          resultId,
          decision,
          responseComment: response,
          publicName: row.public_name,
          collectedAt: row.collected_at,
          // The owner's language, never the reviewer's (docs/product/calls.md §7.4 "The mail's language").
          language: mailLanguageOf(null, row.language),
        })
      : null;
    return { consumerId: row.consumer_id, valid, mail };
  });
}

/** The audit trail, newest first (at most `limit` decisions). */
export async function disputeReviews(db: Kysely<ConsumerDatabase>, limit = 200): Promise<DisputeReview[]> {
  const rows = await db.selectFrom("consumer_dispute_reviews").selectAll().orderBy("created_at", "desc").orderBy("id").limit(limit).execute();
  return rows.map((r) => ({
    sF_DisputeReviewId: r.id,
    sF_TestResultId: r.result_id,
    reviewerEmail: r.reviewer_email,
    decision: r.decision,
    responseComment: r.response_comment,
    validBefore: r.valid_before ? 1 : 0,
    validAfter: r.valid_after ? 1 : 0,
    reviewedAt: r.created_at.toISOString(),
  }));
}

