/**
 * One zod schema per account form (docs/product/data.md §5), used by conform on the client (validation on blur)
 * and by the route actions on the server.
 */
import * as z from "zod/mini";
import * as messages from "../messages";
import { bothPresent, currentPassword, emailAddress, newPassword } from "./password";
import { singleLine } from "./text";

/** docs/product/data.md §5 Login. */
export const loginSchema = z.object({
  email: z
    .string({ error: messages.loginEmailRequired })
    .check(z.trim(), z.minLength(1, messages.loginEmailRequired), z.maxLength(254, messages.emailInvalid), z.refine(singleLine, messages.controlCharacters)),
  password: currentPassword(messages.loginPasswordRequired),
  redirectTo: z.optional(z.string().check(z.maxLength(2048, messages.linkTooLong))),
});

/** docs/product/data.md §5 Registration; the toggles must both be on. */
export const registrationSchema = z
  .object({
    email: emailAddress(messages.registerEmailRequired),
    password: newPassword(messages.registerPasswordRequired),
    confirmPassword: z.string({ error: messages.passwordsDoNotMatch }),
    acceptTerms: z.literal("on", { error: messages.acceptTermsRequired }),
    acceptPrivacy: z.literal("on", { error: messages.acceptPrivacyRequired }),
  })
  .check(
    z.refine((value) => value.password === value.confirmPassword, {
      message: messages.passwordsDoNotMatch,
      path: ["confirmPassword"],
      when: bothPresent("password", "confirmPassword"),
    }),
  );

/** docs/product/data.md §5 Confirm account: the password to set. */
export const confirmAccountSchema = z.object({
  password: newPassword(messages.confirmAccountPasswordRequired),
});

/** docs/product/data.md §5 Reset request. */
export const requestPasswordChangeSchema = z.object({
  email: emailAddress(messages.resetEmailRequired),
});

/** docs/product/data.md §5 Reset password: new password must match confirm. */
export const resetPasswordSchema = z
  .object({
    newPassword: newPassword(messages.newPasswordRequired),
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
 * The email and token a link carries (docs/product/screens.md §2 /confirmemail, /confirmaccount, /resetpassword).
 * @returns the values, or the docs/product/data.md §5 message for the first one missing
 */
export function linkParameters(url: URL): { email: string; token: string; problem?: undefined } | { problem: string } {
  const email = url.searchParams.get("email")?.trim() ?? "";
  const token = url.searchParams.get("token")?.trim() ?? "";
  if (!email) return { problem: messages.missingEmailParameter };
  if (!token) return { problem: messages.missingTokenParameter };
  return { email, token };
}
