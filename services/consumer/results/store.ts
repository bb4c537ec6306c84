// Stored test results (docs/product/data.md §3 test result, property value; §7 test result calls): writing a
// result with its property values, image and the consumer's new window in one transaction;
// reading them for their owner only; disputes; re-matching after a profile change. Every read
// is scoped by the token's user, so another user's id reads as "not found".
import { proofLabel, withProof } from "./proof/check.ts";
import type { Proof, ProvenMatch } from "./proof/check.ts";
import { randomUUID } from "node:crypto";
import { isUuid } from "../../shared/ids.ts";
import type { Kysely, Transaction } from "kysely";
import type { PropertyValue, TestResult as ContractTestResult } from "../../../contracts/consumer.ts";
import { findingIn, resultWords } from "../../../contracts/result-words.ts";
import type { Finding, SignedCodeDisagreement } from "../../../contracts/result-words.ts";
import { DISEASE_NAME } from "../labs/rules.ts";
import type { LabFormat, Outcome } from "../labs/types.ts";
import type { ProfileChange } from "../profiles.ts";
import { REPORT_KEY_CONSTRAINT, reportIdentityKey } from "../schema/0004_report_identity.ts";
import type { ConsumerDatabase } from "../schema/tables.ts";
import { DisputeRuleError, PageNotFoundError, ResultNotFoundError, ResultsNeedProfileError, UploadRejectedError } from "./errors.ts";
import type { Extracted } from "./extract.ts";
import { matchProfile } from "./match.ts";
import type { MatchOutcome } from "./match.ts";
import type { PdfPool } from "./pool.ts";
import { renderResultImage } from "./render.ts";
import { consumerWindow, windowDescription } from "./windows.ts";
import type { ResultWindow } from "./windows.ts";

/** docs/product/data.md §5 / §9: dispute comment maximum, in characters. */
export const DISPUTE_COMMENT_MAX = 1000;

/**
 * A test result as the API answers it: the contract's TestResult (contracts/consumer.ts;
 * docs/product/data.md §3 names, .NET camelCase). testDate is the specimen collection, ISO 8601 UTC;
 * the safety dates are the result's own window, null when it opens none or is not valid.
 */
export type TestResult = ContractTestResult;

/** docs/product/data.md §3 test result property value: the contract's PropertyValue. */
export type TestResultPropertyValue = PropertyValue;

/** A finding as its column holds it (JSON text; null when the field passed). */
export function findingColumn(finding: Finding | null): string | null {
  return finding === null ? null : JSON.stringify(finding);
}

/**
 * A stored property value as the API answers it (docs/product/calls.md §7 GET
 * /testresult/testresultpropertyvalues/): its finding worded in the wire's fixed English grammar
 * (contracts/result-words.ts), whatever the request's language; the app words it for its reader.
 */
export function propertyValueOf(row: { id: string; name: string; finding: string | null }): TestResultPropertyValue {
  return { sF_TestResultPropertyValueId: row.id, name: row.name, matchInfo: row.finding === null ? null : findingIn(resultWords.en, JSON.parse(row.finding) as Finding) };
}

/** A result's signed-code disagreements as its column holds them (JSON text), and back as the wire's words. */
function disagreementsColumn(items: SignedCodeDisagreement[] | null): string | null {
  return items === null ? null : JSON.stringify(items);
}
function disagreementText(column: string | null): string | null {
  return column === null ? null : findingIn(resultWords.en, { kind: "disagreement", items: JSON.parse(column) as SignedCodeDisagreement[] });
}

/** The profile fields the pipeline needs. */
export interface ResultOwner {
  consumerId: string;
  firstName: string;
  lastName: string;
  /** 'YYYY-MM-DD'. */
  dob: string;
}

/** True when `id` can be a result's id (a uuid): anything else is not found, never a database error. */
export function isResultId(id: string): boolean {
  return isUuid(id);
}

/**
 * The user's profile as the pipeline needs it.
 * @throws ResultsNeedProfileError when the user has none.
 */
export async function resultOwner(db: Kysely<ConsumerDatabase>, identityUserId: string): Promise<ResultOwner> {
  const row = await db
    .selectFrom("consumer_profiles")
    .select(["id", "first_name", "last_name", "dob"])
    .where("identity_user_id", "=", identityUserId)
    .executeTakeFirst();
  if (!row) throw new ResultsNeedProfileError();
  return { consumerId: row.id, firstName: row.first_name, lastName: row.last_name, dob: row.dob };
}

// ---------------------------------------------------------------- the consumer's window

/**
 * Recomputes the consumer's window from their stored results (windows.ts consumerWindow) and
 * writes it on the profile. Call inside the transaction that changed a result.
 */
export async function refreshConsumerWindow(db: Kysely<ConsumerDatabase>, consumerId: string): Promise<void> {
  const rows = await db
    .selectFrom("consumer_test_results")
    .select(["valid", "result", "collected_at", "strong_safety_date", "weak_safety_date", "window_description", "proof_kind", "proof_issuer"])
    .where("consumer_id", "=", consumerId)
    .where("valid", "=", true)
    .where("result", "in", ["Negative", "Positive"])
    .execute();
  const window = consumerWindow(
    rows.map((r) => ({
      valid: r.valid,
      outcome: r.result,
      collectedAt: r.collected_at,
      strongSafetyDate: r.strong_safety_date,
      weakSafetyDate: r.weak_safety_date,
      description: r.window_description,
      proof: proofLabel(r.proof_kind, r.proof_issuer),
    })),
  );
  await db
    .updateTable("consumer_profiles")
    .set({
      strong_safety_date: window.strongSafetyDate,
      weak_safety_date: window.weakSafetyDate,
      safe_window_description: window.safeWindowDescription,
      safe_window_proof: window.safeWindowProof,
    })
    .where("id", "=", consumerId)
    .execute();
}

// ---------------------------------------------------------------- writing

/** Everything the pipeline learnt about an accepted PDF. */
export interface NewResult {
  sha256: string;
  size: number;
  lab: LabFormat;
  report: Extracted;
  /** Step 8's match against the profile as the pipeline read it, with the proof's property value (proof/check.ts withProof). */
  match: ProvenMatch;
  /** Step 9's window of the result. */
  window: ResultWindow;
  /**
   * The original PDF, exactly as uploaded or fetched: later pages are drawn from it, and it is the
   * person's own data. Null for a result read from a lab's HTML result page (one page, its image drawn at fetch).
   */
  pdf: Uint8Array | null;
  /** Pages the PDF has (worker.ts parse); 1 for a result page. */
  pageCount: number;
  /** The lab's host a result by link was fetched from (link.ts); null for an upload. */
  fetchedFrom: string | null;
  /** The proof step's outcome (proof/check.ts); `match` already holds its disagreement. */
  proof: Proof;
  /** Page 1, drawn at upload. */
  image: { jpeg: Uint8Array; width: number; height: number };
}

function isUniqueViolation(err: unknown, constraint: string): boolean {
  if (typeof err !== "object" || err === null) return false;
  const e = err as { code?: unknown; constraint?: unknown; message?: unknown };
  return e.code === "23505" && (e.constraint === constraint || String(e.message ?? "").includes(constraint));
}

/**
 * Stores a result, its property values, its original PDF and page 1's image, and updates the consumer's window, in
 * one transaction. When the profile changed since the pipeline read it (a modifycore in
 * between), matching runs again against the row locked for the transaction, so that the
 * stored validity is never stale. The row carries the report's identity key
 * (schema/0004_report_identity.ts), unique per consumer like the file's SHA-256: of two uploads
 * of one report that race, in the same or other bytes, the database stores one.
 * @returns the new id and the match as stored.
 * @throws ResultsNeedProfileError when the profile is gone; UploadRejectedError "duplicate" when
 *   the same file, or the same report, was stored meanwhile.
 */
export async function storeResult(db: Kysely<ConsumerDatabase>, owner: ResultOwner, result: NewResult, now: Date): Promise<{ id: string; match: ProvenMatch }> {
  try {
    return await db.transaction().execute(async (trx) => {
      const profile = await trx
        .selectFrom("consumer_profiles")
        .select(["first_name", "last_name", "dob"])
        .where("id", "=", owner.consumerId)
        .forUpdate()
        .executeTakeFirst();
      if (!profile) throw new ResultsNeedProfileError();
      const { report, lab, window } = result;
      const unchanged = profile.first_name === owner.firstName && profile.last_name === owner.lastName && profile.dob === owner.dob;
      const match = unchanged ? result.match : withProof(matchProfile(report, { firstName: profile.first_name, lastName: profile.last_name, dob: profile.dob }), result.proof);
      const id = randomUUID();
      await trx
        .insertInto("consumer_test_results")
        .values({
          id,
          consumer_id: owner.consumerId,
          file_sha256: result.sha256,
          file_size: result.size,
          report_key: reportIdentityKey({ labId: lab.id, ...report }),
          lab_id: lab.id,
          testing_company_name: lab.testingCompanyName,
          public_name: lab.publicName,
          disease_name: DISEASE_NAME,
          test_name: report.testName,
          method: report.method,
          result: report.outcome,
          result_text: report.resultText,
          collected_at: report.collectedAt,
          collected_text: report.collectedText,
          patient_given_names: report.givenNames,
          patient_last_name: report.lastName,
          patient_dob: report.dob,
          valid: match.valid,
          strong_safety_date: window.strongSafetyDate,
          weak_safety_date: window.weakSafetyDate,
          window_description: windowDescription(report.methodDescription, report.collectedAt),
          dispute_status: 0,
          dispute_comment: null,
          dispute_response_comment: null,
          disputed_at: null,
          created_at: now,
          updated_at: now,
          page_count: result.pageCount,
          fetched_from: result.fetchedFrom,
          proof_kind: result.proof.kind,
          proof_issuer: result.proof.issuer,
          proof_unverified: result.proof.unverified,
          proof_disagreements: disagreementsColumn(result.proof.disagreement),
        })
        .execute();
      await trx
        .insertInto("consumer_test_result_property_values")
        .values(match.properties.map((p, position) => ({ id: randomUUID(), result_id: id, name: p.name, finding: findingColumn(p.finding), position })))
        .execute();
      await trx
        .insertInto("consumer_test_result_images")
        .values({ result_id: id, page: 1, jpeg: result.image.jpeg, width: result.image.width, height: result.image.height })
        .execute();
      if (result.pdf) await trx.insertInto("consumer_test_result_files").values({ result_id: id, pdf: result.pdf }).execute();
      await refreshConsumerWindow(trx, owner.consumerId);
      return { id, match };
    });
  } catch (err) {
    if (isUniqueViolation(err, "consumer_test_results_file_key") || isUniqueViolation(err, REPORT_KEY_CONSTRAINT)) {
      throw new UploadRejectedError("duplicate", (w) => w.duplicate());
    }
    throw err;
  }
}

/**
 * The onProfileChanged hook (profiles.ts): re-runs matching (docs/architecture/results-pipeline.md §5 step 8) for every
 * stored result of the consumer against the changed profile, updates validity and property
 * values, then the consumer's window. Runs inside modifycore's transaction.
 */
export async function rematchResults(trx: Transaction<ConsumerDatabase>, change: ProfileChange): Promise<void> {
  const { before, after } = change;
  if (before.firstName === after.firstName && before.lastName === after.lastName && before.dob === after.dob) return;
  const rows = await trx
    .selectFrom("consumer_test_results")
    .select(["id", "valid", "patient_given_names", "patient_last_name", "patient_dob", "review_profile", "proof_disagreements"])
    .where("consumer_id", "=", change.consumerId)
    .execute();
  for (const row of rows) {
    const profileMatch = matchProfile(
      { givenNames: row.patient_given_names, lastName: row.patient_last_name, dob: row.patient_dob },
      { firstName: after.firstName, lastName: after.lastName, dob: after.dob },
    );
    // A signed code that disagreed with the PDF keeps the result invalid whatever the profile says.
    const matched = row.proof_disagreements === null ? profileMatch : { ...profileMatch, valid: false };
    // A dispute accepted on review (reviews.ts) holds while the profile is what it was accepted against.
    const match = row.review_profile !== null && row.review_profile === JSON.stringify({ firstName: after.firstName, lastName: after.lastName, dob: after.dob }) ? { ...matched, valid: true } : matched;
    if (match.valid !== row.valid) {
      await trx.updateTable("consumer_test_results").set({ valid: match.valid, updated_at: change.now }).where("id", "=", row.id).execute();
    }
    for (const p of match.properties) {
      await trx
        .updateTable("consumer_test_result_property_values")
        .set({ finding: findingColumn(p.finding) })
        .where("result_id", "=", row.id)
        .where("name", "=", p.name)
        .execute();
    }
  }
  await refreshConsumerWindow(trx, change.consumerId);
}

// ---------------------------------------------------------------- reading

/** The consumer id of `identityUserId` when `resultId` is theirs. */
async function ownedResult(db: Kysely<ConsumerDatabase>, identityUserId: string, resultId: string) {
  if (!isUuid(resultId)) throw new ResultNotFoundError();
  const row = await db
    .selectFrom("consumer_test_results as r")
    .innerJoin("consumer_profiles as p", "p.id", "r.consumer_id")
    .select(["r.id", "r.valid", "r.dispute_status"])
    .where("r.id", "=", resultId)
    .where("p.identity_user_id", "=", identityUserId)
    .executeTakeFirst();
  if (!row) throw new ResultNotFoundError();
  return row;
}

/**
 * The user's results, newest collection first (docs/product/calls.md §7 GET /testresult/getcurrentusertestresults/).
 * A user without a profile has none.
 */
export async function listResults(db: Kysely<ConsumerDatabase>, identityUserId: string): Promise<TestResult[]> {
  const rows = await db
    .selectFrom("consumer_test_results as r")
    .innerJoin("consumer_profiles as p", "p.id", "r.consumer_id")
    .selectAll("r")
    .where("p.identity_user_id", "=", identityUserId)
    .orderBy("r.collected_at", "desc")
    .orderBy("r.created_at", "desc")
    .execute();
  return rows.map((r) => ({
    sF_TestResultId: r.id,
    valid: r.valid ? 1 : 0,
    disputeStatus: r.dispute_status === 1 ? 1 : 0,
    diseaseName: r.disease_name,
    testDate: r.collected_at.toISOString(),
    testingCompanyName: r.testing_company_name,
    publicName: r.public_name,
    testName: r.test_name,
    result: r.result,
    strongSafetyDate: r.valid ? (r.strong_safety_date?.toISOString() ?? null) : null,
    weakSafetyDate: r.valid ? (r.weak_safety_date?.toISOString() ?? null) : null,
    disputeComment: r.dispute_comment,
    disputeResponseComment: r.dispute_response_comment,
    ...(r.page_count === null ? {} : { pageCount: r.page_count }),
    fetchedFrom: r.fetched_from,
    proof: { kind: r.proof_kind, label: proofLabel(r.proof_kind, r.proof_issuer), unverifiedSignature: r.proof_unverified, disagreement: disagreementText(r.proof_disagreements) },
  }));
}

/**
 * A result's property values in order (docs/product/calls.md §7 GET /testresult/testresultpropertyvalues/).
 * @throws ResultNotFoundError when the result is not the user's.
 */
export async function listPropertyValues(db: Kysely<ConsumerDatabase>, identityUserId: string, resultId: string): Promise<TestResultPropertyValue[]> {
  await ownedResult(db, identityUserId, resultId);
  const rows = await db
    .selectFrom("consumer_test_result_property_values")
    .select(["id", "name", "finding"])
    .where("result_id", "=", resultId)
    .orderBy("position")
    .execute();
  return rows.map(propertyValueOf);
}

/**
 * One page (1-based) of the result's PDF as a base64 JPEG that fits 1250x1000, no `data:` prefix
 * (docs/product/calls.md §7 GET /testresult/getimage/; pages after the first are an extension, the
 * `page` parameter). Page 1 was drawn at upload. A later page is drawn from the kept PDF on its
 * first request, in the worker pool with the upload's budgets, and stored, so that each page is
 * drawn at most once per result (two first requests at once may both draw it; one row is kept).
 * @throws ResultNotFoundError when the result is not the user's; PageNotFoundError for a page past
 *   the result's page count, or past 1 on a result stored before PDFs were kept;
 *   UploadRejectedError (busy, too_complex) when the pool cannot draw it now.
 */
export async function resultImage(db: Kysely<ConsumerDatabase>, pool: PdfPool, identityUserId: string, resultId: string, page = 1): Promise<string> {
  await ownedResult(db, identityUserId, resultId);
  return imageOfResult(db, pool, resultId, page);
}

/**
 * The original PDF of one of the user's results, exactly as uploaded, base64 (the getpdf extension).
 * @throws ResultNotFoundError when the result is not the user's, or its PDF is not kept (stored before 0005_result_pages).
 */
export async function resultPdf(db: Kysely<ConsumerDatabase>, identityUserId: string, resultId: string): Promise<string> {
  await ownedResult(db, identityUserId, resultId);
  const row = await db.selectFrom("consumer_test_result_files").select("pdf").where("result_id", "=", resultId).executeTakeFirst();
  if (!row) throw new ResultNotFoundError();
  return Buffer.from(row.pdf.buffer, row.pdf.byteOffset, row.pdf.byteLength).toString("base64");
}

/**
 * One page of a result the caller may read (its owner's, or a reviewer's under dispute): see
 * resultImage. @throws ResultNotFoundError when page 1 is missing; PageNotFoundError; UploadRejectedError.
 */
export async function imageOfResult(db: Kysely<ConsumerDatabase>, pool: PdfPool, resultId: string, page: number): Promise<string> {
  const base64 = (jpeg: Uint8Array) => Buffer.from(jpeg.buffer, jpeg.byteOffset, jpeg.byteLength).toString("base64");
  const row = await db
    .selectFrom("consumer_test_result_images")
    .select("jpeg")
    .where("result_id", "=", resultId)
    .where("page", "=", page)
    .executeTakeFirst();
  if (row) return base64(row.jpeg);
  if (page === 1) throw new ResultNotFoundError();
  const kept = await db
    .selectFrom("consumer_test_results as r")
    .innerJoin("consumer_test_result_files as f", "f.result_id", "r.id")
    .select(["r.page_count", "f.pdf"])
    .where("r.id", "=", resultId)
    .executeTakeFirst();
  if (!kept || kept.page_count === null || page > kept.page_count) throw new PageNotFoundError(page);
  const image = await renderResultImage(pool, kept.pdf, page);
  await db
    .insertInto("consumer_test_result_images")
    .values({ result_id: resultId, page, jpeg: image.jpeg, width: image.width, height: image.height })
    .onConflict((oc) => oc.columns(["result_id", "page"]).doNothing())
    .execute();
  return base64(image.jpeg);
}

/**
 * Submits a dispute (docs/product/calls.md §7 POST /testresult/dispute/, §4 disputeStatus 0 → 1, §5 comment
 * required and at most 1000 characters, §6 only for results with valid 0).
 * @throws ResultNotFoundError when the result is not the user's; DisputeRuleError when the
 *   comment is empty or too long, the result is valid, or it was already disputed.
 */
export async function disputeResult(db: Kysely<ConsumerDatabase>, identityUserId: string, resultId: string, comment: string | null | undefined, now: Date): Promise<void> {
  const owned = await ownedResult(db, identityUserId, resultId);
  const text = (comment ?? "").trim();
  if (text === "") throw new DisputeRuleError("comment_required", (w) => w.comment_required());
  if ([...text].length > DISPUTE_COMMENT_MAX) {
    throw new DisputeRuleError("comment_too_long", (w) => w.comment_too_long(DISPUTE_COMMENT_MAX));
  }
  const refuse = (row: { valid: boolean; dispute_status: number }) => {
    if (row.valid) return new DisputeRuleError("result_valid", (w) => w.result_valid());
    return new DisputeRuleError("already_disputed", (w) => w.already_disputed());
  };
  if (owned.valid || owned.dispute_status !== 0) throw refuse(owned);
  const updated = await db
    .updateTable("consumer_test_results")
    .set({ dispute_status: 1, dispute_comment: text, disputed_at: now, updated_at: now })
    .where("id", "=", resultId)
    .where("valid", "=", false)
    .where("dispute_status", "=", 0)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) throw refuse(await ownedResult(db, identityUserId, resultId));
}
