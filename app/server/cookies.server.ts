/**
 * The app's cookies, all made one way (docs/security/accounts.md "Cookies"): HttpOnly, SameSite=Lax, path =
 * BASE_PATH, Secure when PUBLIC_URL is https. Over https their names carry the browser-enforced
 * prefix: `__Host-` (Secure, no Domain, Path=/) when the app is served at the root, else
 * `__Secure-`, so another site on a sibling domain, or a page served over http, cannot plant or
 * overwrite them.
 */
import { parse } from "cookie-es";
import { LRUCache } from "lru-cache";
import { createCookie, type Cookie } from "react-router";
import { getConfig, type Config } from "./config.server";

/** The cookies made for a configuration, by name, lifetime and signing (one object each, not one per request). */
const made = new WeakMap<Config, Map<string, Cookie>>();

/**
 * A cookie of this app named `name` (over https, with the prefix in front of the name without its
 * leading underscores: `__session` becomes `__Host-session`). The same object for the same
 * arguments while the configuration stays the same.
 * @param maxAge lifetime in seconds
 * @param signed signed with SESSION_SECRET, so it cannot be forged
 */
export function appCookie(name: string, { maxAge, signed = false }: { maxAge: number; signed?: boolean }): Cookie {
  const config = getConfig();
  let cookies = made.get(config);
  if (!cookies) {
    cookies = new Map();
    made.set(config, cookies);
  }
  const key = `${name} ${maxAge} ${signed}`;
  let cookie = cookies.get(key);
  if (!cookie) {
    const secure = config.publicUrl.startsWith("https:");
    const prefix = secure ? (config.BASE_PATH === "/" ? "__Host-" : "__Secure-") : "";
    const secrets = signed && config.SESSION_SECRET ? [config.SESSION_SECRET] : [];
    cookie = createCookie(secure ? `${prefix}${name.replace(/^_+/, "")}` : name, {
      httpOnly: true,
      sameSite: "lax",
      secure,
      path: config.BASE_PATH,
      secrets,
      maxAge,
    });
    cookie = withKnownValues(cookie);
    cookies.set(key, cookie);
  }
  return cookie;
}

/** Values read a moment ago, per cookie: at most this many each, for at most this long (ms). */
const knownMax = 10_000;
const knownTtlMs = 10 * 60 * 1000;
/**
 * At most this many characters of cookie text and value kept per cookie: an unsigned cookie's text
 * is whatever a client sends, so the count alone would not bound the memory (a text longer than
 * this is read every time, never kept).
 */
export const knownMaxChars = 1_000_000;

/**
 * The Cookie header parsed last (cookie-es, the parser React Router's cookies use), kept while the
 * same text comes again: one request's cookies are read by several modules in turn (the language,
 * the session, the banner's answer, the time zone, the remembered address), each of which parsed
 * the whole header before.
 */
let lastHeader: string | undefined;
let lastCookies: Record<string, string | undefined> = {};

function cookiesOf(header: string): Record<string, string | undefined> {
  if (header !== lastHeader) {
    lastCookies = parse(header);
    lastHeader = header;
  }
  return lastCookies;
}

/**
 * `cookie` whose `parse` remembers what it read, by the cookie's exact text: a browser sending the
 * same cookie again costs neither React Router's decoding (base64, a character-by-character
 * unescape, JSON) nor, for a signed cookie, the HMAC check (WebCrypto, about a tenth of a signed-in
 * page's own CPU before: bench/cpu.results.md). Only the answer is kept: what a value names (a
 * session id) is still looked up on every request, so a session ended elsewhere ends at its next
 * request. A value changed by one character is a new text, read in full; a signed value that fails
 * the check is not kept. Only strings, numbers and booleans are kept, never an object a caller
 * could change (a value that is not JSON reads as `{}`, read again each time), and at most
 * `knownMaxChars` characters of them, whatever the texts clients send.
 */
function withKnownValues(cookie: Cookie): Cookie {
  const known = new LRUCache<string, string | number | boolean>({
    max: knownMax,
    maxSize: knownMaxChars,
    sizeCalculation: (value, text) => text.length + (typeof value === "string" ? value.length : 1),
    ttl: knownTtlMs,
  });
  const name = cookie.name;
  return {
    get name() {
      return cookie.name;
    },
    get isSigned() {
      return cookie.isSigned;
    },
    get expires() {
      return cookie.expires;
    },
    serialize: (value, options) => cookie.serialize(value, options),
    async parse(cookieHeader, options) {
      const sent = cookieHeader && options === undefined ? cookiesOf(cookieHeader)[name] : undefined;
      if (typeof sent === "string" && sent !== "") {
        const value = known.get(sent);
        if (value !== undefined) return value;
      }
      const value: unknown = await cookie.parse(cookieHeader, options);
      if (typeof sent === "string" && sent !== "" && (typeof value === "string" || typeof value === "number" || typeof value === "boolean")) known.set(sent, value);
      return value;
    },
  };
}
