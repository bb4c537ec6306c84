/**
 * Cross-site request refusal for every state-changing request (docs/security/accounts.md "Cross-site
 * requests"). server.ts applies it to every request before React Router sees it, so page actions,
 * `.data` posts and resource routes (/logout, /wipe, /cookies) are all covered alike.
 *
 * The rule is the one of Go's `net/http.CrossOriginProtection` (Fetch Metadata first, then Origin):
 * - GET, HEAD and OPTIONS change nothing and pass;
 * - when the browser sends `Sec-Fetch-Site`, only `same-origin` and `none` (typed by the user)
 *   pass;
 * - else, an `Origin` must name this host (or a trusted origin such as PUBLIC_URL's); a request
 *   with neither header is not a browser's cross-site request (every browser that omits
 *   Sec-Fetch-Site sends Origin on a cross-site POST) and passes.
 * No well-kept npm package implements this rule (the CSRF packages are token schemes, which every
 * form without JavaScript would have to carry), so it is these few lines.
 *
 * Imported by server.ts (Node's type stripping), so it imports nothing.
 */

/** What the rule reads of a request. */
export interface SiteOfRequest {
  method: string;
  /** The `Sec-Fetch-Site` header, if sent. */
  secFetchSite?: string | undefined;
  /** The `Origin` header, if sent. */
  origin?: string | undefined;
  /** The `Host` the request was sent to (host and port). */
  host: string;
}

const safeMethods = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * True when the request changes state and comes from another site.
 * @param trustedOrigins origins accepted besides the request's own host (e.g. PUBLIC_URL's)
 */
export function isCrossSite(request: SiteOfRequest, trustedOrigins: readonly string[] = []): boolean {
  if (safeMethods.has(request.method.toUpperCase())) return false;
  if (request.secFetchSite !== undefined) return request.secFetchSite !== "same-origin" && request.secFetchSite !== "none";
  if (request.origin === undefined) return false;
  if (trustedOrigins.includes(request.origin)) return false;
  try {
    return new URL(request.origin).host !== request.host;
  } catch {
    return true; // "null" or garbage
  }
}
