/**
 * My Settings: docs/product/messages.md §8 settings, and signing out everywhere.
 * Verbatim strings of the product rules (docs/product/); "ours" marks a string it does not give (app/messages.ts).
 */

// docs/product/messages.md §8 settings
export const userNameTaken = "That user name/email is not available.";
export const userNameInvalid = "User name must be a valid address.";
export const userNameValidationFailed = "There was an error validating the email address.";
export const userNameChangeFailed = "There was an internal error changing the user name.";
export const settingsPasswordChangeFailed = "There was a problem changing your password. Please check the spelling of you current password.";
export const currentPasswordRequired = "You must enter your current password"; // ours
export const currentPasswordWrong = "That is not your current password."; // ours
export const newUserNameRequired = "You must enter the new email address"; // ours
export const passwordChanged = "Your password has been changed."; // ours
export const userNameChanged = "Your email address has been changed. Please confirm the new address from the e-mail we sent to it."; // ours
export const profileSaved = "Your information has been saved."; // ours
// ours
export const signOutEverywhere = "Sign out everywhere"; // ours
export const signOutEverywhereHint = "Signs you out on every device and browser, this one included."; // ours

// The time zone of every time shown (docs/architecture/behaviour.md §4 "One clock"); all ours
export const timeZoneAutomatic = "Automatic"; // ours
export const timeZoneSaved = "Times are now shown in your chosen time zone."; // ours
export const timeZoneAutomaticSaved = "Times are now shown in your time zone as found automatically."; // ours
export const timeZoneUnknown = "Choose a time zone from the list."; // ours
export const timeZoneHint = "Automatic uses this browser's time zone, or your postal code's when the browser does not say. A choice here applies on this device."; // ours
/** Where the zone in use came from, after "Times are shown in <zone>". */
export const timeZoneSources = {
  setting: "as chosen here",
  browser: "from this browser",
  postalCode: "from your postal code",
  default: "SafeWindow's default; your postal code gives none",
} as const; // ours
// ours: the language of the pages (docs/architecture/behaviour.md §4 "Language")
export const languageTitle = "Language";
export const languageHint = "The language of the pages on this device. Without a choice, we use your browser's language.";
export const languageSave = "Save";
// ours: the person's own data (My Settings)
export const yourDataTitle = "Your Data";
export const yourDataHint = "A zip file with your profile, every test result with its image and original PDF, your disputes and the people you follow and who follow you.";
export const downloadMyData = "Download my data";
// ours: deleting the account (My Settings)
export const deleteAccountTitle = "Delete Account";
export const deleteAccountHint =
  "Deletes your account, your profile, every test result with its images and PDFs, your disputes and the people you follow and who follow you, and signs you out everywhere. This cannot be undone.";
export const deleteAccountConfirm = "Enter your password to delete your account and all your data. This cannot be undone.";
export const deleteAccountButton = "Delete my account";
export const accountDeleted = "Your account and all your data have been deleted. We sent a confirmation to your email address.";
export const deleteAccountFailed = "We could not delete your account right now. Nothing was deleted. Please try again.";
export const deleteAccountIncomplete = "Your data was deleted, but we could not close your account right now. Please sign in and try again to finish.";

// ours: My Settings' own words (docs/product/screens.md §2 /settings names the screen and its cards)
export const settingsTitle = "My Settings";
export const settingsPageTitle = "My Settings · SafeWindow";
export const personalInfoTitle = "Personal Info";
export const fullNameLabel = "Name";
export const dateOfBirthLabel = "Date of Birth";
export const postalCodeLabel = "Postal Code";
export const changeButton = "Change";
export const changePersonalInfoLabel = "Change personal info";
export const changePasswordLabel = "Change password";
export const userNameTitle = "Username/Email";
export const changeUserNameLabel = "Change username or email";
export const productIdTitle = "Product ID";
export const reviewsCardHint = "The disputes waiting for a provider's review, and the decisions made.";
export const checkinCardHint = "Check a visitor's safe window at the door of a location you administer, with the code they show.";
/** The link to a screen from its card: "Open Dispute Reviews". */
export const openScreen = (screen: string) => `Open ${screen}`;
export const accountTitle = "Account";
export const localDataTitle = "Local Data";
export const localDataHint = "Signs you out and forgets the email address and choices remembered on this device.";
export const wipeButton = "Wipe";
// ours: the panels (app/components/settings/Panels.tsx)
export const currentPasswordLabel = "Current Password";
export const newPasswordLabel = "New Password";
export const confirmNewPasswordLabel = "Confirm New Password";
export const updateButton = "Update";
export const newEmailLabel = "New Email";
// ours: the Time Zone card (app/components/settings/TimeZoneCard.tsx)
export const timeZoneTitle = "Time Zone";
/** Before the zone in use: "Times are shown in <zone> (<source>)." */
export const timeZoneShownIn = "Times are shown in";
export const timeZoneLabel = "Time zone";
