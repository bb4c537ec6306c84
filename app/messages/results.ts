/**
 * Uploads, the test list and test detail with the dispute: docs/product/screens.md §2 test detail, §5
 * upload.
 * Verbatim strings of the product rules (docs/product/); "ours" marks a string it does not give (app/messages.ts).
 */

// docs/product/screens.md §2 test detail, §5 upload
export const resultErrorsHeading = "This test result had the following errors:";
export const resultProcessed = "This test result was processed successfully.";
export const resultAcceptedOnReview = "We reviewed your dispute and accepted this test result."; // ours: an accepted dispute (docs/product/calls.md §7 extensions)
export const resultReviewedDifferences = "The differences we reviewed:"; // ours
export const disputeIntro = "We can help resolve minor differences in submitted documents such as typos. Please describe below and submit.";
export const disputeFollowUp = "If you have any other questions, please contact us by clicking the button below.";
export const disputeThanks = "Thank you for submitting your dispute. We will email you at your provided email address when we have reviewed your dispute. We are generally able to review all disputes within 3 hours of submission.";
export const disputeCommentRequired = "Please describe the difference you want us to review."; // ours
export const disputeCommentTooLong = "Please use at most 1000 characters."; // ours (docs/product/data.md §5: max 1000)
export const disputeFailed = "We could not submit your dispute. Please try again."; // ours: the product rules show no handling
export const disputeNotOffered = "This result cannot be disputed: only a result we could not validate can be disputed, once."; // ours (docs/product/data.md §6)
export const guidelinesTitle = "Before You Add";
export const uploadRuleOriginal = "Only upload the original PDF you received from your testing company.";
export const uploadRuleNoCopies = "Faxed, saved or printed PDFs are not accepted.";
export const uploadRuleMatch = "Your first name, last name and date of birth must match the test result exactly to validate.";
export const uploadFileRequired = "Please choose the PDF file of your test result."; // ours
export const uploadNotPdf = "Please choose a PDF file (.pdf)."; // ours
export const uploadTooLarge = "That file is larger than 10 MB. Please upload the original PDF from your testing company."; // ours
export const uploadFailed = "We could not process your upload right now. Please try again in a minute."; // ours
/** Ours: an upload that did not get its turn (the app's queue, or the consumer API answered 503); `seconds` as Retry-After says. */
export const uploadBusy = (seconds: number) =>
  `We are checking many test results right now, so we could not check yours. Please try again in ${seconds} second${seconds === 1 ? "" : "s"}.`;
export const noResults = "You have not added a test result yet."; // ours
// ours: results by link (docs/product/labs.md §10.8)
export const resultLinkRequired = "Please paste the link to your result from your testing company's message.";
export const resultLinkTooLong = "That link is too long. Please paste the link exactly as your testing company sent it.";
export const resultLinkFailed = "We could not fetch your result right now. Please try again in a minute.";
export const resultLinkHint = "Paste the link from your testing company's e-mail or text message; we fetch the result from the lab's own site.";
export const fetchedFromLab = (host: string) => `Fetched from the lab's own site (${host}), so it could not have been changed on the way.`;
// ours: paging through a result's pages (the large view, /testresultviewer)
export const previousPage = "Previous page";
export const nextPage = "Next page";
export const pageOf = (page: number, pageCount: number) => `Page ${page} of ${pageCount}`;
export const pagesOfResult = "Pages of the result";
export const onlyFirstPage = "Only the first page of this result can be shown here.";
// ours: the proof a result carries (docs/product/labs.md §10.9)
export const proofIconLabels = {
  signed: "Signed result: the signature of its QR code was verified",
  link: "Fetched from the lab's own site",
  document: "Checked as a document",
  disagrees: "Warning: its signed QR code disagrees with its text",
} as const;
export const proofDisagrees = (label: string) => `${label}, which disagrees with the report's text`;
export const unverifiedSignature = (scheme: string) =>
  `Its QR code carries ${/^[AEIOU]/.test(scheme) ? "an" : "a"} ${scheme} signature that could not be tied to a known issuer, so the result was checked as a document.`;
