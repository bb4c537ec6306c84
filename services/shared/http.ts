// The HTTP plumbing every reference service shares (docs/architecture/README.md §2 "logging",
// §9.6): request logging with a request id and no secrets, standard headers, body parsers
// with one size limit, input parsing with zod, and the mapping of the shared errors and of
// body-parser's errors to JSON answers. Each service adds its own routes and error types.
import { randomUUID } from "node:crypto";
import express from "express";
import type { Request, RequestHandler, Response } from "express";
import type { Logger } from "pino";
import { pinoHttp } from "pino-http";
import type { z } from "zod";
import type { CallContract, CallContracts } from "../../contracts/call.ts";
import { findCall } from "../../contracts/call.ts";
import { markedFields, rulesPart, withoutExtensions } from "../../contracts/extension.ts";
import { BadRequestError, InsufficientScopeError, InvalidTokenError } from "./errors.ts";
import { redactUrl } from "../../lib/redact.ts";
import { hasControlCharacters } from "../../contracts/rules.ts";

/** Largest accepted request body (JSON or form), as body-parser reads it. */
export const BODY_LIMIT = "64kb";

/**
 * Error fields safe to log: type, message, code, status, stack, and the type, message and code
 * of its `cause` (e.g. ECONNREFUSED under "fetch failed"). Never enumerable extras such as
 * body-parser's `body` (the raw request body, which may hold a password) or a database
 * error's `params` / `detail` (row values).
 */
export function safeError(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error)) {
    // Something thrown that is not an Error (a driver's error object, say): its own name, message and
    // code when it has them, never "[object Object]" and never its other fields (they may hold values).
    if (err !== null && typeof err === "object") {
      const fields = err as { name?: unknown; message?: unknown; code?: unknown };
      return {
        type: typeof fields.name === "string" ? fields.name : (err.constructor?.name ?? "object"),
        message: typeof fields.message === "string" ? fields.message.slice(0, 500) : "(no message)",
        ...(typeof fields.code === "string" || typeof fields.code === "number" ? { code: fields.code } : {}),
      };
    }
    return { type: typeof err, message: String(err).slice(0, 200) };
  }
  const code = (err as { code?: unknown }).code;
  const status = (err as { status?: unknown }).status;
  const cause = err.cause;
  const causeCode = cause instanceof Error ? (cause as { code?: unknown }).code : undefined;
  return {
    type: err.name,
    message: err.message.slice(0, 500),
    ...(typeof code === "string" || typeof code === "number" ? { code } : {}),
    ...(typeof status === "number" ? { status } : {}),
    stack: err.stack,
    ...(cause instanceof Error
      ? { cause: { type: cause.name, message: cause.message.slice(0, 500), ...(typeof causeCode === "string" || typeof causeCode === "number" ? { code: causeCode } : {}) } }
      : {}),
  };
}

/**
 * pino-http middleware: one line per request at info (4xx warn, 5xx error) with a request id
 * (a well-formed incoming `X-Request-Id`, else a random UUID, echoed in the response header).
 * Only method, URL (secret query values redacted), remote address and status are logged:
 * never headers (Authorization, cookies) nor bodies.
 */
export function requestLogger(logger: Logger): RequestHandler {
  return pinoHttp({
    logger,
    genReqId(req, res) {
      const incoming = req.headers["x-request-id"];
      const id = typeof incoming === "string" && /^[\w.:-]{1,128}$/.test(incoming) ? incoming : randomUUID();
      res.setHeader("X-Request-Id", id);
      return id;
    },
    serializers: {
      req: (req: { id?: unknown; method?: string; url?: string; remoteAddress?: string }) => ({
        id: req.id,
        method: req.method,
        url: redactUrl(req.url ?? ""),
        remoteAddress: req.remoteAddress,
      }),
      res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
      err: safeError,
    },
    customLogLevel(_req, res, err) {
      if (err || res.statusCode >= 500) return "error";
      if (res.statusCode >= 400) return "warn";
      return "info";
    },
  }) as RequestHandler;
}

/** API answers are per-user and never cached; no MIME sniffing. */
export const apiHeaders: RequestHandler = (_req, res, next) => {
  res.set("Cache-Control", "no-store");
  res.set("X-Content-Type-Options", "nosniff");
  next();
};

/**
 * JSON and form-urlencoded parsers, both limited to BODY_LIMIT (a repeated form field becomes an
 * array), then the refusal of control characters in the query and the body (see
 * `refuseControlCharacters`).
 */
export function bodyParsers(): RequestHandler[] {
  return [express.json({ limit: BODY_LIMIT }), express.urlencoded({ limit: BODY_LIMIT, extended: false, parameterLimit: 100 }), refuseControlCharacters];
}

/** Control characters by contracts/rules.ts (C0 with NUL, DEL and C1), except tab, CR and LF (multi-line text). */
const controlCharacter = { test: (value: string): boolean => hasControlCharacters(value, true) };

/** The path of the first string in `value` (a parsed query or body) that holds a control character. */
function controlCharacterAt(value: unknown, path: string, depth = 0): string | undefined {
  if (typeof value === "string") return controlCharacter.test(value) ? path || "body" : undefined;
  if (depth > 20 || value === null || typeof value !== "object") return undefined;
  for (const [key, inner] of Object.entries(value)) {
    if (controlCharacter.test(key)) return path || "body";
    const found = controlCharacterAt(inner, path ? `${path}.${key}` : key, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * Refuses, with 400, a request whose query or parsed body holds a control character (a NUL reached
 * the databases and answered 500 before): names the parameter, never its value.
 */
export const refuseControlCharacters: RequestHandler = (req, _res, next) => {
  const at = controlCharacterAt(req.query, "") ?? controlCharacterAt(req.body, "");
  next(at ? new BadRequestError(`Invalid request: ${at} contains a control character`) : undefined);
};

/**
 * Validates `value` (a body or query; undefined reads as {}) against `schema`.
 * @throws BadRequestError naming the offending parameters, never their values (they may be secrets).
 */
export function parse<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const result = schema.safeParse(value ?? {});
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; ");
    throw new BadRequestError(`Invalid request: ${problems}`);
  }
  return result.data;
}

/**
 * Sends `body` as the 200 JSON answer of `call` (contracts/identity.ts, contracts/consumer.ts):
 * the body's type is the call's answer schema, so a route cannot answer what its contract does
 * not say. Not validated at run time (the integration tests parse every answer,
 * tests/integration/support.ts).
 */
export function reply<C extends CallContract>(res: Response, _call: C, body: z.input<C["answer"]>): void {
  res.json(body);
}

/**
 * Refuses a body sent as anything but `type`.
 * @throws BadRequestError (400 invalid_request) saying how to send it
 */
export function requireContentType(req: Request, type: "json" | "application/x-www-form-urlencoded"): void {
  if (!req.is(type)) {
    throw new BadRequestError(type === "json" ? "Send the body as application/json." : "Send the body as application/x-www-form-urlencoded.");
  }
}

/** An error as an HTTP answer: status, JSON body, and the WWW-Authenticate value for 401/403. */
export interface HttpAnswer {
  status: number;
  body: unknown;
  authenticate?: string;
}

/**
 * Maps the shared errors (errors.ts) and body-parser / Express errors to answers:
 * InvalidTokenError 401 invalid_token, InsufficientScopeError 403 insufficient_scope,
 * BadRequestError and malformed bodies 400 invalid_request, bodies over BODY_LIMIT 413
 * payload_too_large, anything else 500 server_error. Services check their own error types
 * first and fall back to this.
 */
export function commonErrorAnswer(err: unknown): HttpAnswer {
  if (err instanceof InvalidTokenError) {
    return { status: 401, body: { error: "invalid_token", error_description: err.message }, authenticate: 'Bearer error="invalid_token"' };
  }
  if (err instanceof InsufficientScopeError) {
    return { status: 403, body: { error: "insufficient_scope", error_description: err.message }, authenticate: 'Bearer error="insufficient_scope"' };
  }
  if (err instanceof BadRequestError) return { status: 400, body: { error: "invalid_request", error_description: err.message } };
  // body-parser and Express errors carry an HTTP status; their messages may quote the body, so use our own words.
  const status = typeof err === "object" && err !== null ? Number((err as { status?: unknown }).status ?? (err as { statusCode?: unknown }).statusCode) : NaN;
  if (status === 413) return { status, body: { error: "payload_too_large", error_description: `Request body over ${BODY_LIMIT}.` } };
  if (status >= 400 && status < 500) {
    const type = (err as { type?: unknown }).type;
    const description = type === "entity.parse.failed" ? "The request body is not valid JSON." : "Malformed request.";
    return { status, body: { error: "invalid_request", error_description: description } };
  }
  return { status: 500, body: { error: "server_error", error_description: "Unexpected server error." } };
}

/** Sends `answer`, logging 5xx with the request's logger (error fields only, see safeError). */
export function sendErrorAnswer(req: Request, res: Response, err: unknown, answer: HttpAnswer): void {
  if (answer.authenticate) res.set("WWW-Authenticate", answer.authenticate);
  if (answer.status >= 500) req.log.error({ err: safeError(err) }, "request failed");
  res.status(answer.status).json(answer.body);
}

/** Last route: 404 `{error:"not_found"}` for any path no router answered. */
export const notFound: RequestHandler = (_req, res) => {
  res.status(404).json({ error: "not_found", error_description: "No such endpoint." });
};

/**
 * The plain mode of a reference service (docs/product/calls.md §7.4 "Extensions"), as one middleware
 * placed before the routes of `calls` (the service's contract):
 * - an extension call (contracts/extension.ts) answers 404 as an unknown path does, unless it is
 *   `keptWhenOff` (another reference service calls it);
 * - the query parameters a call of the product rules marks as extensions are removed before the route reads them
 *   (getImage's `page`: page 1 is answered, as the product rules' call does);
 * - every JSON answer of a product rules' call is stripped to the rules' part: a 2xx answer by parsing it
 *   through `rulesPart(call.answer)`, an error answer through the schema of its status in
 *   `call.errorAnswers`. An answer that does not fit its schema is logged (warn) and has the marked
 *   fields deleted anyway (`withoutExtensions`), never sent with them.
 * Paths that are not calls of the contract (discovery, JWKS, /healthz) pass untouched.
 */
export function plainMode(calls: CallContracts): RequestHandler {
  return (req, res, next) => {
    const found = findCall(calls, req.method === "HEAD" ? "GET" : req.method, req.path);
    if (!found) {
      next();
      return;
    }
    const { name, call } = found;
    if (call.extension && !call.keptWhenOff) {
      notFound(req, res, next);
      return;
    }
    const droppedQuery = call.query ? markedFields(call.query).filter((f) => f.kind === "field" && f.path === f.name).map((f) => f.name) : [];
    if (droppedQuery.length > 0) {
      const at = req.url.indexOf("?");
      if (at >= 0) {
        const params = new URLSearchParams(req.url.slice(at + 1));
        for (const key of droppedQuery) params.delete(key);
        const rest = params.toString();
        req.url = req.url.slice(0, at) + (rest ? `?${rest}` : "");
      }
    }
    const send = res.json.bind(res);
    res.json = (body: unknown) => {
      const schema = res.statusCode < 300 ? call.answer : call.errorAnswers?.[res.statusCode]?.schema;
      if (!schema || rulesPart(schema) === schema) return send(body);
      const json: unknown = body === undefined ? undefined : JSON.parse(JSON.stringify(body));
      const parsed = rulesPart(schema).safeParse(json);
      if (parsed.success) return send(parsed.data);
      req.log.warn({ call: name, status: res.statusCode }, "answer does not fit its contract: extension fields deleted by name");
      return send(withoutExtensions(schema, json));
    };
    next();
  };
}

/**
 * GET /healthz of a reference service: 200 `{ok: true}` when `checkDatabase` resolves, else 503
 * `{ok: false}` with the error logged (error fields only, see safeError).
 */
export function healthCheck(checkDatabase: () => Promise<void>): RequestHandler {
  return async (req, res) => {
    try {
      await checkDatabase();
      res.json({ ok: true });
    } catch (err) {
      req.log.error({ err: safeError(err) }, "health check: database does not answer");
      res.status(503).json({ ok: false });
    }
  };
}
