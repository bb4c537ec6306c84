/**
 * Logging (docs/architecture.md §2 logging): one pino logger, request ids, and redaction of everything
 * secret: tokens, passwords, cookies, and the password/token query parameters that docs/product.md §7 puts
 * in identity URLs. Imported by server.ts (Node type stripping) and the bundle: pino and node only.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { pino, type Logger } from "pino";
import { redactUrl as redactSecrets } from "../../lib/redact.ts";

export { endLog } from "../../lib/end-log.ts";

/**
 * `url` with the values of secret query parameters replaced by [redacted], their names read the way
 * the query parser reads them (so `%74oken` is `token`): the one function the reference services
 * use too.
 */
export function redactUrl(url: string | undefined): string | undefined {
  return url === undefined ? undefined : redactSecrets(url);
}

/** Paths of objects that pino replaces with [redacted] wherever they are logged. */
export const redactPaths = [
  "req.headers.authorization",
  "req.headers.cookie",
  'res.headers["set-cookie"]',
  "password",
  "newPassword",
  "currentPassword",
  "token",
  "accessToken",
  "access_token",
  "client_secret",
  "*.password",
  "*.token",
  "*.accessToken",
  "*.access_token",
];

/** The process logger at `level`, writing JSON lines to stdout. */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino({ level, redact: { paths: redactPaths, censor: "[redacted]" } }, destination);
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
