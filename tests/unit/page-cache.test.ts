// The shared page cache's rules (app/server/page-cache.server.ts): which requests have a key, what
// a stored page keeps, and that its memory is bounded. server.ts's use of it: tests/integration/page-cache.test.ts.
import { createHash } from "node:crypto";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { negotiatedLanguage } from "../../app/server/i18n.server.ts";
import { createSharedPageCache, policyWithHashes, type SharedPageCache } from "../../app/server/page-cache.server.ts";

const keyedCookies = ["sw_cookie_consent", "tz"];
const request = { method: "GET", url: "/login", host: "app.example", cookie: undefined as string | undefined };
const html = (nonce: string, body = "") =>
  `<!DOCTYPE html><html><head><script nonce="${nonce}">boot()</script><script src="/assets/a.js" nonce="${nonce}"></script></head><body>${body}<script type="module" nonce="${nonce}" async="">import "/assets/b.js";</script></body></html>`;
/** A page rendered into `cache` under `key` and sent as rendered: 200, no header added after the render. */
function serve(cache: SharedPageCache, key: string, nonce: string, page: string, headers: Headers): void {
  const slot = cache.slot(key, nonce);
  slot.store(page, headers);
  slot.finish(200, [...headers.keys()]);
}
const sha256 = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;

describe("the shared page cache's key", () => {
  const cache = createSharedPageCache({ keyedCookies });

  it("is undefined for anything but a GET, and for a cookie it does not key on or one sent twice", () => {
    expect(cache.keyOf(request)).toBeDefined();
    for (const method of ["HEAD", "POST", "PUT"]) expect(cache.keyOf({ ...request, method })).toBeUndefined();
    for (const cookie of ["__session=abc", "sw_username=x", "other", "tz=UTC; __session=abc", "tz=UTC; tz=Asia%2FTokyo"]) {
      expect(cache.keyOf({ ...request, cookie })).toBeUndefined();
    }
  });

  it("reads cookies as the render's parser does: a name behind a non-breaking space or a line break is not a keyed name", () => {
    // The render (React Router's createCookie, cookie-es) trims spaces and tabs only: "\xa0tz" is another name.
    for (const cookie of ["\xa0tz=UTC", "tz\xa0=UTC", "\vtz=UTC", "tz=UTC;\xa0sw_cookie_consent=accepted"]) {
      expect(cache.keyOf({ ...request, cookie }), JSON.stringify(cookie)).toBeUndefined();
    }
    // What that parser does read the same is keyed the same: spaces and tabs around, percent-encoding.
    expect(cache.keyOf({ ...request, cookie: " \ttz=Asia%2FTokyo\t " })).toBe(cache.keyOf({ ...request, cookie: "tz=Asia/Tokyo" }));
  });

  it("differs by URL, host and each keyed cookie's value, and not by their order", () => {
    const keys = [
      cache.keyOf(request),
      cache.keyOf({ ...request, url: "/login?redirectTo=%2Fpeople" }),
      cache.keyOf({ ...request, host: "evil.example" }),
      cache.keyOf({ ...request, cookie: "tz=UTC" }),
      cache.keyOf({ ...request, cookie: "tz=Asia%2FTokyo" }),
      cache.keyOf({ ...request, cookie: "sw_cookie_consent=a" }),
      cache.keyOf({ ...request, cookie: "sw_cookie_consent=a; tz=UTC" }),
    ];
    expect(new Set(keys).size).toBe(keys.length);
    expect(cache.keyOf({ ...request, cookie: "tz=UTC; sw_cookie_consent=a" })).toBe(cache.keyOf({ ...request, cookie: "sw_cookie_consent=a; tz=UTC" }));
    expect(cache.keyOf({ ...request, cookie: "" })).toBe(cache.keyOf(request));
  });
});

describe("the shared page cache's key and the language (app/server/i18n.server.ts)", () => {
  const cache = createSharedPageCache({ keyedCookies: [...keyedCookies, "sw_lang"], languageOf: (header) => negotiatedLanguage(header, ["en", "es"]) });

  it("differs by the language Accept-Language picks, and not by the header's spelling of it", () => {
    const english = cache.keyOf({ ...request, acceptLanguage: "en-US,en;q=0.9" });
    const spanish = cache.keyOf({ ...request, acceptLanguage: "es-MX,es;q=0.9" });
    expect(spanish).not.toBe(english);
    expect(cache.keyOf({ ...request, acceptLanguage: "es" })).toBe(spanish);
    expect(cache.keyOf({ ...request, acceptLanguage: "fr" })).toBe(english);
    expect(cache.keyOf(request)).toBe(english);
  });

  it("differs by the chosen language's cookie", () => {
    expect(cache.keyOf({ ...request, cookie: "sw_lang=ImVzIg%3D%3D" })).not.toBe(cache.keyOf({ ...request, cookie: "sw_lang=ImVuIg%3D%3D" }));
    expect(cache.keyOf({ ...request, cookie: "sw_lang=ImVzIg%3D%3D" })).not.toBe(cache.keyOf(request));
  });
});

describe("a stored page", () => {
  it("loses its nonce, lists its inline scripts' hashes, keeps the route's headers, and is gzip too", () => {
    const cache = createSharedPageCache({ keyedCookies });
    serve(cache, "k", "N0nce+/=", html("N0nce+/="), new Headers({ "Content-Type": "text/html; charset=utf-8", "X-Route": "1", "Content-Length": "9" }));
    const page = cache.get("k")!;
    const text = page.html.toString("utf8");
    expect(text).toBe(html("N0nce+/=").replaceAll(' nonce="N0nce+/="', ""));
    expect(gunzipSync(page.gzip).toString("utf8")).toBe(text);
    expect(page.scriptSources.split(" ").sort()).toEqual([sha256("boot()"), sha256('import "/assets/b.js";')].sort());
    expect(page.headers).toEqual([
      ["content-type", "text/html; charset=utf-8"],
      ["x-route", "1"],
    ]);
    const policy = "default-src 'self';script-src 'self' 'nonce-abc';object-src 'none'";
    expect(policyWithHashes(policy, "abc", page)).toBe(`default-src 'self';script-src 'self' ${page.scriptSources};object-src 'none'`);
    expect(policyWithHashes(policy, "another", page)).toBeUndefined();
  });

  it("is not stored when the answer sets a cookie", () => {
    const cache = createSharedPageCache({ keyedCookies });
    serve(cache, "k", "n", html("n"), new Headers({ "Set-Cookie": "a=1" }));
    expect(cache.get("k")).toBeUndefined();
  });

  it("is not stored when a Set-Cookie joins the headers after the render (the session middleware's), nor before the response went out", () => {
    const cache = createSharedPageCache({ keyedCookies });
    // Rendered clean; the session middleware then commits a session cookie on the way out.
    const sessionSet = cache.slot("k", "n");
    sessionSet.store(html("n"), new Headers({ "Content-Type": "text/html" }));
    expect(cache.get("k")).toBeUndefined();
    sessionSet.finish(200, ["Content-Type", "Set-Cookie", "Content-Security-Policy"]);
    expect(cache.get("k")).toBeUndefined();
    // A later finish of the same slot cannot store it either.
    sessionSet.finish(200, ["content-type"]);
    expect(cache.get("k")).toBeUndefined();
    // A status changed after the render, or a response that never finished (cut), stores nothing.
    const failed = cache.slot("k", "n");
    failed.store(html("n"), new Headers());
    failed.finish(500, []);
    cache.slot("k", "n").store(html("n"), new Headers());
    expect(cache.get("k")).toBeUndefined();
    // The same page sent without a cookie is stored.
    serve(cache, "k", "n", html("n"), new Headers({ "Content-Type": "text/html" }));
    expect(cache.get("k")).toBeDefined();
  });

  it("is forgotten after the time to live, and the pages together stay within maxBytes", async () => {
    const cache = createSharedPageCache({ keyedCookies, ttlMs: 50, maxBytes: 64 * 1024 });
    serve(cache, "k", "n", html("n"), new Headers());
    expect(cache.get("k")).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(cache.get("k")).toBeUndefined();
    // Pages of about 10 KB each (random text, so gzip cannot shrink it): a few fit, the oldest go.
    for (let n = 0; n < 50; n++) {
      serve(cache, `page-${n}`, "n", html("n", createHash("sha512").update(String(n)).digest("hex").repeat(80)), new Headers());
    }
    let bytes = 0;
    for (let n = 0; n < 50; n++) {
      const page = cache.get(`page-${n}`);
      if (page) bytes += page.html.length + page.gzip.length;
    }
    expect(bytes).toBeLessThanOrEqual(64 * 1024);
    expect(cache.size).toBeGreaterThan(0);
    expect(cache.get("page-49")).toBeDefined();
    expect(cache.get("page-0")).toBeUndefined();
  });
});
