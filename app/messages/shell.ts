/**
 * The frame every page shows (header, pending text, error pages) and the messages any screen can
 * show: server and upstream errors, limits, the password hint.
 * Verbatim strings of the product rules (docs/product/); "ours" marks a string it does not give (app/messages.ts).
 */

export const productName = "SafeWindow";
// ours: what the intro says the app does
export const introTagline = "Upload your COVID-19 test result from your lab, see how long your safe window lasts, and share it with the people you choose.";
// docs/product/messages.md §8 error catalogue
export const unexpectedError = "Unexpected Error";
export const unknownError = (detail: string) => `Unknown Error: ${detail}`;
// docs/product/screens.md §2
export const notFound = "Sorry, that page doesn't exist.";
export const checkingAccount = "Making sure everything is looking good...";
export const accountLookupFailed = "There was an error looking up your account information";
// docs/product/screens.md §2, §5 profile screens
export const nameTooLong = "Please use at most 100 characters."; // ours
export const passwordTooLong = "Please use at most 1024 characters."; // ours: a typed current password's bound against abuse
export const linkTooLong = "This link is too long. Please go back and try again."; // ours: the hidden redirectTo field
// ours
export const passwordRuleHint = "At least 8 characters, with an upper case and a lower case letter, a number and one of !@#$%^&*.";
export const upstreamUnavailable = "The service did not answer. Please try again in a minute.";
export const sessionExpired = "Your session has ended. Please sign in again.";
export const serverError = "Something went wrong on our side. Please try again in a minute.";
export const tooManyAttempts = (minutes: number) => `Too many attempts. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`; // ours
export const controlCharacters = "This contains characters that cannot be typed. Please type it again."; // ours
export const crossSiteRefused = "That form was sent from another site, so we did nothing. Please use SafeWindow's own pages.";
export const loadFailed = "This page could not be loaded"; // ours (docs/product/messages.md §8 load errors)

// ours: the frame's and the shared controls' own words (app/root.tsx and app/components/)
export const appDescription = "Upload your COVID-19 test result and share your safe window.";
export const skipToContent = "Skip to content";
export const homeLinkLabel = `${productName} home`;
export const logoutButton = "Logout"; // docs/product/screens.md §2
export const goToStartPage = "Go to the start page";
export const cookieConsentLabel = "Cookie consent";
export const cookieConsentText = `${productName} uses cookies to keep you signed in and to remember your choices on this device. We use no advertising or tracking cookies.`;
export const acceptButton = "Accept";
export const declineButton = "Decline";
export const confirmButton = "Confirm";
export const cancelButton = "Cancel";
export const continueButton = "Continue";
export const saveButton = "Save";
export const tryAgainLink = "Try again";
export const mainNavigationLabel = "Main";
/** After the current tab, for text browsers (app/components/TabBar.tsx). */
export const currentTabMark = " (current)";
export const notFoundPageTitle = `Not found · ${productName}`;
/** The bottom tabs' names, by screen (app/screens.ts; docs/product/screens.md §2 bottom navigation). */
export const tabLabels = {
  SafeWindow: "Safe Window",
  MyTests: "My Tests",
  MyFun: "My Fun",
  Locations: "Locations",
  Friends: "People",
  Settings: "Settings",
} as const;

// ours: the server's own error pages, answered before the app reads a request (server/app.ts)
export const bodyWithoutLength = "Your browser sent the form in a way we cannot accept. Please try again.";
export const formBodyTooLarge = "That was more than this form accepts. Please go back and shorten what you entered.";
export const requestUnreadable = "We could not read that request. Please go back and try again.";
