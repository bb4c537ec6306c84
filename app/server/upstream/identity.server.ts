/**
 * Client of the identity authority (docs/product/calls.md §7.1; contract: contracts/identity.ts).
 * Server-only.
 *
 * Every method answers `Result<T>` (docs/architecture/upstream-calls.md §6.3): the answer, validated with the
 * contract's schema, or a failure carrying the docs/product/messages.md §8 message of that call.
 * Client-token calls use an OAuth 2.0 client-credentials access token (scope `identity.api`),
 * cached here and renewed a minute before it expires; a 401 drops it and tries once more. User
 * calls take the signed-in user's access token; a 401 sends the user to sign in again.
 */
import type { RouterContextProvider } from "react-router";
import { identityCalls, type IdentityCallName } from "../../../contracts/identity.ts";
import { catalogues, type Messages } from "~/messages/catalogues";
import { minutesToWait } from "../attempt-limits.server";
import { getConfig } from "../config.server";
import { requestContext, userContext, type SessionUser } from "../context";
import { callMessagesOf, upstreamLanguageOf } from "../i18n.server";
import { callContract, type CallMessages, type CallOptions, type ContractRequest } from "./http.server";
import { extensionSupported, learnFromAnswer } from "./extensions.server";
import { failure, type Result } from "./result.server";

export type { EmailValidation, IdentityResult, UserInfo } from "../../../contracts/identity.ts";

/** docs/product/data.md §3: "The application name for the consumer app and the scope names are fixed settings." */
export const applicationContext = "SafeWindow";
export const clientScope = "identity.api";
export const userScopes = "openid profile consumer.api business.api identity.user";
const renewBeforeMs = 60_000;

/** How long the identity authority's lockout of failed sign-ins lasts when it does not say, in seconds. */
export const authorityLockoutSeconds = 15 * 60;

/** An access token and when it expires (epoch ms). */
export interface AccessToken {
  accessToken: string;
  expiresAt: number;
}

/**
 * docs/product/messages.md §8 message for a refused token request, by the authority's status: 400 → wrong
 * credentials, 500 → unexpected, 429 → when to try again (ours; `retryAfterSeconds` from the
 * authority's Retry-After, 15 minutes when it gave none), 0 (no answer) → 'Unknown Error: the
 * service did not answer', anything else → 'Unknown Error: ' and the authority's description; in
 * the catalogue `messages` (the request's language; English by default). The authority's description is shown as it sent it.
 */
export function signInErrorMessage(status: number, detail?: string, retryAfterSeconds = authorityLockoutSeconds, messages: Messages = catalogues.en): string {
  if (status === 400) return messages.loginFailed;
  if (status === 500) return messages.unexpectedError;
  if (status === 0) return messages.unknownError(messages.upstreamUnavailable);
  if (status === 429) return messages.tooManyAttempts(minutesToWait(retryAfterSeconds));
  return messages.unknownError(detail ?? `status ${status}`);
}

/** The messages of the token endpoint's password grant (docs/product/messages.md §8 login), from the catalogue `m` of the request's language. */
function signInMessages(m: Messages): CallMessages {
  return {
    failed: m.loginFailed,
    unavailable: signInErrorMessage(0, undefined, undefined, m),
    tooManyAttempts: (seconds) => signInErrorMessage(429, undefined, seconds, m),
    answered: (status, body) => {
      if (status === 429) return undefined;
      const answer = body as { error?: unknown; error_description?: unknown } | null;
      const detail = typeof answer?.error_description === "string" ? answer.error_description : typeof answer?.error === "string" ? answer.error : undefined;
      return signInErrorMessage(status, detail, undefined, m);
    },
  };
}

function identityUrl(): string {
  const url = getConfig().IDENTITY_URL;
  if (!url) throw new Error("IDENTITY_URL is not configured");
  return url;
}

let cachedClientToken: AccessToken | undefined;
let pendingClientToken: Promise<Result<AccessToken>> | undefined;

/** Drops the cached client token (a 401 on a client call; tests). */
export function forgetClientToken(): void {
  cachedClientToken = undefined;
}

/**
 * The identity authority as seen from one request: `context` gives the request's logger and, for
 * user calls, the signed-in user (whose token a 401 makes them sign in again for). Without a
 * context calls log to the process logger. Every call sends the request's negotiated language as
 * `Accept-Language` (none without a context), except the shared client-token request
 * (docs/architecture/upstream-calls.md §6.2).
 */
export function identityApi(context?: Readonly<RouterContextProvider>) {
  const log = context?.get(requestContext).log;
  const language = upstreamLanguageOf(context);
  // Failure messages in the request's language (docs/architecture/behaviour.md §4 "Language").
  const messages = callMessagesOf(context);
  const call = <N extends IdentityCallName>(name: N, request: ContractRequest, callMessages: CallMessages, options: CallOptions = {}) =>
    callContract(identityUrl(), name, identityCalls[name], request, callMessages, { log, ...(language ? { language } : {}), ...options });

  /**
   * The token endpoint with the app's client credentials added to `form`. `ownLanguage: false` for
   * the client token, which is shared by every request (no person's language belongs to it).
   */
  const tokenRequest = (form: Record<string, string>, callMessages: CallMessages, clientIp?: string, ownLanguage = true) => {
    const { IDENTITY_CLIENT_ID, IDENTITY_CLIENT_SECRET } = getConfig();
    return call(
      "token",
      {
        form: { ...form, client_id: IDENTITY_CLIENT_ID, client_secret: IDENTITY_CLIENT_SECRET ?? "" },
        // The identity authority counts failed sign-ins per end user's address, not per ours.
        headers: clientIp ? { "x-forwarded-for": clientIp } : undefined,
      },
      callMessages,
      ownLanguage ? {} : { language: undefined },
    );
  };

  /** The app's client-credentials token, cached; concurrent callers share one token request. */
  const clientToken = async (callMessages: CallMessages, now = Date.now()): Promise<Result<AccessToken>> => {
    if (cachedClientToken && cachedClientToken.expiresAt - renewBeforeMs > now) return { ok: true, value: cachedClientToken };
    pendingClientToken ??= (async () => {
      try {
        const answer = await tokenRequest({ grant_type: "client_credentials", scope: clientScope }, callMessages, undefined, false);
        if (!answer.ok) return answer;
        cachedClientToken = { accessToken: answer.value.access_token, expiresAt: now + answer.value.expires_in * 1000 };
        return { ok: true, value: cachedClientToken } as const;
      } finally {
        pendingClientToken = undefined;
      }
    })();
    const token = await pendingClientToken;
    // A shared request answers with the first caller's messages: give this call's own.
    return token.ok ? token : failure(token.reason, token.status === 0 || token.status >= 500 ? (callMessages.unavailable ?? callMessages.failed) : callMessages.failed, token.status);
  };

  /** A client-token call; a 401 drops the cached token and tries once more. */
  const withClientToken = async <N extends IdentityCallName>(name: N, request: ContractRequest, callMessages: CallMessages) => {
    for (let attempt = 0; ; attempt++) {
      const token = await clientToken(callMessages);
      if (!token.ok) return token;
      const answer = await call(name, { ...request, token: token.value.accessToken }, callMessages);
      if (answer.ok || answer.status !== 401 || attempt > 0) return answer;
      forgetClientToken();
    }
  };

  /**
   * An account change (IdentityResult): `true`, or a refusal with the authority's reasons, also
   * when a 200 says `succeeded: false`.
   */
  const accountChange = async (name: "register" | "confirmEmail" | "changePasswordUsingToken" | "confirmAccount", request: ContractRequest, callMessages: CallMessages): Promise<Result<true>> => {
    const answer = await withClientToken(name, request, callMessages);
    if (!answer.ok) return answer;
    if (answer.value.succeeded) return { ok: true, value: true };
    return failure("refused", callMessages.failed, 200, answer.value.errors.length ? { errors: answer.value.errors } : {});
  };

  /** A user call with the signed-in user's token; a 401 sends the user to sign in again. */
  const asUser = <N extends IdentityCallName>(name: N, user: SessionUser, request: ContractRequest, callMessages: CallMessages) =>
    call(name, { ...request, token: user.accessToken }, callMessages, { onUnauthorized: () => user.signInAgain() });

  const signedInUser = (): SessionUser => {
    if (!context) throw new Error("a user call needs the request's context");
    return context.get(userContext);
  };

  return {
    /**
     * OAuth 2.0 password grant (POST /connect/token) for the browser at `clientIp`: the user's
     * access token. Failures carry the docs/product/messages.md §8 login messages; 429 (the authority's
     * lockout) carries its Retry-After.
     */
    async passwordGrant(username: string, password: string, clientIp?: string, now = Date.now()): Promise<Result<AccessToken>> {
      const answer = await tokenRequest({ grant_type: "password", username, password, scope: userScopes }, signInMessages(messages), clientIp);
      if (!answer.ok) return answer.reason === "tooManyAttempts" ? { ...answer, retryAfterSeconds: answer.retryAfterSeconds ?? authorityLockoutSeconds } : answer;
      return { ok: true, value: { accessToken: answer.value.access_token, expiresAt: now + answer.value.expires_in * 1000 } };
    },

    /**
     * GET /api/users/ with a token just granted: the account's user name (the e-mail as the
     * account spells it). Failure message: loginFailed (only sign-in uses it).
     */
    userInfo(accessToken: string) {
      return call("getUserInfo", { token: accessToken }, { failed: messages.loginFailed });
    },

    /**
     * POST /api/account/register {userName, password} → IdentityResult. A refusal lists the
     * authority's reasons in `errors` (docs/product/messages.md §8: each shown as "code: description").
     */
    register(userName: string, password: string) {
      return accountChange("register", { json: { userName, password } }, {
        failed: messages.registerUnknownError,
        answered: (status) => (status === 500 ? messages.registerServerError : undefined),
      });
    },

    /** GET /api/account/isavailable?email → true when no account uses the address. */
    isAvailable(email: string) {
      return withClientToken("isAvailable", { query: { email } }, { failed: messages.registerUnknownError });
    },

    /** GET /api/account/validaterequestedemail?email → {available, valid} (settings' e-mail change). */
    validateRequestedEmail(email: string) {
      return withClientToken("validateRequestedEmail", { query: { email } }, { failed: messages.userNameValidationFailed });
    },

    /**
     * GET /api/account/sendconfirmationemail: mails a new confirmation link to `email`.
     * `failedMessage`: registration and /confirmemail say confirmationEmailSendFailed,
     * /checkconfirmation sendEmailConfirmationFailed (docs/product/messages.md §8).
     */
    async sendConfirmationEmail(email: string, failedMessage: string = messages.confirmationEmailSendFailed): Promise<Result<true>> {
      const answer = await withClientToken("sendConfirmationEmail", {
        query: { email, applicationContext, requestedUri: `${getConfig().publicUrl}/confirmemail` },
      }, { failed: failedMessage });
      if (!answer.ok) return answer;
      return answer.value ? { ok: true, value: true } : failure("refused", failedMessage, 200);
    },

    /** GET /api/account/confirmemail?email&token → IdentityResult (docs/product/messages.md §8: a bad link, or the authority down). */
    confirmEmail(email: string, token: string) {
      return accountChange("confirmEmail", { query: { email, token } }, {
        failed: messages.emailConfirmFailed,
        unavailable: messages.emailConfirmFailedShort,
      });
    },

    /** GET /api/account/requestpasswordchange; the answer never says whether the account exists. */
    requestPasswordChange(email: string) {
      return withClientToken("requestPasswordChange", {
        query: { email, applicationContext, requestedUri: `${getConfig().publicUrl}/resetpassword` },
      }, { failed: messages.resetRequested });
    },

    /** GET /api/account/changepasswordusingtoken?email&newPassword&token → IdentityResult. */
    changePasswordUsingToken(email: string, newPassword: string, token: string) {
      return accountChange("changePasswordUsingToken", { query: { email, newPassword, token } }, {
        failed: messages.passwordChangeFailed,
        unavailable: messages.unexpectedError,
      });
    },

    /** GET /api/account/confirmaccount?email&password&token → IdentityResult. */
    confirmAccount(email: string, password: string, token: string) {
      return accountChange("confirmAccount", { query: { email, password, token } }, { failed: messages.confirmAccountFailed });
    },

    /** GET /api/account/isemailconfirmed for the signed-in user. */
    isEmailConfirmed() {
      return asUser("isEmailConfirmed", signedInUser(), {}, { failed: messages.checkConfirmationFailed });
    },

    /** GET /api/account/changeusername for the signed-in user; docs/product/calls.md §7: a falsy result means failure. */
    async changeUserName(userName: string): Promise<Result<true>> {
      const answer = await asUser("changeUserName", signedInUser(), { query: { userName, applicationContext } }, { failed: messages.userNameChangeFailed });
      if (!answer.ok) return answer;
      return answer.value ? { ok: true, value: true } : failure("refused", messages.userNameChangeFailed, 200);
    },

    /**
     * Extension POST /api/account/delete {password}: deletes the signed-in user's account; the authority
     * mails the address a confirmation. `refused` when the password is wrong (the answer false).
     */
    async deleteAccount(password: string): Promise<Result<true>> {
      const messagesOfCall = { failed: messages.deleteAccountIncomplete, unavailable: messages.deleteAccountIncomplete };
      const answer = await asUser("deleteAccount", signedInUser(), { json: { password } }, messagesOfCall);
      learnFromAnswer(identityUrl(), "accountDeletion", answer);
      if (!answer.ok) return answer;
      return answer.value ? { ok: true, value: true } : failure("refused", messages.currentPasswordWrong, 200);
    },

    /**
     * Whether the identity authority serves the extension POST /api/account/delete (My Settings offers Delete
     * my account only then). Learnt from the call without a password: 400 where it exists, 404 where it does
     * not; nothing is deleted. Kept per upstream for 10 minutes (app/server/upstream/extensions.server.ts); an
     * authority that does not answer counts as serving it.
     */
    accountDeletionSupported(): Promise<boolean> {
      return extensionSupported(identityUrl(), "accountDeletion", () =>
        asUser("deleteAccount", signedInUser(), { json: {} }, { failed: messages.deleteAccountIncomplete }),
      );
    },

    /** GET /api/account/changepasswordusingcurrent for the signed-in user; a falsy result means failure. */
    async changePasswordUsingCurrent(currentPassword: string, newPassword: string): Promise<Result<true>> {
      const answer = await asUser("changePasswordUsingCurrent", signedInUser(), {
        query: { currentPassword, newPassword, applicationContext },
      }, { failed: messages.settingsPasswordChangeFailed });
      if (!answer.ok) return answer;
      return answer.value ? { ok: true, value: true } : failure("refused", messages.settingsPasswordChangeFailed, 200);
    },
  };
}
