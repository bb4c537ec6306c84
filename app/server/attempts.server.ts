/**
 * The route actions' side of the per-address limits (docs/security.md "Limits"): counts an attempt
 * in the store server.ts keeps (attempt-limits.server.ts) and says what to answer when it is one
 * too many.
 */
import type { RouterContextProvider } from "react-router";
import * as messages from "~/messages";
import { minutesToWait, type AttemptKind } from "./attempt-limits.server";
import { requestContext } from "./context";

/** What an action answers when an address is over its limit. */
export interface Refusal {
  /** The form message: when to try again (ours). */
  message: string;
  /** 429 with a Retry-After header. */
  init: { status: 429; headers: { "Retry-After": string } };
}

/** Takes back the attempt counted for `address` (a sign-in that succeeded). */
export async function forgiveAttempt(context: Readonly<RouterContextProvider>, kind: AttemptKind, address: string): Promise<void> {
  await context.get(requestContext).attemptLimits.forgive(kind, address);
}

/**
 * Counts one attempt of `kind` (sign-in to the account, or a mail to the address) for `address`.
 * @returns undefined when allowed, else the refusal to answer with
 * @throws whatever the counter store throws (Redis down)
 */
export async function attemptRefused(context: Readonly<RouterContextProvider>, kind: AttemptKind, address: string): Promise<Refusal | undefined> {
  const { attemptLimits, log } = context.get(requestContext);
  const verdict = await attemptLimits.hit(kind, address);
  if (verdict.allowed) return undefined;
  log.warn({ kind }, "per-address limit reached");
  return {
    message: messages.tooManyAttempts(minutesToWait(verdict.retryAfterSeconds)),
    init: { status: 429, headers: { "Retry-After": String(verdict.retryAfterSeconds) } },
  };
}
