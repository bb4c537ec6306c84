/**
 * Attacks on server.ts as operators run it (docs/security/README.md), each written as the request
 * that worked before: it now fails, and the legitimate request still works.
 * - Cross-site posts (Fetch Metadata, then Origin) to page actions, `.data` and resource routes.
 * - Signed-in answers must not be cached (documents, `.data`, the result image); public pages may.
 * - Password guessing throttled per account and client address (set with X-Forwarded-For, which
 *   server.ts trusts from loopback), so the owner signs in from elsewhere; every 429 (documents and
 *   `.data`) carries a numeric Retry-After.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import routeTable from "../../app/routes";
import * as messages from "../../app/messages";
import { consent, listedResults, mailLink, report, signUp, uploadPost } from "./app-journey";
import { harborviewPdf } from "../fixtures/index";
import { childEnv, form, node, root, sessionCookieOf, startServer, type Running } from "./server-process";
import { callApi, makePerson, requestToken, startServices } from "./support";

let server: Running;
let dataDir: string;

/** A licensed administrator of the sample venues (services/business/seed.ts), written before the server starts. */
const venueAdmin = `venue-admin-${Date.now()}@example.com`;
/** The first sample venue (services/business/seed.ts SAMPLE_VENUES[0]). */
const harborviewTaproomId = "5a1e7d0c-5eed-4000-8000-000000000101";

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "sw-security-"));
  const seeded = spawnSync(node, [path.join(root, "services/business/seed-cli.ts"), venueAdmin], { env: childEnv({ DATA_DIR: dataDir }), encoding: "utf8", timeout: 60_000 });
  expect(seeded.status, seeded.stderr).toBe(0);
  server = await startServer({ DATA_DIR: dataDir, AUTH_RATE_LIMIT: "100000" });
}, 150_000);

afterAll(() => {
  server?.child.kill("SIGKILL");
});

/** A form post that names its site the way a browser does (extra headers override `form`'s Origin). */
function post(url: string, values: Record<string, string>, cookie: string, headers: Record<string, string>): Promise<Response> {
  const init = form(values, new URL(url).origin, cookie);
  return fetch(url, { ...init, headers: { ...(init.headers as Record<string, string>), ...headers } });
}

describe("cross-site requests", () => {
  let cookie: string;

  beforeAll(async () => {
    cookie = await signUp(server.url, dataDir, `csrf-${Date.now()}@example.com`);
  }, 90_000);

  const attacks: [string, Record<string, string>][] = [
    ["Sec-Fetch-Site: cross-site, no Origin", { "sec-fetch-site": "cross-site" }],
    ["Sec-Fetch-Site: same-site (a sibling subdomain)", { "sec-fetch-site": "same-site", origin: "https://other.safewindow.example" }],
    ["an Origin of another site, no Fetch Metadata", { origin: "https://evil.example" }],
    ["Origin: null", { origin: "null" }],
  ];

  it.each(attacks)("/logout, /wipe and /cookies refuse %s, and the session survives", async (_name, headers) => {
    for (const [route, values] of [["/logout", {}], ["/wipe", {}], ["/cookies", { answer: "declined" }]] as const) {
      const answer = await post(`${server.url}${route}`, values, cookie, headers);
      expect(answer.status, route).toBe(403);
      expect(answer.headers.getSetCookie(), route).toEqual([]);
    }
    const settings = await fetch(`${server.url}/settings`, { headers: { cookie }, redirect: "manual" });
    expect(settings.status).toBe(200);
  });

  it("a page action and its .data post refuse a cross-site post, with a message; nothing changes", async () => {
    const before = await listedResults(server.url, cookie);
    const upload = await uploadPost(server.url, cookie, await report(60), { origin: "https://evil.example", "sec-fetch-site": "cross-site" });
    expect(upload.status).toBe(403);
    expect(await upload.text()).toContain(messages.crossSiteRefused);
    const profile = await post(`${server.url}/personalinfo.data`, { firstName: "Mallory", lastName: "Hopper", dob: "12/09/1986", postalCode: "10001" }, cookie, { "sec-fetch-site": "cross-site" });
    expect(profile.status).toBe(403);
    expect(await listedResults(server.url, cookie)).toEqual(before);
    expect(await (await fetch(`${server.url}/settings`, { headers: { cookie } })).text()).not.toContain("Mallory");
  });

  it("the same posts from the app's own pages still work", async () => {
    const sameOrigin = { "sec-fetch-site": "same-origin", origin: server.url };
    const consentAnswer = await post(`${server.url}/cookies`, { answer: "declined", redirectTo: "/settings" }, cookie, sameOrigin);
    expect(consentAnswer.status).toBe(302);
    const upload = await uploadPost(server.url, cookie, await report(61), sameOrigin);
    expect(upload.status).toBe(302);
    // A browser that sends only Origin (no Fetch Metadata), naming this host.
    const logout = await post(`${server.url}/logout`, {}, cookie, { origin: server.url });
    expect(logout.status).toBe(302);
    expect(logout.headers.get("location")).toBe("/login");
    expect((await fetch(`${server.url}/settings`, { headers: { cookie }, redirect: "manual" })).status).toBe(302);
  });
});

describe("the signed-in routes", () => {
  /** Every path under the two signed-in layouts of the route table (app/routes.ts), as its config lists them. */
  const signedInPaths = routeTable
    .filter((entry) => entry.file === "routes/guarded.tsx" || entry.file === "routes/main.tsx")
    .flatMap((layout) => (layout.children ?? []).map((child) => `/${child.path}`));

  it("send a browser without a session to Sign In, coming back to the page asked for: documents, .data and posts", async () => {
    expect(signedInPaths.length).toBeGreaterThan(20);
    expect(signedInPaths).toEqual(expect.arrayContaining(["/yourinfo", "/safewindow", "/safewindow/pass.pdf", "/testresultviewer/image", "/reviews/history"]));
    for (const path of signedInPaths) {
      const login = `/login?redirectTo=${encodeURIComponent(`${path}?id=1`)}`;
      const page = await fetch(`${server.url}${path}?id=1`, { redirect: "manual" });
      expect([page.status, page.headers.get("location")], path).toEqual([302, login]);
      const data = await fetch(`${server.url}${path}.data?id=1`, { redirect: "manual" });
      expect(data.status, `${path}.data`).toBe(202);
      expect(await data.text(), `${path}.data`).toContain("/login?redirectTo=");
      const post = await fetch(`${server.url}${path}?id=1`, { ...form({ intent: "x" }, server.url), redirect: "manual" });
      expect([post.status, post.headers.get("location")], `POST ${path}`).toEqual([302, login]);
    }
  });
});

describe("caching of personal pages", () => {
  let cookie: string;
  let resultId: string;

  beforeAll(async () => {
    cookie = await signUp(server.url, dataDir, `cache-${Date.now()}@example.com`);
    expect((await uploadPost(server.url, cookie, await report(45))).status).toBe(302);
    resultId = (await listedResults(server.url, cookie))[0]!;
  }, 90_000);

  it("every signed-in answer is no-store: documents, .data and the result image", async () => {
    for (const page of ["/settings", "/personalinfo", "/mytests", "/safewindow", "/people", `/testdetail?id=${resultId}`, "/mytests.data", "/settings.data", `/testresultviewer/image?id=${resultId}`]) {
      const answer = await fetch(`${server.url}${page}`, { headers: { cookie }, redirect: "manual" });
      expect(answer.status, page).toBe(200);
      expect(answer.headers.get("cache-control"), page).toBe("no-store");
    }
  });

  it("the answer that signs in is no-store too; public pages are not marked so", async () => {
    const email = `cache-login-${Date.now()}@example.com`;
    const other = await signUp(server.url, dataDir, email);
    expect(other).toContain("__session=");
    const signedIn = await fetch(`${server.url}/login`, form({ email, password: "Window#2026a" }, server.url));
    expect(sessionCookieOf(signedIn)).toBeTruthy();
    expect(signedIn.headers.get("cache-control")).toBe("no-store");
    for (const page of ["/login", "/registration", "/terms"]) {
      const answer = await fetch(`${server.url}${page}`);
      expect(answer.status, page).toBe(200);
      expect(answer.headers.get("cache-control"), page).not.toBe("no-store");
    }
  });
});

describe("limits on account forms", () => {
  let limited: Running;
  let limitedDir: string;

  beforeAll(async () => {
    limitedDir = mkdtempSync(path.join(tmpdir(), "sw-security-limits-"));
    limited = await startServer({ DATA_DIR: limitedDir, AUTH_RATE_LIMIT: "4" });
  }, 90_000);

  afterAll(() => {
    limited?.child.kill("SIGKILL");
  });

  it("spelling the path differently does not start a fresh counter", async () => {
    const spellings = ["/login", "/LOGIN", "/Login/", "/login.data", "/%6Cogin", "/login//"];
    const statuses: number[] = [];
    for (const spelling of spellings) {
      const answer = await fetch(`${limited.url}${spelling}`, form({ email: "", password: "x" }, limited.url));
      statuses.push(answer.status);
      if (answer.status === 429) {
        expect(answer.headers.get("retry-after")).toMatch(/^\d+$/);
        expect(await answer.text()).toMatch(/Too many attempts\. Please try again in \d+ minutes?\./);
      }
    }
    expect(statuses.slice(4)).toEqual([429, 429]);
    expect(statuses.slice(0, 4).every((s) => s !== 429)).toBe(true);
    // Another form keeps its own counter.
    expect((await fetch(`${limited.url}/registration`, form({ email: "" }, limited.url))).status).not.toBe(429);
  });

  it("a PUT, PATCH or DELETE runs the same action as a post, and counts against the same limit", async () => {
    const from = { "x-forwarded-for": "203.0.113.77" };
    const sent = (method: string) => {
      const init = form({ email: "", password: "x" }, limited.url);
      return fetch(`${limited.url}/login`, { ...init, method, headers: { ...(init.headers as Record<string, string>), ...from } });
    };
    for (const method of ["PUT", "PATCH", "DELETE", "PUT"]) expect((await sent(method)).status, method).not.toBe(429);
    expect((await post(`${limited.url}/login`, { email: "", password: "x" }, "", from)).status).toBe(429);
    for (const method of ["PUT", "PATCH", "DELETE"]) expect((await sent(method)).status, method).toBe(429);
  });

  it("mails to one address are capped, whatever the sender; other addresses are unaffected", async () => {
    const email = `flood-${Date.now()}@example.com`;
    await signUp(server.url, dataDir, email);
    const statuses: number[] = [];
    for (let n = 0; n < 7; n++) {
      const answer = await fetch(`${server.url}/requestpasswordchange`, form({ email }, server.url));
      statuses.push(answer.status);
      const html = await answer.text();
      if (answer.status === 429) expect(html).toMatch(/Too many attempts\. Please try again in \d+ minutes?\./);
    }
    // The sign-up mailed the address once; five more mails an hour at most.
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429, 429]);
    expect((await fetch(`${server.url}/requestpasswordchange`, form({ email: `other-${Date.now()}@example.com` }, server.url))).status).toBe(200);
  });

  it("the per-address form limit of server.ts answers 429 with Retry-After to documents and .data", async () => {
    const from = { "x-forwarded-for": "203.0.113.92" };
    const values = { email: `ra-form-${Date.now()}@example.com` };
    for (let n = 0; n < 4; n++) expect((await post(`${limited.url}/requestpasswordchange`, values, "", from)).status).not.toBe(429);
    await expectRetryAfter(await bothWays(limited.url, "/requestpasswordchange", values, "", from), 600, "formsPerAddress");
  });

  it("ten wrong passwords from one address: that address waits, the owner signs in from another address", async () => {
    const email = `guess-${Date.now()}@example.com`;
    await signUp(server.url, dataDir, email);
    const attacker = { "x-forwarded-for": "203.0.113.66" };
    for (let n = 0; n < 10; n++) expect((await post(`${server.url}/login`, { email, password: `Wrong#${n}aaaa` }, "", attacker)).status).toBe(400);
    // The attacker's address now waits, whatever the password (the right one too).
    for (const password of ["Wrong#10aaaa", "Window#2026a"]) {
      const refused = await post(`${server.url}/login`, { email, password }, "", attacker);
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(await refused.text()).toMatch(/Too many attempts\. Please try again in \d+ minutes?\./);
    }
    // The owner, elsewhere and with no cookie of ours, signs in at once.
    const owner = await post(`${server.url}/login`, { email, password: "Window#2026a" }, "", { "x-forwarded-for": "198.51.100.7" });
    expect(owner.status).toBe(302);
    expect(sessionCookieOf(owner)).toBeTruthy();
    // Successful sign-ins do not count against an account.
    for (let n = 0; n < 12; n++) expect((await post(`${server.url}/login`, { email, password: "Window#2026a" }, "", { "x-forwarded-for": "198.51.100.7" })).status).toBe(302);
  }, 90_000);

  it("an IPv6 network is one address (its /64): hopping within it does not start a fresh counter; another /64 signs in", async () => {
    const email = `guess6-${Date.now()}@example.com`;
    await signUp(server.url, dataDir, email);
    for (let n = 0; n < 10; n++) {
      const hop = { "x-forwarded-for": `2001:db8:5:6::${(n + 1).toString(16)}` };
      expect((await post(`${server.url}/login`, { email, password: `Wrong#${n}aaaa` }, "", hop)).status).toBe(400);
    }
    expect((await post(`${server.url}/login`, { email, password: "Window#2026a" }, "", { "x-forwarded-for": "2001:db8:5:6:ffff:ffff:ffff:fffe" })).status).toBe(429);
    expect((await post(`${server.url}/login`, { email, password: "Window#2026a" }, "", { "x-forwarded-for": "2001:db8:5:7::1" })).status).toBe(302);
  }, 90_000);

  it("many addresses guessing one account get 3 tries each past 50 failures, and the right password still signs in from a fresh address", async () => {
    const email = `swarm-${Date.now()}@example.com`;
    await signUp(server.url, dataDir, email);
    // 51 failures from 6 addresses (10 each, the per-address limit, and a sixth): the account is under attack.
    for (let n = 0; n < 51; n++) {
      const answer = await post(`${server.url}/login`, { email, password: `Wrong#${n}aaaa` }, "", { "x-forwarded-for": `192.0.2.${10 + Math.floor(n / 10)}` });
      expect(answer.status, `attempt ${n}`).toBe(400);
    }
    const fresh = { "x-forwarded-for": "192.0.2.200" };
    for (let n = 0; n < 3; n++) expect((await post(`${server.url}/login`, { email, password: `Other#${n}aaaa` }, "", fresh)).status).toBe(400);
    const fourth = await post(`${server.url}/login`, { email, password: "Other#3aaaa" }, "", fresh);
    expect(fourth.status).toBe(429);
    expect(fourth.headers.get("retry-after")).toMatch(/^\d+$/);
    // The owner is never refused by the account-wide count: the right password signs in.
    expect((await post(`${server.url}/login`, { email, password: "Window#2026a" }, "", { "x-forwarded-for": "192.0.2.201" })).status).toBe(302);
  }, 180_000);
});

/** Posts `values` to `route` twice: as a plain form post (a document request) and as `route.data` (the app's fetch). */
async function bothWays(base: string, route: string, values: Record<string, string>, cookie: string, headers: Record<string, string>): Promise<Response[]> {
  const [pathname, search = ""] = route.split("?");
  const query = search ? `?${search}` : "";
  return [await post(`${base}${pathname}${query}`, values, cookie, headers), await post(`${base}${pathname}.data${query}`, values, cookie, headers)];
}

/** Every refusal is 429 with a Retry-After of whole seconds, within the window that refused. */
async function expectRetryAfter(answers: Response[], atMostSeconds: number, what: string): Promise<void> {
  for (const [n, answer] of answers.entries()) {
    const label = `${what} (${n === 0 ? "document" : ".data"})`;
    expect(answer.status, label).toBe(429);
    expect(answer.headers.get("retry-after"), label).toMatch(/^\d+$/);
    const seconds = Number(answer.headers.get("retry-after"));
    expect(seconds, label).toBeGreaterThanOrEqual(1);
    expect(seconds, label).toBeLessThanOrEqual(atMostSeconds);
    await answer.body?.cancel();
  }
}

describe("every 429 says when to try again (Retry-After), with and without JavaScript", () => {
  it("sign-in per account and address", async () => {
    const email = `ra-login-${Date.now()}@example.com`;
    await signUp(server.url, dataDir, email);
    const from = { "x-forwarded-for": "203.0.113.90" };
    for (let n = 0; n < 10; n++) expect((await post(`${server.url}/login`, { email, password: `Wrong#${n}aaaa` }, "", from)).status).toBe(400);
    await expectRetryAfter(await bothWays(server.url, "/login", { email, password: "Window#2026a" }, "", from), 600, "/login");
  }, 90_000);

  it("mails per recipient: registration, reset request, confirmation mail (by link and signed in)", async () => {
    const email = `ra-mail-${Date.now()}@example.com`;
    const from = { "x-forwarded-for": "203.0.113.91" };
    // Registered (one mail), signed in, the address not confirmed yet: the page that resends the mail.
    const registered = await post(`${server.url}/registration`, { email, password: "Window#2026a", confirmPassword: "Window#2026a", acceptTerms: "on", acceptPrivacy: "on" }, "", from);
    expect(registered.headers.get("location")).toBe("/checkconfirmation");
    const cookie = `${sessionCookieOf(registered)}; ${consent}`;
    for (let n = 0; n < 4; n++) expect((await post(`${server.url}/requestpasswordchange`, { email }, "", from)).status).toBe(200);
    await expectRetryAfter(await bothWays(server.url, "/requestpasswordchange", { email }, "", from), 3600, "/requestpasswordchange");
    await expectRetryAfter(
      await bothWays(server.url, "/registration", { email, password: "Window#2026a", confirmPassword: "Window#2026a", acceptTerms: "on", acceptPrivacy: "on" }, "", from),
      3600,
      "/registration",
    );
    await expectRetryAfter(await bothWays(server.url, `/confirmemail?email=${encodeURIComponent(email)}`, {}, "", from), 3600, "/confirmemail");
    await expectRetryAfter(await bothWays(server.url, "/checkconfirmation", {}, cookie, from), 3600, "/checkconfirmation");
  }, 90_000);

  it("venue check-in: guessing codes is refused by the consumer API, and the app relays when to try again", async () => {
    const cookie = await signUp(server.url, dataDir, venueAdmin);
    expect((await fetch(`${server.url}/checkin`, { headers: { cookie } })).status).toBe(200);
    const guess = () => ({ intent: "lookup", locationId: harborviewTaproomId, code: Array.from({ length: 6 }, () => "0123456789ABCDEFGHJKMNPQRSTVWXYZ"[Math.floor(Math.random() * 32)]).join("") });
    const statuses: number[] = [];
    for (let n = 0; n < 40 && statuses.at(-1) !== 429; n++) {
      const answer = await post(`${server.url}/checkin`, guess(), cookie, {});
      statuses.push(answer.status);
      await answer.body?.cancel();
    }
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.slice(0, -1).every((s) => s === 404)).toBe(true);
    await expectRetryAfter(await bothWays(server.url, "/checkin", guess(), cookie, {}), 24 * 3600, "/checkin");
    const page = await post(`${server.url}/checkin`, guess(), cookie, {});
    expect(page.status).toBe(429);
    expect(await page.text()).toMatch(/Too many codes that do not exist were entered\. Please try again in \d+ minutes?\./);
  }, 90_000);

});

describe("a change to the account signs out every other browser", () => {
  const strong = "Window#2026a";

  /** Signs `email` in as a second browser. @returns its cookies */
  async function secondBrowser(email: string, pass = strong): Promise<string> {
    const answer = await fetch(`${server.url}/login`, form({ email, password: pass }, server.url));
    expect(answer.status).toBe(302);
    return `${sessionCookieOf(answer)}; ${consentCookie}`;
  }
  const consentCookie = `sw_cookie_consent=${encodeURIComponent(btoa(JSON.stringify("accepted")))}`;

  /** True when the browser's cookies still open /settings; when not, /login says why once. */
  async function signedIn(cookie: string): Promise<boolean> {
    const answer = await fetch(`${server.url}/settings`, { headers: { cookie }, redirect: "manual" });
    if (answer.status === 200) return true;
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent("/settings")}`);
    const next = `${sessionCookieOf(answer) ?? cookie.split("; ")[0]}; ${consentCookie}`;
    expect(await (await fetch(`${server.url}/login`, { headers: { cookie: next } })).text()).toContain(messages.sessionExpired);
    return false;
  }

  it("a password change: the other browser is out at its next request, this one stays", async () => {
    const email = `pw-change-${Date.now()}@example.com`;
    const a = await signUp(server.url, dataDir, email);
    const b = await secondBrowser(email);
    expect(await signedIn(b)).toBe(true);
    const changed = await fetch(`${server.url}/settings`, form({ intent: "password", currentPassword: strong, newPassword: "Better#2026b", confirmPassword: "Better#2026b" }, server.url, a));
    expect(changed.headers.get("location")).toBe("/settings");
    expect(await signedIn(a)).toBe(true);
    expect(await signedIn(b)).toBe(false);
    // B cannot save personal info any more either.
    const save = await fetch(`${server.url}/personalinfo`, form({ firstName: "Mallory", lastName: "Hopper", dob: "12/09/1986", postalCode: "10001" }, server.url, b));
    expect(save.status).toBe(302);
    expect(save.headers.get("location")).toMatch(/^\/login\?redirectTo=/);
  });

  it("an e-mail change needs the current password; it signs the others out and keeps this browser", async () => {
    const email = `mail-change-${Date.now()}@example.com`;
    const a = await signUp(server.url, dataDir, email);
    const b = await secondBrowser(email);
    const fresh = `mail-changed-${Date.now()}@example.com`;
    // With the session alone (no or a wrong current password), nothing changes.
    for (const currentPassword of ["", "Guess#2026zz"]) {
      const refused = await fetch(`${server.url}/settings`, form({ intent: "username", userName: fresh, currentPassword }, server.url, b));
      expect(refused.status).toBe(400);
      expect(await refused.text()).toContain(currentPassword ? messages.currentPasswordWrong : messages.currentPasswordRequired);
    }
    expect(await signedIn(a)).toBe(true);
    const changed = await fetch(`${server.url}/settings`, form({ intent: "username", userName: fresh, currentPassword: strong }, server.url, a));
    expect(changed.headers.get("location")).toBe("/settings");
    const settings = await fetch(`${server.url}/settings`, { headers: { cookie: a } });
    expect(await settings.text()).toContain(fresh);
    expect(await signedIn(b)).toBe(false);
  });

  it("a password reset signs out every browser of the account", async () => {
    const email = `reset-${Date.now()}@example.com`;
    const a = await signUp(server.url, dataDir, email);
    const b = await secondBrowser(email);
    expect((await fetch(`${server.url}/requestpasswordchange`, form({ email }, server.url))).status).toBe(200);
    const link = await mailLink(dataDir, email, "/resetpassword");
    const reset = await fetch(`${server.url}/resetpassword${link.search}`, form({ newPassword: "Reset#2026c", confirmPassword: "Reset#2026c" }, server.url));
    expect(reset.status).toBe(200);
    expect(await reset.text()).toContain(messages.resetSucceeded);
    expect(await signedIn(a)).toBe(false);
    expect(await signedIn(b)).toBe(false);
    expect(await signedIn(await secondBrowser(email, "Reset#2026c"))).toBe(true);
  });

  it("'Sign out everywhere' signs out this browser and every other", async () => {
    const email = `everywhere-${Date.now()}@example.com`;
    const a = await signUp(server.url, dataDir, email);
    const b = await secondBrowser(email);
    const out = await fetch(`${server.url}/logout`, form({ everywhere: "1" }, server.url, a));
    expect(out.headers.get("location")).toBe("/login");
    expect((await fetch(`${server.url}/settings`, { headers: { cookie: a }, redirect: "manual" })).status).toBe(302);
    expect(await signedIn(b)).toBe(false);
  });
});

describe("control characters at the edge", () => {
  let cookie: string;
  let resultId: string;

  beforeAll(async () => {
    cookie = await signUp(server.url, dataDir, `nul-${Date.now()}@example.com`);
    // A refused upload (a report of someone else) is what a dispute is for.
    const other = await harborviewPdf({ firstName: "Ada", lastName: "Lovelace", dob: "1985-12-10", collectedAt: new Date(Date.now() - 3_600_000) });
    expect((await uploadPost(server.url, cookie, other)).status).toBeLessThan(500);
    resultId = (await listedResults(server.url, cookie))[0]!;
  }, 90_000);

  it("a NUL in the login e-mail, the people search, a dispute comment or a new e-mail is a 400 with the field's message", async () => {
    const login = await fetch(`${server.url}/login`, form({ email: "a\u0000@example.com", password: "x" }, server.url));
    expect(login.status).toBe(400);
    expect(await login.text()).toContain(messages.controlCharacters);

    const search = await fetch(`${server.url}/addpublisher?q=${encodeURIComponent("Hop\u0000per")}`, { headers: { cookie } });
    expect(search.status).toBe(400);
    expect(await search.text()).toContain(messages.searchInvalid);

    const dispute = await fetch(`${server.url}/testdetail?id=${resultId}&tab=dispute`, form({ disputeComment: "typo\u0000" }, server.url, cookie));
    expect(dispute.status).toBe(400);
    expect(await dispute.text()).toContain(messages.controlCharacters);

    const email = await fetch(`${server.url}/settings`, form({ intent: "username", userName: "x\u0000@example.com", currentPassword: "Window#2026a" }, server.url, cookie));
    expect(email.status).toBe(400);
    expect(await email.text()).toContain(messages.controlCharacters);
  });

  it("multi-line text keeps its tabs and line breaks", async () => {
    const dispute = await fetch(`${server.url}/testdetail?id=${resultId}&tab=dispute`, form({ disputeComment: "Line one\r\n\tline two" }, server.url, cookie));
    expect(dispute.status).toBeLessThan(400);
  });

  it("the reference services refuse control characters with a 400 that names the parameter", async () => {
    const services = await startServices({ client: { clientId: "nul-client", clientSecret: "nul-client-secret-0123456789" }, tmpPrefix: "sw-nul-" });
    try {
      const user = await makePerson(services, { firstName: "Ada", lastName: "Lovelace", dob: "1985-12-10", postalCode: "10001" });
      const search = await callApi(services, `/consumersubscription/searchpublishers/?searchString=${encodeURIComponent("abc\u0000")}`, user);
      expect(search.status).toBe(400);
      expect(await search.text()).toContain("searchString");
      const token = await requestToken(services, { grant_type: "password", username: `${user.email}\u0000`, password: user.password });
      expect(token.status).toBe(400);
      // Clean requests still work.
      expect((await callApi(services, "/consumersubscription/searchpublishers/?searchString=abcdef", user)).status).toBe(200);
    } finally {
      await services.close();
    }
  }, 60_000);
});

describe("headers and cookies", () => {
  it("framing is refused by CSP alone, and powerful browser features are off", async () => {
    const page = await fetch(`${server.url}/login`);
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(page.headers.get("x-frame-options")).toBeNull();
    expect(page.headers.get("permissions-policy")).toBe("camera=(), microphone=(), geolocation=(self), payment=(), usb=(), browsing-topics=()");
  });

  it("over https every cookie carries the __Host- prefix, and the remembered address lasts 30 days", async () => {
    const httpsDir = mkdtempSync(path.join(tmpdir(), "sw-security-https-"));
    const https = await startServer({ DATA_DIR: httpsDir, PUBLIC_URL: "https://safewindow.example" });
    try {
      const email = `https-${Date.now()}@example.com`;
      const registered = await fetch(`${https.url}/registration`, form({ email, password: "Window#2026a", confirmPassword: "Window#2026a", acceptTerms: "on", acceptPrivacy: "on" }, https.url));
      expect(registered.status).toBe(302);
      const cookies = registered.headers.getSetCookie();
      expect(cookies.length).toBeGreaterThanOrEqual(2);
      for (const cookie of cookies) {
        expect(cookie).toMatch(/^__Host-/);
        expect(cookie).toMatch(/; Secure/);
        expect(cookie).toMatch(/; Path=\//);
        expect(cookie).not.toMatch(/; Domain=/i);
      }
      expect(cookies.find((c) => c.startsWith("__Host-session="))).toBeTruthy();
      expect(cookies.find((c) => c.startsWith("__Host-sw_username="))).toMatch(/Max-Age=2592000/);
      // The prefixed session works: the next page is signed in.
      const session = cookies.find((c) => c.startsWith("__Host-session="))!.split(";")[0]!;
      const next = await fetch(`${https.url}/checkconfirmation`, { headers: { cookie: session }, redirect: "manual" });
      expect(next.status).toBe(200);
    } finally {
      https.child.kill("SIGKILL");
    }
  }, 90_000);
});
