/**
 * The four posts of My Settings (docs/product/screens.md §2 /settings, §5 settings rules, §8 username and
 * settings-password messages): change the password, change the username (e-mail), choose the time
 * zone, delete the account. Each takes the posted form and answers as the route's action does: a
 * redirect to the page on success, else data with the intent and conform's reply (the time zone:
 * its error).
 */
import { data, redirect, type RouterContextProvider } from "react-router";
import { parseWithZod } from "@conform-to/zod/v4";
import { changePasswordSchema, changeUserNameSchema, deleteAccountSchema } from "~/forms/settings";
import { attemptRefused, forgiveAttempt } from "./attempts.server";
import { authenticate, SignInError } from "./auth.server";
import type { SessionUser } from "./context";
import { messagesOf } from "./i18n.server";
import { forgetLocalData, rememberUserName } from "./preferences.server";
import { changeSessionUserName, forgetAccountSessions, revokeOtherSessions, setFlash } from "./session.server";
import { isSelectableTimeZone, rememberTimeZone } from "./timezone.server";
import { businessApi } from "./upstream/business.server";
import { consumerApi } from "./upstream/consumer.server";
import { identityApi } from "./upstream/identity.server";
import { failureInit } from "./upstream/result.server";

type Context = Readonly<RouterContextProvider>;

const passwordFields = ["currentPassword", "newPassword", "confirmPassword"];

/**
 * Changes the password with the current one (intent "password"). Success closes the panel and
 * clears its fields (docs/product/data.md §4 settings panels); every other browser signed in to the
 * account is signed out, this one stays.
 */
export async function changePassword(formData: FormData, context: Context) {
  const messages = messagesOf(context);
  const submission = parseWithZod(formData, { schema: changePasswordSchema(messages) });
  const hideFields = passwordFields;
  if (submission.status !== "success") return data({ intent: "password" as const, result: submission.reply({ hideFields }) }, { status: 400 });
  const { currentPassword, newPassword } = submission.value;
  const changed = await identityApi(context).changePasswordUsingCurrent(currentPassword, newPassword);
  if (!changed.ok) return data({ intent: "password" as const, result: submission.reply({ formErrors: [changed.message], hideFields }) }, failureInit(changed));
  await revokeOtherSessions(context);
  setFlash(context, "notice", messages.passwordChanged);
  return redirect("/settings");
}

/**
 * Checks the signed-in user's current password (the form's `currentPassword`, in the unread body
 * of `request`) with the sign-in strategy, counted like a sign-in against the sign-in attempt
 * limits. @returns null when it is right; else the refusal to show: on the password field (wrong,
 * or too many attempts), or for the form with `unavailableMessage` when the authority could not judge it.
 */
async function passwordRefusal(
  request: Request,
  context: Context,
  user: SessionUser,
  unavailableMessage: string,
): Promise<{ message: string; init: number | ResponseInit; field?: "currentPassword" } | null> {
  const refused = await attemptRefused(context, "signIn", user.userName);
  if (refused) return { message: refused.message, init: refused.init, field: "currentPassword" };
  const messages = messagesOf(context);
  try {
    await authenticate(request, context, user.userName);
  } catch (error) {
    if (!(error instanceof SignInError)) throw error;
    const checked = error.failure;
    if (checked.reason === "tooManyAttempts") return { message: checked.message, init: failureInit(checked), field: "currentPassword" };
    // The authority could not judge the password: the change cannot be made now (docs/product/messages.md §8 wording).
    if (checked.reason !== "refused") return { message: unavailableMessage, init: failureInit(checked) };
    return { message: messages.currentPasswordWrong, init: 400, field: "currentPassword" };
  }
  await forgiveAttempt(context, "signIn", user.userName);
  return null;
}

/**
 * Changes the username (intent "username"), the current password checked first: whoever holds
 * only the session learns nothing, not even whether the new address is taken. The change mails
 * the new address, so it is counted per recipient.
 */
export async function changeUserName(request: Request, formData: FormData, context: Context, user: SessionUser) {
  const messages = messagesOf(context);
  const submission = parseWithZod(formData, { schema: changeUserNameSchema(messages) });
  const hideFields = ["currentPassword"];
  if (submission.status !== "success") return data({ intent: "username" as const, result: submission.reply({ hideFields }) }, { status: 400 });
  const { userName } = submission.value;
  const fail = (message: string, init: number | ResponseInit, field: "userName" | "currentPassword" = "userName") =>
    data({ intent: "username" as const, result: submission.reply({ fieldErrors: { [field]: [message] }, hideFields }) }, init);
  const wrong = await passwordRefusal(request, context, user, messages.userNameValidationFailed);
  if (wrong) return fail(wrong.message, wrong.init, wrong.field);
  const identity = identityApi(context);
  const validated = await identity.validateRequestedEmail(userName);
  if (!validated.ok) return fail(validated.message, failureInit(validated));
  const check = validated.value;
  if (!check.valid) return fail(messages.userNameInvalid, 400);
  if (!check.available) return fail(messages.userNameTaken, 409);
  const refused = await attemptRefused(context, "mail", userName);
  if (refused) return fail(refused.message, refused.init);
  const changed = await identity.changeUserName(userName);
  if (!changed.ok) return fail(changed.message, failureInit(changed));
  const normalized = userName.trim().toLowerCase();
  await changeSessionUserName(context, normalized);
  setFlash(context, "notice", messages.userNameChanged);
  return redirect("/settings", { headers: { "Set-Cookie": await rememberUserName(normalized) } });
}

/**
 * Deletes the account (intent "deleteAccount"; docs/product/screens.md §2.5): the password is checked
 * first, like a sign-in and counted like one, so nothing is deleted on a wrong one; then the
 * consumer API forgets the profile and everything hanging from it (visits included), the business
 * API the person's business user info, then the identity authority the account (it mails the
 * confirmation, and removes the account's other mails); then every session of the account is
 * deleted from the session store, on every browser (with their access tokens; docs/security/accounts.md
 * "Deleting an account"), and this one lands on Sign In with the news. The consumer and business
 * APIs go first: should the authority fail after them, the user can still sign in and finish.
 */
export async function deleteAccount(request: Request, formData: FormData, context: Context, user: SessionUser) {
  const messages = messagesOf(context);
  const submission = parseWithZod(formData, { schema: deleteAccountSchema(messages) });
  const hideFields = ["currentPassword"];
  if (submission.status !== "success") return data({ intent: "deleteAccount" as const, result: submission.reply({ hideFields }) }, { status: 400 });
  const fail = (message: string, init: number | ResponseInit, field?: "currentPassword") =>
    data({ intent: "deleteAccount" as const, result: submission.reply(field ? { fieldErrors: { [field]: [message] }, hideFields } : { formErrors: [message], hideFields }) }, init);
  const { currentPassword } = submission.value;
  const wrong = await passwordRefusal(request, context, user, messages.deleteAccountFailed);
  if (wrong) return fail(wrong.message, wrong.init, wrong.field);
  const forgotten = await consumerApi(context).deleteProfile();
  if (!forgotten.ok) return fail(forgotten.message, failureInit(forgotten));
  const forgottenBusiness = await businessApi(context).deleteUserInfo();
  if (!forgottenBusiness.ok) return fail(forgottenBusiness.message, failureInit(forgottenBusiness));
  const closed = await identityApi(context).deleteAccount(currentPassword);
  if (!closed.ok) return fail(closed.reason === "refused" ? messages.deleteAccountIncomplete : closed.message, failureInit(closed));
  await forgetAccountSessions(context, messages.accountDeleted);
  const headers = new Headers();
  for (const cookie of await forgetLocalData()) headers.append("Set-Cookie", cookie);
  return redirect("/login", { headers });
}

/** Keeps the time zone chosen on this device (intent "timeZone"; "" is Automatic); docs/architecture/behaviour.md §4 "One clock". */
export async function chooseTimeZone(formData: FormData, context: Context) {
  const zone = formData.get("timeZone");
  const messages = messagesOf(context);
  if (zone !== "" && !isSelectableTimeZone(zone)) return data({ intent: "timeZone" as const, error: messages.timeZoneUnknown }, { status: 400 });
  setFlash(context, "notice", zone === "" ? messages.timeZoneAutomaticSaved : messages.timeZoneSaved);
  return redirect("/settings", { headers: { "Set-Cookie": await rememberTimeZone(zone === "" ? null : zone) } });
}
