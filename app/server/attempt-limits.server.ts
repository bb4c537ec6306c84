/**
 * Limits on account forms (docs/security/limits.md "Limits"), counted in the same store as the per-address
 * limit of server.ts: this process's memory, or Redis with REDIS_URL (shared by every replica).
 *
 * - `formName`: the account form a request path names, however it is spelled (case, trailing
 *   slash, `.data`, percent-encoding, the `/consumer/` reading, the base path), so that spelling a
 *   path differently never starts a fresh counter.
 * - `AttemptLimits`: counters per target account and per mail recipient, which the route actions
 *   call once they know the address (a body server.ts does not read): failed sign-ins per account
 *   and client address (so that nobody elsewhere can lock the owner out), with a count per account
 *   across addresses that only lowers each address's allowance; and mails per recipient address
 *   (confirmation, reset, e-mail change); and searches of the people search per signed-in account,
 *   so that nobody walks a list of addresses through it.
 *
 * Addresses (e-mail and IP) are counted under a SHA-256 of their lower-cased form, so none is
 * written to Redis keys. Imported by server.ts (Node's type stripping) and, as a type, by the app bundle,
 * which receives the instance in the load context.
 */
import { createHash } from "node:crypto";
import { ipKeyGenerator, MemoryStore, type Options, type Store } from "express-rate-limit";
import { counter } from "../../lib/metrics.ts";
import { paths, routePathOf } from "../paths.ts";

/**
 * Requests refused by a limit (GET /metrics), label `limit`: `formsPerAddress` (server.ts), or an
 * AttemptKind: `signIn` (per account and address), `mail` (per recipient), `peopleSearch` (per account).
 */
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

/** What is counted, and how much is allowed (docs/security/limits.md "Limits"). */
export const attemptRules = {
  /**
   * Failed sign-ins against one account from one client address (an IPv6 address by its /64):
   * 10 in 10 minutes, `underAttackSignInLimit` while the account is under attack.
   */
  signIn: { limit: 10, windowMs: 10 * 60 * 1000 },
  /**
   * Failed sign-ins against one account from all addresses: past 50 in an hour the account is under
   * attack. It refuses nobody by itself, so it never locks the owner out: it only lowers what each
   * address may try (signIn).
   */
  signInAccount: { limit: 50, windowMs: 60 * 60 * 1000 },
  /** Mails sent to one address (confirmation, reset, e-mail change): 5 an hour. */
  mail: { limit: 5, windowMs: 60 * 60 * 1000 },
  /**
   * Searches of the people search (/addpublisher's GET form, docs/product/screens.md §2.7) by one
   * signed-in account, from all its sessions together: 30 a minute. A search by exact e-mail address
   * answers that person's name and product ID (docs/product/data.md §6), so without a limit an
   * account could try a list of addresses and learn who uses SafeWindow. Every search sent to the
   * consumer API counts, whatever it looks like: a name, a product ID or an address, since the
   * consumer API decides what the text matches and any of them can be spelled to look like another.
   * A query the app refuses itself (too short, untypable characters) asks nothing of anyone and is
   * not counted. An Add on the results page shows the results again, so it counts as a search too.
   * The owner searching by hand stays far below it.
   */
  peopleSearch: { limit: 30, windowMs: 60 * 1000 },
} as const;
type Rule = keyof typeof attemptRules;

/** Failed sign-ins allowed per address and account while the account is under attack (signInAccount). */
export const underAttackSignInLimit = 3;

/** An IPv6 address counts by its /64 (one customer's network); an IPv4 address by itself. */
export const ipv6Subnet = 64;

/**
 * What the routes count: sign-in attempts (per account and address), mails (per recipient), or
 * people searches (per signed-in account).
 */
export type AttemptKind = "signIn" | "mail" | "peopleSearch";

/** The answer of one counted attempt. */
export interface AttemptVerdict {
  allowed: boolean;
  /** When the counter that decided resets, in whole seconds from now (at least 1). */
  retryAfterSeconds: number;
}

/** Limits per account and address, per mail recipient, and per searching account, for the routes. */
export interface AttemptLimits {
  /**
   * Counts one attempt of `kind` for `address` (an e-mail address: the account signed in to, the
   * recipient, or the searching account's user name; case and surrounding blanks are ignored). A
   * sign-in attempt is counted per account and `clientAddress` (the browser's IP address; an IPv6
   * address by its /64), and against the account as a whole; mails and searches ignore
   * `clientAddress`. The count is one atomic increment in the store, so attempts at once are
   * decided one after the other (of 31 searches at once, exactly 30 are allowed).
   * @throws whatever the store throws (Redis down)
   */
  hit(kind: AttemptKind, address: string, clientAddress: string): Promise<AttemptVerdict>;
  /** Takes back one counted attempt (a sign-in that succeeded does not count against the account). */
  forgive(kind: AttemptKind, address: string, clientAddress: string): Promise<void>;
}

/**
 * Limits whose counters live in stores made by `makeStore` (one per rule, with its key prefix):
 * `MemoryStore`s by default, a `RedisStore` factory with REDIS_URL.
 */
export function createAttemptLimits(makeStore: (prefix: string) => Store = () => new MemoryStore()): AttemptLimits {
  const stores = Object.fromEntries(
    (Object.keys(attemptRules) as Rule[]).map((rule) => {
      const store = makeStore(`safewindow:attempts:${rule}:`);
      // The stores read only windowMs (and their own prefix) of the options.
      void store.init?.({ windowMs: attemptRules[rule].windowMs } as Options);
      return [rule, store];
    }),
  ) as Record<Rule, Store>;
  const hash = (text: string) => createHash("sha256").update(text).digest("hex");
  const accountKey = (address: string) => hash(address.trim().toLowerCase());
  const pairKey = (address: string, clientAddress: string) => hash(`${address.trim().toLowerCase()}\n${ipKeyGenerator(clientAddress, ipv6Subnet)}`);
  const secondsUntil = (rule: Rule, resetTime: Date | undefined) =>
    Math.max(1, Math.ceil(((resetTime?.getTime() ?? Date.now() + attemptRules[rule].windowMs) - Date.now()) / 1000));
  return {
    async hit(kind, address, clientAddress) {
      if (kind === "mail" || kind === "peopleSearch") {
        const { totalHits, resetTime } = await stores[kind].increment(accountKey(address));
        const allowed = totalHits <= attemptRules[kind].limit;
        if (!allowed) rateLimitRejections.inc({ limit: kind });
        return { allowed, retryAfterSeconds: secondsUntil(kind, resetTime) };
      }
      const account = await stores.signInAccount.increment(accountKey(address));
      const { totalHits, resetTime } = await stores.signIn.increment(pairKey(address, clientAddress));
      const underAttack = account.totalHits > attemptRules.signInAccount.limit;
      const allowed = totalHits <= (underAttack ? underAttackSignInLimit : attemptRules.signIn.limit);
      if (!allowed) {
        // A refused attempt checks no password: it is no failure against the account as a whole.
        await stores.signInAccount.decrement(accountKey(address));
        rateLimitRejections.inc({ limit: kind });
      }
      return { allowed, retryAfterSeconds: secondsUntil("signIn", resetTime) };
    },
    async forgive(kind, address, clientAddress) {
      if (kind === "mail" || kind === "peopleSearch") return stores[kind].decrement(accountKey(address));
      await stores.signIn.decrement(pairKey(address, clientAddress));
      await stores.signInAccount.decrement(accountKey(address));
    },
  };
}

/** Minutes to wait, rounded up, for a message ("in 7 minutes"). */
export function minutesToWait(retryAfterSeconds: number): number {
  return Math.max(1, Math.ceil(retryAfterSeconds / 60));
}
