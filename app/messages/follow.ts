/**
 * Following, followers and the search: docs/product/messages.md §8 follow.
 * Verbatim strings of the product rules (docs/product/); "ours" marks a string it does not give (app/messages.ts).
 */
import { productName } from "./shell.ts";

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

// The words of People, Follower, Following and Add (docs/product/screens.md §2): ours unless the product rules name them.
export const peopleTitle = "People";
export const peoplePageTitle = `People · ${productName}`; // ours: the document title
export const addTitle = "Add";
export const addPageTitle = `Add · ${productName}`; // ours: the document title
export const followingTab = "Following";
export const followersTab = (count: number) => `Followers (${count})`;
export const currentTab = " (current)";
export const seeTheRequests = "See the requests";
export const noFollowers = "Nobody follows you yet. Share your product ID so friends can find you.";
export const noneFollowed = "You do not follow anyone yet.";
export const findPeople = "Find people to follow";
export const followerTitle = "Follower";
export const followerPageTitle = `Follower · ${productName}`; // ours: the document title
export const followRequestLabel = "Follow request";
export const askedToFollow = (firstName: string) => `${firstName} asked to follow you.`;
export const pendingButton = "Pending";
export const followingButton = "Following";
export const followBackButton = "Follow Back";
export const removeButton = "Remove";
export const removeFollowerLabel = "Remove follower";
export const removeFollowerQuestion = (fullName: string) => `Remove ${fullName}? They will no longer see your safe window.`;
export const backToFollowers = "Back to Followers";
export const followingTitle = "Following";
export const followingPageTitle = `Following · ${productName}`; // ours: the document title
export const followRequestTo = (fullName: string) => `Follow request to ${fullName}`;
export const followPendingNote = "Your follow request is pending. You will see the safe window once it is confirmed.";
export const cancelRequestButton = "Cancel Request";
export const unfollowButton = "Unfollow";
export const unfollowQuestion = (fullName: string) => `Stop following ${fullName}?`;
export const backToFollowing = "Back to Following";
export const searchLabel = "Search people by name, product ID or email";
export const searchButton = "Search";
export const searchResultsLabel = "Search results";
export const requestedToFollow = (fullName: string) => `Requested to follow ${fullName}`;
export const requestedButton = "Requested";
export const addButton = "Add";
export const addPersonLabel = (fullName: string) => `Add ${fullName}`;
export const personPending = "Pending";
export const strongWindowRow = "Strong window";
export const weakWindowRow = "Weak window";
export const followsYou = "Follows you";
export const noOpenWindow = "No open window";
