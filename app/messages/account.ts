/**
 * Registration, Sign In, account confirmation and password reset: docs/product/data.md §5 password rule,
 * registration, login, confirm account, reset request; §8 error catalogue.
 * Verbatim strings of the product rules (docs/product/); "ours" marks a string it does not give (app/messages.ts).
 */
import { productName } from "./shell.ts";

// docs/product/screens.md §2 /login: the screen's own words
export const signInTitle = "Sign In";
export const signInPageTitle = `Sign In · ${productName}`; // ours: the document title
export const emailLabel = "Email";
export const passwordLabel = "Password";
export const submitButton = "Submit";
export const forgotPasswordLink = "Forgot Password";
export const createAccountLink = "Create Account";
// docs/product/data.md §5 password rule
export const passwordFormat = "Password must contain at least one upper case, lower case, number, and special character.";
export const passwordsDoNotMatch = "Passwords do not match.";
export const passwordTooShort = "Passwords must be at least 8 characters long.";
// docs/product/data.md §5 registration
export const registerEmailRequired = "You must enter your email to register";
export const registerPasswordRequired = "You must enter a password to register";
export const emailInvalid = "Please enter a valid email address.";
export const emailUnavailable = "That email address is not available. To login with your existing account, please hit 'Back' then 'Sign In'.";
export const acceptTermsRequired = "Please accept the Terms of Service to create an account."; // ours
export const acceptPrivacyRequired = "Please accept the Privacy Policy to create an account."; // ours
// docs/product/data.md §5 login
export const loginEmailRequired = "You must enter your email to login";
export const loginPasswordRequired = "You must enter a password to login";
// docs/product/data.md §5 confirm account
export const confirmAccountPasswordRequired = "You must enter a password to confirm your account";
export const missingEmailParameter = "Missing email parameter";
export const missingTokenParameter = "Missing token parameter";
// ours: the way on under a link that lost its parameters
export const resetLinkIncomplete = "This page needs the whole link from your password reset email. Open the link again, or ask for a new one.";
export const inviteLinkIncomplete = "This page needs the whole link from your invitation email. Open the link in that email again.";
// docs/product/data.md §5 reset request
export const resetEmailRequired = "You must enter your email to send a password reminder";
export const newPasswordRequired = "You must enter a new password"; // ours
// docs/product/messages.md §8 error catalogue
export const loginFailed = "Failed to login. Please check your username and password.";
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
// ours
export const emailConfirmed = "Your email address is confirmed.";
/** /confirmemail while it works (its heading and the full load's working screen). */
export const emailConfirming = "Confirming Your Email…";
export const confirmationEmailSent = "We sent you a new confirmation email.";
export const checkYourEmail = "Please check your email and click the link we sent you to confirm your address.";

/** Beside a disabled Create Account: what is still missing (docs/product/data.md §5 registration enables it only when complete). */
export const createAccountMissing = (missing: string[]) =>
  missing.length === 0 ? "" : `Still needed: ${missing.length === 1 ? missing[0] : `${missing.slice(0, -1).join(", ")} and ${missing.at(-1)}`}.`; // ours

// ours: the account screens' own words (docs/product/screens.md §2 names the screens and their buttons)
export const createAccountPageTitle = `Create Account · ${productName}`;
export const confirmPasswordLabel = "Confirm Password";
/** The Create Account boxes' words before their links: "I accept the <Terms of Service>", "I accept the <Privacy Policy>". */
export const acceptTermsLead = "I accept the";
export const acceptPrivacyLead = "I accept the";
export const termsOfServiceLink = "Terms of Service";
export const privacyPolicyLink = "Privacy Policy";
export const backLink = "Back";
/** What Create Account still lacks, put together as createAccountMissing does: `${lead}${a, b and c}.`, `${leadOne}${a}.` for one. */
export const createAccountMissingParts = {
  lead: "Still needed: ",
  leadOne: "Still needed: ",
  and: " and ",
  email: "your email",
  password: "a password that follows the rule",
  confirmPassword: "the same password in Confirm Password",
  terms: "the Terms of Service accepted",
  privacy: "the Privacy Policy accepted",
} as const;
export const changePasswordTitle = "Change Password";
export const changePasswordPageTitle = `Change Password · ${productName}`;
export const chooseNewPasswordFor = (email: string) => `Choose a new password for ${email}.`;
export const chooseNewPassword = "Choose a new password for your account."; // ours: a link whose address is not one is never printed
export const sendNewResetLink = "Send a new reset link";
export const setPasswordTitle = "Set Password";
export const setPasswordPageTitle = `Set Password · ${productName}`;
export const choosePasswordFor = (email: string) => `Choose the password for ${email}.`;
export const choosePassword = "Choose the password for your account."; // ours: a link whose address is not one is never printed
export const checkYourEmailTitle = "Check Your Email";
export const checkYourEmailPageTitle = `Check Your Email · ${productName}`;
/** Around the address on Check Your Email: "We sent it to <address>. This page moves on …". */
export const sentToLead = "We sent it to";
export const sentToEnd = ". This page moves on by itself once your address is confirmed.";
export const resendEmailButton = "Resend Email";
export const confirmEmailTitle = "Confirm Email";
export const confirmEmailPageTitle = `Confirm Email · ${productName}`;
export const emailConfirmedTitle = "Email Confirmed";
export const resendConfirmationButton = "Resend Confirmation";
export const resetPasswordTitle = "Reset Password";
export const resetPasswordPageTitle = `Reset Password · ${productName}`;
export const sendResetEmailButton = "Send Reset Email";
export const loginLink = "Login";
