/**
 * Every user-facing string of docs/product.md, verbatim (typos included), named for what it says.
 * Strings docs/product.md does not give are marked "ours" and follow the same tone.
 * Source: docs/product.md §2, §5, §8; {product} is SafeWindow.
 *
 * One export per string, imported as a namespace (`import * as messages from "~/messages"`): the
 * bundler then keeps in each page's JavaScript only the strings that page uses.
 */
export const productName = "SafeWindow";

// docs/product.md §5 password rule
export const passwordFormat = "Password must contain at least one upper case, lower case, number, and special character.";
export const passwordsDoNotMatch = "Passwords do not match.";
export const passwordTooShort = "Passwords must be at least 8 characters long.";
// docs/product.md §5 registration
export const registerEmailRequired = "You must enter your email to register";
export const registerPasswordRequired = "You must enter a password to register";
export const emailInvalid = "Please enter a valid email address.";
export const emailUnavailable = "That email address is not available. To login with your existing account, please hit 'Back' then 'Sign In'.";
export const acceptTermsRequired = "Please accept the Terms of Service to create an account."; // ours
export const acceptPrivacyRequired = "Please accept the Privacy Policy to create an account."; // ours
// docs/product.md §5 login
export const loginEmailRequired = "You must enter your email to login";
export const loginPasswordRequired = "You must enter a password to login";
// docs/product.md §5 confirm account
export const confirmAccountPasswordRequired = "You must enter a password to confirm your account";
export const missingEmailParameter = "Missing email parameter";
export const missingTokenParameter = "Missing token parameter";
// docs/product.md §5 reset request
export const resetEmailRequired = "You must enter your email to send a password reminder";
export const newPasswordRequired = "You must enter a new password"; // ours
// docs/product.md §8 error catalogue
export const loginFailed = "Failed to login. Please check your username and password.";
export const unexpectedError = "Unexpected Error";
export const unknownError = (detail: string) => `Unknown Error: ${detail}`;
export const registerServerError = "Unexpected server error while registering user";
export const registerUnknownError = "Unknown error while registering user";
export const loginAfterRegistrationFailed = "Failed to login user after registration.";
export const confirmationEmailSendFailed = "Failed to send confirmation email.";
export const confirmAccountFailed = "There was a problem confirming your account.";
export const passwordChangeFailed = "There was a problem changing your password.";
export const emailConfirmFailed = "There was a problem confirming your email. Please click the button below to resend the email invitation.";
export const emailConfirmFailedShort = "Failed to confirm email.";
export const checkConfirmationFailed = "Failed to check email confirmation.";
export const sendEmailConfirmationFailed = "Failed to send email confirmation.";
export const resetRequested = `If the email entered is associated with a ${productName} account, a password reset message will be sent to that address.`;
export const resetSucceeded = "Password changed successfully. You may now return to your app to login.";
export const accountConfirmed = "Thank you. Account e-mail is confirmed and password is set.";
// docs/product.md §2
export const notFound = "Sorry, that page doesn't exist.";
export const checkingAccount = "Making sure everything is looking good...";
export const accountLookupFailed = "There was an error looking up your account information";
// docs/product.md §2, §5 profile screens
export const yourInfoPrompt = "Please make sure your name is spelled correctly below. We will use this information to match your test results.";
export const dobFormatFirstTime = "DOB must be in mm/dd/yyyy format";
export const dobFormat = "Date of Birth must be in mm/dd/yyyy format";
export const under18 = "Users must be at least 18 years of age to use the product";
export const firstNameRequired = "First name is required"; // docs/product.md §5: "messages exist", wording ours
export const lastNameRequired = "Last name is required"; // ditto
export const dobRequired = "Date of birth is required"; // ditto
export const postalCodeRequired = "Postal code is required"; // ditto
export const postalCodeInvalid = "Please enter a valid postal code."; // ours
export const nameTooLong = "Please use at most 100 characters."; // ours
export const passwordTooLong = "Please use at most 1024 characters."; // ours: a typed current password's bound against abuse
export const linkTooLong = "This link is too long. Please go back and try again."; // ours: the hidden redirectTo field
export const profileCreateFailed = "There was a problem creating your profile.";
export const profileCreateError = "There was an error completing your registration.";
export const profileSaveFailed = "There was a problem saving your profile information.";
export const infoChangeWarning = "Changing your information can invalidate existing verified tests that used it for matching."; // docs/product.md §2 says a warning exists; wording ours
export const emptyWindow = "No valid test results within the required SafeWindows.";
// docs/product.md §8 settings
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
// docs/product.md §2 test detail, §5 upload
export const resultErrorsHeading = "This test result had the following errors:";
export const resultProcessed = "This test result was processed successfully.";
export const disputeIntro = "We can help resolve minor differences in submitted documents such as typos. Please describe below and submit.";
export const disputeFollowUp = "If you have any other questions, please contact us by clicking the button below.";
export const disputeThanks = "Thank you for submitting your dispute. We will email you at your provided email address when we have reviewed your dispute. We are generally able to review all disputes within 3 hours of submission.";
export const disputeCommentRequired = "Please describe the difference you want us to review."; // ours
export const disputeCommentTooLong = "Please use at most 1000 characters."; // ours (docs/product.md §5: max 1000)
export const disputeFailed = "We could not submit your dispute. Please try again."; // ours: the product rules show no handling
export const disputeNotOffered = "This result cannot be disputed: only a result we could not validate can be disputed, once."; // ours (docs/product.md §6)
export const guidelinesTitle = "Before You Add";
export const uploadRuleOriginal = "Only upload the original PDF you received from your testing company.";
export const uploadRuleNoCopies = "Faxed, saved or printed PDFs are not accepted.";
export const uploadRuleMatch = "Your first name, last name and date of birth must match the test result exactly to validate.";
export const uploadFileRequired = "Please choose the PDF file of your test result."; // ours
export const uploadNotPdf = "Please choose a PDF file (.pdf)."; // ours
export const uploadTooLarge = "That file is larger than 10 MB. Please upload the original PDF from your testing company."; // ours
export const uploadFailed = "We could not process your upload right now. Please try again in a minute."; // ours
export const noResults = "You have not added a test result yet."; // ours
// docs/product.md §8 follow
export const followCancelFailed = "Failed to cancel the pending follow request";
export const followConfirmFailed = "Failed to confirm the follow request";
export const followDeclineFailed = "Failed to decline the follow request";
export const followDeleteFailed = "Failed to delete the follower";
export const followRequestFailed = "Failed to request to follow this user";
export const unfollowFailed = "Failed to unfollow this user"; // ours: the product rules name no message for unfollowing
export const searchPlaceholder = "Name, product ID or email";
export const searchTooShort = "Please enter at least 3 characters to search."; // ours (docs/product.md §5: 3 non-blank characters)
export const searchNoResults = "Nobody matches that search. Try a full name, a product ID or an email address."; // ours
// ours
export const passwordRuleHint = "At least 8 characters, with an upper case and a lower case letter, a number and one of !@#$%^&*.";
export const upstreamUnavailable = "The service did not answer. Please try again in a minute.";
export const emailConfirmed = "Your e-mail address is confirmed.";
export const confirmationEmailSent = "We sent you a new confirmation e-mail.";
export const checkYourEmail = "Please check your e-mail and click the link we sent you to confirm your address.";
export const sessionExpired = "Your session has ended. Please sign in again.";
export const serverError = "Something went wrong on our side. Please try again in a minute.";
export const tooManyAttempts = (minutes: number) => `Too many attempts. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`; // ours
export const signOutEverywhere = "Sign out everywhere"; // ours
export const signOutEverywhereHint = "Signs you out on every device and browser, this one included."; // ours
export const controlCharacters = "This contains characters that cannot be typed. Please type it again."; // ours
export const searchInvalid = "Please type the search again: it contains characters that cannot be typed."; // ours
export const crossSiteRefused = "That form was sent from another site, so we did nothing. Please use SafeWindow's own pages.";
export const loadFailed = "This page could not be loaded"; // ours (docs/product.md §8 load errors)

