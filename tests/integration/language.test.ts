/**
 * The language of the answers (docs/architecture/behaviour.md §4 "Language") as server.ts serves them:
 * every answer says its language (`<html lang>`, Content-Language) and that it depends on
 * Accept-Language (Vary), rendered or from the shared page cache; /language sets the explicit choice
 * and goes back to a local page only; English and Spanish are offered (app/i18n.ts): a browser that asks
 * for Spanish gets it, an explicit choice overrides the header, and Sign In shows the switch. The
 * negotiation's rules one by one: tests/unit/i18n.test.ts. Needs `npm run build` first.
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
  it("says Spanish on a page asked for in Spanish, rendered and from the shared page cache, and shows the language switch", async () => {
    for (const round of ["rendered", "stored"]) {
      const response = await fetch(`${server.url}/login?language-test=1`, { headers: { "accept-language": "es-MX,es;q=0.9" } });
      expect(response.status, round).toBe(200);
      expect(response.headers.get("content-language"), round).toBe("es");
      expect(varyNames(response), round).toContain("accept-language");
      const html = await response.text();
      expect(html, round).toMatch(/<html lang="es"/);
      expect(html, round).toContain("<h1>Iniciar sesión</h1>");
      expect(html, round).toContain('action="/language"');
    }
    // The second answer came from the cache: its policy allows scripts by hash, not by a nonce.
    const again = await fetch(`${server.url}/login?language-test=1`, { headers: { "accept-language": "es" } });
    expect(again.headers.get("content-security-policy")).toContain("'sha256-");
    expect(again.headers.get("content-language")).toBe("es");
    expect(varyNames(again)).toContain("accept-language");
    // The cache keys on the language: English asked for after the Spanish page was stored is English.
    const english = await fetch(`${server.url}/login?language-test=1`, { headers: { "accept-language": "en-US" } });
    expect(english.headers.get("content-language")).toBe("en");
    expect(await english.text()).toContain("<h1>Sign In</h1>");
  });

  it("says its language on a redirect and an unknown page too", async () => {
    const redirect = await fetch(`${server.url}/safewindow`, { redirect: "manual", headers: { "accept-language": "es" } });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get("content-language")).toBe("es");
    const missing = await fetch(`${server.url}/no-such-page`, { headers: { "accept-language": "es" } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-language")).toBe("es");
    expect(await missing.text()).toMatch(/<html lang="es"/);
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
    // The explicit choice overrides Accept-Language.
    const page = await fetch(`${server.url}/registration`, { headers: { cookie: cookie!.split(";")[0]!, "accept-language": "es" } });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-language")).toBe("en");
    const spanish = await fetch(`${server.url}/language`, form({ language: "es", redirectTo: "/registration" }, server.url));
    const spanishCookie = spanish.headers.getSetCookie().find((c) => c.startsWith("sw_lang="));
    const chosen = await fetch(`${server.url}/registration`, { headers: { cookie: spanishCookie!.split(";")[0]!, "accept-language": "en-US" } });
    expect(chosen.headers.get("content-language")).toBe("es");
  });

  it("goes back only to a local page", async () => {
    for (const redirectTo of ["//evil.example/", "https://evil.example/", "/\\evil.example"]) {
      const response = await fetch(`${server.url}/language`, form({ language: "en", redirectTo }, server.url));
      expect(response.status, redirectTo).toBe(302);
      expect(response.headers.get("location"), redirectTo).toBe("/");
    }
  });

  it("refuses a language that is not offered, and sets no cookie", async () => {
    for (const language of ["fr", "EN", ""]) {
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
