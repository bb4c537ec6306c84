/**
 * The one HTTP client for upstream calls (docs/product.md §7): 30 s timeout, bearer token when given,
 * JSON or form bodies, JSON answers. Routes never call fetch themselves (docs/architecture.md §9.4).
 */
import { data } from "react-router";
import { getConfig } from "../config.server";

/** An upstream answered with a status, or did not answer at all (status 0). */
export class UpstreamError extends Error {
  override name = "UpstreamError";
  readonly status: number;
  readonly body: unknown;
  constructor(message: string, status: number, body?: unknown) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

/**
 * Throws the route error response for an upstream that is down: 503 when it could not be reached
 * or timed out (`status` 0), 502 when it answered with a server error. The error boundaries show
 * it as "the service did not answer" (docs/product.md §8 load errors) instead of a 500.
 * The response carries no detail: the browser learns nothing of the upstream (the request log
 * has the status).
 * @param status the upstream's status, 0 when it did not answer
 */
export function unavailable(status: number): never {
  throw data(null, status === 0 ? { status: 503, statusText: "Service Unavailable" } : { status: 502, statusText: "Bad Gateway" });
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
  /** A multipart body (fetch sets its content type with the boundary). */
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

/**
 * Calls `${baseUrl}${path}` and parses the JSON answer (null when empty, the text when not JSON).
 * Non-2xx answers are returned, not thrown, because docs/product.md §8 maps statuses to messages.
 * @throws UpstreamError with status 0 when the upstream cannot be reached or times out
 *   (UPSTREAM_TIMEOUT_MS, 30 000 ms by default per docs/product.md §9)
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
  const headers: Record<string, string> = { ...request.headers, accept: "application/json" };
  if (request.token) headers.authorization = `Bearer ${request.token}`;
  let body: string | FormData | undefined;
  if (request.multipart) {
    body = request.multipart;
  } else if (request.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(request.json);
  } else if (request.form) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(request.form).toString();
  }
  const timeout = AbortSignal.timeout(getConfig().UPSTREAM_TIMEOUT_MS);
  const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
  let response: Response;
  try {
    response = await fetch(url, { method: request.method ?? (body ? "POST" : "GET"), headers, body, signal });
  } catch (error) {
    // The URL may carry secrets (docs/product.md §7 puts passwords in query strings): name only the path.
    throw new UpstreamError(`upstream ${path} unreachable: ${(error as Error).name}`, 0);
  }
  const text = await response.text();
  let parsed: unknown = null;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  const retryAfter = Number(response.headers.get("retry-after") ?? Number.NaN);
  return { status: response.status, ok: response.ok, body: parsed as T, ...(Number.isFinite(retryAfter) && retryAfter >= 0 ? { retryAfterSeconds: retryAfter } : {}) };
}
