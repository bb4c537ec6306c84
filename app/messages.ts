/**
 * Every user-facing string of docs/product.md, verbatim (typos included), named for what it says.
 * Strings docs/product.md does not give are marked "ours" and follow the same tone.
 * Source: docs/product.md §2, §5, §8; {product} is SafeWindow.
 */
export const productName = "SafeWindow";

export const messages = {
  // docs/product.md §5 password rule
  passwordFormat: "Password must contain at least one upper case, lower case, number, and special character.",
  passwordsDoNotMatch: "Passwords do not match.",
  passwordTooShort: "Passwords must be at least 8 characters long.",
  // docs/product.md §5 registration
  registerEmailRequired: "You must enter your email to register",
  registerPasswordRequired: "You must enter a password to register",
  emailInvalid: "Please enter a valid email address.",
  emailUnavailable:
    "That email address is not available. To login with your existing account, please hit 'Back' then 'Sign In'.",
  acceptTermsRequired: "Please accept the Terms of Service to create an account.", // ours
  acceptPrivacyRequired: "Please accept the Privacy Policy to create an account.", // ours
  // docs/product.md §5 login
  loginEmailRequired: "You must enter your email to login",
  loginPasswordRequired: "You must enter a password to login",
  // docs/product.md §5 confirm account
  confirmAccountPasswordRequired: "You must enter a password to confirm your account",
  missingEmailParameter: "Missing email parameter",
  missingTokenParameter: "Missing token parameter",
  // docs/product.md §5 reset request
  resetEmailRequired: "You must enter your email to send a password reminder",
  newPasswordRequired: "You must enter a new password", // ours
  // docs/product.md §8 error catalogue
  loginFailed: "Failed to login. Please check your username and password.",
  unexpectedError: "Unexpected Error",
  unknownError: (detail: string) => `Unknown Error: ${detail}`,
  registerServerError: "Unexpected server error while registering user",
  registerUnknownError: "Unknown error while registering user",
  loginAfterRegistrationFailed: "Failed to login user after registration.",
  confirmationEmailSendFailed: "Failed to send confirmation email.",
  confirmAccountFailed: "There was a problem confirming your account.",
  passwordChangeFailed: "There was a problem changing your password.",
  emailConfirmFailed:
    "There was a problem confirming your email. Please click the button below to resend the email invitation.",
  emailConfirmFailedShort: "Failed to confirm email.",
  checkConfirmationFailed: "Failed to check email confirmation.",
  sendEmailConfirmationFailed: "Failed to send email confirmation.",
  resetRequested: `If the email entered is associated with a ${productName} account, a password reset message will be sent to that address.`,
  resetSucceeded: "Password changed successfully. You may now return to your app to login.",
  accountConfirmed: "Thank you. Account e-mail is confirmed and password is set.",
  // docs/product.md §2
  notFound: "Sorry, that page doesn't exist.",
  checkingAccount: "Making sure everything is looking good...",
  accountLookupFailed: "There was an error looking up your account information",
  // docs/product.md §2, §5 profile screens
  yourInfoPrompt: "Please make sure your name is spelled correctly below. We will use this information to match your test results.",
  dobFormatFirstTime: "DOB must be in mm/dd/yyyy format",
  dobFormat: "Date of Birth must be in mm/dd/yyyy format",
  under18: "Users must be at least 18 years of age to use the product",
  firstNameRequired: "First name is required", // docs/product.md §5: "messages exist", wording ours
  lastNameRequired: "Last name is required", // ditto
  dobRequired: "Date of birth is required", // ditto
  postalCodeRequired: "Postal code is required", // ditto
  postalCodeInvalid: "Please enter a valid postal code.", // ours
  nameTooLong: "Please use at most 100 characters.", // ours
  passwordTooLong: "Please use at most 1024 characters.", // ours: a typed current password's bound against abuse
  linkTooLong: "This link is too long. Please go back and try again.", // ours: the hidden redirectTo field
  profileCreateFailed: "There was a problem creating your profile.",
  profileCreateError: "There was an error completing your registration.",
  profileSaveFailed: "There was a problem saving your profile information.",
  infoChangeWarning: "Changing your information can invalidate existing verified tests that used it for matching.", // docs/product.md §2 says a warning exists; wording ours
  emptyWindow: "No valid test results within the required SafeWindows.",
  // docs/product.md §8 settings
  userNameTaken: "That user name/email is not available.",
  userNameInvalid: "User name must be a valid address.",
  userNameValidationFailed: "There was an error validating the email address.",
  userNameChangeFailed: "There was an internal error changing the user name.",
  settingsPasswordChangeFailed: "There was a problem changing your password. Please check the spelling of you current password.",
  currentPasswordRequired: "You must enter your current password", // ours
  currentPasswordWrong: "That is not your current password.", // ours
  newUserNameRequired: "You must enter the new email address", // ours
  passwordChanged: "Your password has been changed.", // ours
  userNameChanged: "Your email address has been changed. Please confirm the new address from the e-mail we sent to it.", // ours
  profileSaved: "Your information has been saved.", // ours
  // docs/product.md §2 test detail, §5 upload
  resultErrorsHeading: "This test result had the following errors:",
  resultProcessed: "This test result was processed successfully.",
  disputeIntro: "We can help resolve minor differences in submitted documents such as typos. Please describe below and submit.",
  disputeFollowUp: "If you have any other questions, please contact us by clicking the button below.",
  disputeThanks:
    "Thank you for submitting your dispute. We will email you at your provided email address when we have reviewed your dispute. We are generally able to review all disputes within 3 hours of submission.",
  disputeCommentRequired: "Please describe the difference you want us to review.", // ours
  disputeCommentTooLong: "Please use at most 1000 characters.", // ours (docs/product.md §5: max 1000)
  disputeFailed: "We could not submit your dispute. Please try again.", // ours: the product rules show no handling
  disputeNotOffered: "This result cannot be disputed: only a result we could not validate can be disputed, once.", // ours (docs/product.md §6)
  guidelinesTitle: "Before You Add",
  uploadRuleOriginal: "Only upload the original PDF you received from your testing company.",
  uploadRuleNoCopies: "Faxed, saved or printed PDFs are not accepted.",
  uploadRuleMatch: "Your first name, last name and date of birth must match the test result exactly to validate.",
  uploadFileRequired: "Please choose the PDF file of your test result.", // ours
  uploadNotPdf: "Please choose a PDF file (.pdf).", // ours
  uploadTooLarge: "That file is larger than 10 MB. Please upload the original PDF from your testing company.", // ours
  uploadFailed: "We could not process your upload right now. Please try again in a minute.", // ours
  noResults: "You have not added a test result yet.", // ours
  // docs/product.md §8 follow
  followCancelFailed: "Failed to cancel the pending follow request",
  followConfirmFailed: "Failed to confirm the follow request",
  followDeclineFailed: "Failed to decline the follow request",
  followDeleteFailed: "Failed to delete the follower",
  followRequestFailed: "Failed to request to follow this user",
  unfollowFailed: "Failed to unfollow this user", // ours: the product rules name no message for unfollowing
  searchPlaceholder: "Name, product ID or email",
  searchTooShort: "Please enter at least 3 characters to search.", // ours (docs/product.md §5: 3 non-blank characters)
  searchNoResults: "Nobody matches that search. Try a full name, a product ID or an email address.", // ours
  // ours
  passwordRuleHint: "At least 8 characters, with an upper case and a lower case letter, a number and one of !@#$%^&*.",
  upstreamUnavailable: "The service did not answer. Please try again in a minute.",
  emailConfirmed: "Your e-mail address is confirmed.",
  confirmationEmailSent: "We sent you a new confirmation e-mail.",
  checkYourEmail: "Please check your e-mail and click the link we sent you to confirm your address.",
  sessionExpired: "Your session has ended. Please sign in again.",
  serverError: "Something went wrong on our side. Please try again in a minute.",
  tooManyAttempts: (minutes: number) => `Too many attempts. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`, // ours
  signOutEverywhere: "Sign out everywhere", // ours
  signOutEverywhereHint: "Signs you out on every device and browser, this one included.", // ours
  controlCharacters: "This contains characters that cannot be typed. Please type it again.", // ours
  searchInvalid: "Please type the search again: it contains characters that cannot be typed.", // ours
  crossSiteRefused: "That form was sent from another site, so we did nothing. Please use SafeWindow's own pages.",
  loadFailed: "This page could not be loaded", // ours (docs/product.md §8 load errors)
} as const;
