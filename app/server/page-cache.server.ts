/**
 * The shared page cache (docs/architecture/request-path.md §7.1, docs/decisions/0014-shared-page-cache.md):
 * pages that every anonymous visitor gets the same (intro, Sign In, Create Account, the terms...)
 * are rendered once and then answered from memory, gzip included, for `ttlMs`.
 *
 * Who may be answered from it: a GET whose cookies are all in `keyedCookies` (the consent answer,
 * the time zone and the chosen language, whose values are part of the key), read by the same
 * parser as the render reads them (cookie-es, React Router's). Any other cookie (the session, the
 * remembered username, a flag, one we do not know, a name spelled with a byte that parser keeps)
 * or a cookie sent twice means the page may be this person's own: it is rendered as usual and
 * never stored. The key also holds the
 * URL as sent (path and query), the Host header, and the language `Accept-Language` picks
 * (`languageOf`, the rule of app/server/i18n.server.ts, so that pages in two languages never share
 * an entry and the header's many spellings share one).
 *
 * What is stored: only a page whose leaf route says so (`handle: { sharedPage: true }`), rendered to
 * the end without an error (entry.server.tsx decides and calls `PageCacheSlot.store`), and answered
 * 200 without a Set-Cookie in the headers that finally went out (server.ts calls `PageCacheSlot.finish`
 * once the response is sent): a cookie added after the render, by the session middleware or any
 * other, keeps the page out of the cache. The per-response CSP nonce cannot be reused, so the stored copy carries
 * no nonce; its inline scripts are allowed by their SHA-256 hashes instead (CSP Level 2
 * `'sha256-...'` sources), which the answer puts in place of the nonce in the policy.
 */
import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import { parse as parseCookies } from "cookie-es";
import { LRUCache } from "lru-cache";

/** A route module's `handle` that allows its page in the shared page cache. */
export interface SharedPageHandle {
  /** The page depends only on the URL, the consent answer and the time zone, never on a session. */
  sharedPage: true;
}

/** One stored page. */
export interface CachedPage {
  /** The HTML without nonce attributes, UTF-8. */
  html: Buffer;
  /** `html` compressed with gzip. */
  gzip: Buffer;
  /** The CSP script sources of its inline scripts, `'sha256-<base64>'` each, space-separated. */
  scriptSources: string;
  /** The headers the route answered with (Content-Type and its own), lower-case names; no Set-Cookie. */
  headers: [string, string][];
}

/** Given to the renderer of one request that may be stored (RequestInfo.sharedPage). */
export interface PageCacheSlot {
  /**
   * Keeps the page rendered for this request until `finish` says how the response went out.
   * @param html the whole HTML as sent, with this response's nonce
   * @param headers the renderer's response headers (the route's own are stored with the page); nothing
   *   is kept when they hold a Set-Cookie
   */
  store(html: string, headers: Headers): void;
  /**
   * The response was sent: stores the kept page when its final status is 200 and its final headers
   * hold no Set-Cookie; else (or without a page kept) stores nothing. Later calls do nothing.
   * @param headerNames the names of the headers that went out, any case
   */
  finish(status: number, headerNames: readonly string[]): void;
}

/** What the cache needs to know of a request. */
export interface PageRequest {
  method: string;
  /** The URL as sent: path and query. */
  url: string;
  host: string | undefined;
  cookie: string | undefined;
  /** The Accept-Language header as sent, if any. */
  acceptLanguage?: string | undefined;
}

export interface SharedPageCache {
  /** The request's key, or undefined when it may not be answered from the cache (not a GET, or a cookie not keyed). */
  keyOf(request: PageRequest): string | undefined;
  /** The stored page for `key`, or undefined. */
  get(key: string): CachedPage | undefined;
  /** A slot that stores the page rendered for `key` with `nonce`. */
  slot(key: string, nonce: string): PageCacheSlot;
  /** Pages stored now. */
  readonly size: number;
}

export interface SharedPageCacheOptions {
  /** Cookie names whose values are part of the key; a request with any other cookie is not answered from the cache. */
  keyedCookies: string[];
  /** The language a page is rendered in for this Accept-Language (without a language cookie); part of the key. */
  languageOf?: (acceptLanguage: string | undefined) => string;
  /** How long a stored page is answered, ms. */
  ttlMs?: number;
  /** At most this many bytes of HTML and gzip together (a URL's query is part of the key, so keys are many). */
  maxBytes?: number;
}

/** Inline scripts of React's HTML: React escapes `<` and `>` in attribute values, and React Router's data has no `</script`. */
const scriptPattern = /<script\b([^>]*)>([\s\S]*?)<\/script>/g;

/**
 * Creates the cache (server.ts, one per process).
 * @param options.ttlMs default 60 000 ms; options.maxBytes default 8 MiB
 */
export function createSharedPageCache({ keyedCookies, languageOf = () => "", ttlMs = 60_000, maxBytes = 8 * 1024 * 1024 }: SharedPageCacheOptions): SharedPageCache {
  const pages = new LRUCache<string, CachedPage>({
    maxSize: maxBytes,
    sizeCalculation: (page) => page.html.length + page.gzip.length,
    ttl: ttlMs,
  });
  const keyed = new Set(keyedCookies);

  function keyOf({ method, url, host, cookie, acceptLanguage }: PageRequest): string | undefined {
    if (method !== "GET") return undefined;
    // Read by the parser the render reads cookies with (React Router's createCookie uses cookie-es),
    // so that the key holds exactly what the page is rendered from: a name that parser does not
    // trim (a non-breaking space before it) is a name not keyed, never one of ours.
    // A pair without "=" is a cookie with an empty name (RFC 6265bis §5.7): one we do not know.
    if (cookie?.split(";").some((pair) => !pair.includes("=") && /[^ \t]/.test(pair))) return undefined;
    const values = cookie ? parseCookies(cookie, { allowMultiple: true }) : {};
    for (const name in values) {
      if (!keyed.has(name) || typeof values[name] !== "string") return undefined;
    }
    return [url, host ?? "", languageOf(acceptLanguage), ...keyedCookies.map((name) => values[name] ?? "")].join("\n");
  }

  function slot(key: string, nonce: string): PageCacheSlot {
    let kept: CachedPage | undefined;
    let finished = false;
    return {
      store(html, headers) {
        if (finished || headers.has("set-cookie")) return;
        const withoutNonce = nonce ? html.replaceAll(` nonce="${nonce}"`, "") : html;
        const hashes = new Set<string>();
        for (const [, attributes, body] of withoutNonce.matchAll(scriptPattern)) {
          if (/\ssrc=/.test(attributes!)) continue;
          hashes.add(`'sha256-${createHash("sha256").update(body!, "utf8").digest("base64")}'`);
        }
        const routeHeaders: [string, string][] = [];
        for (const [name, value] of headers) {
          if (!["content-length", "content-encoding", "content-security-policy", "vary"].includes(name)) routeHeaders.push([name, value]);
        }
        const bytes = Buffer.from(withoutNonce, "utf8");
        kept = { html: bytes, gzip: gzipSync(bytes), scriptSources: [...hashes].join(" "), headers: routeHeaders };
      },
      finish(status, headerNames) {
        if (finished) return;
        finished = true;
        const page = kept;
        kept = undefined;
        if (!page || status !== 200 || headerNames.some((name) => name.toLowerCase() === "set-cookie")) return;
        pages.set(key, page);
      },
    };
  }

  return {
    keyOf,
    get: (key) => pages.get(key),
    slot,
    get size() {
      return pages.size;
    },
  };
}

/**
 * The policy of a page answered from the cache: `policy` (this response's, made by helmet with
 * its nonce) with the nonce source replaced by the page's script hashes.
 * @returns undefined when `policy` has no `'nonce-<nonce>'` source (then the page is rendered instead)
 */
export function policyWithHashes(policy: string, nonce: string, page: CachedPage): string | undefined {
  const source = `'nonce-${nonce}'`;
  if (!policy.includes(source)) return undefined;
  return policy.replace(source, page.scriptSources || "'none'");
}
