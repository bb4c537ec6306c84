// The test-result pipeline (docs/architecture.md §5): the seven steps in order, each one call (intake's
// duplicate check by the report's identity waits for step 4, which reads the identity). A step
// that refuses the upload throws UploadRejectedError (nothing is stored); a recognised, original PDF
// whose patient does not match the profile is stored with valid 0. The result, its property
// values, the original PDF, page 1's image and the consumer's new window are written in one transaction.
import type { Kysely } from "kysely";
import type { LabFormat } from "../labs/types.ts";
import type { ConsumerDatabase } from "../schema/tables.ts";
import { extractReport } from "./extract.ts";
import type { Extracted } from "./extract.ts";
import { checkIntake, checkNewReport } from "./intake.ts";
import type { Upload } from "./intake.ts";
import { recogniseIssuer } from "./issuer.ts";
import { matchProfile } from "./match.ts";
import type { MatchOutcome } from "./match.ts";
import { checkOriginality } from "./originality.ts";
import type { PdfPool } from "./pool.ts";
import { renderResultImage } from "./render.ts";
import { storeResult } from "./store.ts";
import type { ResultOwner } from "./store.ts";
import { isOpen, reportWindow, utcText } from "./windows.ts";
import type { ResultWindow } from "./windows.ts";

export interface ResultsContext {
  db: Kysely<ConsumerDatabase>;
  pool: PdfPool;
  /** The accepted labs; default labs/index.ts LABS. */
  labs?: readonly LabFormat[];
}

/** What the upload call answers when a result was stored (docs/product.md §3 Upload response). */
export interface UploadOutcome {
  sF_TestResultId: string;
  valid: boolean;
  consumerMessage: string;
}

/**
 * Runs an uploaded file through the pipeline and stores the result.
 * @param owner the uploader's profile (store.ts resultOwner).
 * @param now the server's clock: future collection times and the message's window wording.
 * @throws UploadRejectedError from the step that refused the file; ResultsNeedProfileError
 *   when the profile disappeared meanwhile.
 */
export async function addTestResult(ctx: ResultsContext, owner: ResultOwner, upload: Upload, now: Date): Promise<UploadOutcome> {
  const pdf = await checkIntake(ctx.db, ctx.pool, owner.consumerId, upload); // 1. intake
  checkOriginality(pdf); // 2. originality
  const lab = recogniseIssuer(pdf, ctx.labs); // 3. issuer
  const report = extractReport(pdf.page1.items, lab); // 4. extraction
  await checkNewReport(ctx.db, owner.consumerId, lab, report); // 1. intake: the same report stored already
  const match = matchProfile(report, owner); // 5. matching
  const window = reportWindow(report, now); // 6. windows
  const image = await renderResultImage(ctx.pool, upload.bytes); // 7. image
  const stored = await storeResult(
    ctx.db,
    owner,
    { sha256: upload.sha256, size: upload.bytes.byteLength, pdf: upload.bytes, pageCount: pdf.pageCount, lab, report, match, window, image },
    now,
  );
  return { sF_TestResultId: stored.id, valid: stored.match.valid, consumerMessage: outcomeMessage(report, stored.match, window, now) };
}

/** The consumerMessage of a stored result: validated or not, and what it means for the window. */
export function outcomeMessage(report: Extracted, match: MatchOutcome, window: ResultWindow, now: Date): string {
  if (!match.valid) {
    const problems = match.properties
      .filter((p) => p.matchInfo !== null)
      .map((p) => `${p.name} (${p.matchInfo})`)
      .join(", ");
    return `We stored your result but it does not match your profile: ${problems}. If your profile is wrong, correct it in your personal info; otherwise you can dispute the result.`;
  }
  const validated = "Your test result was validated.";
  if (report.outcome === "Positive") return `${validated} It is positive, so it opens no safe window and ends any window from an earlier test.`;
  if (report.outcome === "Inconclusive") {
    return `${validated} Its result is ${report.resultText.toLowerCase()}, so it opens no safe window; take a new test to get one.`;
  }
  if (isOpen(window.strongSafetyDate, now)) {
    return `${validated} Its safe window is strong until ${utcText(window.strongSafetyDate as Date)} and weak until ${utcText(window.weakSafetyDate as Date)}.`;
  }
  if (isOpen(window.weakSafetyDate, now)) {
    return `${validated} Its strong window has ended; its weak window lasts until ${utcText(window.weakSafetyDate as Date)}.`;
  }
  return `${validated} It was collected at ${utcText(report.collectedAt)}, so its safe window has already ended.`;
}
