/**
 * The dispute reviewers' screens (docs/product/calls.md §7 extensions "Dispute reviews"): the queue,
 * a dispute and its decision, the audit trail. All "ours": the product rules show no reviewer screen.
 */
import { productName } from "./shell.ts";
export const reviewsTitle = "Dispute Reviews";
export const reviewsEmpty = "No disputes are waiting for review.";
export const reviewsPromise = "We tell users we are generally able to review all disputes within 3 hours of submission.";
export const reviewsLimited = (shown: number) => `Showing the ${shown} oldest open disputes; decide these to see the rest.`;
/** `duration` as reviewDuration writes it. */
export const reviewDueIn = (duration: string) => `Due in ${duration}`;
export const reviewOverdueBy = (duration: string) => `Overdue by ${duration}`;
export const reviewResponseRequired = "Write the response the user will read.";
export const reviewResponseTooLong = "Please use at most 1000 characters.";
export const reviewDecisionRequired = "Choose Accept or Decline.";
export const reviewFailed = "We could not record your decision. Please try again.";
export const reviewGone = "That dispute is no longer open: it may have been decided by another reviewer.";
export const reviewAccepted = (name: string) => `Accepted: ${name}'s result is now valid, with your response.`;
export const reviewDeclined = (name: string) => `Declined: ${name}'s result stays as it was, with your response.`;
export const reviewHistoryEmpty = "No dispute has been decided yet.";

// The words of the reviewers' screens: ours.
export const reviewsPageTitle = `${reviewsTitle} · ${productName}`; // the document title
export const reviewDisputePageTitle = `Dispute · ${reviewsTitle} · ${productName}`; // the document title
export const reviewHistoryTitle = "Decided disputes";
export const reviewHistoryPageTitle = `${reviewHistoryTitle} · ${reviewsTitle} · ${productName}`; // the document title
/** `test` as "Test name · result"; `date` as formatInstant writes it. */
export const collectedOn = (test: string, date: string) => `${test}, collected ${date}`;
/** `at` as formatInstant writes it; `openFor` as reviewDuration does. */
export const disputedOpenFor = (at: string, openFor: string) => `Disputed ${at}, open for ${openFor}.`;
export const backToSettings = "Back to My Settings";
export const disputeOfHeading = (name: string) => `Dispute of ${name}`;
export const usersComment = "The user's comment";
export const checksHeading = "Checks";
export const matchesProfile = "matches the profile";
export const theResultHeading = "The result";
export const disputedPageAlt = (page: number) => `Page ${page} of the disputed result`;
export const decisionHeading = "Decision";
export const responseLabel = "Response to the user";
export const responseHint = "They read it on the result's Dispute tab.";
export const acceptDecision = "Accept: make the result valid";
export const declineDecision = "Decline";
export const backToReviews = `Back to ${reviewsTitle}`;
export const whenColumn = "When";
export const reviewerColumn = "Reviewer";
export const decisionColumn = "Decision";
export const resultColumn = "Result";
export const responseColumn = "Response";
export const decisionAccepted = "Accepted";
export const decisionDeclined = "Declined";
export const stayedValid = "stayed valid";
export const stayedInvalid = "stayed invalid";
export const becameValid = "invalid → valid";
export const becameInvalid = "valid → invalid";
