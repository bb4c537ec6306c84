// The test-result pipeline (docs/architecture/results-pipeline.md §5): its nine steps in order, each one call. The
// duplicate check by the report's identity (step 5) waits for extraction (step 4), which reads the
// identity; page 1's image (step 6) is drawn in the same worker task that decodes the QR codes the
// proof (step 7) reads. A step that refuses the upload throws UploadRejectedError (nothing is stored); a
// recognised, original PDF whose patient does not match the profile, or whose signed code disagrees
// with its text, is stored with valid 0. The result, its property values, the original PDF, page 1's
// image and the consumer's new window are written in one transaction. Results by link enter here too.
import { createHash } from "node:crypto";
import type { Kysely } from "kysely";
import type { TextObjectsAnswer } from "../../../contracts/consumer.ts";
import { fieldIn, findingIn, resultWords } from "../../../contracts/result-words.ts";
import { spanishResultWords } from "../../../contracts/result-words-es.ts";
import type { ResultWords, SignedCodeDisagreement } from "../../../contracts/result-words.ts";
import { LABS } from "../labs/index.ts";
import type { LabFormat } from "../labs/types.ts";
import type { ConsumerDatabase } from "../schema/tables.ts";
import { checkCriteria } from "./criteria.ts";
import type { Criterion } from "./criteria.ts";
import { UploadRejectedError } from "./errors.ts";
import { extractLines, extractReport, textLines } from "./extract.ts";
import type { Extracted, TextLine } from "./extract.ts";
import { checkIntake, checkNewFile, checkNewReport, checkPdfBytes } from "./intake.ts";
import type { Upload } from "./intake.ts";
import { recogniseIssuer, recognisesPage } from "./issuer.ts";
import { checkLink, fetchLabDocument } from "./link.ts";
import type { FetchedDocument, LinkFetchOptions } from "./link.ts";
import { matchProfile } from "./match.ts";
import { checkProof, withProof } from "./proof/check.ts";
import type { Proof, ProvenMatch } from "./proof/check.ts";
import { proofTrust } from "./proof/trust.ts";
import type { MailLanguage } from "../../shared/language.ts";
import type { ProofTrust } from "./proof/trust.ts";
import { checkOriginality } from "./originality.ts";
import type { PdfPool } from "./pool.ts";
import { storeResult } from "./store.ts";
import type { NewResult, ResultOwner } from "./store.ts";
import { isOpen, reportWindow, utcText } from "./windows.ts";
import type { ResultWindow } from "./windows.ts";

export interface ResultsContext {
  db: Kysely<ConsumerDatabase>;
  pool: PdfPool;
  /** The accepted labs; default labs/index.ts LABS. */
  labs?: readonly LabFormat[];
  /** How result links are fetched (link.ts); defaults suit production. */
  links?: LinkFetchOptions;
  /** Who may sign a result (proof/trust.ts); default the verified VCI snapshot alone, loaded on first use. */
  proofTrust?: ProofTrust;
}

/** What the upload call answers when a result was stored (docs/product/data.md §3 Upload response). */
export interface UploadOutcome {
  sF_TestResultId: string;
  valid: boolean;
  consumerMessage: string;
}

/**
 * Runs an uploaded file through the pipeline and stores the result.
 * @param owner the uploader's profile (store.ts resultOwner).
 * @param now the server's clock: future collection times and the message's window wording.
 * @param language the language of the answer's consumerMessage (outcomeMessage).
 * @throws UploadRejectedError from the step that refused the file; ResultsNeedProfileError
 *   when the profile disappeared meanwhile.
 */
export async function addTestResult(ctx: ResultsContext, owner: ResultOwner, upload: Upload, now: Date, language: MailLanguage = "en"): Promise<UploadOutcome> {
  const pdf = await checkIntake(ctx.db, ctx.pool, owner.consumerId, upload); // 1. intake
  checkOriginality(pdf); // 2. originality
  const lab = recogniseIssuer(pdf, ctx.labs); // 3. issuer
  const report = extractReport(pdf.page1.items, lab); // 4. extraction
  const file = { sha256: upload.sha256, size: upload.bytes.byteLength, pdf: upload.bytes, pageCount: pdf.pageCount, fetchedFrom: null };
  return finishPdf(ctx, owner, lab, report, file, "document", now, language);
}

/**
 * Steps 5 to 9 and the store for a PDF: the same report is not stored already (step 5), page 1 is
 * drawn with the QR codes of the first pages decoded in the same task (step 6, image), the proof is
 * read from those codes (step 7), then `finish`.
 */
async function finishPdf(
  ctx: ResultsContext,
  owner: ResultOwner,
  lab: LabFormat,
  report: Extracted,
  file: Pick<NewResult, "sha256" | "size" | "pageCount" | "fetchedFrom"> & { pdf: Uint8Array },
  fallback: "document" | "link",
  now: Date,
  language: MailLanguage,
): Promise<UploadOutcome> {
  await checkNewReport(ctx.db, owner.consumerId, lab, report); // 5. same report: not stored already in other bytes
  const { codes, ...image } = await ctx.pool.renderWithCodes(file.pdf, QR_PAGES); // 6. image, and the QR codes
  const proof = await checkProof(codes, report, trustOf(ctx), now, fallback); // 7. proof
  return finish(ctx, owner, lab, report, { ...file, proof }, image, now, language);
}

/** Pages whose QR codes are read (docs/product/labs.md §10.9): a signed code is printed on page 1, or on the next two. */
export const QR_PAGES = 3;

/** The trust anchors of the context, loaded (and verified) once when it names none. */
function trustOf(ctx: ResultsContext): ProofTrust {
  ctx.proofTrust ??= proofTrust();
  return ctx.proofTrust;
}

/**
 * Steps 8 and 9 and the store, for a report read from an upload or a lab's link, with its proof and
 * image.
 */
async function finish(
  ctx: ResultsContext,
  owner: ResultOwner,
  lab: LabFormat,
  report: Extracted,
  file: Pick<NewResult, "sha256" | "size" | "pdf" | "pageCount" | "fetchedFrom" | "proof">,
  image: NewResult["image"],
  now: Date,
  language: MailLanguage,
): Promise<UploadOutcome> {
  const match = withProof(matchProfile(report, owner), file.proof); // 8. matching
  const window = reportWindow(report, now); // 9. windows
  const stored = await storeResult(ctx.db, owner, { ...file, lab, report, match, window, image }, now);
  return { sF_TestResultId: stored.id, valid: stored.match.valid, consumerMessage: outcomeMessage(report, stored.match, window, now, file.proof, language) };
}

/**
 * Adds a result by the lab's own link (docs/product/labs.md §10.8, docs/architecture/results-pipeline.md §5 "Results by
 * link"): the document is fetched from the lab's declared host (link.ts), then a PDF goes through
 * every step of an upload, and must be a report of the lab whose host served it; an HTML result
 * page is read into lines in the worker pool (page.ts), must carry the lab's recognition texts,
 * and is read, matched and windowed by the same rules. The stored result records the host; its
 * proof is "fetched from the lab" unless the PDF carries a verified signed code.
 * @param link the link as the user typed it.
 * @param criteria addtestresultlink's, checked against the lab's layout (criteria.ts); null: the lab's own labels.
 * @param language the language of the answer's consumerMessage (outcomeMessage).
 * @throws UploadRejectedError from link.ts, criteria.ts, or any step of the pipeline;
 *   link_wrong_lab when the document is not the lab's.
 */
export async function addTestResultByLink(ctx: ResultsContext, owner: ResultOwner, link: string, criteria: readonly Criterion[] | null, now: Date, language: MailLanguage = "en"): Promise<UploadOutcome> {
  const labs = ctx.labs ?? LABS;
  // Criteria that cannot be right cost no fetch.
  if (criteria) checkCriteria(criteria, checkLink(link, labs).lab);
  const fetched = await fetchLabDocument(link, labs, ctx.links);
  const sha256 = createHash("sha256").update(fetched.bytes).digest("hex");
  if (fetched.kind === "pdf") {
    const upload: Upload = { bytes: fetched.bytes, sha256, filename: null };
    const pdf = await checkIntake(ctx.db, ctx.pool, owner.consumerId, upload); // 1. intake
    checkOriginality(pdf); // 2. originality
    const lab = issuerOfFetched(() => recogniseIssuer(pdf, labs), fetched); // 3. issuer: the host's lab
    const report = extractReport(pdf.page1.items, lab); // 4. extraction
    const file = { sha256, size: fetched.bytes.byteLength, pdf: fetched.bytes, pageCount: pdf.pageCount, fetchedFrom: fetched.host };
    return finishPdf(ctx, owner, lab, report, file, "link", now, language);
  }
  await checkNewFile(ctx.db, owner.consumerId, sha256); // 1. intake
  // 2. originality is the lab's own site over verified TLS. The pool reads the page into lines and
  // draws its image (step 6) in one task.
  const read = await ctx.pool.page(fetched.bytes, [`${fetched.lab.publicName} result page`, `Fetched by SafeWindow from ${fetched.host} at ${utcText(now)}`]);
  if (!recognisesPage(read.lines, fetched.lab)) throw wrongLab(fetched); // 3. issuer
  const report = extractLines(read.lines, fetched.lab); // 4. extraction
  await checkNewReport(ctx.db, owner.consumerId, fetched.lab, report); // 5. same report: not stored already in other bytes
  const proof: Proof = { kind: "link", issuer: null, unverified: null, disagreement: null }; // 7. proof: fetched from the lab
  const file = { sha256, size: fetched.bytes.byteLength, pdf: null, pageCount: 1, fetchedFrom: fetched.host, proof };
  return finish(ctx, owner, fetched.lab, report, file, read.image as NonNullable<typeof read.image>, now, language);
}

function wrongLab(fetched: FetchedDocument): UploadRejectedError {
  return new UploadRejectedError("link_wrong_lab", (w) => w.link_wrong_lab(fetched.lab.publicName));
}

/** Step 3 for a fetched PDF: recognised, by the lab's own software, and the lab whose host served it. */
function issuerOfFetched(recognise: () => LabFormat, fetched: FetchedDocument): LabFormat {
  let lab: LabFormat;
  try {
    lab = recognise();
  } catch (err) {
    if (err instanceof UploadRejectedError && err.reason === "unknown_lab") throw wrongLab(fetched);
    throw err;
  }
  if (lab.id !== fetched.lab.id) throw wrongLab(fetched);
  return lab;
}

/**
 * The text objects of the document at a lab's link (GET /testresult/generatetestresulttextobjectsurl/):
 * page 1 of a PDF (read in the pool, as an upload is) or an HTML result page, as runs with their
 * line and column. Nothing is stored.
 * @throws UploadRejectedError from link.ts, checkPdfBytes, or the pool.
 */
export async function linkTextObjects(ctx: ResultsContext, link: string): Promise<TextObjectsAnswer> {
  const fetched = await fetchLabDocument(link, ctx.labs ?? LABS, ctx.links);
  let lines: TextLine[];
  if (fetched.kind === "pdf") {
    checkPdfBytes(fetched.bytes);
    lines = textLines((await ctx.pool.parse(fetched.bytes)).page1.items);
  } else {
    lines = (await ctx.pool.page(fetched.bytes)).lines;
  }
  return {
    success: true,
    publicName: fetched.lab.publicName,
    serves: fetched.kind,
    textObjects: lines.flatMap((line, i) => line.runs.map((text, j) => ({ text, line: i, column: j }))),
  };
}

/**
 * The consumerMessage of a stored result: validated or not, and what it means for the window, in
 * `language` (the upload's `Accept-Language`, docs/product/calls.md §7.4 "What the upstream writes";
 * Spanish in the terms of docs/glossary-es.md). The lab's own words (the result's text) and the
 * details of a mismatch stay as they are; instants are written `YYYY-MM-DD HH:MM UTC` for the app
 * to show in the person's time zone.
 */
export function outcomeMessage(report: Extracted, match: ProvenMatch, window: ResultWindow, now: Date, proof?: Proof, language: MailLanguage = "en"): string {
  if (language === "es") return spanishOutcomeMessage(report, match, window, now, proof);
  if (proof?.disagreement) {
    return `We stored your result but it is not valid: the signed code (QR code) on it does not agree with its text: ${disagreementIn(resultWords.en, proof.disagreement)}. If your testing company issued it so, you can dispute the result.`;
  }
  if (!match.valid) {
    const problems = problemsIn(resultWords.en, match);
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

/** A signed code's disagreements in `words` (contracts/result-words.ts); its values stay as written. */
function disagreementIn(words: ResultWords, items: SignedCodeDisagreement[]): string {
  return findingIn(words, { kind: "disagreement", items });
}

/** The checked fields that did not pass, each named with what it found, in `words`: `Last Name (PDF: …; profile: …), …`. */
function problemsIn(words: ResultWords, match: ProvenMatch): string {
  return match.properties.flatMap((p) => (p.finding === null ? [] : [`${fieldIn(words, p.name)} (${findingIn(words, p.finding)})`])).join(", ");
}

/** outcomeMessage in Spanish: the same cases, the same details, the checked fields named in Spanish. */
function spanishOutcomeMessage(report: Extracted, match: ProvenMatch, window: ResultWindow, now: Date, proof?: Proof): string {
  if (proof?.disagreement) {
    return `Guardamos su resultado, pero no es válido: el código firmado (código QR) que lleva no coincide con su texto: ${disagreementIn(spanishResultWords, proof.disagreement)}. Si su empresa de pruebas lo emitió así, puede presentar una reclamación sobre el resultado.`;
  }
  if (!match.valid) {
    const problems = problemsIn(spanishResultWords, match);
    return `Guardamos su resultado, pero no coincide con su perfil: ${problems}. Si su perfil está mal, corríjalo en su información personal; si no, puede presentar una reclamación sobre el resultado.`;
  }
  const validated = "Su resultado de prueba se validó.";
  if (report.outcome === "Positive") return `${validated} Es positivo, así que no abre ninguna ventana segura y termina cualquier ventana de una prueba anterior.`;
  if (report.outcome === "Inconclusive") {
    return `${validated} Su resultado es ${report.resultText.toLowerCase()}, así que no abre ninguna ventana segura; hágase una prueba nueva para obtener una.`;
  }
  if (isOpen(window.strongSafetyDate, now)) {
    return `${validated} Su ventana segura es fuerte hasta el ${utcText(window.strongSafetyDate as Date)} y débil hasta el ${utcText(window.weakSafetyDate as Date)}.`;
  }
  if (isOpen(window.weakSafetyDate, now)) {
    return `${validated} Su ventana segura fuerte ya terminó; su ventana segura débil dura hasta el ${utcText(window.weakSafetyDate as Date)}.`;
  }
  return `${validated} La muestra se tomó el ${utcText(report.collectedAt)}, así que su ventana segura ya terminó.`;
}
