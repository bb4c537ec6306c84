/**
 * The dispute reviewers' screens (docs/product/calls.md §7 extensions "Dispute reviews"): the queue,
 * a dispute and its decision, the audit trail. All "ours": the product rules show no reviewer screen.
 */
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
