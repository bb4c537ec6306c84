/**
 * Settings forms (docs/product/screens.md §2 Settings screen, §5 settings password change and new username).
 */
import * as z from "zod/mini";
import * as messages from "../messages";
import { bothPresent, currentPassword, newPassword } from "./password";
import { singleLine } from "./text";

/** docs/product/data.md §5: current password, then a new one passing the rule, confirmed. */
export const changePasswordSchema = z
  .object({
    intent: z.literal("password"),
    currentPassword: currentPassword(messages.currentPasswordRequired),
    newPassword: newPassword(messages.newPasswordRequired, messages.passwordFormat),
    confirmPassword: z.string({ error: messages.passwordsDoNotMatch }),
  })
  .check(
    z.refine((value) => value.newPassword === value.confirmPassword, {
      message: messages.passwordsDoNotMatch,
      path: ["confirmPassword"],
      when: bothPresent("newPassword", "confirmPassword"),
    }),
  );

/**
 * docs/product/data.md §5 new username: required here; validity and availability are the identity authority's
 * answer. The current password is asked too (docs/security.md "Sessions"): a session alone must not
 * be enough to take the account.
 */
export const changeUserNameSchema = z.object({
  intent: z.literal("username"),
  userName: z
    .string({ error: messages.newUserNameRequired })
    .check(z.trim(), z.minLength(1, messages.newUserNameRequired), z.maxLength(254, messages.userNameInvalid), z.refine(singleLine, messages.controlCharacters)),
  currentPassword: currentPassword(messages.currentPasswordRequired),
});

/**
 * Delete my account (docs/product/screens.md §2.5): confirmed with the current password, checked like
 * a sign-in, so that a session alone cannot delete the account.
 */
export const deleteAccountSchema = z.object({
  intent: z.literal("deleteAccount"),
  currentPassword: currentPassword(messages.currentPasswordRequired),
});
