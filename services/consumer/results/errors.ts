// Typed errors of the test-result calls and the consumerMessage each one answers (docs/product/messages.md §8
// "Upload fails: the server's consumerMessage is shown"; docs/architecture/results-pipeline.md §5: every rejection tells
// the user what went wrong and what to do). Domain code throws them; http.ts maps them to
// status and JSON through testResultErrorAnswer, its one boundary.
import type { ResultRefusal } from "../../../contracts/consumer.ts";
import type { HttpAnswer } from "../../shared/http.ts";
import type { MailLanguage } from "../../shared/language.ts";
import { spanishRejectionMessages } from "./errors-es.ts";

/** Why an upload was refused; answered as `reason` beside the consumerMessage. */
export type RejectionReason =
  | "no_file"
  | "too_large"
  | "not_pdf"
  | "archive"
  | "wrapped"
  | "appended"
  | "javascript"
  | "launch"
  | "embedded_file"
  | "actions"
  | "corrupt"
  | "encrypted"
  | "too_many_pages"
  | "too_complex"
  | "busy"
  | "duplicate"
  | "no_text"
  | "printed"
  | "changed"
  | "unknown_lab"
  | "unreadable"
  | "future"
  | "link_invalid"
  | "link_not_https"
  | "link_unknown_host"
  | "link_address"
  | "link_redirect"
  | "link_unreachable"
  | "link_not_found"
  | "link_slow"
  | "link_type"
  | "link_wrong_lab"
  | "criteria"
  | "signature_invalid"
  | "signature_revoked"
  | "signature_expired";

/** What to do, said once for every "not the original" case. */
const UPLOAD_ORIGINAL = "Upload the original PDF exactly as you received it from your testing company.";
/** What to do after most refused links. */
const LINK_AS_SENT = "Paste the link to your result exactly as your testing company sent it.";
const LINK_OR_UPLOAD = "Check the link, or download the PDF from your testing company and upload it.";

/** The consumerMessage of each rejection; some take details of the case. */
export const rejectionMessages = {
  no_file: () => "No file was received. Choose your test result PDF and upload it again.",
  too_large: (maxMb: number) => `This file is larger than ${maxMb} MB, which is more than any lab report we accept. ${UPLOAD_ORIGINAL}`,
  not_pdf: () => `This file is not a PDF. ${UPLOAD_ORIGINAL}`,
  empty: () => "This file is empty. Choose the PDF from your testing company and upload it again.",
  /** A ZIP archive (docs/decisions/0010-forged-originals.md), whatever it holds. */
  archive: () => "This file is a ZIP archive, not a PDF. Open it and upload the PDF inside, exactly as your testing company sent it.",
  /** `%PDF-` comes after another format's header: a PDF inside or behind another kind of file. */
  wrapped: () => `This file is another kind of file with a PDF inside it, so we cannot tell it is the original. ${UPLOAD_ORIGINAL}`,
  /** Bytes other than white space after the PDF's last `%%EOF` (a ZIP or other data behind it). */
  appended: () => `This file has other data added after the end of the PDF, so it is not the file your testing company issued. ${UPLOAD_ORIGINAL}`,
  /** JavaScript anywhere in the document; no lab report has any. */
  javascript: () => `This PDF contains JavaScript, which no test result from a testing company has, so it was changed after it was issued. ${UPLOAD_ORIGINAL}`,
  /** A Launch action (or a link to a file rather than a web page): it would open a program or a file. */
  launch: () => `This PDF tries to open another program or file, which no test result from a testing company does, so it was changed after it was issued. ${UPLOAD_ORIGINAL}`,
  /** The /EmbeddedFiles name tree, a file attachment annotation or another embedded file. */
  embedded_file: () =>
    `This PDF has other files attached inside it, which no test result from a testing company has, so it was changed after it was issued. ${UPLOAD_ORIGINAL}`,
  /** An OpenAction that is an action, or additional actions (/AA), without JavaScript. */
  actions: () =>
    `This PDF runs actions by itself when it is opened or viewed, which no test result from a testing company does, so it was changed after it was issued. ${UPLOAD_ORIGINAL}`,
  corrupt: () => "This PDF is damaged or incomplete and cannot be read. Download it again from your testing company and upload the new copy.",
  /** Opening the file needs a password (a user password): nothing in it can be read. */
  encrypted: () => "This PDF is protected with a password, so we cannot read it. Upload the PDF from your testing company without a password.",
  /**
   * The file opens without a password but is encrypted (an owner password: printing, copying or
   * editing restricted), which no accepted lab's original is (originality.ts). Same reason code.
   */
  locked: () => `This PDF was encrypted (locked against printing, copying or changes) after your testing company issued it, so we cannot tell it is the original. ${UPLOAD_ORIGINAL}`,
  too_many_pages: (pages: number, maxPages: number) =>
    `This PDF has ${pages} pages; a test result has at most ${maxPages}. Upload only the test result PDF from your testing company.`,
  too_complex: () => `This PDF is too large or too complex for us to check. ${UPLOAD_ORIGINAL}`,
  busy: () => "We are checking many test results right now. Please try again in a minute.",
  duplicate: () => "You have already uploaded this test result; it is in your list of tests. There is no need to upload it again.",
  no_text: () =>
    `This PDF has no readable text: it looks scanned, faxed or photographed. We can only check the original PDF. ${UPLOAD_ORIGINAL}`,
  printed: () => `This PDF was printed or saved again by another program, so we cannot tell it is the original. ${UPLOAD_ORIGINAL}`,
  changed: () => `This PDF was changed after the testing company issued it. ${UPLOAD_ORIGINAL}`,
  unknown_lab: (labs: string[]) =>
    `We do not recognise the testing company on this PDF. We accept test results from ${listOf(labs)}; upload a result from one of them.`,
  unreadable: (lab: string, field: string) =>
    `We recognised this ${lab} report but could not read its ${field}. ${UPLOAD_ORIGINAL}`,
  future: (collected: string) =>
    `This report says the specimen was collected at ${collected}, which is in the future. Check that you chose the right file; if the date is wrong, ask your testing company to correct the report.`,

  // Results by link (link.ts): what is wrong with the link, or with what the lab's site answered.
  link_invalid: () => "That is not a link we can open. Paste the link to your result exactly as your testing company sent it; it starts with https://.",
  link_not_https: () =>
    "That link is not a secure one (it does not start with https://), so we could not be sure the result comes from your testing company. Paste the secure link your testing company sent you.",
  link_unknown_host: (labs: string[]) =>
    `That link does not lead to the results site of a testing company we accept. We can fetch results from the sites of ${listOf(labs)}; for another testing company, download the PDF and upload it.`,
  link_address: () => `That link leads to an address we do not fetch results from. ${LINK_AS_SENT}`,
  link_redirect: () =>
    `Your testing company's site sent us on to another site, so we could not be sure the result comes from your testing company. ${LINK_OR_UPLOAD}`,
  link_unreachable: () => `We could not reach your testing company's results site. Try again later, or download the PDF and upload it.`,
  link_not_found: () => `Your testing company's site has no result at that link; the link may have expired. ${LINK_OR_UPLOAD}`,
  link_slow: () => "Your testing company's results site took too long to answer. Try again later, or download the PDF and upload it.",
  link_type: () => `That link does not lead to a test result as your testing company serves them. ${LINK_AS_SENT}`,
  link_too_large: (maxMb: number) => `The document at that link is larger than ${maxMb} MB, which is more than any lab report we accept. ${LINK_OR_UPLOAD}`,
  link_wrong_lab: (lab: string) => `The result at that link is not a ${lab} report, although it comes from the ${lab} site, so we cannot accept it. ${LINK_OR_UPLOAD}`,
  /** addtestresultlink's criteria do not say where this lab prints a field (link.ts, page.ts). */
  criteria: (lab: string, field: string, label: string) => `The criteria do not say where ${lab} prints the ${field}: it follows “${label}”.`,
  // Signed results (proof/check.ts): a QR code on the report that fails verification.
  signature_invalid: () =>
    `The signed code (QR code) on this PDF does not verify, so the report or its code was changed after it was issued. ${UPLOAD_ORIGINAL}`,
  signature_revoked: () => "The issuer of the signed code (QR code) on this PDF has revoked it, so it no longer proves this result. Ask your testing company about it.",
  signature_expired: () => "The signed code (QR code) on this PDF has expired, so it no longer proves this result. Take a new test to get a new result.",
  criteria_extra: (lab: string, field: string) => `The criteria name the ${field} more than once, or as a field ${lab} does not print.`,

  // The other refusals of the test-result calls: a result, a page or a profile that is not there, and
  // a dispute or a review that breaks a rule (docs/product/data.md §5, §6).
  not_found: () => "This test result was not found.",
  page_not_found: (page: number) => `This test result has no page ${page} to show.`,
  no_profile: () => "Create your profile before adding test results, so that we can match them to you.",
  comment_required: () => "Describe what is wrong with this result before submitting the dispute.",
  comment_too_long: (max: number) => `The dispute comment may be at most ${max} characters long.`,
  result_valid: () => "This test result was validated, so there is nothing to dispute.",
  already_disputed: () => "You have already disputed this test result; we will e-mail you when we have reviewed it.",
  response_required: () => "Write the response the user will read.",
  response_too_long: (max: number) => `The response may be at most ${max} characters long.`,
  already_reviewed: () => "This dispute has already been reviewed.",
} as const;


/** "A, B and C". */
function listOf(names: string[]): string {
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

const STATUS: Record<RejectionReason, number> = {
  no_file: 400,
  too_large: 413,
  busy: 503,
  not_pdf: 422,
  archive: 422,
  wrapped: 422,
  appended: 422,
  javascript: 422,
  launch: 422,
  embedded_file: 422,
  actions: 422,
  corrupt: 422,
  encrypted: 422,
  too_many_pages: 422,
  too_complex: 422,
  duplicate: 422,
  no_text: 422,
  printed: 422,
  changed: 422,
  unknown_lab: 422,
  unreadable: 422,
  future: 422,
  link_invalid: 400,
  link_not_https: 422,
  link_unknown_host: 422,
  link_address: 422,
  link_redirect: 422,
  link_unreachable: 422,
  link_not_found: 422,
  link_slow: 422,
  link_type: 422,
  link_wrong_lab: 422,
  criteria: 400,
  signature_invalid: 422,
  signature_revoked: 422,
  signature_expired: 422,
};

/** The words of every refusal in one language: `rejectionMessages` (English) or `spanishRejectionMessages`. */
export type RejectionWords = { readonly [K in keyof typeof rejectionMessages]: (typeof rejectionMessages)[K] };

/** The Spanish words (errors-es.ts), which must have every sentence with its parameters. */
const spanishWords: RejectionWords = spanishRejectionMessages;

/** A refusal's sentence made from the words of a language, with the details of the case. */
export type RejectionWording = (words: RejectionWords) => string;

/**
 * An upload refused before anything was stored: 400 / 413 / 422 / 503 `{success:false, consumerMessage, reason}`.
 * It carries its reason and the details of the case as a wording, not a sentence: the answer words
 * it in the request's language (testResultErrorAnswer; docs/product/calls.md §7.4 "What the upstream writes").
 */
export class UploadRejectedError extends Error {
  readonly reason: RejectionReason;
  readonly wording: RejectionWording;
  readonly status: number;
  constructor(reason: RejectionReason, wording: RejectionWording) {
    super(`upload rejected: ${reason}`);
    this.name = "UploadRejectedError";
    this.reason = reason;
    this.wording = wording;
    this.status = STATUS[reason];
  }

  /** The sentence in English (logs and tests; the answer words it in the request's language). */
  get consumerMessage(): string {
    return this.wording(rejectionMessages);
  }
}

/** The result does not exist or is not the caller's (the two are not told apart): 404 not_found. */
export class ResultNotFoundError extends Error {
  constructor() {
    super("No such test result for this user.");
    this.name = "ResultNotFoundError";
  }
}

/**
 * The page asked for is not one the result can show (GET /testresult/getimage/ `page`): past its page
 * count, or past 1 on a result stored before PDFs were kept: 404 page_not_found.
 */
export class PageNotFoundError extends Error {
  readonly page: number;
  constructor(page: number) {
    super(rejectionMessages.page_not_found(page));
    this.name = "PageNotFoundError";
    this.page = page;
  }
}

/** A test-result call needs a profile and the user has none: 404 no_profile. */
export class ResultsNeedProfileError extends Error {
  constructor() {
    super(rejectionMessages.no_profile());
    this.name = "ResultsNeedProfileError";
  }
}

/**
 * A dispute or its review breaks a rule (docs/product/data.md §5 comment, §6 only valid 0, once): 400
 * with its reason, worded in the request's language (testResultErrorAnswer).
 */
export class DisputeRuleError extends Error {
  readonly reason: "comment_required" | "comment_too_long" | "result_valid" | "already_disputed" | "response_required" | "response_too_long" | "already_reviewed";
  readonly wording: RejectionWording;
  constructor(reason: DisputeRuleError["reason"], wording: RejectionWording) {
    super(wording(rejectionMessages));
    this.name = "DisputeRuleError";
    this.reason = reason;
    this.wording = wording;
  }
}

/**
 * The HTTP answer of the test-result errors above, or undefined for any other error (http.ts
 * falls back to its own mapping). Every refusal is worded in `language` (the request's
 * Accept-Language, services/shared/language.ts answerLanguage; docs/product/calls.md §7.4 "What the
 * upstream writes"), beside its reason.
 */
export function testResultErrorAnswer(err: unknown, language: MailLanguage = "en"): HttpAnswer | undefined {
  const words = language === "es" ? spanishWords : rejectionMessages;
  const refusal = (status: number, reason: string, wording: RejectionWording): HttpAnswer => ({
    status,
    body: { success: false, consumerMessage: wording(words), reason } satisfies ResultRefusal,
  });
  if (err instanceof UploadRejectedError) return refusal(err.status, err.reason, err.wording);
  if (err instanceof ResultNotFoundError) return refusal(404, "not_found", (w) => w.not_found());
  if (err instanceof PageNotFoundError) return refusal(404, "page_not_found", (w) => w.page_not_found(err.page));
  if (err instanceof ResultsNeedProfileError) return refusal(404, "no_profile", (w) => w.no_profile());
  if (err instanceof DisputeRuleError) return refusal(400, err.reason, err.wording);
  return undefined;
}
