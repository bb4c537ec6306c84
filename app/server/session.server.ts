/**
 * Server-side sessions (issue 2; DESIGN.md §1 scale-out, §4 "Local storage in SPEC becomes
 * server state").
 *
 * The cookie holds only a random session id, signed with SESSION_SECRET; the data (the user's
 * access token, its expiry and userName) stays on the server: in Redis when `REDIS_URL` is set
 * (shared by every replica; keys `safewindow:session:<id>` expiring with the session), else in
 * files under DATA_DIR/sessions (`createFileSessionStorage`, one process per DATA_DIR).
 * HttpOnly, SameSite=Lax, Secure when PUBLIC_URL is https, path = BASE_PATH. The id is rotated at
 * login (`startUserSession`) and destroyed at logout.
 *
 * Errors: with Redis, a session read or write while Redis is down rejects (the request gets the
 * error page; nothing hangs, see redis.server.ts).
 */
import { randomBytes } from "node:crypto";
import path from "node:path";
import { createCookie, createSessionStorage, redirect, type Cookie, type Session, type SessionStorage } from "react-router";
import { createFileSessionStorage } from "@react-router/node";
import { getConfig } from "./config.server";
import { connectRedis } from "./redis.server";
import { createLogger } from "./log.server";
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

/** Prefix of the session keys in Redis. */
const redisKeyPrefix = "safewindow:session:";

async function createStorage(): Promise<SessionStorage<SessionData, SessionFlash>> {
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
  if (config.REDIS_URL) return createRedisSessionStorage(cookie, config.REDIS_URL);
  return createFileSessionStorage<SessionData, SessionFlash>({
    cookie,
    dir: path.join(config.DATA_DIR, "sessions"),
  });
}

/**
 * Session data in Redis as JSON under `safewindow:session:<id>` (id: 128 random bits, hex),
 * expiring when the cookie does (12 hours when the cookie gives no expiry).
 */
async function createRedisSessionStorage(cookie: Cookie, url: string): Promise<SessionStorage<SessionData, SessionFlash>> {
  const redis = await connectRedis(url, createLogger(getConfig().LOG_LEVEL).child({ component: "sessions" }));
  const expiration = (expires: Date | undefined) =>
    expires ? ({ type: "PXAT", value: expires.getTime() } as const) : ({ type: "EX", value: sessionMaxAgeSeconds } as const);
  return createSessionStorage<SessionData, SessionFlash>({
    cookie,
    async createData(data, expires) {
      for (;;) {
        const id = randomBytes(16).toString("hex");
        const created = await redis.set(redisKeyPrefix + id, JSON.stringify(data), { expiration: expiration(expires), condition: "NX" });
        if (created) return id;
      }
    },
    async readData(id) {
      const json = await redis.get(redisKeyPrefix + id);
      return json ? (JSON.parse(json) as Partial<SessionData>) : null;
    },
    async updateData(id, data, expires) {
      await redis.set(redisKeyPrefix + id, JSON.stringify(data), { expiration: expiration(expires) });
    },
    async deleteData(id) {
      await redis.del(redisKeyPrefix + id);
    },
  });
}

let storage: Promise<SessionStorage<SessionData, SessionFlash>> | undefined;
function sessionStorage(): Promise<SessionStorage<SessionData, SessionFlash>> {
  storage ??= createStorage().catch((error: unknown) => {
    storage = undefined; // try again on the next request
    throw error;
  });
  return storage;
}

export type AppSession = Session<SessionData, SessionFlash>;

/** Reads the request's session (an empty one when there is no valid cookie). */
export async function getSession(request: Request): Promise<AppSession> {
  return (await sessionStorage()).getSession(request.headers.get("Cookie"));
}

/** Set-Cookie value that saves the session. */
export async function commitSession(session: AppSession): Promise<string> {
  return (await sessionStorage()).commitSession(session);
}

/** Set-Cookie value that removes the session and its stored data. */
export async function destroySession(session: AppSession): Promise<string> {
  return (await sessionStorage()).destroySession(session);
}

/**
 * Starts a fresh session for a signed-in user: destroys the old one (so the id rotates,
 * preventing session fixation) and stores the token in a new one.
 * @returns the Set-Cookie header value of the new session
 */
export async function startUserSession(request: Request, data: SessionData, flash?: Partial<SessionFlash>): Promise<string> {
  const old = await getSession(request);
  if (old.id) await destroySession(old);
  const session = await (await sessionStorage()).getSession(null);
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
