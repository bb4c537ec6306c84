/**
 * One zod schema per account form (docs/product/data.md §5), used by conform on the client (validation on blur)
 * and by the route actions on the server. Each is a function of the form's words (its `…WordKeys`
 * of the catalogue, app/forms/words.ts), so its messages are in the request's language.
 */
import * as z from "zod/mini";
import { confirmationMatches, currentPassword, currentPasswordWordKeys, emailAddress, emailAddressWordKeys, newPassword, newPasswordWordKeys } from "./password";
import { singleLine } from "./text";
import { perWords, type FormWords } from "./words";

/** The words of Sign In's checks. */
export const loginWordKeys = ["loginEmailRequired", "loginPasswordRequired", "emailInvalid", "linkTooLong", ...currentPasswordWordKeys] as const;

/** docs/product/data.md §5 Login. */
export const loginSchema = perWords((words: FormWords<typeof loginWordKeys>) =>
  z.object({
    email: z
      .string({ error: words.loginEmailRequired })
      .check(z.trim(), z.minLength(1, words.loginEmailRequired), z.maxLength(254, words.emailInvalid), z.refine(singleLine, words.controlCharacters)),
    password: currentPassword(words, words.loginPasswordRequired),
    redirectTo: z.optional(z.string().check(z.maxLength(2048, words.linkTooLong))),
  }),
);

/** The words of Create Account's checks. */
export const registrationWordKeys = [
  "registerEmailRequired",
  "registerPasswordRequired",
  "passwordsDoNotMatch",
  "acceptTermsRequired",
  "acceptPrivacyRequired",
  ...emailAddressWordKeys,
  ...newPasswordWordKeys,
] as const;

/** docs/product/data.md §5 Registration; the toggles must both be on. */
export const registrationSchema = perWords((words: FormWords<typeof registrationWordKeys>) =>
  z
    .object({
      email: emailAddress(words, words.registerEmailRequired),
      password: newPassword(words, words.registerPasswordRequired),
      confirmPassword: z.string({ error: words.passwordsDoNotMatch }),
      acceptTerms: z.literal("on", { error: words.acceptTermsRequired }),
      acceptPrivacy: z.literal("on", { error: words.acceptPrivacyRequired }),
    })
    .check(
      confirmationMatches("password", words.passwordsDoNotMatch),
    ),
);

/** The words of Confirm Account's checks. */
export const confirmAccountWordKeys = ["confirmAccountPasswordRequired", ...newPasswordWordKeys] as const;

/** docs/product/data.md §5 Confirm account: the password to set. */
export const confirmAccountSchema = perWords((words: FormWords<typeof confirmAccountWordKeys>) =>
  z.object({
    password: newPassword(words, words.confirmAccountPasswordRequired),
  }),
);

/** The words of the reset request's checks. */
export const requestPasswordChangeWordKeys = ["resetEmailRequired", ...emailAddressWordKeys] as const;

/** docs/product/data.md §5 Reset request. */
export const requestPasswordChangeSchema = perWords((words: FormWords<typeof requestPasswordChangeWordKeys>) =>
  z.object({
    email: emailAddress(words, words.resetEmailRequired),
  }),
);

/** The words of Reset Password's checks. */
export const resetPasswordWordKeys = ["newPasswordRequired", "passwordsDoNotMatch", ...newPasswordWordKeys] as const;

/** docs/product/data.md §5 Reset password: new password must match confirm. */
export const resetPasswordSchema = perWords((words: FormWords<typeof resetPasswordWordKeys>) =>
  z
    .object({
      newPassword: newPassword(words, words.newPasswordRequired),
      confirmPassword: z.string({ error: words.passwordsDoNotMatch }),
    })
    .check(
      confirmationMatches("newPassword", words.passwordsDoNotMatch),
    ),
);

/** The words of `linkParameters`' answers. */
export const linkParameterWordKeys = ["missingEmailParameter", "missingTokenParameter"] as const;

/**
 * The email and token a link carries (docs/product/screens.md §2 /confirmemail, /confirmaccount, /resetpassword).
 * @param words the request's catalogue (`messagesOf(context)`), or any object with `linkParameterWordKeys`
 * @returns the values, or the docs/product/data.md §5 message for the first one missing, in the words' language
 */
export function linkParameters(
  url: URL,
  words: FormWords<typeof linkParameterWordKeys>,
): { email: string; token: string; problem?: undefined } | { problem: string } {
  const email = url.searchParams.get("email")?.trim() ?? "";
  const token = url.searchParams.get("token")?.trim() ?? "";
  if (!email) return { problem: words.missingEmailParameter };
  if (!token) return { problem: words.missingTokenParameter };
  return { email, token };
}
