/**
 * Every 429 the app answers carries `Retry-After` (docs/security/limits.md "Limits"), and so does every 503
 * of a loader or action (an upstream busy or not answering, the app's upload queue full:
 * docs/architecture/results-pipeline.md §5 "Uploads at once"), on documents and on `.data` requests alike.
 *
 * React Router keeps only the Set-Cookie of the headers that a loader or action gives with `data()`,
 * unless the route exports a `headers` function; a 429 or 503 can come from many routes (our own limits,
 * an upstream's refusal relayed). So the code that decides on one notes the wait with `noteRetryAfter`,
 * and the root's `retryAfterMiddleware`, around every loader and action of the request, writes it on
 * the response. The note travels in an AsyncLocalStorage that the middleware opens for the request,
 * so helpers without the router context (the upstream failures' `routeErrorOf`) can note too.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { MiddlewareFunction } from "react-router";

/**
 * Seconds a 429 or 503 says to wait when nothing was noted (the upstream gave no time): one minute,
 * as their messages say ("Please try again in a minute").
 */
export const defaultRetryAfterSeconds = 60;

/** The statuses that say "come back later": 429 Too Many Requests, 503 Service Unavailable. */
const waitStatuses = new Set([429, 503]);

const pending = new AsyncLocalStorage<{ seconds?: number }>();

/**
 * Notes that this request may be answered 429 or 503 and when to try again, in whole seconds (at least 1).
 * Of several notes the longest wait wins. Outside a request (no middleware) it does nothing.
 */
export function noteRetryAfter(seconds: number): void {
  const slot = pending.getStore();
  if (!slot) return;
  const wait = Math.max(1, Math.ceil(seconds));
  slot.seconds = Math.max(slot.seconds ?? 0, wait);
}

/**
 * Root middleware: a response of status 429 or 503 without `Retry-After` gets the wait noted during
 * the request (`defaultRetryAfterSeconds` when none was). Other responses pass untouched.
 */
export const retryAfterMiddleware: MiddlewareFunction<Response> = async (_args, next) => {
  const slot: { seconds?: number } = {};
  const response = await pending.run(slot, next);
  if (!waitStatuses.has(response.status) || response.headers.has("Retry-After")) return response;
  const value = String(slot.seconds ?? defaultRetryAfterSeconds);
  try {
    response.headers.set("Retry-After", value);
    return response;
  } catch {
    // A response with immutable headers: the same body and status with the header added.
    const headers = new Headers(response.headers);
    headers.set("Retry-After", value);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
};
