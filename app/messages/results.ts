/**
 * Uploads, the test list and test detail with the dispute: docs/product/screens.md §2 test detail, §5
 * upload.
 * Verbatim strings of the product rules (docs/product/); "ours" marks a string it does not give (app/messages.ts).
 */
import { productName } from "./shell.ts";

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
/** `megabytes`: the upload cap (app/limits.ts maxUploadMegabytes). */
export const uploadTooLarge = (megabytes: number) => `That file is larger than ${megabytes} MB. Please upload the original PDF from your testing company.`; // ours
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
// ours: what a result's icon says (app/components/ResultIcon.tsx): its label (the accessible name, and the
// text beside it on Test Detail), and the state in one word wherever results are listed
export const resultStateLabels = {
  strong: "Strong: within the strong safe window",
  weak: "Weak: within the weak safe window",
  expired: "Expired: outside the safe window",
  disputed: "Invalid, dispute submitted",
  invalid: "Invalid",
} as const;
export const resultStateWords = {
  strong: "Strong",
  weak: "Weak",
  expired: "Expired",
  disputed: "Disputed",
  invalid: "Invalid",
} as const;
// ours: the proof a result carries (docs/product/labs.md §10.9)
export const proofIconLabels = {
  signed: "Signed result: the signature of its QR code was verified",
  link: "Fetched from the lab's own site",
  document: "Checked as a document",
  disagrees: "Warning: its signed QR code disagrees with its text",
} as const;
export const proofDisagrees = (label: string) => `${label}, which disagrees with the report's text`;
// ours: what the consumer API answers as data, worded in the reader's language (app/result-words.ts); in
// English, the consumer API's own words (contracts/result-words.ts holds both languages, which the API's Spanish uses too)
export { englishResultWords as resultWords } from "../../contracts/result-words.ts";
export const unverifiedSignature = (scheme: string) =>
  `Its QR code carries ${/^[AEIOU]/.test(scheme) ? "an" : "a"} ${scheme} signature that could not be tied to a known issuer, so the result was checked as a document.`;

// The words of My Tests, My Safe Window, the safe window card and Test Detail (docs/product/screens.md §2): ours
// unless the product rules name them; loaders pick them into their `text`.
export const myTestsTitle = "My Tests";
export const myTestsPageTitle = `My Tests · ${productName}`; // ours: the document title
export const addResultHeading = "Add a test result";
export const resultFileLabel = "Test result PDF";
export const uploadButton = "Upload";
export const uploadingButton = "Uploading…";
export const addByLinkHeading = "Add by link";
export const resultLinkLabel = "Link to your result";
export const addByLinkButton = "Add by link";
export const fetchingButton = "Fetching…";
export const yourResultsHeading = "Your results";
export const resultListLabel = "Test results";
export const pdfOnly = "PDF files only.";
export const guidelinesUnderstood = "I understand";
export const safeWindowTitle = "My Safe Window";
export const safeWindowPageTitle = `My Safe Window · ${productName}`; // ours: the document title
export const productIdLabel = "Product ID";
export const howWeCountSafeWindowsLink = "How we count safe windows";
export const checkinHeading = "Check in at a venue";
/** `spelled`: the code's characters, space-separated, so a screen reader reads them one by one. */
export const checkinCodeLabel = (spelled: string) => `Check-in code ${spelled}`;
export const checkinQrLabel = (code: string) => `QR code of check-in code ${code}`;
export const validUntil = "Valid until";
export const checkinUnavailable = "Check-in codes are not available here.";
export const newCheckinCode = "New check-in code";
export const showCheckinCode = "Show a check-in code";
// The safe window card
export const cardLabel = (fullName: string) => `Safe window of ${fullName}`;
export const windowLabel = "Window";
export const strongWindow = "Strong";
export const weakWindow = "Weak";
export const strongUntil = "Strong until";
export const weakUntil = "Weak until";
export const basedOn = "Based on";
/** `zone`: the IANA time zone with spaces for underscores, e.g. "America/New York". */
export const timesIn = (zone: string) => `Times in ${zone}`;
export const submitTest = "Submit Test";
export const proofLabel = "Proof";
// Test Detail and the result viewer
export const testDetailPageTitle = `Test Detail · ${productName}`; // ours: the document title
export const testResultPageTitle = `Test Result · ${productName}`; // ours: the document title
/** `publicName`: the lab's everyday name, as the consumer API gives it (never translated). */
export const resultHeading = (publicName: string) => `${publicName} result`;
export const issuedBy = (company: string) => `Issued by ${company}`;
export const checksLoadFailed = (detail: string) => `Could not load the checks of this result: ${detail}`;
export const testDateLabel = "Test date:";
export const resultTabsLabel = "Test result";
export const detailsTab = "Details";
export const disputeTab = "Dispute";
export const disputeButton = "Dispute";
export const openLargeView = "Open the large view of the result";
export const resultPageAlt = (page: number, publicName: string) => `Page ${page} of the ${publicName} result`;
export const resultPageLargeAlt = (page: number, publicName: string) => `Page ${page} of the ${publicName} result, large`;
/** The subject of the mail to support about a result; `date` as formatInstant writes it. */
export const disputeMailSubject = (publicName: string, date: string) => `Dispute: ${publicName} result of ${date}`;
export const backToMyTests = "Back to My Tests";
export const yourSubmission = "Your Submission";
export const ourResponse = "Our response";
export const contactButton = "Contact";
export const describeDifference = "Describe the difference";
export const largeViewLabel = "Large view of the result";
export const closeButton = "Close";
export const fullSize = "Full size";
export const fitToScreen = "Fit to screen";
export const backToTestDetail = "Back to the test detail";
export const backToTestDetailFullSize = "Back to the test detail (the page is at full size: scroll to see all of it)";
export const fullSizeFrameLabel = "The page at full size; scroll to see all of it";

/**
 * A refused test-result call's sentence by the answer's `reason` (docs/product/calls.md §7.4 "What
 * the upstream writes"), for the reasons whose sentence the reason alone decides: the reference
 * consumer API's own consumerMessage, word for word, as the source of each translation. English
 * shows the upstream's consumerMessage as it sent it; another language words these reasons itself.
 */
export const resultRefusalReasons = {
  no_file: "No file was received. Choose your test result PDF and upload it again.",
  not_pdf: "This file is not a PDF. Upload the original PDF exactly as you received it from your testing company.",
  archive: "This file is a ZIP archive, not a PDF. Open it and upload the PDF inside, exactly as your testing company sent it.",
  wrapped: "This file is another kind of file with a PDF inside it, so we cannot tell it is the original. Upload the original PDF exactly as you received it from your testing company.",
  appended: "This file has other data added after the end of the PDF, so it is not the file your testing company issued. Upload the original PDF exactly as you received it from your testing company.",
  javascript: "This PDF contains JavaScript, which no test result from a testing company has, so it was changed after it was issued. Upload the original PDF exactly as you received it from your testing company.",
  launch: "This PDF tries to open another program or file, which no test result from a testing company does, so it was changed after it was issued. Upload the original PDF exactly as you received it from your testing company.",
  embedded_file: "This PDF has other files attached inside it, which no test result from a testing company has, so it was changed after it was issued. Upload the original PDF exactly as you received it from your testing company.",
  actions: "This PDF runs actions by itself when it is opened or viewed, which no test result from a testing company does, so it was changed after it was issued. Upload the original PDF exactly as you received it from your testing company.",
  corrupt: "This PDF is damaged or incomplete and cannot be read. Download it again from your testing company and upload the new copy.",
  too_complex: "This PDF is too large or too complex for us to check. Upload the original PDF exactly as you received it from your testing company.",
  duplicate: "You have already uploaded this test result; it is in your list of tests. There is no need to upload it again.",
  no_text: "This PDF has no readable text: it looks scanned, faxed or photographed. We can only check the original PDF. Upload the original PDF exactly as you received it from your testing company.",
  printed: "This PDF was printed or saved again by another program, so we cannot tell it is the original. Upload the original PDF exactly as you received it from your testing company.",
  changed: "This PDF was changed after the testing company issued it. Upload the original PDF exactly as you received it from your testing company.",
  link_invalid: "That is not a link we can open. Paste the link to your result exactly as your testing company sent it; it starts with https://.",
  link_not_https: "That link is not a secure one (it does not start with https://), so we could not be sure the result comes from your testing company. Paste the secure link your testing company sent you.",
  link_address: "That link leads to an address we do not fetch results from. Paste the link to your result exactly as your testing company sent it.",
  link_redirect: "Your testing company's site sent us on to another site, so we could not be sure the result comes from your testing company. Check the link, or download the PDF from your testing company and upload it.",
  link_unreachable: "We could not reach your testing company's results site. Try again later, or download the PDF and upload it.",
  link_not_found: "Your testing company's site has no result at that link; the link may have expired. Check the link, or download the PDF from your testing company and upload it.",
  link_slow: "Your testing company's results site took too long to answer. Try again later, or download the PDF and upload it.",
  link_type: "That link does not lead to a test result as your testing company serves them. Paste the link to your result exactly as your testing company sent it.",
  signature_invalid: "The signed code (QR code) on this PDF does not verify, so the report or its code was changed after it was issued. Upload the original PDF exactly as you received it from your testing company.",
  signature_revoked: "The issuer of the signed code (QR code) on this PDF has revoked it, so it no longer proves this result. Ask your testing company about it.",
  signature_expired: "The signed code (QR code) on this PDF has expired, so it no longer proves this result. Take a new test to get a new result.",
  not_found: "This test result was not found.",
  no_profile: "Create your profile before adding test results, so that we can match them to you.",
  comment_required: "Describe what is wrong with this result before submitting the dispute.",
  result_valid: "This test result was validated, so there is nothing to dispute.",
  already_disputed: "You have already disputed this test result; we will e-mail you when we have reviewed it.",
  response_required: "Write the response the user will read.",
  already_reviewed: "This dispute has already been reviewed.",
};
