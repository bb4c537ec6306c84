// Secrets that docs/product/calls.md §7 puts in URLs (password, newPassword, currentPassword, token) must never
// reach a log line (docs/architecture/README.md §2 "logging"), nor a person's position (latitude, longitude of a
// Locations search near them, docs/venues.md: used for the search, not kept), nor a lab's result link
// (`url` of the results-by-link calls, docs/product/labs.md §10.8: often the only key to the result). One function for every reference service: their
// request loggers (shared/http.ts) and the identity authority's mail log.
import { unescape } from "node:querystring";

/** Query parameter names whose values are replaced, compared lower-case. */
const SECRET_PARAMS = new Set(["password", "newpassword", "currentpassword", "token", "client_secret", "access_token", "refresh_token", "code", "latitude", "longitude", "url"]);

/**
 * Returns `url` (absolute or path+query) with the value of every secret query parameter
 * replaced by `[redacted]`; names are decoded the way Express's query parser decodes them
 * (lenient percent-decoding, `+` as space), so encoded names are caught too. The fragment is
 * dropped. Everything else is kept byte for byte.
 */
export function redactUrl(url: string): string {
  const hashAt = url.indexOf("#");
  const withoutHash = hashAt === -1 ? url : url.slice(0, hashAt);
  const q = withoutHash.indexOf("?");
  if (q === -1) return withoutHash;
  const parts = withoutHash
    .slice(q + 1)
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      const rawName = eq === -1 ? pair : pair.slice(0, eq);
      const name = unescape(rawName.replaceAll("+", " ")).trim().toLowerCase();
      return SECRET_PARAMS.has(name) ? `${rawName}=[redacted]` : pair;
    });
  return `${withoutHash.slice(0, q)}?${parts.join("&")}`;
}
