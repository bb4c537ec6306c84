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

/**
 * Whether an address is a trusted proxy: Express's compiled `trust proxy` function (`app.get("trust
 * proxy fn")`, made from TRUST_PROXY), called with an address and its hop (0: the immediate peer).
 */
export type TrustProxy = (address: string, hop: number) => boolean;

/**
 * pino-http's `genReqId` (server/app.ts): a request id, echoed in the X-Request-Id response header.
 * The caller's X-Request-Id is taken only when the immediate peer (the socket's address) is a
 * trusted proxy by `trusts`, the same rule by which Express reads X-Forwarded-For (TRUST_PROXY,
 * docs/operating.md "Every variable"; docs/security/limits.md "Limits"), and only when it is a short plain
 * token (1 to 64 letters, digits, `_`, `.`, `-`). Anyone else's header is ignored, so a browser
 * cannot choose the id its log lines are found by; those requests get a new UUID.
 * @param trusts Express's compiled trust function (`app.get("trust proxy fn")`)
 * @returns the id generator, `(req, res) => id`; it sets the response header
 */
export function requestId(trusts: TrustProxy): (req: IncomingMessage, res: ServerResponse) => string {
  return (req, res) => {
    const incoming = req.headers["x-request-id"];
    const peer = req.socket?.remoteAddress;
    const honoured = typeof incoming === "string" && /^[\w.-]{1,64}$/.test(incoming) && peer !== undefined && trusts(peer, 0);
    const id = honoured ? incoming : randomUUID();
    res.setHeader("X-Request-Id", id);
    return id;
  };
}

/** pino-http serializers that log method, redacted URL and status only (no headers, no bodies). */
export const httpSerializers = {
  req: (req: { id?: unknown; method?: string; url?: string }) => ({ id: req.id, method: req.method, url: redactUrl(req.url) }),
  res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
};
