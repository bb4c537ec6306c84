/**
 * Server-side sessions (docs/decisions/0009-sessions-in-the-database.md; docs/operating.md "Replicas").
 *
 * The cookie `__session` holds only a random id, signed with SESSION_SECRET; the data (the user's
 * access token, its expiry, userName, enabledScreens, one-time messages) stays on the server in
 * the store server.ts hands over in the load context (`RequestInfo.sessions`): the embedded
 * database, PostgreSQL, or Redis (session-store.server.ts). Made like every app cookie
 * (cookies.server.ts: `__Host-session` over https), 12 hours.
 *
 * `sessionMiddleware` (root route) reads the session once per request and puts it in
 * `sessionContext`; loaders and actions change it there (`setFlash`, `signInSession`,
 * `endSession`, ...). On the way out the middleware writes it back only when its data changed
 * (a plain page view writes nothing), rotating the id at sign-in and deleting it at sign-out.
 *
 * A cookie whose id is unknown, expired, or whose data cannot be read counts as no session (the
 * user signs in again), never as an error. A store that cannot be reached answers 503.
 *
 * A session from before the user's password change, reset or e-mail change elsewhere (an older
 * session generation, session-store.server.ts) is signed out at its next request, told why.
 *
 * Every answer to a signed-in request (documents, `.data`, images) is `Cache-Control: no-store`,
 * so neither a shared cache nor the back button after logout keeps personal data
 * (docs/security/README.md); anonymous pages keep their own caching.
 */
import { createContext, createSession, createSessionStorage, type Cookie, type MiddlewareFunction, type RouterContextProvider, type Session, type SessionStorage } from "react-router";
import { z } from "zod";
import { counter } from "../../lib/metrics.ts";
import { routeErrorInLanguage } from "./error-page.server";
import { getConfig } from "./config.server";
import { messagesOf } from "./i18n.server";
import { appCookie } from "./cookies.server";
import { requestContext } from "./context";
import type { SessionDataStore } from "./session-store.server";
import type { ScreenName } from "./upstream/consumer.server";

export interface SessionData {
  accessToken: string;
  /** epoch ms */
  expiresAt: number;
  userName: string;
  /** docs/product/data.md §6: the enabledScreens list, fetched after login and kept for the session. */
  enabledScreens?: ScreenName[];
  /** The user's session generation when this session began or last changed the account. */
  generation?: number;
  /** The IANA zone of the profile's postal code (app/server/timezone.server.ts). */
  postalTimeZone?: string;
}

/** One-time messages for the next page (read once, then gone). */
export interface SessionFlash {
  notice: string;
  error: string;
}

export type AppSession = Session<SessionData, SessionFlash>;

/** Session lifetime: 12 hours, in seconds (the access token inside expires sooner and is checked on each request). */
const sessionMaxAgeSeconds = 12 * 60 * 60;

/**
 * What a stored session may hold. Data of any other shape (an older version's, or damaged) is
 * dropped: the user is simply signed out.
 */
const storedSessionSchema = z.object({
  accessToken: z.string().min(1).optional(),
  expiresAt: z.number().optional(),
  userName: z.string().optional(),
  enabledScreens: z.array(z.string()).optional(),
  generation: z.number().int().nonnegative().optional(),
  postalTimeZone: z.string().max(64).optional(),
  __flash_notice__: z.string().optional(),
  __flash_error__: z.string().optional(),
});

/** The request's session and what should happen to it when the response goes out. */
interface SessionState {
  session: AppSession;
  /** `keep`: write back if changed; `rotate`: store under a new id (sign-in); `destroy`: delete (sign-out). */
  fate: "keep" | "rotate" | "destroy";
}

const sessionContext = createContext<SessionState>();

/** A store's session storage (writes) and its cookie (the middleware's own read, `readSession`). */
interface StorageOf {
  storage: SessionStorage<SessionData, SessionFlash>;
  cookie: Cookie;
}

/** One storage per store object (server.ts makes one store per process). */
const storages = new WeakMap<SessionDataStore, StorageOf>();

/** Stored data as the session may hold it (storedSessionSchema), or null when it holds anything else. */
function checked(stored: Record<string, unknown> | null): Partial<SessionData> | null {
  const parsed = storedSessionSchema.safeParse(stored);
  // React Router types the stored data as complete; what is read back is checked here instead.
  return parsed.success ? (parsed.data as Partial<SessionData>) : null;
}

function storageFor(store: SessionDataStore): StorageOf {
  let found = storages.get(store);
  if (!found) {
    const config = getConfig();
    if (!config.SESSION_SECRET) throw new Error("SESSION_SECRET is not set (server.ts keeps one in DATA_DIR)");
    const cookie = appCookie("__session", { maxAge: sessionMaxAgeSeconds, signed: true });
    const storage = createSessionStorage<SessionData, SessionFlash>({
      cookie,
      createData: (values, expires) => store.createData(values as Record<string, unknown>, expires),
      readData: async (id) => checked(await store.readData(id)),
      updateData: (id, values, expires) => store.updateData(id, values as Record<string, unknown>, expires),
      deleteData: (id) => store.deleteData(id),
    });
    found = { storage, cookie };
    storages.set(store, found);
  }
  return found;
}

/**
 * The request's session and its user's current generation, in one call of the store
 * (`SessionDataStore.readSession`): what React Router's `getSession` does (the id from the signed
 * cookie, then its data), with the generation read in the same step.
 * @returns an empty session (id "") without a valid cookie, one with the cookie's id and no data when the store has none
 */
async function readSession(store: SessionDataStore, cookie: Cookie, cookieHeader: string | null): Promise<{ session: AppSession; userGeneration: number }> {
  const id: unknown = cookieHeader ? await cookie.parse(cookieHeader) : null;
  if (typeof id !== "string" || id === "") return { session: createSession<SessionData, SessionFlash>(), userGeneration: 0 };
  const stored = await store.readSession(id);
  const data = stored ? checked(stored.data) : null;
  return { session: createSession<SessionData, SessionFlash>((data ?? {}) as SessionData, id), userGeneration: stored?.userGeneration ?? 0 };
}

/** Reads and writes of sessions the store failed (GET /metrics), by operation. */
const sessionStoreFailures = counter("safewindow_session_store_failures_total", "Session store reads or writes that failed (the page answered 503), by operation.", ["operation"]);

/** The session store was unreachable during `operation`: the page answers 503 (the request is not lost, it can be retried). */
function storeUnavailable(error: unknown, context: Readonly<RouterContextProvider>, operation: "read" | "write"): never {
  sessionStoreFailures.inc({ operation });
  context.get(requestContext).log.error({ err: error }, "session store unavailable");
  // No loader has answered: the error carries its page's words (app/error-page.ts).
  throw routeErrorInLanguage(context, { status: 503, statusText: "Service Unavailable" });
}

/**
 * Root middleware: reads the session once, then after the response is made writes it back if it
 * changed (Set-Cookie appended), stores it under a fresh id after `signInSession`, or deletes it
 * after `endSession`.
 * @throws a 503 response when the session store cannot be reached
 */
export const sessionMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const { sessions: store } = context.get(requestContext);
  const { storage, cookie } = storageFor(store);
  let session: AppSession;
  // The current generation of the session's user, read with the session (one call of the store).
  let current: number;
  try {
    ({ session, userGeneration: current } = await readSession(store, cookie, request.headers.get("Cookie")));
  } catch (error) {
    storeUnavailable(error, context, "read");
  }
  // An id that led to no data (unknown, expired, unreadable) is dropped, so a write starts afresh.
  if (session.id && Object.keys(session.data).length === 0) session = createSession<SessionData, SessionFlash>();
  const before = JSON.stringify(session.data);
  if (session.has("accessToken") && session.get("userName")) {
    if ((session.get("generation") ?? 0) < current) {
      context.get(requestContext).log.info("session from before an account change elsewhere: signed out");
      signOut(session, context);
    }
  }
  const state: SessionState = { session, fate: "keep" };
  context.set(sessionContext, state);

  const signedInBefore = session.has("accessToken");
  const response = await next();
  if (signedInBefore || state.session.has("accessToken")) response.headers.set("Cache-Control", "no-store");

  let setCookie: string | undefined;
  try {
    setCookie = await settle(storage, store, state, before);
  } catch (error) {
    storeUnavailable(error, context, "write");
  }
  if (setCookie) response.headers.append("Set-Cookie", setCookie);
  return response;
};

/** Carries out the session's fate. @returns the Set-Cookie value, when the cookie must change */
async function settle(storage: SessionStorage<SessionData, SessionFlash>, store: SessionDataStore, state: SessionState, before: string): Promise<string | undefined> {
  const { session, fate } = state;
  if (fate === "destroy") return session.id ? storage.destroySession(session) : undefined;
  if (fate === "rotate") {
    if (session.id) await storage.destroySession(session);
    const fresh = createSession<SessionData, SessionFlash>(session.data as SessionData);
    const userName = fresh.get("userName");
    if (userName) fresh.set("generation", await store.userGeneration(userName));
    return storage.commitSession(fresh);
  }
  if (JSON.stringify(session.data) === before) return undefined;
  return storage.commitSession(session);
}

/** The request's session (set by `sessionMiddleware`). */
export function sessionOf(context: Readonly<RouterContextProvider>): AppSession {
  return context.get(sessionContext).session;
}

/**
 * Starts a fresh session for a signed-in user: the data replaces what was there, and it is stored
 * under a new id (the old one is deleted), against session fixation.
 */
export function signInSession(context: Readonly<RouterContextProvider>, values: SessionData, flash?: Partial<SessionFlash>): void {
  const state = context.get(sessionContext);
  const session = createSession<SessionData, SessionFlash>(undefined, state.session.id);
  session.set("accessToken", values.accessToken);
  session.set("expiresAt", values.expiresAt);
  session.set("userName", values.userName);
  if (flash?.notice) session.flash("notice", flash.notice);
  if (flash?.error) session.flash("error", flash.error);
  state.session = session;
  state.fate = "rotate";
}

/** Ends the session: its data is deleted and the cookie cleared when the response goes out. */
export function endSession(context: Readonly<RouterContextProvider>): void {
  context.get(sessionContext).fate = "destroy";
}

/** Keeps `message` for the next page the user sees (read once). */
export function setFlash(context: Readonly<RouterContextProvider>, kind: keyof SessionFlash, message: string): void {
  sessionOf(context).flash(kind, message);
}

/** Reads and consumes the session's one-time messages. */
export function takeFlash(context: Readonly<RouterContextProvider>): { notice?: string; error?: string } {
  const session = sessionOf(context);
  return { notice: session.get("notice"), error: session.get("error") };
}

/** Keeps `screens` as the session's enabledScreens (docs/product/data.md §6). */
export function saveEnabledScreens(context: Readonly<RouterContextProvider>, screens: ScreenName[]): void {
  sessionOf(context).set("enabledScreens", screens);
}

/**
 * Drops the access token (the upstream refused it), so that the next guarded page asks the user to
 * sign in again instead of using it; the rest of the session stays.
 */
export function forgetAccessToken(context: Readonly<RouterContextProvider>): void {
  signOut(sessionOf(context), context);
}

/** Removes what makes `session` signed in, and says why on the next page, in the request's language. */
function signOut(session: AppSession, context: Readonly<RouterContextProvider>): void {
  session.unset("accessToken");
  session.unset("expiresAt");
  session.unset("enabledScreens");
  session.unset("generation");
  session.flash("error", messagesOf(context).sessionExpired);
}

/**
 * Signs out every other session of the signed-in user, at once and on every replica (after a
 * password change); this one stays signed in.
 * @throws whatever the store throws (unreachable)
 */
export async function revokeOtherSessions(context: Readonly<RouterContextProvider>): Promise<void> {
  const session = sessionOf(context);
  const userName = session.get("userName");
  if (!userName) return;
  session.set("generation", await context.get(requestContext).sessions.nextUserGeneration(userName));
}

/** Signs out every session of `userName` (after a password reset, which no session made). */
export async function revokeSessionsOf(context: Readonly<RouterContextProvider>, userName: string): Promise<void> {
  await context.get(requestContext).sessions.nextUserGeneration(userName);
}

/**
 * After an e-mail change: every other session of the user is signed out, and this one goes on
 * under the new address.
 */
export async function changeSessionUserName(context: Readonly<RouterContextProvider>, userName: string): Promise<void> {
  await revokeOtherSessions(context);
  const session = sessionOf(context);
  session.set("userName", userName);
  session.set("generation", await context.get(requestContext).sessions.userGeneration(userName));
}

/**
 * Signs out every session of the signed-in user, at once and on every replica, this one included
 * ('Sign out everywhere'). The other browsers are told why at their next request.
 * @throws whatever the store throws (unreachable)
 */
export async function endSessionEverywhere(context: Readonly<RouterContextProvider>): Promise<void> {
  const userName = sessionOf(context).get("userName");
  if (userName) await context.get(requestContext).sessions.nextUserGeneration(userName);
  endSession(context);
}

/**
 * After the account was deleted (docs/security/accounts.md "Deleting an account"): deletes every session of the
 * signed-in user from the store at once, this one's included, with their access tokens and the user's
 * session generation, so the store keeps nothing of the account. This browser goes on with an
 * anonymous session (under a new id) that only carries `notice` to the next page.
 * @throws whatever the store throws (unreachable)
 */
export async function forgetAccountSessions(context: Readonly<RouterContextProvider>, notice: string): Promise<void> {
  const state = context.get(sessionContext);
  const userName = state.session.get("userName");
  if (userName) await context.get(requestContext).sessions.deleteUserSessions(userName);
  const session = createSession<SessionData, SessionFlash>(undefined, state.session.id);
  session.flash("notice", notice);
  state.session = session;
  state.fate = "rotate";
}
