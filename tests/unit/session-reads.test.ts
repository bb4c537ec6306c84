// What the session middleware asks of the session store per request (app/server/session.server.ts;
// docs/architecture/request-path.md §7.3): no session read or write for anonymous pages, and no session write on
// a plain GET unless something changed. The store is the real database store on an in-memory PGlite,
// with every call it gets written down.
import { PGlite } from "@electric-sql/pglite";
import { pino } from "pino";
import { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as es from "../../app/messages/es";
import { requestContext } from "../../app/server/context.ts";
import { requestLanguageContext } from "../../app/server/i18n.server.ts";
import { sessionMiddleware, setFlash, signInSession, takeFlash } from "../../app/server/session.server.ts";
import { databaseSessionStore, migrateSessionTable, type SessionDataStore } from "../../app/server/session-store.server.ts";
import { databaseOn } from "../../lib/db/database.ts";

process.env.SESSION_SECRET ??= "a-session-secret-for-this-unit-test-0123456789";

const pglite = new PGlite();
const db = databaseOn<unknown>(pglite);
let store: SessionDataStore;
const calls: string[] = [];

beforeAll(async () => {
  await migrateSessionTable(db);
  const real = databaseSessionStore(db);
  // Every method, counted, then done by the real store.
  store = Object.fromEntries(
    Object.entries(real).map(([name, method]) => [name, (...args: unknown[]) => (calls.push(name), (method as (...a: unknown[]) => unknown).apply(real, args))]),
  ) as unknown as SessionDataStore;
});

afterAll(async () => {
  await db.destroy();
});

/** Runs the session middleware for `request` around `handler`; the response and the store calls it made. */
async function run(request: Request, handler: (context: RouterContextProvider) => void = () => {}, language?: "en" | "es") {
  calls.length = 0;
  const context = new RouterContextProvider();
  if (language) context.set(requestLanguageContext, language);
  context.set(requestContext, {
    nonce: "n",
    requestId: "r",
    log: pino({ level: "silent" }),
    clientIp: "127.0.0.1",
    sessions: store,
    attemptLimits: {} as never,
    readQrPhoto: undefined as never,
    draining: new AbortController().signal,
  });
  const response = (await sessionMiddleware({ request, context, params: {} } as never, async () => {
    handler(context);
    return new Response("page");
  })) as Response;
  return { response, calls: [...calls], cookie: response.headers.get("set-cookie")?.split(";")[0] };
}

describe("the session store per request", () => {
  it("an anonymous GET (no cookie) reads nothing and sets no cookie", async () => {
    const { response, calls: made } = await run(new Request("http://localhost/login"));
    expect(made).toEqual([]);
    expect(response.headers.get("set-cookie")).toBeNull();
  });

  it("a signed-in page view reads the session and the generation in one call, and writes nothing", async () => {
    const signIn = await run(new Request("http://localhost/login", { method: "POST" }), (context) =>
      signInSession(context, { accessToken: "token", expiresAt: Date.now() + 3_600_000, userName: "ada@example.com" }),
    );
    expect(signIn.calls).toContain("createData");
    expect(signIn.cookie).toMatch(/^__session=/);

    const view = await run(new Request("http://localhost/safewindow", { headers: { cookie: signIn.cookie! } }));
    expect(view.calls).toEqual(["readSession"]);
    expect(view.response.headers.get("set-cookie")).toBeNull();
    expect(view.response.headers.get("cache-control")).toBe("no-store");

    // A one-time message is a change: written once, then read (and so removed) once.
    const flashed = await run(new Request("http://localhost/mytests", { method: "POST", headers: { cookie: signIn.cookie! } }), (context) =>
      setFlash(context, "notice", "stored"),
    );
    expect(flashed.calls).toContain("updateData");
    let notice: string | undefined;
    const shown = await run(new Request("http://localhost/mytests", { headers: { cookie: signIn.cookie! } }), (context) => {
      notice = takeFlash(context).notice;
    });
    expect(notice).toBe("stored");
    expect(shown.calls).toContain("updateData");
    const after = await run(new Request("http://localhost/mytests", { headers: { cookie: signIn.cookie! } }));
    expect(after.calls).not.toContain("updateData");
  });

  it("a cookie whose session is gone reads once and sets no new cookie for a page view", async () => {
    const signIn = await run(new Request("http://localhost/login", { method: "POST" }), (context) =>
      signInSession(context, { accessToken: "token", expiresAt: Date.now() + 3_600_000, userName: "gone@example.com" }),
    );
    await pglite.exec("delete from app_session");
    const view = await run(new Request("http://localhost/safewindow", { headers: { cookie: signIn.cookie! } }));
    expect(view.calls).toEqual(["readSession"]);
    expect(view.response.headers.get("set-cookie")).toBeNull();
  });

  it("a session signed out by an account change elsewhere says so in the request's language", async () => {
    const signIn = await run(new Request("http://localhost/login", { method: "POST" }), (context) =>
      signInSession(context, { accessToken: "token", expiresAt: Date.now() + 3_600_000, userName: "elsewhere@example.com" }),
    );
    await store.nextUserGeneration("elsewhere@example.com");
    let error: string | undefined;
    await run(new Request("http://localhost/safewindow", { headers: { cookie: signIn.cookie! } }), (context) => {
      error = takeFlash(context).error;
    }, "es");
    expect(error).toBe(es.sessionExpired);
    expect(es.sessionExpired).not.toBe("");
  });
});
