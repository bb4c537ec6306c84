/**
 * The people search's limit per account (docs/security/limits.md "Limits"; app/server/attempt-limits.server.ts
 * `attemptRules.peopleSearch`): 30 searches a minute per signed-in account, whatever they look like
 * (a name, a product ID, an e-mail address), counted atomically in the server's one store, shared by
 * every session of the account. server.ts runs as operators run it (the production build); the
 * search is /addpublisher's GET form, as a browser without JavaScript sends it (the document) and as
 * the app's fetch does (`.data`).
 *
 * The window is a minute from an account's first search: every account's searches below are sent
 * one after another or at once, far within it. The server runs with TRUST_PROXY naming only a
 * private network, so the test's loopback peer is no trusted proxy: its X-Request-Id is not taken
 * (app/server/log.server.ts `requestId`).
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as messages from "../../app/messages";
import * as spanish from "../../app/messages/es";
import { consent, password, signUp } from "./app-journey";
import { form, sessionCookieOf, startServer, type Running } from "./server-process";

const metricsToken = "people-search-metrics-token-0123";
/** Searches allowed per account and minute. */
const limit = 30;

let server: Running;
let dataDir: string;
/** The account searched past its limit: its first browser's cookies, and a second browser's (another session). */
let first: { cookie: string; secondSession: string };
/** The account that sends its searches all at once. */
let atOnce: string;
/** An account that never searched before. */
let other: string;
/** The refusal's words: in minutes to wait, a minute at most (the window is one minute). */
const refusedWords = messages.tooManyAttempts(1);
const refusedWordsInSpanish = spanish.tooManyAttempts(1);

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "sw-people-search-"));
  server = await startServer({ DATA_DIR: dataDir, AUTH_RATE_LIMIT: "100000", TRUST_PROXY: "uniquelocal", METRICS_TOKEN: metricsToken });
  const stamp = Date.now();
  const emails = [`search-a-${stamp}@example.com`, `search-b-${stamp}@example.com`, `search-c-${stamp}@example.com`];
  const cookies = await Promise.all(emails.map((email) => signUp(server.url, dataDir, email)));
  // The second browser signs in now, so that the test that uses it sends only its search.
  const signedIn = await fetch(`${server.url}/login`, form({ email: emails[0]!, password }, server.url));
  expect(signedIn.status).toBe(302);
  first = { cookie: cookies[0]!, secondSession: `${sessionCookieOf(signedIn)}; ${consent}` };
  expect(first.secondSession.split("; ")[0]).not.toBe(first.cookie.split("; ")[0]);
  [atOnce, other] = [cookies[1]!, cookies[2]!];
}, 180_000);

afterAll(() => {
  server?.child.kill("SIGKILL");
});

/** The n-th search text: a name, a product ID, an e-mail address, in turn (every kind counts). */
function query(n: number): string {
  return [`Hop${n}`, `SW-${String(100000 + n)}`, `someone-${n}@example.com`][n % 3]!;
}

/** GET the search for `q` with `cookie`: the document (a browser without JavaScript) or `.data` (the app's fetch). */
function search(cookie: string, q: string, kind: "document" | "data", headers: Record<string, string> = {}): Promise<Response> {
  const route = kind === "document" ? "/addpublisher" : "/addpublisher.data";
  return fetch(`${server.url}${route}?${new URLSearchParams({ q })}`, { headers: { cookie, ...headers }, redirect: "manual" });
}

/** A refusal: 429 with a Retry-After of whole seconds within the minute's window, and the message with the minutes to wait. */
async function expectRefused(answer: Response, label: string, message: string): Promise<void> {
  expect(answer.status, label).toBe(429);
  const retryAfter = answer.headers.get("retry-after");
  expect(retryAfter, label).toMatch(/^\d+$/);
  expect(Number(retryAfter), label).toBeGreaterThanOrEqual(1);
  expect(Number(retryAfter), label).toBeLessThanOrEqual(60);
  expect(await answer.text(), label).toContain(message);
}

describe("people search: 30 a minute per account", () => {
  it("30 searches of every kind pass; the 31st is refused with 429, Retry-After and the message, as a document and as .data", async () => {
    for (let n = 0; n < limit; n++) {
      const answer = await search(first.cookie, query(n), n % 2 === 0 ? "document" : "data");
      expect(answer.status, `search ${n + 1}: ${query(n)}`).toBe(200);
      await answer.body?.cancel();
    }
    await expectRefused(await search(first.cookie, "Grace", "document"), "document", refusedWords);
    await expectRefused(await search(first.cookie, "Grace", "data"), ".data", refusedWords);
    // In the request's language.
    await expectRefused(await search(first.cookie, "Grace", "document", { "accept-language": "es" }), "document in Spanish", refusedWordsInSpanish);
    // The screen itself (no search) still opens.
    expect((await fetch(`${server.url}/addpublisher`, { headers: { cookie: first.cookie } })).status).toBe(200);
    // The refusals are counted under their own label (GET /metrics).
    const metrics = await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })).text();
    expect(metrics).toMatch(/safewindow_rate_limit_rejections_total\{limit="peopleSearch"\} [1-9]/);
  }, 60_000);

  it("a second session of the same account is refused too; another account is unaffected", async () => {
    await expectRefused(await search(first.secondSession, "Grace", "document"), "second session", refusedWords);
    const elsewhere = await search(other, "Grace", "document");
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.headers.get("retry-after")).toBeNull();
    await elsewhere.body?.cancel();
  }, 60_000);

  it("31 searches at once on one session give exactly 30 answers and one 429", async () => {
    const answers = await Promise.all(Array.from({ length: limit + 1 }, (_, n) => search(atOnce, query(n), n % 2 === 0 ? "document" : "data")));
    const statuses = answers.map((answer) => answer.status);
    await Promise.all(answers.map((answer) => answer.body?.cancel()));
    expect(statuses.filter((status) => status === 200)).toHaveLength(limit);
    expect(statuses.filter((status) => status === 429)).toHaveLength(1);
    const refused = answers.find((answer) => answer.status === 429)!;
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
  }, 60_000);
});

describe("X-Request-Id", () => {
  it("is not taken from a peer TRUST_PROXY does not name: the answer carries a fresh id", async () => {
    const answer = await fetch(`${server.url}/login`, { headers: { "x-request-id": "chosen-by-the-client" } });
    expect(answer.status).toBe(200);
    const id = answer.headers.get("x-request-id");
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    await answer.body?.cancel();
  });
});
