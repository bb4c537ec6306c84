/**
 * Server-side sessions (issue 2; DESIGN.md §4 "Local storage in SPEC becomes server state").
 *
 * The cookie holds only a random session id, signed with SESSION_SECRET; the data (the user's
 * access token, its expiry and userName) stays in files under DATA_DIR/sessions
 * (`createFileSessionStorage`). HttpOnly, SameSite=Lax, Secure when PUBLIC_URL is https,
 * path = BASE_PATH. The id is rotated at login (`startUserSession`) and destroyed at logout.
 */
import path from "node:path";
import { createCookie, redirect, type Session } from "react-router";
import { createFileSessionStorage } from "@react-router/node";
import { getConfig } from "./config.server";
import type { ScreenName } from "./upstream/consumer.server";

export interface SessionData {
  accessToken: string;
  /** epoch ms */
  expiresAt: number;
  userName: string;
  /** SPEC §6: the enabledScreens list, fetched after login and kept for the session. */
  enabledScreens?: ScreenName[];
}

/** One-time messages for the next page (read once, then gone). */
export interface SessionFlash {
  notice: string;
  error: string;
}

/** Session lifetime: 12 hours (the access token inside expires sooner and is checked on each request). */
const sessionMaxAgeSeconds = 12 * 60 * 60;

function createStorage() {
  const config = getConfig();
  if (!config.SESSION_SECRET) throw new Error("SESSION_SECRET is not set (server.ts keeps one in DATA_DIR)");
  const cookie = createCookie("__session", {
    httpOnly: true,
    sameSite: "lax",
    secure: config.publicUrl.startsWith("https:"),
    path: config.BASE_PATH,
    secrets: [config.SESSION_SECRET],
    maxAge: sessionMaxAgeSeconds,
  });
  return createFileSessionStorage<SessionData, SessionFlash>({
    cookie,
    dir: path.join(config.DATA_DIR, "sessions"),
  });
}

let storage: ReturnType<typeof createStorage> | undefined;
function sessionStorage() {
  storage ??= createStorage();
  return storage;
}

export type AppSession = Session<SessionData, SessionFlash>;

/** Reads the request's session (an empty one when there is no valid cookie). */
export function getSession(request: Request): Promise<AppSession> {
  return sessionStorage().getSession(request.headers.get("Cookie"));
}

/** Set-Cookie value that saves the session. */
export function commitSession(session: AppSession): Promise<string> {
  return sessionStorage().commitSession(session);
}

/** Set-Cookie value that removes the session and its stored data. */
export function destroySession(session: AppSession): Promise<string> {
  return sessionStorage().destroySession(session);
}

/**
 * Starts a fresh session for a signed-in user: destroys the old one (so the id rotates,
 * preventing session fixation) and stores the token in a new one.
 * @returns the Set-Cookie header value of the new session
 */
export async function startUserSession(request: Request, data: SessionData, flash?: Partial<SessionFlash>): Promise<string> {
  const old = await getSession(request);
  if (old.id) await sessionStorage().destroySession(old);
  const session = await sessionStorage().getSession(null);
  session.set("accessToken", data.accessToken);
  session.set("expiresAt", data.expiresAt);
  session.set("userName", data.userName);
  if (flash?.notice) session.flash("notice", flash.notice);
  if (flash?.error) session.flash("error", flash.error);
  return commitSession(session);
}

/**
 * Reads and consumes the session's one-time messages.
 * @returns the messages and the Set-Cookie value that saves their removal (undefined when there were none)
 */
export async function takeFlash(request: Request): Promise<{ notice?: string; error?: string; setCookie?: string }> {
  const session = await getSession(request);
  if (!session.has("notice") && !session.has("error")) return {};
  const notice = session.get("notice");
  const error = session.get("error");
  return { notice, error, setCookie: await commitSession(session) };
}

/** Changes the request's session with `change` and returns the Set-Cookie value that saves it. */
export async function updateSession(request: Request, change: (session: AppSession) => void): Promise<string> {
  const session = await getSession(request);
  change(session);
  return commitSession(session);
}

/** Set-Cookie value that keeps `screens` as the session's enabledScreens (SPEC §6). */
export function saveEnabledScreens(request: Request, screens: ScreenName[]): Promise<string> {
  return updateSession(request, (session) => session.set("enabledScreens", screens));
}

/** Ends the session and redirects (logout). */
export async function endSession(request: Request, to: string): Promise<Response> {
  const session = await getSession(request);
  return redirect(to, { headers: { "Set-Cookie": await destroySession(session) } });
}
