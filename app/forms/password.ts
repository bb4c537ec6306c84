/**
 * docs/product/data.md §5 password rule: at least 8 characters, with at least one lower case letter, one upper
 * case letter, one digit and one special character from !@#$%^&*. Shared by every form that
 * sets a password; the identity authority enforces the same rule.
 */
import * as z from "zod/mini";
import * as messages from "../messages";
import { singleLine } from "./text";

export const passwordMinLength = 8;
/** Upper bound against abuse (argon2 input); not a product rule. */
export const passwordMaxLength = 128;

/** True when `password` satisfies every part of the docs/product/data.md §5 rule except the length. */
export function hasPasswordCharacterClasses(password: string): boolean {
  return /[a-z]/.test(password) && /[A-Z]/.test(password) && /[0-9]/.test(password) && /[!@#$%^&*]/.test(password);
}

/** True when `password` satisfies the whole docs/product/data.md §5 rule. */
export function isValidPassword(password: string): boolean {
  return password.length >= passwordMinLength && password.length <= passwordMaxLength && hasPasswordCharacterClasses(password);
}

/**
 * A new password field: required (with the form's own message), then the length message, then
 * the product's character-class message; only the first that fails is reported. Registration and resets name the length ('Passwords must be at
 * least 8 characters long.', docs/product/data.md §5 Registration); the settings change passes
 * `messages.passwordFormat`, since there any failed format check shows the shared password message
 * (docs/product/data.md §5 Settings password change).
 */
export function newPassword(requiredMessage: string, tooShortMessage: string = messages.passwordTooShort) {
  // The first failed check is the one message shown (`abort`): a short password without a digit
  // reads "Passwords must be at least 8 characters long.", not that and the format message too.
  return z
    .string({ error: requiredMessage })
    .check(
      z.minLength(1, { error: requiredMessage, abort: true }),
      z.minLength(passwordMinLength, { error: tooShortMessage, abort: true }),
      z.maxLength(passwordMaxLength, { error: messages.passwordFormat, abort: true }),
      z.refine(singleLine, { error: messages.controlCharacters, abort: true }),
      z.refine(hasPasswordCharacterClasses, { error: messages.passwordFormat, abort: true }),
    );
}

/** An e-mail field: required with `requiredMessage`, then the product's format message. */
/**
 * A password typed to prove who one is (sign-in, current password): required, single line, at most
 * 1024 characters (a bound against abuse, not a rule on its content).
 */
export function currentPassword(requiredMessage: string) {
  return z
    .string({ error: requiredMessage })
    .check(z.minLength(1, requiredMessage), z.maxLength(1024, messages.passwordTooLong), z.refine(singleLine, messages.controlCharacters));
}

export function emailAddress(requiredMessage: string) {
  return z.pipe(
    z
      .string({ error: requiredMessage })
      .check(z.trim(), z.minLength(1, requiredMessage), z.maxLength(254, messages.emailInvalid), z.refine(singleLine, messages.controlCharacters)),
    z.email(messages.emailInvalid),
  );
}

/**
 * A zod `when` predicate that runs a confirmation-match check even when other fields have errors
 * (zod skips object refinements otherwise), so "Passwords do not match." shows with the rest.
 */
export function bothPresent(a: string, b: string) {
  return (payload: { value: unknown }) => {
    const value = payload.value as Record<string, unknown> | undefined;
    return typeof value?.[a] === "string" && typeof value?.[b] === "string";
  };
}
