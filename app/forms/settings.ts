/**
 * Settings forms (docs/product.md §2 Settings screen, §5 settings password change and new username).
 */
import { z } from "zod";
import { messages } from "../messages";
import { bothPresent, newPassword } from "./password";
import { singleLine } from "./text";

/** docs/product.md §5: current password, then a new one passing the rule, confirmed. */
export const changePasswordSchema = z
  .object({
    intent: z.literal("password"),
    currentPassword: z.string({ error: messages.currentPasswordRequired }).min(1, messages.currentPasswordRequired).max(1024).refine(singleLine, messages.controlCharacters),
    newPassword: newPassword(messages.newPasswordRequired, messages.passwordFormat),
    confirmPassword: z.string({ error: messages.passwordsDoNotMatch }),
  })
  .refine((value) => value.newPassword === value.confirmPassword, {
    message: messages.passwordsDoNotMatch,
    path: ["confirmPassword"],
    when: bothPresent("newPassword", "confirmPassword"),
  });

/**
 * docs/product.md §5 new username: required here; validity and availability are the identity authority's
 * answer. The current password is asked too (docs/security.md "Sessions"): a session alone must not
 * be enough to take the account.
 */
export const changeUserNameSchema = z.object({
  intent: z.literal("username"),
  userName: z.string({ error: messages.newUserNameRequired }).trim().min(1, messages.newUserNameRequired).max(254, messages.userNameInvalid).refine(singleLine, messages.controlCharacters),
  currentPassword: z.string({ error: messages.currentPasswordRequired }).min(1, messages.currentPasswordRequired).max(1024).refine(singleLine, messages.controlCharacters),
});
