/**
 * Limits on account forms (docs/security.md "Limits"), counted in the same store as the per-address
 * limit of server.ts: this process's memory, or Redis with REDIS_URL (shared by every replica).
 *
 * - `formName`: the account form a request path names, however it is spelled (case, trailing
 *   slash, `.data`, percent-encoding, the `/consumer/` reading, the base path), so that spelling a
 *   path differently never starts a fresh counter.
 * - `AttemptLimits`: counters per target account and per mail recipient, which the route actions
 *   call once they know the address (a body server.ts does not read): sign-in attempts per
 *   account, and mails per recipient address (confirmation, reset, e-mail change).
 *
 * Addresses are counted under a SHA-256 of their lower-cased form, so no address is written to
 * Redis keys. Imported by server.ts (Node's type stripping) and, as a type, by the app bundle,
 * which receives the instance in the load context.
 */
import { createHash } from "node:crypto";
import { MemoryStore, type Options, type Store } from "express-rate-limit";
import { counter } from "../../services/shared/metrics.ts";
import { paths, routePathOf } from "../paths.ts";

/** Requests refused by a limit (GET /metrics): `formsPerAddress` (server.ts), or an AttemptKind (per account or recipient). */
export const rateLimitRejections = counter("safewindow_rate_limit_rejections_total", "Requests refused by a rate limit, by limit.", ["limit"]);

/** The sign-in and account forms that are limited (route paths, without the base path). */
export const accountForms = [
  paths.login,
  paths.registration,
  paths.confirmaccount,
  paths.confirmemail,
  paths.requestpasswordchange,
  paths.resetpassword,
  paths.checkconfirmation,
] as const;
export type AccountForm = (typeof accountForms)[number];

/**
 * The account form that `path` (a request path, possibly percent-encoded) names, or undefined.
 * Case, repeated or trailing slashes, a `.data` suffix, the `/consumer/` reading and `basePrefix`
 * are all ignored.
 */
export function formName(path: string, basePrefix: string): AccountForm | undefined {
  const name = routePathOf(path, basePrefix);
  return (accountForms as readonly string[]).includes(name) ? (name as AccountForm) : undefined;
}

/** What is counted per address, and how much is allowed. */
export const attemptRules = {
  /** Failed sign-in attempts against one account, from anywhere: 10 in 10 minutes. */
  signIn: { limit: 10, windowMs: 10 * 60 * 1000 },
  /** Mails sent to one address (confirmation, reset, e-mail change): 5 an hour. */
  mail: { limit: 5, windowMs: 60 * 60 * 1000 },
} as const;
export type AttemptKind = keyof typeof attemptRules;

/** The answer of one counted attempt. */
export interface AttemptVerdict {
  allowed: boolean;
  /** When the counter resets, in whole seconds from now (at least 1). */
  retryAfterSeconds: number;
}

/** Per-address limits for the route actions. */
export interface AttemptLimits {
  /**
   * Counts one attempt of `kind` for `address` (an e-mail address; case and surrounding blanks are
   * ignored).
   * @throws whatever the store throws (Redis down)
   */
  hit(kind: AttemptKind, address: string): Promise<AttemptVerdict>;
  /** Takes back one counted attempt (a sign-in that succeeded does not count against the account). */
  forgive(kind: AttemptKind, address: string): Promise<void>;
}

/**
 * Limits whose counters live in stores made by `makeStore` (one per kind, with its key prefix):
 * `MemoryStore`s by default, a `RedisStore` factory with REDIS_URL.
 */
export function createAttemptLimits(makeStore: (prefix: string) => Store = () => new MemoryStore()): AttemptLimits {
  const stores = Object.fromEntries(
    (Object.keys(attemptRules) as AttemptKind[]).map((kind) => {
      const store = makeStore(`safewindow:attempts:${kind}:`);
      // The stores read only windowMs (and their own prefix) of the options.
      void store.init?.({ windowMs: attemptRules[kind].windowMs } as Options);
      return [kind, store];
    }),
  ) as Record<AttemptKind, Store>;
  const keyOf = (address: string) => createHash("sha256").update(address.trim().toLowerCase()).digest("hex");
  return {
    async hit(kind, address) {
      const key = keyOf(address);
      const { totalHits, resetTime } = await stores[kind].increment(key);
      const retryAfterSeconds = Math.max(1, Math.ceil(((resetTime?.getTime() ?? Date.now() + attemptRules[kind].windowMs) - Date.now()) / 1000));
      const allowed = totalHits <= attemptRules[kind].limit;
      if (!allowed) rateLimitRejections.inc({ limit: kind });
      return { allowed, retryAfterSeconds };
    },
    async forgive(kind, address) {
      await stores[kind].decrement(keyOf(address));
    },
  };
}

/** Minutes to wait, rounded up, for a message ("in 7 minutes"). */
export function minutesToWait(retryAfterSeconds: number): number {
  return Math.max(1, Math.ceil(retryAfterSeconds / 60));
}
