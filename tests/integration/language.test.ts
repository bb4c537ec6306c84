/**
 * The language of the answers (docs/architecture/behaviour.md §4 "Language") as server.ts serves them:
 * every answer says its language (`<html lang>`, Content-Language) and that it depends on
 * Accept-Language (Vary), rendered or from the shared page cache; /language sets the explicit choice
 * and goes back to a local page only; and while English alone is offered (app/i18n.ts), nobody gets
 * Spanish, whatever they ask, and no switch is shown. The rules with both languages offered:
 * tests/unit/i18n.test.ts. Needs `npm run build` first.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { form, startServer, type Running } from "./server-process";

let server: Running;

beforeAll(async () => {
  server = await startServer({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "sw-language-")) });
}, 90_000);

afterAll(() => {
  if (server.child.exitCode === null) server.child.kill("SIGKILL");
});

const varyNames = (response: Response) => (response.headers.get("vary") ?? "").split(",").map((name) => name.trim().toLowerCase());

describe("the language of the answers", () => {
  it("says English on a page asked for in Spanish, rendered and from the shared page cache, and shows no language switch", async () => {
    for (const round of ["rendered", "stored"]) {
      const response = await fetch(`${server.url}/login?language-test=1`, { headers: { "accept-language": "es-MX,es;q=0.9" } });
      expect(response.status, round).toBe(200);
      expect(response.headers.get("content-language"), round).toBe("en");
      expect(varyNames(response), round).toContain("accept-language");
      const html = await response.text();
      expect(html, round).toMatch(/<html lang="en"/);
      expect(html, round).toContain("<h1>Sign In</h1>");
      expect(html, round).not.toContain('action="/language"');
    }
    // The second answer came from the cache: its policy allows scripts by hash, not by a nonce.
    const again = await fetch(`${server.url}/login?language-test=1`, { headers: { "accept-language": "es" } });
    expect(again.headers.get("content-security-policy")).toContain("'sha256-");
    expect(again.headers.get("content-language")).toBe("en");
    expect(varyNames(again)).toContain("accept-language");
  });

  it("says its language on a redirect and an unknown page too", async () => {
    const redirect = await fetch(`${server.url}/safewindow`, { redirect: "manual", headers: { "accept-language": "es" } });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get("content-language")).toBe("en");
    const missing = await fetch(`${server.url}/no-such-page`, { headers: { "accept-language": "es" } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-language")).toBe("en");
    expect(await missing.text()).toMatch(/<html lang="en"/);
  });
});

describe("/language, the explicit choice", () => {
  it("keeps an offered language in a cookie for a year and goes back to the page it came from", async () => {
    const response = await fetch(`${server.url}/language`, form({ language: "en", redirectTo: "/registration?x=1" }, server.url));
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/registration?x=1");
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith("sw_lang="));
    expect(cookie).toMatch(/Max-Age=31536000/);
    expect(cookie).toMatch(/HttpOnly/);
    // A browser with the choice still gets the shared pages (the cookie is part of their key).
    const page = await fetch(`${server.url}/registration`, { headers: { cookie: cookie!.split(";")[0]!, "accept-language": "es" } });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-language")).toBe("en");
  });

  it("goes back only to a local page", async () => {
    for (const redirectTo of ["//evil.example/", "https://evil.example/", "/\\evil.example"]) {
      const response = await fetch(`${server.url}/language`, form({ language: "en", redirectTo }, server.url));
      expect(response.status, redirectTo).toBe(302);
      expect(response.headers.get("location"), redirectTo).toBe("/");
    }
  });

  it("refuses a language that is not offered, Spanish included while screens carry English of their own, and sets no cookie", async () => {
    for (const language of ["es", "fr", ""]) {
      const response = await fetch(`${server.url}/language`, form({ language, redirectTo: "/login" }, server.url));
      expect(response.status, language).toBe(400);
      expect(response.headers.getSetCookie().some((c) => c.startsWith("sw_lang=")), language).toBe(false);
    }
  });

  it("refuses a choice posted from another site", async () => {
    const response = await fetch(`${server.url}/language`, form({ language: "en", redirectTo: "/login" }, "https://evil.example"));
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.headers.getSetCookie().some((c) => c.startsWith("sw_lang="))).toBe(false);
  });
});
