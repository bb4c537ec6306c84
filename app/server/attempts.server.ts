/**
 * The route actions' side of the limits per account and per mail recipient (docs/security/limits.md
 * "Limits"): counts an attempt in the store server.ts keeps (attempt-limits.server.ts) and says what
 * to answer when it is one too many. Sign-in attempts are counted per account and the browser's
 * address (the load context's clientIp, as Express reads it with TRUST_PROXY); people searches per
 * signed-in account, whatever its sessions and addresses.
 */
import type { RouterContextProvider } from "react-router";
import { minutesToWait, type AttemptKind } from "./attempt-limits.server";
import { requestContext, userContext } from "./context";
import { messagesOf } from "./i18n.server";
import { noteRetryAfter } from "./retry-after.server";

/** What an action or loader answers when an address or account is over its limit. */
export interface Refusal {
  /** The form message: when to try again (ours), in the request's language. */
  message: string;
  /** 429; its Retry-After is noted for the root middleware (app/server/retry-after.server.ts). */
  init: { status: 429 };
}

/** Takes back the attempt counted for `address` from this browser's address (a sign-in that succeeded). */
export async function forgiveAttempt(context: Readonly<RouterContextProvider>, kind: AttemptKind, address: string): Promise<void> {
  const { attemptLimits, clientIp } = context.get(requestContext);
  await attemptLimits.forgive(kind, address, clientIp);
}

/**
 * Counts one attempt of `kind` (sign-in to the account from this browser's address, or a mail to
 * the address) for `address`.
 * @returns undefined when allowed, else the refusal to answer with (the wait noted for Retry-After)
 * @throws whatever the counter store throws (Redis down)
 */
export async function attemptRefused(context: Readonly<RouterContextProvider>, kind: AttemptKind, address: string): Promise<Refusal | undefined> {
  const { attemptLimits, clientIp, log } = context.get(requestContext);
  const verdict = await attemptLimits.hit(kind, address, clientIp);
  if (verdict.allowed) return undefined;
  log.warn({ kind }, "per-account or per-recipient limit reached");
  noteRetryAfter(verdict.retryAfterSeconds);
  return { message: messagesOf(context).tooManyAttempts(minutesToWait(verdict.retryAfterSeconds)), init: { status: 429 } };
}

/**
 * Counts one people search (the /addpublisher search sent to the consumer API) against the signed-in
 * account, all its sessions together (attempt-limits.server.ts `attemptRules.peopleSearch`: 30 a
 * minute; docs/security/limits.md "Limits"). The account is the session's user name, the address the
 * identity authority answered at sign-in, so two browsers of one account share the count. Call it
 * before the search is sent, once per search.
 * @returns undefined when allowed, else the refusal (429, the message with the minutes to wait, the
 *   wait noted for Retry-After)
 * @throws outside a guarded route (no signed-in user in the context); whatever the counter store
 *   throws (Redis down)
 */
export async function peopleSearchRefused(context: Readonly<RouterContextProvider>): Promise<Refusal | undefined> {
  return attemptRefused(context, "peopleSearch", context.get(userContext).userName);
}
