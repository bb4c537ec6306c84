/**
 * Sign-in, the login guard and redirect safety (docs/product.md §2 guarded routes, §4 route guard and
 * token validity, §8 login errors; docs/architecture.md §4 login state).
 *
 * Sign-in goes through remix-auth's FormStrategy, whose verify function calls the identity
 * authority's password grant. The guard middleware runs on the layout route that holds every
 * guarded screen: without an unexpired token (expiring within 5 s counts as expired) the user is
 * sent to /login?redirectTo=<path and query>.
 */
import { redirect, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { messages } from "~/messages";
import { minutesToWait } from "./attempt-limits.server";
import { requestContext, userContext, type SessionUser } from "./context";
import { forgetAccessToken, sessionOf } from "./session.server";
import { getUserInfo, passwordGrant, type AccessToken } from "./upstream/identity.server";
import { UpstreamError } from "./upstream/http.server";

/** docs/product.md §9: a token is treated as expired 5 s before its expiration. */
export const expirySkewMs = 5_000;

/** True while the token is still usable at `now` (epoch ms). */
export function isTokenValid(expiresAt: number | undefined, now = Date.now()): boolean {
  return typeof expiresAt === "number" && expiresAt - expirySkewMs > now;
}

/** A sign-in that failed, with the docs/product.md §8 message to show. */
export class SignInError extends Error {
  override name = "SignInError";
  /** The status the sign-in form answers with: 429 when the authority locked the attempts, else 400. */
  readonly status: 400 | 429;
  /** With 429: seconds until the authority accepts attempts again. */
  readonly retryAfterSeconds: number | undefined;
  /** True when the authority could not judge the password (unreachable, or a server error). */
  readonly unavailable: boolean;
  constructor(message: string, options: { status?: 400 | 429; retryAfterSeconds?: number; unavailable?: boolean } = {}) {
    super(message);
    this.status = options.status ?? 400;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.unavailable = options.unavailable ?? false;
  }
}

/** How long the identity authority's lockout of failed sign-ins lasts (its README) when it does not say, in seconds. */
const authorityLockoutSeconds = 15 * 60;

/**
 * docs/product.md §8 message for a failed token request: 400 → wrong credentials, 500 → unexpected, 429 →
 * when to try again (ours; `retryAfterSeconds` from the authority's Retry-After, 15 minutes when it
 * gave none), anything else → 'Unknown Error: …'.
 */
export function signInErrorMessage(status: number, detail?: string, retryAfterSeconds = authorityLockoutSeconds): string {
  if (status === 400) return messages.loginFailed;
  if (status === 500) return messages.unexpectedError;
  if (status === 0) return messages.unknownError(messages.upstreamUnavailable);
  if (status === 429) return messages.tooManyAttempts(minutesToWait(retryAfterSeconds));
  return messages.unknownError(detail ?? `status ${status}`);
}

/**
 * Calls the password grant for (email, password) from the browser at `clientIp`.
 * @throws SignInError carrying the docs/product.md §8 message
 */
export async function signIn(email: string, password: string, clientIp?: string): Promise<AccessToken & { userName: string }> {
  let answer: Awaited<ReturnType<typeof passwordGrant>>;
  try {
    answer = await passwordGrant(email, password, clientIp);
  } catch (error) {
    if (error instanceof UpstreamError) throw new SignInError(signInErrorMessage(0), { unavailable: true });
    throw error;
  }
  if (!answer.token) {
    if (answer.status === 429) {
      const wait = answer.retryAfterSeconds ?? authorityLockoutSeconds;
      throw new SignInError(signInErrorMessage(429, undefined, wait), { status: 429, retryAfterSeconds: wait });
    }
    throw new SignInError(signInErrorMessage(answer.status, answer.body?.error_description ?? answer.body?.error), { unavailable: answer.status >= 500 });
  }
  // docs/product.md §7 "Get user info returns userName": the account's own spelling, not what was typed.
  const info = await getUserInfo(answer.token.accessToken).catch(() => ({ userName: email }));
  return { ...answer.token, userName: info.userName };
}

/** The header through which `withClientIp` hands the browser's address to the strategy. */
const clientIpHeader = "x-safewindow-client-ip";

/**
 * `request` carrying the browser's address (from the load context) for the sign-in strategy;
 * whatever the browser sent under that header name is replaced.
 */
export function withClientIp(request: Request, context: Readonly<RouterContextProvider>): Request {
  const headers = new Headers(request.headers);
  headers.set(clientIpHeader, context.get(requestContext).clientIp);
  return new Request(request, { headers });
}

/** remix-auth authenticator: the "password" strategy reads email and password from the form. */
export const authenticator = new Authenticator<AccessToken & { userName: string }>();
authenticator.use(
  new FormStrategy(async ({ form, request }) => {
    const email = String(form.get("email") ?? "").trim();
    const password = String(form.get("password") ?? "");
    return signIn(email, password, request.headers.get(clientIpHeader) ?? undefined);
  }),
  "password",
);

/**
 * A redirect target from user input, honoured only when it is a local path: one leading "/",
 * not "//" or "/\" (docs/architecture.md §4). Anything else gives `fallback`.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/checkaccountstatus"): string {
  if (typeof to !== "string" || !to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return fallback;
  if (/[\u0000-\u001f]/.test(to)) return fallback;
  return to;
}

/** The path and query of a request, without the base path, for redirectTo. */
export function requestedPath(request: Request, basePrefix: string): string {
  const url = new URL(request.url);
  const pathname = basePrefix && url.pathname.startsWith(basePrefix) ? url.pathname.slice(basePrefix.length) || "/" : url.pathname;
  return pathname + url.search;
}

/** The signed-in user's session data, or undefined when there is none or its token expired. */
export function getSessionUser(context: Readonly<RouterContextProvider>, now = Date.now()): Omit<SessionUser, "signInAgain"> | undefined {
  const session = sessionOf(context);
  const accessToken = session.get("accessToken");
  const expiresAt = session.get("expiresAt");
  const userName = session.get("userName");
  if (!accessToken || !userName || !isTokenValid(expiresAt, now)) return undefined;
  return { accessToken, expiresAt: expiresAt as number, userName, enabledScreens: session.get("enabledScreens") };
}

/**
 * Guard middleware for every guarded route (docs/product.md §2): puts the user in `userContext`, or
 * redirects to /login carrying the requested path and query. The user's `signInAgain` (called when
 * an upstream refuses the token, e.g. after the signing key changed) drops the token from the
 * session and sends the user to /login the same way, with a one-time message.
 */
export function createGuard(basePrefix: () => string): MiddlewareFunction<Response> {
  return async ({ request, context }, next) => {
    // Forms post to their own route, so the path is also the page to come back to.
    const login = () => `/login?${new URLSearchParams({ redirectTo: requestedPath(request, basePrefix()) })}`;
    const user = getSessionUser(context);
    if (!user) throw redirect(login());
    context.set(userContext, {
      ...user,
      signInAgain() {
        context.get(requestContext).log.info("upstream refused the access token: signing the user out");
        forgetAccessToken(context);
        throw redirect(login());
      },
    });
    return next();
  };
}

/** The signed-in user, set by the guard middleware. @throws when used outside a guarded route */
export function requireUser(context: Readonly<RouterContextProvider>): SessionUser {
  return context.get(userContext);
}
