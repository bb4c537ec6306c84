/**
 * Following, followers and the search: docs/product/messages.md §8 follow.
 * Verbatim strings of the product rules (docs/product/); "ours" marks a string it does not give (app/messages.ts).
 */

// docs/product/messages.md §8 follow
// ours: /people says what the Followers count counts
export const followRequestsWaiting = (count: number) => (count === 1 ? "1 person asks to follow you." : `${count} people ask to follow you.`);
export const followRequestsHint = "Open a request to confirm or decline it.";
export const followCancelFailed = "Failed to cancel the pending follow request";
export const followConfirmFailed = "Failed to confirm the follow request";
export const followDeclineFailed = "Failed to decline the follow request";
export const followDeleteFailed = "Failed to delete the follower";
export const followRequestFailed = "Failed to request to follow this user";
export const unfollowFailed = "Failed to unfollow this user"; // ours: the product rules name no message for unfollowing
export const searchPlaceholder = "Name, product ID or email";
export const searchTooShort = "Please enter at least 3 characters to search."; // ours (docs/product/data.md §5: 3 non-blank characters)
export const searchNoResults = "Nobody matches that search. Try a full name, a product ID or an email address."; // ours
// ours
export const searchInvalid = "Please type the search again: it contains characters that cannot be typed."; // ours

/** A follower's card when their window is not shown (docs/product/README.md §1: only followers see a window). */
export const followerWindowHidden = (firstName: string) => `Follow ${firstName} back to see their safe window once they confirm.`; // ours
export const followerWindowPending = (firstName: string) => `You will see ${firstName}'s safe window once they confirm your request.`; // ours
