/**
 * The browser's time zone as server.ts takes it (docs/architecture/behaviour.md §4 "One clock", docs/security/accounts.md
 * "Cookies"): the boot script posts the zone to /timezone, which answers with the `tz` cookie made like
 * every other cookie. Over https it is `__Host-tz`, HttpOnly, Secure and SameSite=Lax, so neither a
 * script nor a page served over http can plant or read it; a value that is not a zone is refused, and a
 * forged cookie is not read. Needs `npm run build` first.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { form, startServer, type Running } from "./server-process";

let server: Running;

beforeAll(async () => {
  server = await startServer({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "sw-timezone-")), PUBLIC_URL: "https://safewindow.example" });
}, 90_000);

afterAll(() => {
  server?.child.kill("SIGKILL");
});

/** The boot script's post: a same-origin fetch of the page, as the browser marks it. */
function postZone(zone: string | undefined, site = "same-origin"): Promise<Response> {
  const init = form(zone === undefined ? {} : { zone }, server.url);
  return fetch(`${server.url}/timezone`, { ...init, headers: { ...(init.headers as Record<string, string>), "sec-fetch-site": site } });
}

/** The zone the server rendered into the boot script (`data-tz`), or null when it rendered none. */
async function renderedZone(cookie?: string, page = "/login"): Promise<{ zone: string | null; csp: string }> {
  const response = await fetch(`${server.url}${page}`, { headers: cookie ? { cookie } : {} });
  const zone = /<script[^>]* data-tz="([^"]*)"/.exec(await response.text())?.[1] ?? null;
  return { zone, csp: response.headers.get("content-security-policy") ?? "" };
}

describe("the browser's time zone cookie", () => {
  it("is set by the server over https with the flags of every cookie: __Host-, HttpOnly, Secure, SameSite=Lax", async () => {
    const answer = await postZone("Asia/Tokyo");
    expect(answer.status).toBe(204);
    const [cookie, ...rest] = answer.headers.getSetCookie();
    expect(cookie).toMatch(/^__Host-tz=[^;]+; Max-Age=31536000; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
    // The cookie an earlier boot script wrote itself (plain `tz`, no flags) is removed.
    expect(rest).toEqual(["tz=; Path=/; Max-Age=0; SameSite=Lax"]);
    // The next page is rendered in the zone, and tells the boot script it is known.
    expect((await renderedZone(cookie!.split(";")[0])).zone).toBe("Asia/Tokyo");
    expect((await renderedZone()).zone).toBe("");
  });

  it("refuses a value that is not a zone, and a post from another site; sets nothing", async () => {
    for (const zone of ["Mars/Olympus_Mons", '"><script>alert(1)</script>', `Europe/${"x".repeat(80)}`, "", undefined]) {
      const answer = await postZone(zone);
      expect(answer.status, String(zone)).toBe(400);
      expect(answer.headers.getSetCookie()).toEqual([]);
    }
    const crossSite = await postZone("Asia/Tokyo", "cross-site");
    expect(crossSite.status).toBe(403);
    expect(crossSite.headers.getSetCookie()).toEqual([]);
  });

  it("does not read a forged cookie, nor the unprefixed one a script or a page over http could write", async () => {
    const forged = `__Host-tz=${encodeURIComponent(Buffer.from(JSON.stringify("Mars/Olympus_Mons")).toString("base64"))}`;
    expect((await renderedZone(forged)).zone).toBe("");
    expect((await renderedZone("tz=Asia%2FTokyo")).zone).toBe("");
    expect((await renderedZone(`__Host-tz=${encodeURIComponent(Buffer.from(JSON.stringify("Asia/Tokyo")).toString("base64"))}`)).zone).toBe("Asia/Tokyo");
  });

  it("keeps an anonymous page with the cookie in the shared page cache, keyed on its zone", async () => {
    const tokyo = (await postZone("Asia/Tokyo")).headers.getSetCookie()[0]!.split(";")[0]!;
    const paris = (await postZone("Europe/Paris")).headers.getSetCookie()[0]!.split(";")[0]!;
    await renderedZone(tokyo, "/terms");
    await renderedZone(paris, "/terms");
    const fromCache = (answer: { csp: string }) => !answer.csp.includes("'nonce-") && answer.csp.includes("'sha256-");
    const again = await renderedZone(tokyo, "/terms");
    expect(fromCache(again)).toBe(true);
    expect(again.zone).toBe("Asia/Tokyo");
    const other = await renderedZone(paris, "/terms");
    expect(fromCache(other)).toBe(true);
    expect(other.zone).toBe("Europe/Paris");
  });
});
