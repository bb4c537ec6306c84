/**
 * docs/product/data.md §5 password rule: at least 8 characters, with at least one lower case letter, one upper
 * case letter, one digit and one special character from !@#$%^&*. The rule is stated once, in
 * contracts/rules.ts, which the identity authority checks too; here it becomes the fields of every
 * form that sets a password, with the form's messages.
 */
import * as z from "zod/mini";
import { hasPasswordCharacterClasses, isValidPassword, passwordMaxLength, passwordMinLength, passwordTooLong, passwordTooShort } from "../../contracts/rules.ts";
import { singleLine } from "./text";
import type { FormWords } from "./words";

export { isValidPassword, passwordMinLength };

/** The words of a new password field's checks. */
export const newPasswordWordKeys = ["passwordTooShort", "passwordFormat", "controlCharacters"] as const;
/** The words of a current password field's checks. */
export const currentPasswordWordKeys = ["passwordTooLong", "controlCharacters"] as const;
/** The words of an e-mail field's checks. */
export const emailAddressWordKeys = ["emailInvalid", "controlCharacters"] as const;

/**
 * A new password field: required (with the form's own message), then the length message, then
 * the product's character-class message; only the first that fails is reported. Registration and resets name the length ('Passwords must be at
 * least 8 characters long.', docs/product/data.md §5 Registration); the settings change passes
 * `words.passwordFormat`, since there any failed format check shows the shared password message
 * (docs/product/data.md §5 Settings password change).
 * @param words the form's words, in the request's language (app/forms/words.ts)
 */
export function newPassword(words: FormWords<typeof newPasswordWordKeys>, requiredMessage: string, tooShortMessage: string = words.passwordTooShort) {
  // The first failed check is the one message shown (`abort`): a short password without a digit
  // reads "Passwords must be at least 8 characters long.", not that and the format message too.
  return z
    .string({ error: requiredMessage })
    .check(
      z.minLength(1, { error: requiredMessage, abort: true }),
      // The length as the identity authority counts it (UTF-16 code units), not as zod's checks
      // count (code points). zod's maxLength stays for the page's maxlength attribute
      // (app/server/form-constraints.server.ts), which browsers count in code units too.
      z.refine((value) => !passwordTooShort(value), { error: tooShortMessage, abort: true }),
      z.maxLength(passwordMaxLength, { error: words.passwordFormat, abort: true }),
      z.refine((value) => !passwordTooLong(value), { error: words.passwordFormat, abort: true }),
      z.refine(singleLine, { error: words.controlCharacters, abort: true }),
      z.refine(hasPasswordCharacterClasses, { error: words.passwordFormat, abort: true }),
    );
}

/**
 * A password typed to prove who one is (sign-in, current password): required, single line, at most
 * 1024 characters (a bound against abuse, not a rule on its content).
 * @param words the form's words, in the request's language (app/forms/words.ts)
 */
export function currentPassword(words: FormWords<typeof currentPasswordWordKeys>, requiredMessage: string) {
  return z
    .string({ error: requiredMessage })
    .check(z.minLength(1, requiredMessage), z.maxLength(1024, words.passwordTooLong), z.refine(singleLine, words.controlCharacters));
}

/**
 * An e-mail field: required with `requiredMessage`, then the product's format message.
 * @param words the form's words, in the request's language (app/forms/words.ts)
 */
export function emailAddress(words: FormWords<typeof emailAddressWordKeys>, requiredMessage: string) {
  return z.pipe(
    z
      .string({ error: requiredMessage })
      .check(z.trim(), z.minLength(1, requiredMessage), z.maxLength(254, words.emailInvalid), z.refine(singleLine, words.controlCharacters)),
    z.email(words.emailInvalid),
  );
}

const emailFormat = z.email().check(z.maxLength(254));

/**
 * True when `value` is an e-mail address by the format the e-mail fields check (`emailAddress`):
 * what a page may print as an address it was given in a link, where anything else is text a
 * stranger wrote (docs/security/input.md "Input").
 */
export function isEmailAddress(value: string): boolean {
  return emailFormat.safeParse(value).success;
}

/**
 * The check that a form's `confirmPassword` repeats `field`, with `message` on `confirmPassword`
 * (docs/product/data.md §5). It runs even when other fields have errors (zod skips object
 * refinements otherwise, unless `when` says so), so "Passwords do not match." shows with the rest;
 * and only when both are strings.
 */
export function confirmationMatches(field: string, message: string) {
  return z.refine<Record<string, unknown>>((value) => value[field] === value.confirmPassword, {
    message,
    path: ["confirmPassword"],
    when: (payload) => {
      const value = payload.value as Record<string, unknown> | undefined;
      return typeof value?.[field] === "string" && typeof value?.confirmPassword === "string";
    },
  });
}
