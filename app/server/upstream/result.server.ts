/**
 * The one result shape of every upstream client method (docs/architecture/upstream-calls.md "Upstream calls").
 *
 * A client method returns `Result<T>`: either `{ ok: true, value }` or a `Failure` that carries the
 * message to show (docs/product/messages.md §8) and, for the logs only, the upstream's status.
 * Routes branch on `ok` and, where a screen needs it, on `reason`; they never read HTTP statuses
 * and never catch-all. Programming errors (a bug, a missing configuration) still throw.
 *
 * Reasons:
 * - `refused`: the upstream understood and said no (4xx other than below); `errors` may list why.
 * - `notFound`: the object does not exist, or is not the user's (404).
 * - `tooManyAttempts`: the upstream is throttling this account or address (429), with
 *   `retryAfterSeconds` when it said.
 * - `busy`: the upstream has more work than it takes now (503), or the app's own queue to it
 *   (upload-queue.server.ts) did not give the call its turn in time; `retryAfterSeconds` when known
 *   (the upload queue always sets it).
 * - `unavailable`: no answer (unreachable, timed out; status 0) or a server error (5xx other than 503).
 * - `invalidAnswer`: a 2xx whose body does not fit the call's contract (contracts/); logged.
 */
import { data } from "react-router";
import { defaultRetryAfterSeconds, noteRetryAfter } from "../retry-after.server";

export type FailureReason = "refused" | "notFound" | "tooManyAttempts" | "busy" | "unavailable" | "invalidAnswer";

export interface Failure {
  ok: false;
  reason: FailureReason;
  /** What the screen shows: the call's message from docs/product/messages.md §8. */
  message: string;
  /** The upstream's HTTP status, 0 when it did not answer. For logs, never for branching. */
  status: number;
  /** From a 429 or 503 answer's Retry-After, seconds. */
  retryAfterSeconds?: number;
  /** The upstream's own list of reasons, when it gave one (identity authority errors, consumer API field errors). */
  errors?: { code: string; description: string }[];
}

export type Result<T> = { ok: true; value: T } | Failure;

/** A successful answer. */
export function success<T>(value: T): Result<T> {
  return { ok: true, value };
}

/** A failure; `details` adds retryAfterSeconds or errors. */
export function failure(reason: FailureReason, message: string, status: number, details: Pick<Failure, "retryAfterSeconds" | "errors"> = {}): Failure {
  return { ok: false, reason, message, status, ...details };
}

/**
 * For loaders: the value, or the route error response that the error boundaries show
 * (404 for `notFound`; 503 when the upstream did not answer or was `busy`; 502 for a server error
 * or an answer that does not fit its contract; 429 for `tooManyAttempts`; 502 for any other refusal
 * a loader did not expect). The response carries no detail: the browser learns nothing of the upstream.
 * @throws a React Router `data()` response for every failure
 */
export function valueOrThrow<T>(result: Result<T>): T {
  if (result.ok) return result.value;
  throw routeErrorOf(result);
}

/**
 * The route error response for a failure (see valueOrThrow). For `tooManyAttempts` and `busy` it
 * notes the wait (the upstream's, else `defaultRetryAfterSeconds`) for the Retry-After that the root
 * middleware writes on every 429 and 503 (app/server/retry-after.server.ts).
 */
export function routeErrorOf(failed: Failure) {
  switch (failed.reason) {
    case "notFound":
      return data(null, { status: 404, statusText: "Not Found" });
    case "tooManyAttempts":
      noteRetryAfter(failed.retryAfterSeconds ?? defaultRetryAfterSeconds);
      return data(null, { status: 429, statusText: "Too Many Requests" });
    case "busy":
      noteRetryAfter(failed.retryAfterSeconds ?? defaultRetryAfterSeconds);
      return data(null, { status: 503, statusText: "Service Unavailable" });
    case "unavailable":
      return data(null, failed.status === 0 ? { status: 503, statusText: "Service Unavailable" } : { status: 502, statusText: "Bad Gateway" });
    default:
      return data(null, { status: 502, statusText: "Bad Gateway" });
  }
}

/**
 * The status a form's action answers with when its upstream call failed: 400 for a refusal (the
 * user can change what they sent), 404, 429 (its Retry-After noted, see routeErrorOf), 503 when the upstream
 * did not answer or was busy (a busy one's Retry-After noted), 502 for a server error or an answer
 * that does not fit its contract.
 */
export function failureInit(failed: Failure): ResponseInit {
  if (failed.reason === "refused") return { status: 400 };
  return routeErrorOf(failed).init ?? { status: 502 };
}
