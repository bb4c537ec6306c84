/**
 * Sessions that hold up in ordinary use (docs/decisions/0009-sessions-in-the-database.md):
 * - the database store: atomic rows, expiry and purge, a deleted session never comes back,
 *   unreadable data reads as no session;
 * - server.ts as operators run it (embedded default): many requests at once on one session
 *   (uploads and page loads together) never answer 5xx and lose nothing; a cookie that leads to
 *   no session means "sign in", never a 500; an oversize upload gets the upload's own message;
 * - restarts: the same cookie still opens a guarded page after SIGTERM and after kill -9; after the
 *   signing key changed, the user is sent to sign in again, told why, with the path carried.
 */
import { mkdtempSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Kysely } from "kysely";
import * as messages from "../../app/messages";
import { maxUploadBytes, maxUploadMegabytes } from "../../app/limits";
import { databaseSessionStore, migrateSessionTable, type DatabaseSessionStore } from "../../app/server/session-store.server";
import { createDatabase } from "../../lib/db/database";
import { consent, listedResults, password, report, signUp, uploadPost } from "./app-journey";
import { form, sessionCookieOf, startServer, type Running } from "./server-process";

describe("the database session store", () => {
  let db: Kysely<any>;
  let clock = new Date("2026-11-23T12:00:00Z");
  let store: DatabaseSessionStore;

  beforeAll(async () => {
    db = await createDatabase({ dataDir: mkdtempSync(path.join(tmpdir(), "sw-sessions-db-")), name: "app" });
    expect(await migrateSessionTable(db)).toEqual(["0001_sessions", "0002_user_generations", "0003_session_users"]);
    expect(await migrateSessionTable(db)).toEqual([]);
    store = databaseSessionStore(db, () => clock);
  }, 60_000);

  afterAll(async () => {
    await db?.destroy();
  });

  it("creates, reads, replaces and deletes a session; a deleted one stays deleted", async () => {
    const id = await store.createData({ userName: "a@example.com", accessToken: "t1" }, new Date(clock.getTime() + 60_000));
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(await store.readData(id)).toEqual({ userName: "a@example.com", accessToken: "t1" });
    await store.updateData(id, { userName: "a@example.com", accessToken: "t2" }, new Date(clock.getTime() + 60_000));
    expect(await store.readData(id)).toEqual({ userName: "a@example.com", accessToken: "t2" });
    await store.deleteData(id);
    expect(await store.readData(id)).toBeNull();
    // A request that read the session before a logout and writes after it cannot undo the logout.
    await store.updateData(id, { userName: "a@example.com", accessToken: "t2" });
    expect(await store.readData(id)).toBeNull();
    expect(await store.readData("no-such-id")).toBeNull();
  });

  it("an expired session reads as none, and the purge deletes exactly the expired rows", async () => {
    const soon = await store.createData({ n: 1 }, new Date(clock.getTime() + 1_000));
    const later = await store.createData({ n: 2 }, new Date(clock.getTime() + 3_600_000));
    const defaulted = await store.createData({ n: 3 }); // 12 hours
    clock = new Date(clock.getTime() + 2_000);
    expect(await store.readData(soon)).toBeNull();
    expect(await store.readData(later)).toEqual({ n: 2 });
    expect(await store.purgeExpired()).toBe(1);
    expect(await store.purgeExpired()).toBe(0);
    const left = await db.selectFrom("app_session").select("id").execute();
    expect(left.map((r: { id: string }) => r.id).sort()).toEqual([later, defaulted].sort());
    clock = new Date(clock.getTime() + 12 * 3_600_000);
    expect(await store.readData(defaulted)).toBeNull();
    expect(await store.purgeExpired()).toBe(2);
  });

  it("data that is not a JSON object reads as no session", async () => {
    const expires = new Date(clock.getTime() + 60_000);
    await db.insertInto("app_session").values([
      { id: "damaged", data: '{"userName": "half', expires_at: expires },
      { id: "array", data: "[1,2]", expires_at: expires },
      { id: "null", data: "null", expires_at: expires },
    ]).execute();
    for (const id of ["damaged", "array", "null"]) expect(await store.readData(id)).toBeNull();
  });

  it("readSession answers what readData answers, with the user's generation; none for expired or unreadable data", async () => {
    const expires = new Date(clock.getTime() + 1_000);
    const soon = await store.createData({ userName: "b@example.com", accessToken: "t", generation: 0 }, expires);
    expect(await store.readSession(soon)).toEqual({ data: { userName: "b@example.com", accessToken: "t", generation: 0 }, userGeneration: 0 });
    expect(await store.nextUserGeneration("B@example.com")).toBe(1);
    expect(await store.readSession(soon)).toEqual({ data: { userName: "b@example.com", accessToken: "t", generation: 0 }, userGeneration: 1 });
    // A row whose user key does not match its data is answered with the data's user's generation.
    await db.updateTable("app_session").set({ user_key: "not-the-key" }).where("id", "=", soon).execute();
    expect((await store.readSession(soon))?.userGeneration).toBe(1);
    await db.insertInto("app_session").values({ id: "damaged-read", data: '{"userName": "b@', expires_at: expires, user_key: null }).execute();
    for (const id of ["damaged-read", "no-such-id"]) expect(await store.readSession(id)).toBeNull();
    clock = new Date(clock.getTime() + 2_000);
    expect(await store.readSession(soon)).toBeNull();
  });

  it("200 reads and writes of one session at once all succeed, and it stays readable", async () => {
    const id = await store.createData({ n: -1 });
    const work = Array.from({ length: 200 }, (_, n) => (n % 2 ? store.readData(id) : store.updateData(id, { n, text: "x".repeat(n * 10) })));
    const answers = await Promise.allSettled(work);
    expect(answers.filter((a) => a.status === "rejected")).toEqual([]);
    for (const a of answers) if (a.status === "fulfilled" && a.value) expect(typeof (a.value as { n: number }).n).toBe("number");
    const last = (await store.readData(id)) as { n: number; text?: string };
    expect(last.text ?? "").toBe("x".repeat(last.n * 10));
  });
});

describe("one session used by many requests at once (embedded default)", () => {
  let server: Running;
  let dataDir: string;
  let cookie: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "sw-sessions-app-"));
    server = await startServer({ DATA_DIR: dataDir, AUTH_RATE_LIMIT: "100000" });
    cookie = await signUp(server.url, dataDir, `many-${Date.now()}@example.com`);
  }, 120_000);

  afterAll(async () => {
    server?.child.kill("SIGKILL");
  });

  it("50 page loads at once right after sign-in: no 5xx, and the session still works", async () => {
    const paths = ["/mytests", "/people", "/settings", "/safewindow", "/mytests.data"];
    const answers = await Promise.all(Array.from({ length: 50 }, (_, n) => fetch(`${server.url}${paths[n % paths.length]}`, { headers: { cookie }, redirect: "manual" })));
    const statuses = await Promise.all(answers.map(async (a) => (await a.arrayBuffer(), a.status)));
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    const settings = await fetch(`${server.url}/settings`, { headers: { cookie }, redirect: "manual" });
    expect(settings.status).toBe(200);
  });

  it("3 rounds of 20 uploads and 20 page loads at once: no 5xx, and the list holds exactly the uploads that succeeded", async () => {
    let succeeded = 0;
    for (let round = 0; round < 3; round++) {
      const pdfs = await Promise.all(Array.from({ length: 20 }, (_, n) => report(90 + round * 20 + n)));
      const uploads = pdfs.map((pdf) => uploadPost(server.url, cookie, pdf));
      const pages = Array.from({ length: 20 }, (_, n) =>
        fetch(`${server.url}${["/mytests", "/safewindow", "/people", "/settings"][n % 4]}`, { headers: { cookie }, redirect: "manual" }),
      );
      const uploadAnswers = await Promise.all(uploads);
      const pageAnswers = await Promise.all(pages);
      const uploadStatuses = await Promise.all(uploadAnswers.map(async (a) => (await a.arrayBuffer(), a.status)));
      const pageStatuses = await Promise.all(pageAnswers.map(async (a) => (await a.arrayBuffer(), a.status)));
      expect(uploadStatuses.filter((s) => s >= 500), `round ${round} uploads`).toEqual([]);
      expect(pageStatuses.filter((s) => s !== 200), `round ${round} pages`).toEqual([]);
      // Each upload either succeeded (302 to /mytests) or was refused with its message (4xx).
      for (const [n, answer] of uploadAnswers.entries()) {
        if (uploadStatuses[n] === 302) expect(answer.headers.get("location")).toBe("/mytests");
      }
      succeeded += uploadStatuses.filter((s) => s === 302).length;
    }
    expect(succeeded).toBeGreaterThan(0);
    expect((await listedResults(server.url, cookie)).length).toBe(succeeded);
  }, 240_000);

  it("a cookie that leads to no session means 'sign in', never an error", async () => {
    const other = await signUp(server.url, dataDir, `gone-${Date.now()}@example.com`);
    const loggedOut = await fetch(`${server.url}/logout`, form({}, server.url, other));
    expect(loggedOut.headers.get("location")).toBe("/login");
    // The old cookie (signed, but its session was deleted), a forged one, and garbage.
    for (const stale of [other, "__session=eyJhIjoxfQ%3D%3D.forged", "__session=%%%"]) {
      const page = await fetch(`${server.url}/settings?tab=1`, { headers: { cookie: stale }, redirect: "manual" });
      expect(page.status).toBe(302);
      expect(page.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent("/settings?tab=1")}`);
      expect((await fetch(`${server.url}/login`, { headers: { cookie: stale } })).status).toBe(200);
    }
  });

  // The session cookie's signature, once verified, is remembered by its exact text
  // (app/server/cookies.server.ts); what it names is still read on every request.
  it("a session ended elsewhere is refused at its next request, though its cookie was verified a moment before", async () => {
    const email = `elsewhere-${Date.now()}@example.com`;
    const here = await signUp(server.url, dataDir, email);
    const settings = (cookie: string) => fetch(`${server.url}/settings`, { headers: { cookie }, redirect: "manual" });
    for (let n = 0; n < 3; n++) expect((await settings(here)).status).toBe(200);
    // The same person signs in in another browser and changes the password there.
    const signedIn = await fetch(`${server.url}/login`, form({ email, password }, server.url, consent));
    expect(signedIn.status).toBe(302);
    const there = `${consent}; ${sessionCookieOf(signedIn)}`;
    const changed = await fetch(
      `${server.url}/settings`,
      form({ intent: "password", currentPassword: password, newPassword: "Window#2027b", confirmPassword: "Window#2027b" }, server.url, there),
    );
    expect(changed.status).toBe(302);
    expect((await settings(there)).status).toBe(200);
    // The first browser's cookie, verified three times above, now opens nothing.
    const refused = await settings(here);
    expect(refused.status).toBe(302);
    expect(refused.headers.get("location")).toMatch(/^\/login/);
    // Signed out there: that cookie, verified a moment ago, ends at once too.
    expect((await fetch(`${server.url}/logout`, form({}, server.url, there))).headers.get("location")).toBe("/login");
    expect((await settings(there)).status).toBe(302);
  });

  it("a session cookie differing from a verified one by one character of its signature is refused", async () => {
    const cookie = await signUp(server.url, dataDir, `forged-${Date.now()}@example.com`);
    const value = /__session=([^;]+)/.exec(cookie)![1]!;
    expect((await fetch(`${server.url}/settings`, { headers: { cookie }, redirect: "manual" })).status).toBe(200);
    // A letter in the middle of the signature (the last one may carry only padding bits).
    const dot = value.lastIndexOf(".");
    const at = [...value].findIndex((c, n) => n > dot + 2 && /[A-Za-z0-9]/.test(c));
    expect(at).toBeLessThan(value.length - 3);
    const forged = cookie.replace(value, `${value.slice(0, at)}${value[at] === "A" ? "B" : "A"}${value.slice(at + 1)}`);
    const answer = await fetch(`${server.url}/settings`, { headers: { cookie: forged }, redirect: "manual" });
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toMatch(/^\/login/);
  });

  // Zone checks and date formatters are kept by zone (app/dates.ts): a zone changed between two
  // requests is the one the next page is written in.
  it("a time zone chosen in My Settings is the one the next page's times are written in, then another", async () => {
    const email = `zones-${Date.now()}@example.com`;
    const cookie = await signUp(server.url, dataDir, email);
    expect((await uploadPost(server.url, cookie, await report(30))).status).toBe(302);
    const strongUntil = async (zone: string) => {
      const chosen = await fetch(`${server.url}/settings`, form({ intent: "timeZone", timeZone: zone }, server.url, cookie));
      expect(chosen.status).toBe(302);
      const zoneCookie = chosen.headers.getSetCookie().find((c) => c.startsWith("sw_time_zone="))!.split(";")[0]!;
      const page = await (await fetch(`${server.url}/safewindow`, { headers: { cookie: `${cookie}; ${zoneCookie}` } })).text();
      return /Strong until<\/span>\s*(?:<!-- -->)?([^<]+)/.exec(page)?.[1];
    };
    const tokyo = await strongUntil("Asia/Tokyo");
    const newYork = await strongUntil("America/New_York");
    const tokyoAgain = await strongUntil("Asia/Tokyo");
    expect(tokyo).toMatch(/GMT\+9/);
    expect(newYork).toMatch(/E[SD]T/);
    expect(tokyoAgain).toBe(tokyo);
  });

  it("an upload over 10 MB gets the upload's own message, with and without JavaScript", async () => {
    const big = new Uint8Array(maxUploadBytes + 512 * 1024);
    big.set(new TextEncoder().encode("%PDF-1.7\n"));
    const plain = await uploadPost(server.url, cookie, big);
    expect(plain.status).toBe(413);
    const html = await plain.text();
    expect(html).toContain(messages.uploadTooLarge(maxUploadMegabytes));
    expect(html).toContain("<h1>My Tests</h1>");
    // The enhanced form posts to the route's .data URL and reads the action's answer from it.
    const body = new FormData();
    body.append("file", new Blob([big], { type: "application/pdf" }), "result.pdf");
    const enhanced = await fetch(`${server.url}/mytests.data`, { method: "POST", headers: { origin: server.url, cookie }, body });
    expect(enhanced.status).toBe(413);
    expect(await enhanced.text()).toContain(messages.uploadTooLarge(maxUploadMegabytes));
    // The list did not change, and the server is still up.
    expect(server.child.exitCode).toBeNull();
  });

  it("an absurdly large upload is refused before it is read, with the upload's message", async () => {
    const answer = await new Promise<{ status: number; body: string; connection: string | undefined }>((resolve, reject) => {
      const url = new URL(`${server.url}/mytests`);
      const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers: { "content-type": "multipart/form-data; boundary=x", "content-length": String(200 * 1024 * 1024), origin: server.url, cookie } });
      req.on("response", (res) => {
        let body = "";
        res.on("data", (chunk) => (body += String(chunk)));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body, connection: res.headers.connection }));
      });
      req.on("error", reject);
      req.write("--x\r\n");
    });
    expect(answer.status).toBe(413);
    expect(answer.connection).toBe("close");
    expect(answer.body).toContain(messages.uploadTooLarge(maxUploadMegabytes));
  });
});

describe("sessions across restarts (embedded default)", () => {
  let dataDir: string;
  let server: Running | undefined;
  let cookie: string;
  const email = `restart-${Date.now()}@example.com`;

  /** Stops the server with `signal` and waits for it to exit. @returns its exit code */
  async function stop(signal: NodeJS.Signals): Promise<number | null> {
    const running = server!;
    server = undefined;
    running.child.kill(signal);
    return running.exited;
  }

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "sw-sessions-restart-"));
    server = await startServer({ DATA_DIR: dataDir });
    cookie = await signUp(server.url, dataDir, email);
    const settings = await fetch(`${server.url}/settings`, { headers: { cookie }, redirect: "manual" });
    expect(settings.status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    server?.child.kill("SIGKILL");
  });

  it("the same cookie opens /settings after SIGTERM and a start", async () => {
    expect(await stop("SIGTERM")).toBe(0);
    server = await startServer({ DATA_DIR: dataDir });
    const settings = await fetch(`${server.url}/settings`, { headers: { cookie }, redirect: "manual" });
    expect(settings.status).toBe(200);
    expect(await settings.text()).toContain(email);
  }, 90_000);

  it("the same cookie opens /settings after kill -9 and a start", async () => {
    await stop("SIGKILL");
    server = await startServer({ DATA_DIR: dataDir });
    const settings = await fetch(`${server.url}/settings`, { headers: { cookie }, redirect: "manual" });
    expect(settings.status).toBe(200);
    expect(await settings.text()).toContain(email);
  }, 90_000);

  it("after the signing key changed, the user is sent to sign in again with the path carried, and told why", async () => {
    expect(await stop("SIGTERM")).toBe(0);
    // The one embedded database (DATA_DIR/db) holds the identity authority's tables.
    const identityDb = await createDatabase<any>({ dataDir, name: "db" });
    const { numDeletedRows } = await identityDb.deleteFrom("identity_signing_keys").executeTakeFirst();
    expect(Number(numDeletedRows)).toBeGreaterThan(0);
    await identityDb.destroy();
    server = await startServer({ DATA_DIR: dataDir });

    const refused = await fetch(`${server.url}/settings?panel=password`, { headers: { cookie }, redirect: "manual" });
    expect(refused.status).toBe(302);
    expect(refused.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent("/settings?panel=password")}`);
    const after = `${sessionCookieOf(refused) ?? cookie.split("; ")[0]}; ${consent}`;
    const login = await fetch(`${server.url}/login?redirectTo=${encodeURIComponent("/settings?panel=password")}`, { headers: { cookie: after }, redirect: "manual" });
    expect(login.status).toBe(200);
    expect(await login.text()).toContain(messages.sessionExpired);
    // The token is gone from the session: the next guarded page goes to sign-in at once.
    const again = await fetch(`${server.url}/settings`, { headers: { cookie: after }, redirect: "manual" });
    expect(again.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent("/settings")}`);
    // Signing in again works, and lands on the page that was asked for.
    const signedIn = await fetch(`${server.url}/login`, form({ email, password, redirectTo: "/settings?panel=password" }, server.url, after));
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get("location")).toBe("/settings?panel=password");
  }, 90_000);
});
