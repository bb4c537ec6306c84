/**
 * Bad input never answers 500 (docs/security/input.md "Input", "Headers and caching"): each test is one
 * ordinary request an attacker can send, which used to end in a 500 (logged as an error, counted by
 * the 5xx alert) or in a page that said what it should not, against server.ts as operators run it.
 * - a body that is not a form, or a form body that cannot be parsed, sent to the actions;
 * - a request target in absolute form, or with a path escape that is not UTF-8;
 * - a redirect target holding a character no Location header can carry;
 * - a cookie name behind a non-breaking space, which poisoned the shared page cache;
 * - a link's `email` parameter written as a sentence;
 * - the pages whose URL carries a token, kept by a cache;
 * - /readyz called in a loop, each call asking the three upstreams.
 * The property-based sweep over every route is tests/integration/fuzz.test.ts.
 */
import { createServer, request as httpRequest, type Server } from "node:http";
import { mkdtempSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as messages from "../../app/messages";
import * as spanish from "../../app/messages/es";
import { consent, password, signUp } from "./app-journey";
import { form, sessionCookieOf, startServer, type Running } from "./server-process";

let server: Running;
let dataDir: string;
/** A signed-in browser's cookies (session and consent). */
let signedIn: string;
const email = `bad-input-${Date.now()}@example.com`;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "sw-bad-input-"));
  server = await startServer({ DATA_DIR: dataDir, AUTH_RATE_LIMIT: "100000" });
  signedIn = await signUp(server.url, dataDir, email);
}, 120_000);

afterAll(() => {
  server?.child.kill("SIGKILL");
});

/** The log lines the server printed since `mark` (an offset into its output), parsed. */
function logLinesSince(mark: number): { level: number; msg: string; req?: { url?: string }; res?: { statusCode?: number } }[] {
  return server
    .output()
    .slice(mark)
    .split("\n")
    .filter((line) => line.startsWith("{") && line.endsWith("}"))
    .map((line) => JSON.parse(line) as { level: number; msg: string });
}

/** Lines at error level (pino 50) or above. */
const errorsIn = (lines: { level: number }[]) => lines.filter((line) => line.level >= 50);

/** A POST with a raw body and headers, same-origin as a browser sends it, not following redirects. */
function rawPost(route: string, body: string | undefined, headers: Record<string, string>): Promise<Response> {
  return fetch(`${server.url}${route}`, { method: "POST", redirect: "manual", headers: { origin: server.url, cookie: signedIn, ...headers }, body });
}

/** The routes with an action that the bad bodies were found to break (guarded ones signed in). */
const actionRoutes = ["/login", "/registration", "/language", "/cookies", "/timezone", "/logout", "/settings", "/mytests", "/myfun", "/checkin", "/addpublisher", "/yourinfo"];

describe("a body that is not a form", () => {
  const notForms: [string, Record<string, string>, string | undefined][] = [
    ["no Content-Type", {}, "a=b"],
    ["no body at all", {}, undefined],
    ["text/plain", { "content-type": "text/plain" }, "email=x"],
    ["application/json", { "content-type": "application/json" }, '{"email":"x"}'],
    ["multipart/form-data without a boundary", { "content-type": "multipart/form-data" }, "--x\r\n"],
    ["a Content-Type that does not parse", { "content-type": "multipart/form-data; boundary" }, "--x\r\n"],
  ];

  it.each(notForms)("%s: every action route answers 415 before its action, in the request's language, logged at warn", async (_name, headers, body) => {
    const mark = server.output().length;
    for (const route of actionRoutes) {
      for (const suffix of ["", ".data"]) {
        const answer = await rawPost(`${route}${suffix}`, body, { ...headers, "accept-language": "es" });
        expect(answer.status, `${route}${suffix}`).toBe(415);
        expect(await answer.text(), `${route}${suffix}`).toContain(spanish.requestUnreadable);
        expect(answer.headers.get("content-language")).toBe("es");
      }
    }
    expect(errorsIn(logLinesSince(mark))).toEqual([]);
    // Nothing acted: the session is still signed in.
    expect((await fetch(`${server.url}/settings`, { headers: { cookie: signedIn }, redirect: "manual" })).status).toBe(200);
  });

  const truncated = "--b0undary\r\nContent-Disposition: form-data; name=\"email\"\r\n\r\nx@example.com";

  it("a truncated multipart body reaches the action and is answered 400 with the error page, documents and .data, in the request's language, at warn", async () => {
    const mark = server.output().length;
    for (const route of actionRoutes) {
      const page = await rawPost(route, truncated, { "content-type": "multipart/form-data; boundary=b0undary" });
      expect(page.status, route).toBe(400);
      expect(await page.text(), route).toContain(messages.requestUnreadable);
      const data = await rawPost(`${route}.data`, truncated, { "content-type": "multipart/form-data; boundary=b0undary" });
      expect(data.status, `${route}.data`).toBe(400);
      const spanishPage = await rawPost(route, truncated, { "content-type": "multipart/form-data; boundary=b0undary", "accept-language": "es" });
      expect(await spanishPage.text(), route).toContain(spanish.requestUnreadable);
    }
    const lines = logLinesSince(mark);
    expect(errorsIn(lines)).toEqual([]);
    expect(lines.filter((line) => line.msg === "form body unreadable" && line.level === 40).length).toBeGreaterThanOrEqual(actionRoutes.length * 3);
    expect((await fetch(`${server.url}/settings`, { headers: { cookie: signedIn }, redirect: "manual" })).status).toBe(200);
  });

  it("the forms as browsers send them still work: urlencoded and multipart", async () => {
    const chosen = await fetch(`${server.url}/language`, form({ language: "es", redirectTo: "/settings" }, server.url, signedIn));
    expect(chosen.status).toBe(302);
    expect(chosen.headers.get("location")).toBe("/settings");
    const multipart = new FormData();
    multipart.append("language", "en");
    multipart.append("redirectTo", "/settings");
    const back = await fetch(`${server.url}/language`, { method: "POST", redirect: "manual", headers: { origin: server.url, cookie: signedIn }, body: multipart });
    expect(back.status).toBe(302);
    expect(back.headers.getSetCookie().join()).toContain("sw_lang=");
  });
});

describe("a request target in absolute form", () => {
  /** Sends `method` with the request line's target `target` as it is (Node keeps an absolute target). */
  function withTarget(method: string, target: string): Promise<{ status: number; body: string }> {
    const { port } = new URL(server.url);
    return new Promise((resolve, reject) => {
      const req = httpRequest({ host: "127.0.0.1", port, method, path: target, headers: { origin: server.url, "content-type": "application/x-www-form-urlencoded" } }, (res) => {
        let body = "";
        res.on("data", (chunk: Buffer) => (body += String(chunk)));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on("error", reject);
      req.end(method === "POST" ? "email=x" : undefined);
    });
  }

  it("'GET http://x/login' and a POST of it answer 400 with the error page, never 500, and the server goes on", async () => {
    const mark = server.output().length;
    for (const [method, target] of [["GET", "http://x/login"], ["POST", "http://x/login"], ["GET", `${server.url}/`], ["GET", "*"]] as const) {
      const answer = await withTarget(method, target);
      expect(answer.status, `${method} ${target}`).toBe(400);
      expect(answer.body).toContain(messages.requestUnreadable);
    }
    expect(errorsIn(logLinesSince(mark))).toEqual([]);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});

describe("a path escape that is not UTF-8", () => {
  it("'/%FF/x' and '/login/%FF' answer 400 with the error page, logged at warn, not as an error", async () => {
    const mark = server.output().length;
    for (const target of ["/%FF/x", "/login/%FF"]) {
      const answer = await fetch(`${server.url}${target}`, { headers: { cookie: consent } });
      expect(answer.status, target).toBe(400);
      expect(await answer.text()).toContain(messages.requestUnreadable);
    }
    // The log lines reach this process through a pipe, after the answers: wait for both.
    await expect.poll(() => logLinesSince(mark).filter((line) => line.msg === "request refused").length, { timeout: 15_000 }).toBe(2);
    expect(errorsIn(logLinesSince(mark))).toEqual([]);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});

describe("a method React Router does not serve", () => {
  it("OPTIONS answers 204 with Allow, TRACE and PROPFIND 405 with the error page, never 500", async () => {
    const mark = server.output().length;
    for (const route of ["/login", "/login.data", "/settings", "/"]) {
      const options = await fetch(`${server.url}${route}`, { method: "OPTIONS", headers: { origin: server.url, cookie: signedIn } });
      expect(options.status, route).toBe(204);
      expect(options.headers.get("allow")).toBe("GET, HEAD, POST, PUT, PATCH, DELETE");
      expect(options.headers.get("access-control-allow-origin")).toBeNull();
      for (const method of ["TRACE", "PROPFIND"]) {
        const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
          const { port } = new URL(server.url);
          httpRequest({ host: "127.0.0.1", port, method, path: route, headers: { "accept-language": "es" } }, (res) => {
            let body = "";
            res.on("data", (chunk: Buffer) => (body += String(chunk)));
            res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
          })
            .on("error", reject)
            .end();
        });
        expect(answer.status, `${method} ${route}`).toBe(405);
        expect(answer.body).toContain(spanish.requestUnreadable);
      }
    }
    expect(errorsIn(logLinesSince(mark))).toEqual([]);
  });
});

describe("a redirect target no Location header can carry", () => {
  const crafted = ["/checkaccountstatus\u0100", "/caf\u00e9", "/x\u007f", "/\u{1f600}", "/a b"];

  it.each(crafted)("signing in with redirectTo %j signs in and goes to the default page, not a 500", async (redirectTo) => {
    const answer = await fetch(`${server.url}/login`, form({ email, password, redirectTo }, server.url, consent));
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toBe("/checkaccountstatus");
    expect(sessionCookieOf(answer)).toBeTruthy();
  });

  it("/language and /cookies with such a target go to the start page", async () => {
    for (const redirectTo of crafted) {
      const language = await fetch(`${server.url}/language`, form({ language: "es", redirectTo }, server.url));
      expect(language.status, redirectTo).toBe(302);
      expect(language.headers.get("location")).toBe("/");
      const cookies = await fetch(`${server.url}/cookies`, form({ answer: "accepted", redirectTo }, server.url));
      expect(cookies.status, redirectTo).toBe(302);
      expect(cookies.headers.get("location")).toBe("/");
    }
  });

  it("the login page carries no such target into its form", async () => {
    const page = await fetch(`${server.url}/login?${new URLSearchParams({ redirectTo: "/caf\u00e9" })}`);
    expect(page.status).toBe(200);
    expect(await page.text()).not.toContain("caf\u00e9");
  });
});

describe("the shared page cache and a non-breaking space before a cookie's name", () => {
  /** A cookie the app sets, as `name=value`. */
  async function cookieSetBy(route: string, values: Record<string, string>, name: string): Promise<string> {
    const answer = await fetch(`${server.url}${route}`, form(values, server.url));
    const cookie = answer.headers.getSetCookie().find((c) => c.startsWith(`${name}=`))?.split(";")[0];
    expect(cookie, name).toBeTruthy();
    return cookie!;
  }

  /** GET `url` with the Cookie header as given, bytes above 0x7f included (sent as Latin-1, as browsers may). */
  function getWithCookie(url: string, cookie: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const target = new URL(url);
      httpRequest({ host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, headers: { cookie: Buffer.from(cookie, "latin1").toString("latin1") } }, (res) => {
        let body = "";
        res.on("data", (chunk: Buffer) => (body += String(chunk)));
        res.on("end", () => resolve(body));
      })
        .on("error", reject)
        .end();
    });
  }

  it("'Cookie: \\xa0sw_lang=…' is not stored as the page of those who chose Spanish", async () => {
    const chosen = await cookieSetBy("/language", { language: "es", redirectTo: "/" }, "sw_lang");
    const url = `${server.url}/login?poison=${Date.now()}`;
    const poisoned = await getWithCookie(url, `\xa0${chosen}`);
    expect(poisoned).toContain('lang="en"');
    // Whoever chose Spanish gets Spanish at that URL, on the first request and on the next.
    for (let i = 0; i < 2; i++) expect(await getWithCookie(url, chosen)).toContain('lang="es"');
  });

  it("'Cookie: \\xa0sw_cookie_consent=…' is not stored as the page of those who answered the banner", async () => {
    const answered = await cookieSetBy("/cookies", { answer: "accepted", redirectTo: "/" }, "sw_cookie_consent");
    const url = `${server.url}/?poison=${Date.now()}`;
    const banner = `action="/cookies"`;
    expect(await getWithCookie(url, `\xa0${answered}`)).toContain(banner);
    for (let i = 0; i < 2; i++) expect(await getWithCookie(url, answered)).not.toContain(banner);
  });

  it("'Cookie: \\xa0tz=…' is rendered for itself, and the clean request after it gets its own page", async () => {
    const url = `${server.url}/login?poison=${Date.now()}`;
    const clean = await getWithCookie(url, "tz=Asia%2FTokyo");
    expect(await getWithCookie(url, "\xa0tz=Asia%2FTokyo")).toContain('lang="en"');
    const strip = (html: string) => html.replace(/ nonce="[^"]*"/g, "");
    expect(strip(await getWithCookie(url, "tz=Asia%2FTokyo"))).toBe(strip(clean));
  });
});

/** The text a page shows: its HTML without scripts and tags (attributes, such as a form's action, are not shown). */
function visibleText(html: string): string {
  return html
    .replace(/<script\b[\s\S]*?<\/script>/g, " ")
    .replace(/<[^>]*>/g, " ")
    .replace(/&amp;/g, "&");
}

describe("a link's email parameter written as a sentence", () => {
  const sentence = "your account has been SUSPENDED. Call +1-555-0100";

  it("/resetpassword and /confirmaccount do not print it; an address they do print", async () => {
    for (const [route, without, withAddress] of [
      ["/resetpassword", messages.chooseNewPassword, messages.chooseNewPasswordFor],
      ["/confirmaccount", messages.choosePassword, messages.choosePasswordFor],
      ["/consumer/resetpassword", messages.chooseNewPassword, messages.chooseNewPasswordFor],
    ] as const) {
      // What the page says (its text, not the URL it posts back to, which carries the link as it came).
      const crafted = visibleText(await (await fetch(`${server.url}${route}?${new URLSearchParams({ email: sentence, token: "x" })}`)).text());
      expect(crafted, route).not.toContain("SUSPENDED");
      expect(crafted, route).not.toContain("555-0100");
      expect(crafted, route).toContain(without);
      const real = await (await fetch(`${server.url}${route}?${new URLSearchParams({ email: "grace@example.com", token: "x" })}`)).text();
      expect(real, route).toContain(withAddress("grace@example.com"));
    }
  });
});

describe("the pages whose URL carries a token", () => {
  it("answer Cache-Control: no-store, documents and .data: reset, confirm account, confirm e-mail", async () => {
    const query = `?${new URLSearchParams({ email: "grace@example.com", token: "0123456789abcdef" })}`;
    for (const route of ["/resetpassword", "/consumer/resetpassword", "/confirmaccount", "/confirmemail", "/consumer/confirmemail"]) {
      for (const suffix of ["", ".data"]) {
        const answer = await fetch(`${server.url}${route}${suffix}${query}`, { redirect: "manual" });
        expect(answer.status, `${route}${suffix}`).toBeLessThan(500);
        expect(answer.headers.get("cache-control"), `${route}${suffix}`).toBe("no-store");
      }
    }
    // A page without a token keeps its own caching.
    expect((await fetch(`${server.url}/terms`)).headers.get("cache-control")).not.toBe("no-store");
  });
});

describe("/readyz called in a loop", () => {
  let upstream: Server;
  /** /healthz calls each upstream path prefix received. */
  const asked = { identity: 0, consumer: 0, business: 0 };
  let replica: Running | undefined;

  beforeAll(async () => {
    // The test's own upstreams: three addresses on one small server that answers /healthz and counts.
    upstream = createServer((req, res) => {
      const service = req.url?.split("/")[1] as keyof typeof asked;
      if (req.url?.endsWith("/healthz") && service in asked) asked[service] += 1;
      res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
    });
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    replica = await startServer({
      DATA_DIR: mkdtempSync(path.join(tmpdir(), "sw-readyz-")),
      IDENTITY_URL: `${base}/identity`,
      CONSUMER_API_URL: `${base}/consumer`,
      BUSINESS_API_URL: `${base}/business`,
      IDENTITY_CLIENT_SECRET: "readyz-test-client-secret-0123",
    });
  }, 120_000);

  afterAll(() => {
    replica?.child.kill("SIGKILL");
    upstream?.close();
  });

  it("asks each upstream at most once a second, however often and however many at once", async () => {
    const started = Date.now();
    const atOnce = await Promise.all(Array.from({ length: 40 }, () => fetch(`${replica!.url}/readyz`)));
    for (const answer of atOnce) expect(answer.status).toBe(200);
    // One round for the 40, unless a busy machine spread them over more than a second: then one a second.
    const batchRounds = Math.max(1, Math.ceil((Date.now() - started) / 1000));
    for (const service of ["identity", "consumer", "business"] as const) {
      if (batchRounds === 1) expect(asked[service], service).toBe(1);
      else expect(asked[service], service).toBeLessThanOrEqual(batchRounds);
    }
    // Then one call every 50 ms for 2.5 s: a round of checks for each second that began, no more.
    while (Date.now() - started < 2_500) {
      const answer = await fetch(`${replica!.url}/readyz`);
      expect(await answer.json()).toEqual({ ready: true, checks: { identity: true, consumer: true, business: true } });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const seconds = Math.ceil((Date.now() - started) / 1000);
    for (const service of ["identity", "consumer", "business"] as const) {
      expect(asked[service], service).toBeGreaterThanOrEqual(2);
      expect(asked[service], service).toBeLessThanOrEqual(seconds + 1);
    }
  });
});
