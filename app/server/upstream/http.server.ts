/**
 * The one HTTP client for upstream calls (docs/architecture/upstream-calls.md §6.2): 30 s timeout, bearer token
 * when given, JSON, form or multipart bodies, JSON answers; and `callContract`, which makes one
 * call of a contract (contracts/) and answers the one result shape, `Result<T>`
 * (docs/architecture/upstream-calls.md §6.3). Routes never call fetch themselves (docs/architecture/conventions.md §9.4).
 */
import type { Logger } from "pino";
import type { z } from "zod";
import type { CallContract } from "../../../contracts/call.ts";
import { defaultLanguage, type Language } from "~/i18n";
import { catalogues, type Messages } from "~/messages/catalogues";
import { minutesToWait } from "../attempt-limits.server";
import { getConfig } from "../config.server";
import { createLogger } from "../log.server";
import { failure, success, type Failure, type FailureReason, type Result } from "./result.server";
import { counter, histogram } from "../../../lib/metrics.ts";

/** The upstream did not answer at all: unreachable, refused the connection, or timed out. */
export class UpstreamError extends Error {
  override name = "UpstreamError";
}

export interface UpstreamRequest {
  method?: "GET" | "POST";
  /** Query parameters; undefined values are left out. */
  query?: Record<string, string | number | undefined>;
  /** Access token for the Authorization header. */
  token?: string;
  /** Further request headers. */
  headers?: Record<string, string>;
  json?: unknown;
  form?: Record<string, string>;
  /** A multipart body (the client sets its content type with the boundary). */
  multipart?: FormData;
  signal?: AbortSignal;
}

export interface UpstreamResponse<T = unknown> {
  status: number;
  ok: boolean;
  body: T;
  /** The answer's `Retry-After` in seconds (429, 503), when it gave one as a number. */
  retryAfterSeconds?: number;
}

/** undici's request API and the agent it keeps connections in, loaded at the first call. */
let client: Promise<{ request: typeof import("undici").request; FormData: typeof import("undici").FormData; agent: import("undici").Agent }> | undefined;

function upstreamClient() {
  client ??= import("undici").then(({ Agent, FormData, request }) => ({ request, FormData, agent: new Agent() }));
  return client;
}

/**
 * Calls `${baseUrl}${path}` and parses the JSON answer (null when empty, the text when not JSON).
 * Non-2xx answers are returned, not thrown, because docs/product/messages.md §8 maps statuses to messages;
 * a redirect is an answer like any other (never followed, so a token never goes where it points).
 *
 * The client is undici's `request` on one keep-alive agent: Node's `fetch` is built on the same
 * undici, and costs more CPU per call for the Request and Response objects, header guards and
 * streams of the web API (docs/architecture/upstream-calls.md §6.2, bench/README.md).
 * @throws UpstreamError when the upstream cannot be reached, times out (UPSTREAM_TIMEOUT_MS,
 *   30 000 ms by default per docs/product/messages.md §9) or breaks off its answer
 */
export async function callUpstream<T = unknown>(
  baseUrl: string,
  path: string,
  request: UpstreamRequest = {},
): Promise<UpstreamResponse<T>> {
  const url = new URL(baseUrl + path);
  for (const [key, value] of Object.entries(request.query ?? {})) {
    if (value !== undefined) url.searchParams.set(key, String(value));
  }
  const { request: send, FormData: UndiciFormData, agent } = await upstreamClient();
  const headers: Record<string, string> = { ...request.headers, accept: "application/json" };
  if (request.token) headers.authorization = `Bearer ${request.token}`;
  let body: string | InstanceType<typeof UndiciFormData> | undefined;
  if (request.multipart) {
    // undici sends only its own FormData (and sets the content type with the boundary).
    body = new UndiciFormData();
    for (const [name, value] of request.multipart) body.append(name, value);
  } else if (request.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(request.json);
  } else if (request.form) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(request.form).toString();
  }
  const timeout = AbortSignal.timeout(getConfig().UPSTREAM_TIMEOUT_MS);
  const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
  let status: number;
  let text: string;
  let retryAfterHeader: string | string[] | undefined;
  try {
    const response = await send(url, { method: request.method ?? (body ? "POST" : "GET"), headers, body, signal, dispatcher: agent });
    status = response.statusCode;
    retryAfterHeader = response.headers["retry-after"];
    text = await response.body.text();
  } catch (error) {
    // The URL may carry secrets (docs/product/calls.md §7 puts passwords in query strings): name only the path.
    throw new UpstreamError(`upstream ${path} unreachable: ${(error as Error).name}`);
  }
  let parsed: unknown = null;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  const retryAfter = Number((Array.isArray(retryAfterHeader) ? retryAfterHeader[0] : retryAfterHeader) ?? Number.NaN);
  const ok = status >= 200 && status < 300;
  return { status, ok, body: parsed as T, ...(Number.isFinite(retryAfter) && retryAfter >= 0 ? { retryAfterSeconds: retryAfter } : {}) };
}

/**
 * The messages of one call's failures (docs/product/messages.md §8), chosen once per call in its client.
 * `failed` is shown for every failure that no other entry names.
 */
export interface CallMessages {
  /** Any failure the entries below do not name. */
  failed: string;
  /** No answer, a server error (5xx), or an answer that does not fit the contract. */
  unavailable?: string;
  /** 404: the object does not exist or is not the user's. */
  notFound?: string;
  /** 429: the upstream throttles this account or address; `retryAfterSeconds` when it said. */
  tooManyAttempts?: (retryAfterSeconds: number | undefined) => string;
  /**
   * 503: the upstream has more work than it takes now; `retryAfterSeconds` when it said. A call
   * without this entry treats a 503 as `unavailable`.
   */
  busy?: (retryAfterSeconds: number | undefined) => string;
  /**
   * For a call whose rule depends on the answer itself (the sign-in messages by status, an
   * upload's consumerMessage): the message for this non-2xx status and body, or undefined to use
   * the entries above. `body` has been checked against the call's error answer for that status
   * when the contract declares one.
   */
  answered?: (status: number, body: unknown) => string | undefined;
  /**
   * For a refusal whose answer carries a field the app can word itself (a test-result refusal's
   * `reason`): the sentence in the request's language, or undefined to show the upstream's own
   * sentence as it sent it (docs/product/calls.md §7.4 "What the upstream writes"). Asked before
   * the upstream's consumerMessage and before `answered`.
   */
  worded?: (body: unknown) => string | undefined;
}

/**
 * Messages of the reads a screen needs to load, from the catalogue `m` of the request's language: a
 * failure is its route error (docs/product/messages.md §8.2).
 */
export function screenLoadMessages(m: Messages): CallMessages {
  return { failed: m.loadFailed, unavailable: m.upstreamUnavailable };
}

/**
 * For `CallMessages.answered`: the upstream's own sentence (`error_description`) for a refusal it explains
 * to the person (400, 409: an unknown ZIP code, a used code, the last administrator), else undefined.
 */
export function explainedRefusal(status: number, body: unknown): string | undefined {
  if (status !== 400 && status !== 409) return undefined;
  const description = (body as { error_description?: unknown } | null)?.error_description;
  return typeof description === "string" && description.trim() ? description : undefined;
}

/** The request of one contract call: the parameters the contract's request schema describes. */
export interface ContractRequest {
  query?: Record<string, string | number | undefined>;
  form?: Record<string, string>;
  json?: unknown;
  multipart?: FormData;
  /** Bearer access token (a client token or the user's). */
  token?: string;
  headers?: Record<string, string>;
}

/** Where a contract call logs, and what it does when the upstream refuses the token. */
export interface CallOptions {
  /** The request's logger; the process logger when the caller has no request. */
  log?: Logger;
  /** Called on a 401 (the upstream refused the user's token); throws (the sign-in redirect). */
  onUnauthorized?: () => never;
  /**
   * The person's language (the request's negotiation), sent as `Accept-Language` so that what the
   * upstream words for them (its mail) is in it; none is sent without one (docs/architecture/upstream-calls.md §6.2).
   */
  language?: Language;
}

let processLog: Logger | undefined;
function fallbackLog(): Logger {
  processLog ??= createLogger(getConfig().LOG_LEVEL);
  return processLog;
}

/** The reasons an error answer gave, as `{code, description}`: the identity authority's or the consumer API's field errors. */
function reasonsOf(body: unknown): Failure["errors"] {
  const list = (body as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(list)) return undefined;
  const errors = list.flatMap((entry: unknown) => {
    const e = entry as { code?: unknown; description?: unknown; field?: unknown; message?: unknown } | null;
    if (typeof e?.code === "string" && typeof e.description === "string") return [{ code: e.code, description: e.description }];
    if (typeof e?.message === "string") return [{ code: typeof e.field === "string" ? e.field : "", description: e.message }];
    return [];
  });
  return errors.length ? errors : undefined;
}

/**
 * A 2xx answer whose body says `success: false` (docs/product/messages.md §8 "success: false"): a `refused` failure
 * with the upstream's own `consumerMessage` when it sends a non-blank one, else the call's message
 * (`answered` for this status and body, else `failed`); undefined for any other body.
 */
function refusalOf(status: number, body: unknown, messages: CallMessages): Failure | undefined {
  if (typeof body !== "object" || body === null || (body as { success?: unknown }).success !== false) return undefined;
  const own = (body as { consumerMessage?: unknown }).consumerMessage;
  const message = messages.worded?.(body) ?? (typeof own === "string" && own.trim() ? own : (messages.answered?.(status, body) ?? messages.failed));
  const errors = reasonsOf(body);
  return failure("refused", message, status, errors ? { errors } : {});
}

function reasonOfStatus(status: number, messages: CallMessages): FailureReason {
  if (status === 404) return "notFound";
  if (status === 429) return "tooManyAttempts";
  if (status === 503 && messages.busy) return "busy";
  if (status >= 500) return "unavailable";
  return "refused";
}

/**
 * Makes the call `name` of a contract (`call`: method, path, answer schema, error answers) at
 * `baseUrl`, and answers `Result<T>` with T the contract's answer type:
 * - a 2xx whose body fits the answer schema: `{ok: true, value}` (the parsed body; keys the
 *   contract does not name are dropped);
 * - a 2xx whose body says `success: false`: `refused`, with the upstream's consumerMessage when it
 *   sends one, else the call's message (docs/product/messages.md §8);
 * - any other 2xx that does not fit: `invalidAnswer`, logged as an upstream error with the schema's
 *   issues (paths and codes; never the values, which may be personal data);
 * - no answer (unreachable, timed out): `unavailable` with status 0, logged;
 * - a 401 with `onUnauthorized`: calls it (it throws the sign-in redirect);
 * - 404 `notFound`, 429 `tooManyAttempts` (with Retry-After), 503 `busy` for a call whose messages
 *   name `busy` (with Retry-After when the upstream gave one; messages.busy's sentence), other 5xx
 *   `unavailable`, any other 4xx `refused`, with the reasons the body lists in `errors`.
 * The failure's message comes from `messages` (docs/product/messages.md §8), which the client words in the
 * request's language (`callMessagesOf`; a 429 without its own entry in `options.language`). With `options.language`
 * the call sends it as `Accept-Language`, the request's other headers unchanged (docs/architecture/upstream-calls.md §6.2).
 * @throws only programming errors (a missing configuration, a bug), and the redirect of `onUnauthorized`
 */
export async function callContract<C extends CallContract>(
  baseUrl: string,
  name: string,
  call: C,
  request: ContractRequest,
  messages: CallMessages,
  options: CallOptions = {},
): Promise<Result<z.output<C["answer"]>>> {
  const started = process.hrtime.bigint();
  const result = await answerOf(baseUrl, name, call, request, messages, options);
  // GET /metrics: every call timed by upstream host and call; the upstream's own failures counted apart.
  const labels = { host: hostOf(baseUrl), call: name, outcome: result.ok ? "ok" : result.reason };
  upstreamDuration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
  if (!result.ok && (result.reason === "unavailable" || result.reason === "busy" || result.reason === "invalidAnswer")) upstreamFailures.inc({ host: labels.host, call: name, reason: result.reason });
  return result;
}

const upstreamDuration = histogram("safewindow_upstream_request_duration_seconds", "Time of a call to an upstream (identity authority, consumer API, business API), seconds, by host, call and outcome.", [
  "host",
  "call",
  "outcome",
]);
const upstreamFailures = counter("safewindow_upstream_failures_total", "Upstream calls that failed on the upstream's side (no answer, a 5xx, busy, an answer off its contract), by host, call and reason.", [
  "host",
  "call",
  "reason",
]);

/** The host:port of an upstream's base URL (its metrics label). */
function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return "invalid";
  }
}

/** callContract without the metrics. */
async function answerOf<C extends CallContract>(
  baseUrl: string,
  name: string,
  call: C,
  request: ContractRequest,
  messages: CallMessages,
  options: CallOptions,
): Promise<Result<z.output<C["answer"]>>> {
  const log = options.log ?? fallbackLog();
  const unavailableMessage = messages.unavailable ?? messages.failed;
  let answer: UpstreamResponse;
  try {
    const headers = options.language ? { ...request.headers, "accept-language": options.language } : request.headers;
    answer = await callUpstream(baseUrl, call.path, { ...request, ...(headers ? { headers } : {}), method: call.method });
  } catch (error) {
    if (!(error instanceof UpstreamError)) throw error;
    log.warn({ upstreamCall: name, status: 0 }, error.message);
    return failure("unavailable", unavailableMessage, 0);
  }
  const { status } = answer;
  if (answer.ok) {
    // docs/product/messages.md §8: a 2xx that says `success: false` is the upstream's refusal, not a broken answer.
    const refusal = refusalOf(status, answer.body, messages);
    if (refusal) {
      log.info({ upstreamCall: name, status }, "upstream answered success: false");
      return refusal;
    }
    const parsed = call.answer.safeParse(answer.body);
    if (parsed.success) return success(parsed.data as z.output<C["answer"]>);
    const issues = parsed.error.issues.slice(0, 10).map((issue) => ({ path: issue.path.join("."), code: issue.code }));
    log.error({ upstreamCall: name, path: call.path, status, issues }, "upstream answer does not fit its contract");
    return failure("invalidAnswer", unavailableMessage, status);
  }
  if (status === 401 && options.onUnauthorized) options.onUnauthorized();
  const errorAnswer = call.errorAnswers?.[status];
  const checked = errorAnswer?.schema.safeParse(answer.body);
  const body = checked?.success ? checked.data : answer.body;
  const reason = reasonOfStatus(status, messages);
  if (reason === "unavailable") log.warn({ upstreamCall: name, status }, "upstream answered with a server error");
  if (reason === "busy") {
    log.warn({ upstreamCall: name, status, retryAfterSeconds: answer.retryAfterSeconds }, "upstream busy");
    return failure("busy", messages.busy!(answer.retryAfterSeconds), status, answer.retryAfterSeconds !== undefined ? { retryAfterSeconds: answer.retryAfterSeconds } : {});
  }
  const message =
    (reason === "refused" || reason === "notFound" ? messages.worded?.(body) : undefined) ??
    messages.answered?.(status, body) ??
    (reason === "unavailable"
      ? unavailableMessage
      : reason === "notFound"
        ? (messages.notFound ?? messages.failed)
        : reason === "tooManyAttempts"
          ? (messages.tooManyAttempts?.(answer.retryAfterSeconds) ?? catalogues[options.language ?? defaultLanguage].tooManyAttempts(minutesToWait(answer.retryAfterSeconds ?? 60)))
          : messages.failed);
  const errors = reasonsOf(body);
  return failure(reason, message, status, {
    ...(answer.retryAfterSeconds !== undefined ? { retryAfterSeconds: answer.retryAfterSeconds } : {}),
    ...(errors ? { errors } : {}),
  });
}
