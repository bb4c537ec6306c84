// Typed errors of the identity authority. Domain code throws them; http.ts maps them to
// status codes and JSON bodies in one place (docs/architecture/conventions.md §9.6).
import type { IdentityError } from "../../contracts/identity.ts";

/** One ASP.NET Identity-style error, as docs/product/data.md §3 "Register: succeeded, errors (code, description)": the contract's IdentityError. */
export type IdentityErrorItem = IdentityError;

/** A rule failed (password rule, invalid e-mail, duplicate, bad token): 400 {succeeded:false, errors}. */
export class AccountError extends Error {
  readonly errors: IdentityErrorItem[];
  constructor(errors: IdentityErrorItem[]) {
    super(errors.map((e) => e.code).join(", "));
    this.name = "AccountError";
    this.errors = errors;
  }
}

/** An OAuth 2.0 token endpoint error (RFC 6749 §5.2): {error, error_description}. */
export class OAuthError extends Error {
  readonly status: number;
  readonly error: string;
  constructor(status: number, error: string, description: string) {
    super(description);
    this.name = "OAuthError";
    this.status = status;
    this.error = error;
  }
}

// The bearer-token and malformed-input errors are shared by every reference service.
export { BadRequestError, InsufficientScopeError, InvalidTokenError } from "../shared/errors.ts";

/** The mail transport refused or failed: 502, so the caller can say the mail was not sent. */
export { MailDeliveryError } from "../shared/errors.ts";

/** ASP.NET Identity's codes and descriptions, plus the docs/product/data.md §5 special-character rule and the refusal of control characters (contracts/rules.ts). */
export const describe = {
  invalidEmail: (email: string): IdentityErrorItem => ({
    code: "InvalidEmail",
    description: `Email '${email}' is invalid.`,
  }),
  duplicateUserName: (userName: string): IdentityErrorItem => ({
    code: "DuplicateUserName",
    description: `Username '${userName}' is already taken.`,
  }),
  passwordTooShort: (min: number): IdentityErrorItem => ({
    code: "PasswordTooShort",
    description: `Passwords must be at least ${min} characters.`,
  }),
  passwordTooLong: (max: number): IdentityErrorItem => ({
    code: "PasswordTooLong",
    description: `Passwords must be at most ${max} characters.`,
  }),
  passwordRequiresLower: (): IdentityErrorItem => ({
    code: "PasswordRequiresLower",
    description: "Passwords must have at least one lowercase ('a'-'z').",
  }),
  passwordRequiresUpper: (): IdentityErrorItem => ({
    code: "PasswordRequiresUpper",
    description: "Passwords must have at least one uppercase ('A'-'Z').",
  }),
  passwordRequiresDigit: (): IdentityErrorItem => ({
    code: "PasswordRequiresDigit",
    description: "Passwords must have at least one digit ('0'-'9').",
  }),
  passwordRequiresNonAlphanumeric: (): IdentityErrorItem => ({
    code: "PasswordRequiresNonAlphanumeric",
    description: "Passwords must have at least one special character (!@#$%^&*).",
  }),
  passwordHasControlCharacters: (): IdentityErrorItem => ({
    code: "PasswordHasControlCharacters",
    description: "Passwords must not contain control characters (tab, line breaks and the like).",
  }),
  passwordMismatch: (): IdentityErrorItem => ({ code: "PasswordMismatch", description: "Incorrect password." }),
  invalidToken: (): IdentityErrorItem => ({ code: "InvalidToken", description: "Invalid token." }),
  userAlreadyHasPassword: (): IdentityErrorItem => ({
    code: "UserAlreadyHasPassword",
    description: "User already has a password set.",
  }),
};
