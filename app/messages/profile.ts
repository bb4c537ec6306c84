/**
 * The profile screens (/yourinfo, /personalinfo) and the empty window: docs/product/screens.md §2, §5
 * profile screens.
 * Verbatim strings of the product rules (docs/product/); "ours" marks a string it does not give (app/messages.ts).
 */

// docs/product/screens.md §2, §5 profile screens
export const yourInfoPrompt = "Please make sure your name is spelled correctly below. We will use this information to match your test results.";
export const dobFormatFirstTime = "DOB must be in mm/dd/yyyy format";
export const dobFormat = "Date of Birth must be in mm/dd/yyyy format";
export const under18 = "Users must be at least 18 years of age to use the product";
export const firstNameRequired = "First name is required"; // docs/product/data.md §5: "messages exist", wording ours
export const lastNameRequired = "Last name is required"; // ditto
export const dobRequired = "Date of birth is required"; // ditto
export const postalCodeRequired = "Postal code is required"; // ditto
export const postalCodeInvalid = "Please enter a valid postal code."; // ours
export const profileCreateFailed = "There was a problem creating your profile.";
export const profileCreateError = "There was an error completing your registration.";
export const profileSaveFailed = "There was a problem saving your profile information.";
export const infoChangeWarning = "Changing your information can invalidate existing verified tests that used it for matching."; // docs/product/screens.md §2 says a warning exists; wording ours
export const emptyWindow = "No valid test results within the required SafeWindows.";
