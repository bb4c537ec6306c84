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

// ours: the profile screens' own words (docs/product/screens.md §2 /yourinfo, /personalinfo, /welcome)
export const firstNameLabel = "First Name";
export const lastNameLabel = "Last Name";
/** The date of birth's placeholder and hint. */
export const dateFormatHint = "MM/DD/YYYY";
export const yourInfoTitle = "Your Info";
export const yourInfoPageTitle = "Your Info · SafeWindow";
export const finishButton = "Finish";
export const personalInfoPageTitle = "Personal Info · SafeWindow";
export const changeYourInfoButton = "Change Your Info";
export const backToSettingsLink = "Back to My Settings";
export const welcomePageTitle = "Welcome · SafeWindow";
export const welcomeTitle = (firstName: string) => `Welcome, ${firstName}!`;
/** Around the product ID on Welcome: "Your SafeWindow product ID is <id>. Friends can find you with it." */
export const welcomeProductIdLead = "Your SafeWindow product ID is";
export const welcomeProductIdEnd = ". Friends can find you with it.";
export const howItWorksTitle = "How it works";
export const howItWorksSteps = {
  upload: "Upload the original PDF your testing lab gave you for a COVID-19 test.",
  check: "We check that it is an original from a lab we know and that it is yours: your first name, last name and date of birth must match exactly.",
  window: "A negative result opens your safe window: a strong and a weak validity date, counted from when your sample was taken.",
} as const;
export const howWeCountLink = "Read how we count safe windows";
export const shareTitle = "Share it with friends";
export const shareText = "People can ask to follow you. Once you confirm, they see your safe window card (never your date of birth), and you can follow them back.";
// ours: the intro screen ("/")
export const getStartedLabel = "Get started";
