// Follow relations (docs/product/README.md §1 Sharing, docs/product/data.md §3 Consumer subscription, §4 Follow relation, §5 Search,
// §6 "Only the followed person can confirm or decline requests"): search, request, cancel,
// confirm, decline, delete, the two lists and the status. Plain values in, plain values out;
// every call acts for the caller's profile (the token's `sub`) and every state change is one
// conditional statement, so concurrent requests cannot create duplicates or skip a rule.
import { randomUUID } from "node:crypto";
import { isUuid } from "../shared/ids.ts";
import type { MailLanguage } from "../shared/language.ts";
import { sql } from "kysely";
import type { Kysely } from "kysely";
import type { PublisherHit, Subscription, SubscriptionStatus as ContractSubscriptionStatus } from "../../contracts/consumer.ts";
import { NoProfileError } from "./errors.ts";
import { windowOf } from "./safewindow.ts";
import type { ConsumerDatabase } from "./schema/tables.ts";

/** docs/product/data.md §5, §9: search starts with at least this many non-blank characters. */
export const SEARCH_MIN_CHARACTERS = 3;
/** Longest search string accepted (a name, a product ID or an e-mail address). */
export const SEARCH_MAX_LENGTH = 320;
/** Most results one search answers. */
export const SEARCH_RESULT_LIMIT = 20;
/** Longest e-mail address kept from a token (RFC 5321 path limit, rounded up). */
const EMAIL_MAX_LENGTH = 320;

// ---------------------------------------------------------------- errors

/**
 * A refused follow call: 400 invalid_request (bad or missing parameter, short search),
 * self_follow or duplicate; 403 forbidden (not your relation, or not in this state); 404
 * not_found (unknown consumer or relation). http.ts answers {success:false, error, error_description}.
 */
export class SubscriptionError extends Error {
  readonly status: 400 | 403 | 404;
  readonly code: string;
  constructor(status: 400 | 403 | 404, code: string, description: string) {
    super(description);
    this.name = "SubscriptionError";
    this.status = status;
    this.code = code;
  }
}

const notFound = (what: string) => new SubscriptionError(404, "not_found", `No such ${what}.`);
const forbidden = (description: string) => new SubscriptionError(403, "forbidden", description);

// ---------------------------------------------------------------- answers

/**
 * One relation as the lists answer it (docs/product/data.md §3): the contract's Subscription
 * (contracts/consumer.ts). The other person's names and product ID; their window (ISO 8601 UTC)
 * only when the relation is confirmed and the caller is a confirmed follower of the other person,
 * else null.
 */
export type SubscriptionRow = Subscription;

/** One search result: the contract's PublisherHit (names and product ID only, never an e-mail or a date of birth). */
export type PublisherMatch = PublisherHit;

/** docs/product/data.md §3 "Subscription status": the caller's relation toward one consumer, the caller following (the contract's, without its success flag). */
export type SubscriptionStatus = Omit<ContractSubscriptionStatus, "success">;

// ---------------------------------------------------------------- helpers

/** The caller's profile id. @throws NoProfileError (404) when the user has none. */
async function myConsumerId(db: Kysely<ConsumerDatabase>, identityUserId: string): Promise<string> {
  const row = await db.selectFrom("consumer_profiles").select("id").where("identity_user_id", "=", identityUserId).executeTakeFirst();
  if (!row) throw new NoProfileError();
  return row.id;
}

/** Escapes LIKE's wildcards (and its escape character, backslash) in user text. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Case- and composition-insensitive sort and search key of a name column, as the migration indexes it. */
const nameKey = (column: string) => sql<string>`lower(normalize(${sql.ref(column)}, NFC))`;
const fullNameKey = (first: string, last: string) => sql<string>`lower(normalize(${sql.ref(first)} || ' ' || ${sql.ref(last)}, NFC))`;

// ---------------------------------------------------------------- e-mail for search

/**
 * Keeps the latest `email` claim of an identity user's token, for search by exact e-mail
 * (docs/product/README.md §1 "find other users by ... e-mail"); the identity authority offers no look-up by
 * e-mail. With it, the mail language the request asked for, so that a mail sent later (a dispute's
 * decision) follows it (docs/product/calls.md §7.4 "The mail's language"); a null language keeps the one
 * stored. One statement, a no-op when nothing changed. Addresses without "@" or longer than 320
 * characters are ignored.
 * @param identityUserId the token's `sub`.
 * @param email the token's `email` claim (the user name at the identity authority).
 * @param now time stamp of the change.
 * @param language the request's mail language (services/shared/language.ts); null: it said none.
 */
export async function rememberEmail(db: Kysely<ConsumerDatabase>, identityUserId: string, email: string, now: Date, language: MailLanguage | null = null): Promise<void> {
  const address = email.trim();
  if (address.length > EMAIL_MAX_LENGTH || !address.includes("@")) return;
  await db
    .insertInto("consumer_identity_emails")
    .values({ identity_user_id: identityUserId, email: address, updated_at: now, language })
    .onConflict((oc) =>
      oc
        .column("identity_user_id")
        .doUpdateSet((eb) => ({
          email: eb.ref("excluded.email"),
          updated_at: eb.ref("excluded.updated_at"),
          language: eb.fn.coalesce("excluded.language", "consumer_identity_emails.language"),
        }))
        .where((eb) =>
          eb.or([
            eb("consumer_identity_emails.email", "is distinct from", eb.ref("excluded.email")),
            eb.and([eb("excluded.language", "is not", null), eb("consumer_identity_emails.language", "is distinct from", eb.ref("excluded.language"))]),
          ]),
        ),
    )
    .execute();
}

/** How long `EmailMemory` trusts that an address it stored is still stored, ms. */
export const EMAIL_MEMORY_TTL_MS = 5 * 60_000;
/** How many users `EmailMemory` keeps at most (the oldest goes first). */
export const EMAIL_MEMORY_MAX_USERS = 10_000;

/**
 * `rememberEmail` for every authenticated call, without its statement when this process stored
 * the same address for the same user less than `ttlMs` ago: the upsert is the dearest statement of
 * a page's call (a write, where the page's own read is one select). The e-mail kept for search
 * is therefore at most `ttlMs` late to come back after another process of the consumer API deleted
 * it (a profile deleted there); `forget` drops the user here when this process deletes it.
 */
export class EmailMemory {
  /** identity user id → the address and language stored and when (monotonic ms, `performance.now()`); oldest first. */
  readonly #stored = new Map<string, { email: string; language: MailLanguage | null; at: number }>();

  readonly #db: Kysely<ConsumerDatabase>;
  readonly #ttlMs: number;
  readonly #maxUsers: number;

  /**
   * @param ttlMs how long a stored address is trusted, ms
   * @param maxUsers how many users are kept at most
   */
  constructor(db: Kysely<ConsumerDatabase>, ttlMs = EMAIL_MEMORY_TTL_MS, maxUsers = EMAIL_MEMORY_MAX_USERS) {
    this.#db = db;
    this.#ttlMs = ttlMs;
    this.#maxUsers = maxUsers;
  }

  /**
   * `rememberEmail(db, identityUserId, email, now, language)` unless this process stored exactly that
   * (the address, and the language unless null) less than `ttlMs` ago.
   * @throws whatever the database throws (nothing is remembered then)
   */
  async remember(identityUserId: string, email: string, now: Date, language: MailLanguage | null = null): Promise<void> {
    const known = this.#stored.get(identityUserId);
    if (known && known.email === email && (language === null || known.language === language) && performance.now() - known.at < this.#ttlMs) return;
    await rememberEmail(this.#db, identityUserId, email, now, language);
    this.#stored.delete(identityUserId);
    // A null language left the stored one as it was, which this process may not know: it is asked again only when a request names one.
    this.#stored.set(identityUserId, { email, language: language ?? known?.language ?? null, at: performance.now() });
    if (this.#stored.size > this.#maxUsers) this.#stored.delete(this.#stored.keys().next().value as string);
  }

  /** Forgets `identityUserId`, whose address this process just deleted (deleteProfile): the next call stores it again. */
  forget(identityUserId: string): void {
    this.#stored.delete(identityUserId);
  }
}

// ---------------------------------------------------------------- search

/** The search text as compared: NFC, trimmed, runs of white space as one space. */
function normaliseSearch(text: string): string {
  return text.normalize("NFC").trim().replace(/\s+/gu, " ");
}

const PRODUCT_ID = /^[0-9A-HJKMNP-TV-Z]{8}$/;

/**
 * The product ID a search string may be: without dashes and spaces, upper case, with
 * Crockford base32's look-alikes read as the digits they stand for (I, L → 1; O → 0).
 * @returns the 8-character product ID, or null when the text cannot be one.
 */
export function productIdOf(text: string): string | null {
  const id = text
    .replace(/[\s-]/gu, "")
    .toUpperCase()
    .replace(/[IL]/g, "1")
    .replace(/O/g, "0");
  return PRODUCT_ID.test(id) ? id : null;
}

/**
 * Finds people to follow (docs/product/screens.md §2 /addpublisher, §5 Search). A consumer matches when the
 * search string (NFC, trimmed, white space collapsed) is, ignoring case, a prefix of their
 * first name, last name or "first last"; or is their product ID (case, dashes and spaces
 * ignored); or is exactly the e-mail address of their latest token (case ignored). Accents
 * count as written. The searcher is never answered; at most 20 results, by last name, then
 * first name.
 * @param identityUserId the searcher (token `sub`).
 * @throws NoProfileError when the searcher has no profile; SubscriptionError 400 when the
 *   string has fewer than 3 non-blank characters or more than 320 characters.
 */
export async function searchPublishers(db: Kysely<ConsumerDatabase>, identityUserId: string, searchString: string): Promise<PublisherMatch[]> {
  const text = normaliseSearch(searchString);
  if ([...text.replace(/\s/gu, "")].length < SEARCH_MIN_CHARACTERS) {
    throw new SubscriptionError(400, "invalid_request", `searchString needs at least ${SEARCH_MIN_CHARACTERS} non-blank characters.`);
  }
  if (text.length > SEARCH_MAX_LENGTH) throw new SubscriptionError(400, "invalid_request", `searchString must be at most ${SEARCH_MAX_LENGTH} characters.`);
  const me = await myConsumerId(db, identityUserId);
  const prefix = `${escapeLike(text.toLowerCase())}%`;
  const productId = productIdOf(text);
  // The address is looked up first, on its own index: as a subquery inside the OR it kept the
  // planner from combining the name indexes (tests/integration/query-plans.test.ts).
  const byEmail = text.includes("@")
    ? await db
        .selectFrom("consumer_identity_emails as e")
        .select("e.identity_user_id")
        .where(sql<string>`lower(e.email)`, "=", sql<string>`lower(${text})`)
        .execute()
    : [];
  const rows = await db
    .selectFrom("consumer_profiles as p")
    .select(["p.id", "p.first_name", "p.last_name", "p.safe_window_id"])
    .where("p.id", "!=", me)
    .where((eb) => {
      const matches = [
        eb(nameKey("p.first_name"), "like", prefix),
        eb(nameKey("p.last_name"), "like", prefix),
        eb(fullNameKey("p.first_name", "p.last_name"), "like", prefix),
      ];
      if (productId) matches.push(eb("p.safe_window_id", "=", productId));
      if (byEmail.length > 0) matches.push(eb("p.identity_user_id", "in", byEmail.map((row) => row.identity_user_id)));
      return eb.or(matches);
    })
    .orderBy(nameKey("p.last_name"))
    .orderBy(nameKey("p.first_name"))
    .orderBy("p.id")
    .limit(SEARCH_RESULT_LIMIT)
    .execute();
  return rows.map((r) => ({ sF_ConsumerId: r.id, firstName: r.first_name, lastName: r.last_name, safeWindowId: r.safe_window_id }));
}

// ---------------------------------------------------------------- lists

/**
 * The caller's relations on one side, pending first, then confirmed, each by the other
 * person's last name, first name, in one statement. The other person's window (the same columns
 * as GET /consumer/getsafewindow, safewindow.ts windowOf) is given only when they share it with
 * the caller: the row is confirmed and the caller is a confirmed follower of theirs
 * (docs/product/README.md §1 "Confirmed followers see the followed person's safe window card"; a
 * followed person does not see the follower's window unless they follow back and are confirmed).
 * @throws NoProfileError when the caller has no profile (no row at all; a profile without
 *   relations is one row without a relation).
 */
async function listRelations(db: Kysely<ConsumerDatabase>, identityUserId: string, side: "subscribers" | "publishers"): Promise<SubscriptionRow[]> {
  const [mine, other] = side === "subscribers" ? (["s.followed_id", "s.follower_id"] as const) : (["s.follower_id", "s.followed_id"] as const);
  const rows = await db
    .selectFrom("consumer_profiles as me")
    .leftJoin("consumer_subscriptions as s", mine, "me.id")
    .leftJoin("consumer_profiles as p", "p.id", other)
    // The caller's confirmed relation toward the other person (at most one: the pair is unique).
    .leftJoin("consumer_subscriptions as r", (join) => join.onRef("r.follower_id", "=", "me.id").onRef("r.followed_id", "=", "p.id").on("r.confirmed", "=", true))
    .select([
      "s.id",
      "s.confirmed",
      "p.id as other_id",
      "p.first_name",
      "p.last_name",
      "p.safe_window_id",
      "p.strong_safety_date",
      "p.weak_safety_date",
      "p.safe_window_proof",
      "r.id as shared_by",
    ])
    .where("me.identity_user_id", "=", identityUserId)
    .orderBy("s.confirmed")
    .orderBy(nameKey("p.last_name"))
    .orderBy(nameKey("p.first_name"))
    .orderBy("s.id")
    .execute();
  if (rows.length === 0) throw new NoProfileError();
  return rows.flatMap((r) => {
    // The profile's own row when it has no relation on this side.
    if (r.id === null || r.other_id === null || r.first_name === null || r.last_name === null || r.safe_window_id === null) return [];
    const window = r.confirmed && r.shared_by !== null ? windowOf(r) : null;
    return [
      {
        sF_ConsumerSubscriptionId: r.id,
        sF_ConsumerId: r.other_id,
        firstName: r.first_name,
        lastName: r.last_name,
        safeWindowId: r.safe_window_id,
        confirmed: r.confirmed ? 1 : 0,
        strongSafetyDate: window?.strongSafetyDate ?? null,
        weakSafetyDate: window?.weakSafetyDate ?? null,
        safeWindowProof: window?.safeWindowProof ?? null,
      } satisfies SubscriptionRow,
    ];
  });
}

/**
 * docs/product/calls.md §7 GET /consumersubscription/subscribers/: people who follow the caller or asked to
 * (docs/product/screens.md §2 /people "Followers"), pending first. See listRelations for the window.
 * @throws NoProfileError when the caller has no profile.
 */
export function listSubscribers(db: Kysely<ConsumerDatabase>, identityUserId: string): Promise<SubscriptionRow[]> {
  return listRelations(db, identityUserId, "subscribers");
}

/**
 * docs/product/calls.md §7 GET /consumersubscription/publishers/: people the caller follows or asked to follow
 * (docs/product/screens.md §2 /people "Following"), pending first; confirmed rows carry the followed person's window.
 * @throws NoProfileError when the caller has no profile.
 */
export function listPublishers(db: Kysely<ConsumerDatabase>, identityUserId: string): Promise<SubscriptionRow[]> {
  return listRelations(db, identityUserId, "publishers");
}

// ---------------------------------------------------------------- changes

/**
 * docs/product/data.md §4: the caller asks to follow consumer `sfConsumerId`; the relation starts pending.
 * @returns the new relation's id.
 * @throws NoProfileError (caller without profile); SubscriptionError 404 (unknown consumer),
 *   400 self_follow, 400 duplicate (any relation caller → them exists, pending or confirmed).
 */
export async function requestSubscription(db: Kysely<ConsumerDatabase>, identityUserId: string, sfConsumerId: string, now: Date): Promise<string> {
  const me = await myConsumerId(db, identityUserId);
  if (!isUuid(sfConsumerId)) throw notFound("consumer");
  const target = await db.selectFrom("consumer_profiles").select("id").where("id", "=", sfConsumerId).executeTakeFirst();
  if (!target) throw notFound("consumer");
  if (target.id === me) throw new SubscriptionError(400, "self_follow", "You cannot follow yourself.");
  // The unique (follower, followed) pair decides between concurrent requests.
  const inserted = await db
    .insertInto("consumer_subscriptions")
    .values({ id: randomUUID(), follower_id: me, followed_id: target.id, confirmed: false, requested_at: now, confirmed_at: null })
    .onConflict((oc) => oc.columns(["follower_id", "followed_id"]).doNothing())
    .returning("id")
    .executeTakeFirst();
  if (!inserted) throw new SubscriptionError(400, "duplicate", "You already follow or asked to follow this person.");
  return inserted.id;
}

/** After a conditional change touched no row: 404 when the relation does not exist, else 403 with `why`. */
async function refusal(db: Kysely<ConsumerDatabase>, subscriptionId: string, why: (row: { follower_id: string; followed_id: string; confirmed: boolean }) => string): Promise<SubscriptionError> {
  const row = await db.selectFrom("consumer_subscriptions").select(["follower_id", "followed_id", "confirmed"]).where("id", "=", subscriptionId).executeTakeFirst();
  return row ? forbidden(why(row)) : notFound("subscription");
}

/**
 * docs/product/data.md §4 "The requester may cancel a pending request": deletes the caller's own pending request.
 * @throws NoProfileError; SubscriptionError 404 (unknown relation), 403 (not the requester, or
 *   already confirmed).
 */
export async function cancelSubscriptionRequest(db: Kysely<ConsumerDatabase>, identityUserId: string, subscriptionId: string): Promise<void> {
  const me = await myConsumerId(db, identityUserId);
  if (!isUuid(subscriptionId)) throw notFound("subscription");
  const deleted = await db
    .deleteFrom("consumer_subscriptions")
    .where("id", "=", subscriptionId)
    .where("follower_id", "=", me)
    .where("confirmed", "=", false)
    .returning("id")
    .executeTakeFirst();
  if (!deleted) {
    throw await refusal(db, subscriptionId, (r) => (r.follower_id !== me ? "Only the requester can cancel a follow request." : "This request is already confirmed."));
  }
}

/**
 * docs/product/data.md §4, §6: the followed person confirms a pending request (confirmed becomes 1).
 * @param now when it was confirmed.
 * @throws NoProfileError; SubscriptionError 404 (unknown relation), 403 (not the followed
 *   person, or not pending).
 */
export async function confirmSubscriptionRequest(db: Kysely<ConsumerDatabase>, identityUserId: string, subscriptionId: string, now: Date): Promise<void> {
  const me = await myConsumerId(db, identityUserId);
  if (!isUuid(subscriptionId)) throw notFound("subscription");
  const updated = await db
    .updateTable("consumer_subscriptions")
    .set({ confirmed: true, confirmed_at: now })
    .where("id", "=", subscriptionId)
    .where("followed_id", "=", me)
    .where("confirmed", "=", false)
    .returning("id")
    .executeTakeFirst();
  if (!updated) {
    throw await refusal(db, subscriptionId, (r) => (r.followed_id !== me ? "Only the person followed can confirm a follow request." : "This request is already confirmed."));
  }
}

/**
 * docs/product/data.md §4, §6: the followed person declines a pending request; it leaves no relation.
 * @throws NoProfileError; SubscriptionError 404 (unknown relation), 403 (not the followed
 *   person, or not pending).
 */
export async function declineSubscriptionRequest(db: Kysely<ConsumerDatabase>, identityUserId: string, subscriptionId: string): Promise<void> {
  const me = await myConsumerId(db, identityUserId);
  if (!isUuid(subscriptionId)) throw notFound("subscription");
  const deleted = await db
    .deleteFrom("consumer_subscriptions")
    .where("id", "=", subscriptionId)
    .where("followed_id", "=", me)
    .where("confirmed", "=", false)
    .returning("id")
    .executeTakeFirst();
  if (!deleted) {
    throw await refusal(db, subscriptionId, (r) => (r.followed_id !== me ? "Only the person followed can decline a follow request." : "This request is already confirmed."));
  }
}

/**
 * docs/product/data.md §4 "Either side may delete a confirmed relation".
 * @throws NoProfileError; SubscriptionError 404 (unknown relation), 403 (not a side of it, or
 *   still pending: cancel or decline it instead).
 */
export async function deleteSubscription(db: Kysely<ConsumerDatabase>, identityUserId: string, subscriptionId: string): Promise<void> {
  const me = await myConsumerId(db, identityUserId);
  if (!isUuid(subscriptionId)) throw notFound("subscription");
  const deleted = await db
    .deleteFrom("consumer_subscriptions")
    .where("id", "=", subscriptionId)
    .where((eb) => eb.or([eb("follower_id", "=", me), eb("followed_id", "=", me)]))
    .where("confirmed", "=", true)
    .returning("id")
    .executeTakeFirst();
  if (!deleted) {
    throw await refusal(db, subscriptionId, (r) =>
      r.follower_id !== me && r.followed_id !== me ? "Only the follower or the person followed can delete a relation." : "This request is still pending: cancel or decline it.",
    );
  }
}

/**
 * docs/product/calls.md §7 subscriptionstatus: the caller's relation toward `sfConsumerId`, the caller
 * following (docs/product/screens.md §2 /follower: 'Pending', 'Following' or 'Follow Back').
 * @throws NoProfileError; SubscriptionError 404 (unknown consumer).
 */
export async function subscriptionStatus(db: Kysely<ConsumerDatabase>, identityUserId: string, sfConsumerId: string): Promise<SubscriptionStatus> {
  const me = await myConsumerId(db, identityUserId);
  if (!isUuid(sfConsumerId)) throw notFound("consumer");
  const row = await db
    .selectFrom("consumer_profiles as p")
    .leftJoin("consumer_subscriptions as s", (join) => join.onRef("s.followed_id", "=", "p.id").on("s.follower_id", "=", me))
    .select(["p.id", "s.confirmed"])
    .where("p.id", "=", sfConsumerId)
    .executeTakeFirst();
  if (!row) throw notFound("consumer");
  return { pending: row.confirmed === false, subscribed: row.confirmed === true };
}
