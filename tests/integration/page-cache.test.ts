/**
 * The shared page cache of server.ts (app/server/page-cache.server.ts, docs/decisions/0014-shared-page-cache.md):
 * an anonymous page is rendered once, then answered from memory with its inline scripts allowed by
 * hash; a signed-in browser, a remembered address or any other cookie always gets its own render,
 * and nothing personal is ever stored. Needs `npm run build` first.
 */
import { createHash } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consent, password, signUp } from "./app-journey";
import { form, rawGet, startServer, type Running } from "./server-process";

let server: Running;
let dataDir: string;
/** A signed-in browser's cookies (session and consent). */
let signedIn: string;
/** The signed remembered-address cookie that a sign-in sets, and the address. */
let remembered: string;
const email = `cache-${Date.now()}@example.com`;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "sw-page-cache-"));
  server = await startServer({ DATA_DIR: dataDir });
  signedIn = await signUp(server.url, dataDir, email);
  const again = await fetch(`${server.url}/login`, form({ email, password }, server.url));
  remembered = again.headers.getSetCookie().find((c) => c.startsWith("sw_username="))!.split(";")[0]!;
  expect(remembered).toBeTruthy();
}, 90_000);

afterAll(() => {
  if (server.child.exitCode === null) server.child.kill("SIGKILL");
});

interface Answer {
  status: number;
  csp: string;
  html: string;
  response: Response;
}

async function get(pathAndQuery: string, cookie?: string): Promise<Answer> {
  const response = await fetch(`${server.url}${pathAndQuery}`, { redirect: "manual", headers: cookie ? { cookie } : {} });
  return { status: response.status, csp: response.headers.get("content-security-policy") ?? "", html: await response.text(), response };
}

/** The nonce of a rendered answer's policy, or undefined for a copy from the cache. */
function nonceOf(answer: Answer): string | undefined {
  return /'nonce-([^']+)'/.exec(answer.csp)?.[1];
}

/** True for an answer from the cache: its policy allows scripts by hash, and has no nonce. */
function fromCache(answer: Answer): boolean {
  return nonceOf(answer) === undefined && answer.csp.includes("'sha256-");
}

describe("the shared page cache", () => {
  it("renders an anonymous page once, then answers the same page with its inline scripts allowed by their hashes", async () => {
    const rendered = await get("/login?visit=copy");
    const nonce = nonceOf(rendered);
    expect(nonce).toBeTruthy();
    expect(rendered.html).toContain(`nonce="${nonce}"`);

    const copy = await get("/login?visit=copy");
    expect(fromCache(copy)).toBe(true);
    expect(copy.html).not.toContain("nonce=");
    expect(copy.html).toBe(rendered.html.replaceAll(` nonce="${nonce}"`, ""));
    // Every inline script is allowed by its own hash, and nothing else inline is.
    const inline = [...copy.html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].filter(([, attributes]) => !/\ssrc=/.test(attributes!));
    expect(inline.length).toBeGreaterThan(2);
    const scriptSources = /script-src ([^;]*)/.exec(copy.csp)![1]!.split(" ");
    const hashes = new Set(inline.map(([, , body]) => `'sha256-${createHash("sha256").update(body!, "utf8").digest("base64")}'`));
    expect(new Set(scriptSources.filter((source) => source.startsWith("'sha256-")))).toEqual(hashes);
    expect(scriptSources).not.toContain("'unsafe-inline'");
    // The rest of the policy and the other headers are as for a rendered page.
    expect(copy.csp.replace(/script-src [^;]*/, "")).toBe(rendered.csp.replace(/script-src [^;]*/, ""));
    for (const header of ["referrer-policy", "permissions-policy", "content-type", "x-content-type-options"]) {
      expect(copy.response.headers.get(header)).toBe(rendered.response.headers.get(header));
    }
    expect(copy.response.headers.get("x-request-id")).not.toBe(rendered.response.headers.get("x-request-id"));
  });

  it("never answers a signed-in browser from the cache, and never stores its page", async () => {
    await get("/login");
    expect(fromCache(await get("/login"))).toBe(true);
    // Signed in, Sign In sends the user on, whatever the cache holds.
    const login = await get("/login", signedIn);
    expect(login.status).toBe(302);
    expect(login.response.headers.get("location")).toBe("/checkaccountstatus");
    // The terms, signed in, show Logout; the anonymous copy never does, before or after.
    await get("/terms", consent);
    const mine = await get("/terms", signedIn);
    expect(nonceOf(mine)).toBeTruthy();
    expect(mine.html).toContain(`class="header-logout"`);
    const anonymous = await get("/terms", consent);
    expect(fromCache(anonymous)).toBe(true);
    expect(anonymous.html).not.toContain(`class="header-logout"`);
  });

  it("keeps a remembered address to its own browser", async () => {
    const first = await get("/login?visit=remembered", remembered);
    expect(nonceOf(first)).toBeTruthy();
    expect(first.html).toContain(`value="${email}"`);
    expect((await get("/login?visit=remembered", remembered)).html).toContain(`value="${email}"`);
    const stranger = await get("/login?visit=remembered");
    expect(stranger.html).not.toContain(email);
    expect(fromCache(await get("/login?visit=remembered"))).toBe(true);
    expect((await get("/login?visit=remembered")).html).not.toContain(email);
  });

  it("keys on the consent answer, the time zone and the query", async () => {
    for (let round = 0; round < 2; round++) {
      const unanswered = await get("/registration");
      expect(unanswered.html).toContain('class="cookie-banner"');
      const answered = await get("/registration", consent);
      expect(answered.html).not.toContain('class="cookie-banner"');
      const zoned = await get("/registration", `${consent}; tz=Asia%2FTokyo`);
      expect(zoned.html).not.toContain('class="cookie-banner"');
      if (round === 1) for (const answer of [unanswered, answered, zoned]) expect(fromCache(answer)).toBe(true);
    }
    await get("/login?redirectTo=%2Fpeople");
    const onward = await get("/login?redirectTo=%2Fpeople");
    expect(fromCache(onward)).toBe(true);
    expect(onward.html).toContain('value="/people"');
    expect((await get("/login")).html).not.toContain('value="/people"');
  });

  it("renders every time for another cookie, a cookie sent twice, a page not declared shared, and an error page", async () => {
    for (const [pathAndQuery, cookie] of [
      ["/login?visit=other", "analytics=1"],
      ["/login?visit=twice", `${consent}; ${consent}`],
      ["/resetpassword", undefined],
      ["/no-such-page", undefined],
    ] as const) {
      const first = await get(pathAndQuery, cookie);
      const second = await get(pathAndQuery, cookie);
      expect(nonceOf(first)).toBeTruthy();
      expect(nonceOf(second)).toBeTruthy();
      expect(nonceOf(second)).not.toBe(nonceOf(first));
    }
    expect((await get("/no-such-page")).status).toBe(404);
  });

  it("answers a stored page gzip to a browser that accepts it, and plain to one that does not", async () => {
    await get("/privacy");
    const gzip = await rawGet(`${server.url}/privacy`, "gzip, deflate, br");
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(Number(gzip.headers["content-length"])).toBe(gzip.body.length);
    expect(gzip.headers.vary).toMatch(/Accept-Encoding/i);
    const html = gunzipSync(gzip.body).toString("utf8");
    expect(html).toContain("<h1>Privacy Policy</h1>");
    const plain = await rawGet(`${server.url}/privacy`, "identity");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString("utf8")).toBe(html);
    // A HEAD is answered as before: headers, no body, never from the cache.
    const head = await fetch(`${server.url}/privacy`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-security-policy")).toContain("'nonce-");
  });
});
