/**
 * Logging (docs/architecture/README.md §2 logging): one pino logger, request ids, and redaction of everything
 * secret: tokens, passwords, cookies, and the password/token query parameters that docs/product/calls.md §7 puts
 * in identity URLs. The logger itself is lib/log.ts (server.ts creates it); request ids and serializers are server/app.ts's.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { redactUrl as redactSecrets } from "../../lib/redact.ts";

export { endLog } from "../../lib/end-log.ts";
export { createLogger, redactPaths } from "../../lib/log.ts";

/**
 * `url` with the values of secret query parameters replaced by [redacted], their names read the way
 * the query parser reads them (so `%74oken` is `token`): the one function the reference services
 * use too.
 */
export function redactUrl(url: string | undefined): string | undefined {
  return url === undefined ? undefined : redactSecrets(url);
}

/** A request id: the caller's X-Request-Id when it is a short plain token, else a new UUID. */
export function requestId(req: IncomingMessage, res: ServerResponse): string {
  const incoming = req.headers["x-request-id"];
  const id = typeof incoming === "string" && /^[\w.-]{1,64}$/.test(incoming) ? incoming : randomUUID();
  res.setHeader("X-Request-Id", id);
  return id;
}

/** pino-http serializers that log method, redacted URL and status only (no headers, no bodies). */
export const httpSerializers = {
  req: (req: { id?: unknown; method?: string; url?: string }) => ({ id: req.id, method: req.method, url: redactUrl(req.url) }),
  res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
};
