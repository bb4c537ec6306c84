/**
 * A property-based sweep of bad input (docs/security/input.md "Input"), with fast-check, against server.ts
 * as operators run it: every route, with every method, `.data` or not, spelled differently, with
 * malformed and well-formed bodies of every content type, cookies (non-ASCII, a non-breaking space,
 * duplicates, huge, forged), redirect targets and query strings, signed in and signed out. Every
 * request comes from the app's own origin, so that neither the cross-site refusal nor (signed in)
 * the login guard stops it before the actions run. It asserts:
 * - no answer is a 5xx;
 * - every route action ran at least once (counted by the app's own action metric), so the sweep
 *   cannot pass by being stopped at the edge;
 * - no page the shared page cache answers differs from the one a request the cache does not serve
 *   gets, the nonce aside;
 * - /healthz answers afterwards.
 * A fixed seed and count: the same requests on every run, in well under a minute.
 */
import { readdirSync, readFileSync, mkdtempSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consent, password, person, signUp } from "./app-journey";
import { form, root, sessionCookieOf, startServer, type Running } from "./server-process";

const metricsToken = "fuzz-metrics-token-0123456789";
const email = `fuzz-${Date.now()}@example.com`;
let server: Running;
let dataDir: string;
/** The signed-in browser's cookies (session and consent); renewed when a request of the sweep signed it out. */
let signedIn: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "sw-fuzz-"));
  // The account is a dispute reviewer too, so that the reviewers' actions are reached.
  server = await startServer({ DATA_DIR: dataDir, AUTH_RATE_LIMIT: "1000000", METRICS_TOKEN: metricsToken, REVIEWER_EMAILS: email });
  signedIn = await signUp(server.url, dataDir, email);
}, 120_000);

afterAll(() => {
  server?.child.kill("SIGKILL");
});

/** Signs the account in again (a request of the sweep may have signed it out: logout, wipe, sign out everywhere). */
async function signInAgain(): Promise<void> {
  const answer = await fetch(`${server.url}/login`, form({ email, password }, server.url, consent));
  const session = sessionCookieOf(answer);
  expect(session, `sign-in answered ${answer.status}`).toBeTruthy();
  signedIn = `${session}; ${consent}`;
}

/** Every path of the route table (app/routes.ts), the aliases included, and a path no route has. */
const routePaths = [
  "/", "/login", "/logout", "/wipe", "/cookies", "/timezone", "/language", "/registration",
  "/confirmemail", "/consumer/confirmemail", "/confirmaccount", "/requestpasswordchange", "/consumer/requestpasswordchange",
  "/resetpassword", "/consumer/resetpassword", "/terms", "/privacy", "/testing-philosophy",
  "/checkaccountstatus", "/checkconfirmation", "/yourinfo", "/welcome", "/safewindow", "/mytests", "/testdetail",
  "/testresultviewer", "/testresultviewer/image", "/myfun", "/locations", "/checkin", "/people", "/follower", "/following",
  "/addpublisher", "/settings", "/personalinfo", "/settings/data", "/reviews", "/reviews/dispute", "/reviews/image",
  "/reviews/history", "/verify", "/.well-known/safewindow-pass-keys", "/safewindow/pass", "/safewindow/pass.pdf", "/no-such-page",
];
/** The same routes spelled differently, and the server's own endpoints. */
const otherPaths = ["//login", "/login/", "/LOGIN", "/%6Cogin", "/login;x", "/_root.data", "/healthz", "/readyz", "/metrics", "/assets/nope.js", "/favicon.ico", "/%E9", "/%ZZ", "/a/../login"];

/** Every route module that exports an action, by route id (`routes/<file>`): the actions the sweep must reach. */
const actionRouteIds = readdirSync(path.join(root, "app/routes"))
  .filter((file) => /^export (async )?function action\b/m.test(readFileSync(path.join(root, "app/routes", file), "utf8")))
  .map((file) => `routes/${file.replace(/\.tsx$/, "")}`);

const fieldNames = [
  "intent", "email", "password", "confirmPassword", "acceptTerms", "acceptPrivacy", "redirectTo", "language", "answer",
  "zone", "timeZone", "firstName", "lastName", "dob", "postalCode", "currentPassword", "newPassword", "newEmail",
  "comment", "decision", "responseComment", "visitId", "locationId", "code", "id", "rating", "link", "q", "zip", "miles",
  "sfConsumerId", "everywhere", "stay", "file", "pass", "photo", "strongOnly",
];
const intents = ["cancel", "check-email", "checkin", "confirm", "decline", "deleteAccount", "followback", "guidelines-read", "link", "lookup", "password", "timeZone", "username", "accept", "reject", "rate", "unfollow", "remove", "strong-only"];

/** Redirect targets: the crafted ones that broke Location headers or left the site, and anything at all. */
const redirectTarget = fc.oneof(
  fc.constantFrom("/", "/settings", "//evil.example", "/\\evil.example", "javascript:alert(1)", "/caf\u00e9", "/\u0100", "/x\u007f", "/a\r\nSet-Cookie: x=1", "/\u{1f600}", "/\ud800", "/%0d%0a"),
  fc.string({ unit: "binary", maxLength: 40 }).map((s) => `/${s}`),
);

/** A field's value: empty, plausible, the crafted redirect targets, control characters and any text. */
const fieldValue = fc.oneof(
  fc.constantFrom("", "on", "es", "en", "accepted", "declined", "Asia/Tokyo", "Not/AZone", person.firstName, person.usDob, "10001", "x@example.com", "1", "-1", "99999999999999999999", "00000000-0000-0000-0000-000000000000"),
  fc.constantFrom(...intents),
  redirectTarget,
  fc.string({ unit: "binary", maxLength: 60 }),
  fc.string({ maxLength: 3000 }),
);

/** A form's fields: any names and values, and often a redirect target (read by /login, /language, /cookies). */
const fields = fc
  .tuple(fc.array(fc.tuple(fc.constantFrom(...fieldNames), fieldValue), { maxLength: 8 }), fc.option(redirectTarget, { freq: 2 }))
  .map(([entries, to]) => (to === null ? entries : [...entries, ["redirectTo", to] as [string, string]]));

interface Body {
  contentType?: string;
  bytes?: Buffer;
}

/** A multipart body of `entries` with `boundary`, as a browser sends it (a file part for "file"). */
function multipart(entries: [string, string][], boundary: string): Buffer {
  const parts = entries.map(([name, value]) =>
    name === "file"
      ? `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="r.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\n${value}\r\n`
      : `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return Buffer.from(`${parts.join("")}--${boundary}--\r\n`, "utf8");
}

/**
 * A form every action reads as plausible: the values each one checks first (a language offered, a
 * consent answer, a zone, an address and a password, an intent) with a redirect target and any other
 * fields, so that the actions go past their first check to what they do with the rest.
 */
const plausibleForm = fc
  .record({
    language: fc.constantFrom("es", "en"),
    answer: fc.constantFrom("accepted", "declined"),
    zone: fc.constantFrom("Asia/Tokyo", "UTC", "America/New_York"),
    email: fc.emailAddress(),
    password: fc.constantFrom("Window#2026b", "x"),
    intent: fc.constantFrom(...intents),
    redirectTo: redirectTarget,
  })
  .chain((base) => fields.map((rest) => [...Object.entries(base), ...rest] as [string, string][]));

const boundary = fc.oneof(fc.constant("fuzzB0undary"), fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 80 }).filter((b) => !/[\r\n"]/.test(b)));

/** Bodies: well-formed forms, forms broken in the ways parsers break, and other content types. */
const body: fc.Arbitrary<Body> = fc.oneof(
  { weight: 3, arbitrary: plausibleForm.map((entries) => ({ contentType: "application/x-www-form-urlencoded", bytes: Buffer.from(new URLSearchParams(entries).toString()) })) },
  plausibleForm.map((entries) => ({ contentType: "multipart/form-data; boundary=fuzzB0undary", bytes: multipart(entries, "fuzzB0undary") })),
  fields.map((entries) => ({ contentType: "application/x-www-form-urlencoded", bytes: Buffer.from(new URLSearchParams(entries).toString()) })),
  fc.tuple(fields, boundary).map(([entries, b]) => ({ contentType: `multipart/form-data; boundary=${b}`, bytes: multipart(entries, b) })),
  fc.tuple(fields, boundary, fc.nat()).map(([entries, b, cut]) => {
    const whole = multipart(entries, b);
    return { contentType: `multipart/form-data; boundary=${b}`, bytes: whole.subarray(0, cut % (whole.length + 1)) };
  }),
  fc.tuple(fields, fc.constantFrom("multipart/form-data; boundary=other", "multipart/form-data; boundary=\"\"", "multipart/form-data")).map(([entries, contentType]) => ({ contentType, bytes: multipart(entries, "fuzzB0undary") })),
  fc.constantFrom("%zz=%", "a=%E9%ZZ&b", "=&&=", "a=" + "%".repeat(100), "\u0000=\u0000").map((text) => ({ contentType: "application/x-www-form-urlencoded", bytes: Buffer.from(text, "latin1") })),
  fc.tuple(
    fc.constantFrom(undefined, "text/plain", "application/json", "application/xml", "multipart/mixed; boundary=x", "application/x-www-form-urlencoded; charset=utf-16", "form-data", "\u00e9/\u00e9", ";;;", "multipart/form-data; boundary"),
    fc.uint8Array({ maxLength: 400 }),
  ).map(([contentType, bytes]) => ({ contentType, bytes: Buffer.from(bytes) })),
  fc.constant<Body>({}),
);

/** Query strings: none, a redirect target, ids, a link's parameters, and anything at all. */
const query = fc.oneof(
  fc.constant(""),
  redirectTarget.map((to) => `?redirectTo=${encodeURIComponent(to.replace(/[\ud800-\udfff]/g, "\ufffd"))}`),
  fc.constantFrom("?id=00000000-0000-0000-0000-000000000000", "?id=../../etc", "?tab=followers", "?page=-1", "?page=99999", "?view=large&fit=1", "?step=remove&id=x", "?q=grace", "?email=x%40example.com&token=x", "?email=your%20account%20has%20been%20SUSPENDED&token=x", "?index", "?_data=root", "?panel=password", "?edit=1", "?location=x", "?%ZZ=%"),
  fc.string({ unit: "binary-ascii", maxLength: 60 }).map((s) => `?${encodeURI(s)}`),
);

/** The language cookie's and the consent cookie's values as the app sets them (base64 of JSON, React Router's createCookie). */
const cookieValue = (value: string) => encodeURIComponent(btoa(JSON.stringify(value)));

/** Cookies beside (or instead of) the browser's own: keyed ones spelled oddly, forged, duplicated, huge. */
const extraCookies = fc.oneof(
  fc.constant(""),
  fc.constantFrom(
    `sw_lang=${cookieValue("es")}`,
    `\xa0sw_lang=${cookieValue("es")}`,
    `sw_lang\xa0=${cookieValue("es")}`,
    `sw_lang=${cookieValue("es")}; sw_lang=${cookieValue("en")}`,
    `\xa0sw_cookie_consent=${cookieValue("accepted")}`,
    `sw_cookie_consent=${cookieValue("accepted")}; sw_cookie_consent=x`,
    "tz=Asia%2FTokyo",
    "\xa0tz=Asia%2FTokyo",
    "tz=%ZZ",
    "sw_time_zone=Not%2FAZone",
    "__session=forged.signature",
    "sw_username=forged",
    "\u00e9\u00ff=\u00e9",
    "a",
    `big=${"x".repeat(6000)}`,
    `many=${"a=b; ".repeat(400)}`,
  ),
  fc.string({ unit: "binary", maxLength: 80 }).map(asHeaderValue),
);

/**
 * `text` as a header value can carry it: Latin-1 bytes without the control characters that no
 * HTTP client sends (Node's refuses them, as browsers do), characters above U+00FF folded into 0x80-0xFF.
 */
function asHeaderValue(text: string): string {
  return [...text]
    .map((char) => {
      const code = char.codePointAt(0)!;
      return code > 0xff ? String.fromCharCode(0x80 + (code % 0x80)) : char;
    })
    .join("")
    .replace(/[\x00-\x08\x0a-\x1f\x7f]/g, "");
}

const acceptLanguage = fc.constantFrom(undefined, "es", "en", "es-MX;q=0.5, en;q=0.9", "*", "zz", ";;q=x", "\u00e9");

interface Sent {
  method: string;
  target: string;
  signedIn: boolean;
  cookie: string;
  acceptLanguage?: string;
  body: Body;
}

const methods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "PROPFIND", "QUERY"] as const;

const requests: fc.Arbitrary<Sent> = fc
  .record({
    method: fc.oneof({ weight: 3, arbitrary: fc.constant("POST") }, { weight: 4, arbitrary: fc.constantFrom(...methods) }),
    path: fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...routePaths) }, { weight: 1, arbitrary: fc.constantFrom(...otherPaths) }),
    data: fc.boolean(),
    query,
    signedIn: fc.boolean(),
    cookie: extraCookies,
    acceptLanguage,
    body,
  })
  .map(({ method, path: p, data, query: q, signedIn: s, cookie, acceptLanguage: a, body: b }) => ({
    method,
    target: `${data && p !== "/" && routePaths.includes(p) ? `${p}.data` : p}${q}`,
    signedIn: s,
    cookie,
    acceptLanguage: a,
    body: method === "GET" || method === "HEAD" ? {} : b,
  }));

/** Sends `sent` as it is (Latin-1 header bytes, any method, an absolute Content-Length); its status and body. */
function send(sent: Sent, cookie: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const headers: Record<string, string> = { origin: server.url, "sec-fetch-site": "same-origin" };
  if (cookie) headers.cookie = cookie;
  if (sent.acceptLanguage !== undefined) headers["accept-language"] = sent.acceptLanguage;
  if (sent.body.contentType !== undefined) headers["content-type"] = sent.body.contentType;
  if (sent.body.bytes) headers["content-length"] = String(sent.body.bytes.length);
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, method: sent.method, path: sent.target, headers, timeout: 60_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error(`no answer to ${sent.method} ${sent.target}`)));
    req.on("error", reject);
    req.end(sent.body.bytes);
  });
}

/** The routes whose actions can sign the browser out (so the next signed-in request signs in again first). */
const signingOut = /^\/(logout|wipe|settings|login|registration)(\.data)?(\?|$)/;

/**
 * One POST per action route and body kind, signed in, before the random requests: every action is
 * reached by a well-formed form and a broken one whatever the seed draws.
 */
function examples(): [Sent][] {
  const routes = routePaths.filter((p) => p !== "/no-such-page");
  const made: [Sent][] = [];
  for (const p of [...routes, "/no-such-page"]) {
    for (const b of [
      { contentType: "application/x-www-form-urlencoded", bytes: Buffer.from(new URLSearchParams([["intent", "confirm"], ["redirectTo", "/caf\u00e9"], ["email", "x@example.com"]]).toString()) },
      { contentType: "multipart/form-data; boundary=fuzzB0undary", bytes: multipart([["intent", "link"], ["link", "http://127.0.0.1:1/x"]], "fuzzB0undary").subarray(0, 40) },
    ]) {
      made.push([{ method: "POST", target: p, signedIn: true, cookie: "", body: b }]);
    }
  }
  // The checks of a session that is gone, on the pages that need one.
  made.push([{ method: "POST", target: "/welcome", signedIn: false, cookie: "", body: {} }]);
  return made;
}

describe("bad input, swept", () => {
  it("no 5xx on any route, every action reached, no cached page differs from a clean render, /healthz answers", async () => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(requests, async (sent) => {
        const cookie = [sent.signedIn ? signedIn : "", sent.cookie].filter(Boolean).join("; ");
        const answer = await send(sent, cookie);
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        expect(answer.status, `${sent.method} ${sent.target} (${sent.body.contentType ?? "no Content-Type"}, ${sent.body.bytes?.length ?? 0} bytes)`).toBeLessThan(500);
        if (sent.signedIn && sent.method !== "GET" && sent.method !== "HEAD" && signingOut.test(sent.target)) {
          const settings = await fetch(`${server.url}/settings`, { headers: { cookie: signedIn }, redirect: "manual" });
          if (settings.status !== 200) await signInAgain();
        }
      }),
      { seed: 20261128, numRuns: 500, examples: examples(), endOnFailure: true },
    );
    console.info(`fuzz answers by status: ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`);

    // Every action ran (the app's own count, by route id): the sweep got past the edge's refusals.
    const metrics = await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })).text();
    const reached = new Set<string>();
    for (const [, id, count] of metrics.matchAll(/^safewindow_route_actions_total\{route="([^"]+)",outcome="[^"]+"\} (\d+)/gm)) {
      if (Number(count) > 0) reached.add(id!);
    }
    expect(actionRouteIds.length).toBeGreaterThan(20);
    expect(actionRouteIds.filter((id) => !reached.has(id))).toEqual([]);

    // The shared pages, as a clean request gets them (maybe from the cache) and as rendered for a
    // request the cache never serves (an unknown cookie): the same, the nonce aside.
    const strip = (html: string) => html.replace(/ nonce="[^"]*"/g, "");
    for (const page of ["/", "/login", "/registration", "/requestpasswordchange", "/terms", "/privacy", "/testing-philosophy", "/login?redirectTo=%2Fsettings"]) {
      for (const cookie of ["", `sw_lang=${cookieValue("es")}`, `sw_cookie_consent=${cookieValue("accepted")}`, "tz=Asia%2FTokyo"]) {
        for (const language of [undefined, "es"]) {
          const sent: Sent = { method: "GET", target: page, signedIn: false, cookie, acceptLanguage: language, body: {} };
          const served = await send(sent, cookie);
          const rendered = await send(sent, [cookie, "fuzz_render=1"].filter(Boolean).join("; "));
          expect(served.status, `${page} ${cookie} ${language}`).toBe(200);
          expect(strip(served.body), `${page} with "${cookie}" and Accept-Language ${language}`).toBe(strip(rendered.body));
        }
      }
    }

    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  }, 240_000);
});
