/**
 * Client of the identity authority (docs/product.md §7, identity table). Server-only.
 *
 * Client-token calls use an OAuth 2.0 client-credentials access token (scope `identity.api`),
 * cached here and renewed a minute before it expires. User calls take the user's access token
 * from the session. Answers are returned as `UpstreamResponse` so that callers can map
 * statuses to docs/product.md §8 messages; unreachable upstreams throw `UpstreamError` (status 0).
 */
import { getConfig } from "../config.server";
import { callUpstream, UpstreamError, type UpstreamRequest, type UpstreamResponse } from "./http.server";

/** docs/product.md §3: "The application name for the consumer app and the scope names are fixed settings." */
export const applicationContext = "SafeWindow";
export const clientScope = "identity.api";
export const userScopes = "openid profile consumer.api identity.user";
const renewBeforeMs = 60_000;

export interface TokenAnswer {
  access_token: string;
  expires_in: number;
  token_type?: string;
  error?: string;
  error_description?: string;
}

/** An access token and when it expires (epoch ms). */
export interface AccessToken {
  accessToken: string;
  expiresAt: number;
}

export interface IdentityResult {
  succeeded: boolean;
  errors?: { code: string; description: string }[];
}

function identityUrl(): string {
  const url = getConfig().IDENTITY_URL;
  if (!url) throw new UpstreamError("IDENTITY_URL is not configured", 0);
  return url;
}

function tokenRequest(form: Record<string, string>, clientIp?: string): Promise<UpstreamResponse<TokenAnswer>> {
  const { IDENTITY_CLIENT_ID, IDENTITY_CLIENT_SECRET } = getConfig();
  return callUpstream<TokenAnswer>(identityUrl(), "/connect/token", {
    method: "POST",
    form: { ...form, client_id: IDENTITY_CLIENT_ID, client_secret: IDENTITY_CLIENT_SECRET ?? "" },
    // The identity authority counts failed sign-ins per end user's address, not per ours.
    headers: clientIp ? { "x-forwarded-for": clientIp } : undefined,
  });
}

function toAccessToken(answer: TokenAnswer, now: number): AccessToken {
  return { accessToken: answer.access_token, expiresAt: now + answer.expires_in * 1000 };
}

let cachedClientToken: AccessToken | undefined;
let pendingClientToken: Promise<AccessToken> | undefined;

/**
 * The app's client-credentials access token, cached and renewed before it expires.
 * Concurrent callers share one token request.
 * @throws UpstreamError when the token endpoint refuses or cannot be reached
 */
export async function clientToken(now = Date.now()): Promise<string> {
  if (cachedClientToken && cachedClientToken.expiresAt - renewBeforeMs > now) return cachedClientToken.accessToken;
  pendingClientToken ??= (async () => {
    try {
      const answer = await tokenRequest({ grant_type: "client_credentials", scope: clientScope });
      if (!answer.ok) throw new UpstreamError("client credentials refused", answer.status, answer.body);
      cachedClientToken = toAccessToken(answer.body, now);
      return cachedClientToken;
    } finally {
      pendingClientToken = undefined;
    }
  })();
  return (await pendingClientToken).accessToken;
}

/** A client-token call; a 401 drops the cached token and tries once more. */
async function withClientToken<T>(path: string, request: UpstreamRequest): Promise<UpstreamResponse<T>> {
  const first = await callUpstream<T>(identityUrl(), path, { ...request, token: await clientToken() });
  if (first.status !== 401) return first;
  cachedClientToken = undefined;
  return callUpstream<T>(identityUrl(), path, { ...request, token: await clientToken() });
}

/**
 * OAuth 2.0 password grant (docs/product.md §7 POST /connect/token) for the browser at `clientIp`.
 * @returns the raw answer (400 = wrong credentials, per docs/product.md §8; 429 = locked, with the seconds to
 *   wait) and, when ok, the token
 * @throws UpstreamError (status 0) when unreachable
 */
export async function passwordGrant(
  username: string,
  password: string,
  clientIp?: string,
  now = Date.now(),
): Promise<{ status: number; token?: AccessToken; body: TokenAnswer; retryAfterSeconds?: number }> {
  const answer = await tokenRequest({ grant_type: "password", username, password, scope: userScopes }, clientIp);
  return {
    status: answer.status,
    token: answer.ok && answer.body?.access_token ? toAccessToken(answer.body, now) : undefined,
    body: answer.body,
    ...(answer.retryAfterSeconds !== undefined ? { retryAfterSeconds: answer.retryAfterSeconds } : {}),
  };
}

/** POST /api/account/register {userName, password} → {succeeded, errors}. */
export function register(userName: string, password: string) {
  return withClientToken<IdentityResult>("/api/account/register", { method: "POST", json: { userName, password } });
}

/** GET /api/account/isavailable?email → true when no account uses the address. */
export async function isAvailable(email: string): Promise<boolean> {
  const answer = await withClientToken<boolean>("/api/account/isavailable", { query: { email } });
  if (!answer.ok) throw new UpstreamError("isavailable failed", answer.status, answer.body);
  return answer.body === true;
}

/** GET /api/account/validaterequestedemail?email → {available, valid}. */
export async function validateRequestedEmail(email: string): Promise<{ available: boolean; valid: boolean }> {
  const answer = await withClientToken<{ available: boolean; valid: boolean }>(
    "/api/account/validaterequestedemail",
    { query: { email } },
  );
  if (!answer.ok) throw new UpstreamError("validaterequestedemail failed", answer.status, answer.body);
  return answer.body;
}

/** GET /api/account/sendconfirmationemail; true when the authority accepted the request. */
export async function sendConfirmationEmail(email: string): Promise<boolean> {
  const answer = await withClientToken<boolean>("/api/account/sendconfirmationemail", {
    query: { email, applicationContext, requestedUri: `${getConfig().publicUrl}/confirmemail` },
  });
  return answer.ok && answer.body !== false;
}

/** GET /api/account/confirmemail?email&token → {succeeded, errors}. */
export function confirmEmail(email: string, token: string) {
  return withClientToken<IdentityResult>("/api/account/confirmemail", { query: { email, token } });
}

/** GET /api/account/requestpasswordchange; the answer never says whether the account exists. */
export function requestPasswordChange(email: string) {
  return withClientToken<boolean>("/api/account/requestpasswordchange", {
    query: { email, applicationContext, requestedUri: `${getConfig().publicUrl}/resetpassword` },
  });
}

/** GET /api/account/changepasswordusingtoken?email&newPassword&token → {succeeded, errors}. */
export function changePasswordUsingToken(email: string, newPassword: string, token: string) {
  return withClientToken<IdentityResult>("/api/account/changepasswordusingtoken", {
    query: { email, newPassword, token },
  });
}

/** GET /api/account/confirmaccount?email&password&token → {succeeded, errors}. */
export function confirmAccount(email: string, password: string, token: string) {
  return withClientToken<IdentityResult>("/api/account/confirmaccount", { query: { email, password, token } });
}

/**
 * GET /api/account/isemailconfirmed for the signed-in user.
 * @throws UpstreamError when the call fails or cannot be made
 */
export async function isEmailConfirmed(userToken: string): Promise<boolean> {
  const answer = await callUpstream<boolean>(identityUrl(), "/api/account/isemailconfirmed", { token: userToken });
  if (!answer.ok) throw new UpstreamError("isemailconfirmed failed", answer.status, answer.body);
  return answer.body === true;
}

/** GET /api/account/changeusername; docs/product.md §7: a falsy result means failure. */
export async function changeUserName(userToken: string, userName: string): Promise<boolean> {
  const answer = await callUpstream<boolean>(identityUrl(), "/api/account/changeusername", {
    token: userToken,
    query: { userName, applicationContext },
  });
  return answer.ok && Boolean(answer.body);
}

/** GET /api/account/changepasswordusingcurrent; docs/product.md §7: a falsy result means failure. */
export async function changePasswordUsingCurrent(
  userToken: string,
  currentPassword: string,
  newPassword: string,
): Promise<boolean> {
  const answer = await callUpstream<boolean>(identityUrl(), "/api/account/changepasswordusingcurrent", {
    token: userToken,
    query: { currentPassword, newPassword, applicationContext },
  });
  return answer.ok && Boolean(answer.body);
}

/** GET /api/users/ → {userName} of the signed-in user. @throws UpstreamError */
export async function getUserInfo(userToken: string): Promise<{ userName: string }> {
  const answer = await callUpstream<{ userName: string }>(identityUrl(), "/api/users/", { token: userToken });
  if (!answer.ok) throw new UpstreamError("users failed", answer.status, answer.body);
  return answer.body;
}
