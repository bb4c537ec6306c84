/**
 * Settings forms (docs/product/screens.md §2 Settings screen, §5 settings password change and new username).
 * Each schema is a function of its words (app/forms/words.ts), so its messages are in the request's language.
 */
import * as z from "zod/mini";
import { confirmationMatches, currentPassword, currentPasswordWordKeys, newPassword, newPasswordWordKeys } from "./password";
import { singleLine } from "./text";
import { perWords, type FormWords } from "./words";

/** The words of the password change's checks. */
export const changePasswordWordKeys = ["currentPasswordRequired", "newPasswordRequired", "passwordsDoNotMatch", ...currentPasswordWordKeys, ...newPasswordWordKeys] as const;

/** docs/product/data.md §5: current password, then a new one passing the rule, confirmed. */
export const changePasswordSchema = perWords((words: FormWords<typeof changePasswordWordKeys>) =>
  z
    .object({
      intent: z.literal("password"),
      currentPassword: currentPassword(words, words.currentPasswordRequired),
      newPassword: newPassword(words, words.newPasswordRequired, words.passwordFormat),
      confirmPassword: z.string({ error: words.passwordsDoNotMatch }),
    })
    .check(
      confirmationMatches("newPassword", words.passwordsDoNotMatch),
    ),
);

/** The words of the username change's checks. */
export const changeUserNameWordKeys = ["newUserNameRequired", "userNameInvalid", "currentPasswordRequired", ...currentPasswordWordKeys] as const;

/**
 * docs/product/data.md §5 new username: required here; validity and availability are the identity authority's
 * answer. The current password is asked too (docs/security/accounts.md "Sessions"): a session alone must not
 * be enough to take the account.
 */
export const changeUserNameSchema = perWords((words: FormWords<typeof changeUserNameWordKeys>) =>
  z.object({
    intent: z.literal("username"),
    userName: z
      .string({ error: words.newUserNameRequired })
      .check(z.trim(), z.minLength(1, words.newUserNameRequired), z.maxLength(254, words.userNameInvalid), z.refine(singleLine, words.controlCharacters)),
    currentPassword: currentPassword(words, words.currentPasswordRequired),
  }),
);

/** The words of Delete my account's checks. */
export const deleteAccountWordKeys = ["currentPasswordRequired", ...currentPasswordWordKeys] as const;

/**
 * Delete my account (docs/product/screens.md §2.5): confirmed with the current password, checked like
 * a sign-in, so that a session alone cannot delete the account.
 */
export const deleteAccountSchema = perWords((words: FormWords<typeof deleteAccountWordKeys>) =>
  z.object({
    intent: z.literal("deleteAccount"),
    currentPassword: currentPassword(words, words.currentPasswordRequired),
  }),
);
