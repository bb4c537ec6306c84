/**
 * Sign-in, the login guard and redirect safety (docs/product/screens.md §2 guarded routes, §4 route guard and
 * token validity, §8 login errors; docs/architecture/behaviour.md §4 login state).
 *
 * Sign-in, and the signed-in user proving their password again, go through one remix-auth
 * strategy (remix-auth-form's FormStrategy), whose verify function calls the identity authority's
 * password grant. The guard middleware runs on the layout route that holds every
 * guarded screen: without an unexpired token (expiring within 5 s counts as expired) the user is
 * sent to /login?redirectTo=<path and query>.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { redirect, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { getConfig } from "./config.server";
import { requestContext, userContext, type SessionUser } from "./context";
import { forgetAccessToken, sessionOf } from "./session.server";
import { identityApi, type AccessToken } from "./upstream/identity.server";
import type { Failure, Result } from "./upstream/result.server";

/** docs/product/messages.md §9: a token is treated as expired 5 s before its expiration. */
export const expirySkewMs = 5_000;

/** True while the token is still usable at `now` (epoch ms). */
export function isTokenValid(expiresAt: number | undefined, now = Date.now()): boolean {
  return typeof expiresAt === "number" && expiresAt - expirySkewMs > now;
}

/** A sign-in that failed: thrown by `authenticate` (remix-auth's verify must throw), carrying the failure. */
export class SignInError extends Error {
  override name = "SignInError";
  readonly failure: Failure;
  constructor(failed: Failure) {
    super(failed.message);
    this.failure = failed;
  }
}

/**
 * Calls the password grant for (email, password) from the browser at `clientIp`, then asks the
 * authority for the account's user name (docs/product/calls.md §7 "Get user info returns userName": the
 * account's own spelling, not what was typed; what was typed when that call fails).
 * @returns the access token and user name, or a failure with the docs/product/messages.md §8 login message
 *   (`tooManyAttempts` carries the authority's lockout in retryAfterSeconds)
 */
async function passwordGrant(
  email: string,
  password: string,
  clientIp: string,
  context: Readonly<RouterContextProvider>,
): Promise<Result<SignedIn>> {
  const identity = identityApi(context);
  const granted = await identity.passwordGrant(email, password, clientIp);
  if (!granted.ok) return granted;
  const info = await identity.userInfo(granted.value.accessToken);
  return { ok: true, value: { ...granted.value, userName: info.ok ? info.value.userName : email } };
}

/** A signed-in account: the authority's token and the account's user name. */
export type SignedIn = AccessToken & { userName: string };

/**
 * What the strategy needs besides the request, handed over the way remix-auth's README says
 * ("Use AsyncLocalStorage to pass extra data to authenticate"): the request's context (the
 * browser's address as the load context found it, and the request's logger) and, when the
 * signed-in user proves their password again, their account.
 */
interface SignInScope {
  context: Readonly<RouterContextProvider>;
  /** Re-authentication: the signed-in account, never one the form names; the password is the form's `currentPassword`. */
  account?: string;
}
const signInScope = new AsyncLocalStorage<SignInScope>();

/** remix-auth authenticator with the one sign-in strategy, "password" (remix-auth-form's FormStrategy). */
const authenticator = new Authenticator<SignedIn>();
authenticator.use(
  new FormStrategy(async ({ form }) => {
    const scope = signInScope.getStore();
    if (!scope) throw new Error("the password strategy runs only inside authenticate()");
    const email = scope.account ?? String(form.get("email") ?? "").trim();
    const password = String(form.get(scope.account === undefined ? "password" : "currentPassword") ?? "");
    const signedIn = await passwordGrant(email, password, scope.context.get(requestContext).clientIp, scope.context);
    if (!signedIn.ok) throw new SignInError(signedIn);
    return signedIn.value;
  }),
  "password",
);

/**
 * Signs in with the form `request` posts: its `email` and `password`, or, given `account` (the
 * signed-in user proving their password again, docs/security/accounts.md "Sessions"), that account and the
 * form's `currentPassword`. The identity authority's password grant judges it, told the browser's
 * address from the load context (never a header the browser sent). The request's body must be
 * unread: read a clone (`readForm(request.clone(), context)`, app/server/form.server.ts), as remix-auth-form's README says.
 * @returns the token and the account's user name
 * @throws SignInError with the docs/product/messages.md §8 login failure (wrong credentials, too many
 *   attempts with the authority's lockout, the authority unreachable)
 */
export function authenticate(request: Request, context: Readonly<RouterContextProvider>, account?: string): Promise<SignedIn> {
  return signInScope.run({ context, account }, () => authenticator.authenticate("password", request));
}

/**
 * A redirect target from user input, honoured only when it is a local path: one leading "/",
 * not "//" or "/\", and of printable ASCII only (docs/architecture/behaviour.md §4). Anything
 * else gives `fallback`: a control character, a space, DEL, or any character above U+007E, which
 * a `Location` header cannot carry as it is. The paths the app puts in `redirectTo` itself are
 * percent-encoded already (read from a URL), so only a crafted target is refused.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/checkaccountstatus"): string {
  if (typeof to !== "string" || !to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return fallback;
  if (!/^[\x21-\x7e]+$/.test(to)) return fallback;
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
 * Guard middleware for every guarded route (docs/product/screens.md §2): puts the user in `userContext`, or
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

/**
 * The guard of the signed-in layouts (app/routes/guarded.tsx and app/routes/main.tsx, each the first
 * middleware of its routes), sending to /login under the configured base path.
 */
export const signInGuard = createGuard(() => getConfig().basePrefix);

/** The signed-in user, set by the guard middleware. @throws when used outside a guarded route */
export function requireUser(context: Readonly<RouterContextProvider>): SessionUser {
  return context.get(userContext);
}
