// The identity authority's mail outbox (services/identity/README.md "Mail outbox"): every
// account mail (a link mail or a notice of a change) is a row of identity_outbox, written in the
// same transaction as the change that causes it, so a crash can delay a mail but never lose it.
// A sender delivers pending rows through the transport of mail.ts, retries failures with
// backoff, and claims each row with a lease, so that processes sharing one database never send
// the same row twice. A reset request is a row too (README "Reset requests"): the request path
// only inserts it, and the sender decides whether an account has the address, then queues and
// sends the reset mail.
//
// The claims, leases, backoff and the sender's loop are the shared engine (services/shared/outbox.ts);
// this module adds what is the authority's own: link mails that die with their token, the held
// registration mail, and reset requests.
//
// Queue times (holds, backoff, leases) are the database's clock, the one clock every process
// sharing the database agrees on; the service's own `now` stays the clock of the token rules.
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import type { Kysely, Transaction } from "kysely";
import type { Logger } from "pino";
import { DEFAULT_QUEUE_TIMINGS, createLeasedQueue, dbNowPlus, errorText } from "../shared/outbox.ts";
import type { QueueTimings } from "../shared/outbox.ts";
import { mailLanguageOf } from "../shared/language.ts";
import type { MailLanguage } from "../shared/language.ts";
import { MailDeliveryError } from "./errors.ts";
import type { AccountMail, LinkMail, Mailer, NoticeMail, OutgoingMail } from "./mail.ts";
import type { IdentityDatabase, OutboxKind, OutboxRow, TokenPurpose } from "./schema/tables.ts";

/** How the outbox paces itself: the shared queue's timings (services/shared/outbox.ts) and the registration hold, in milliseconds. */
export interface OutboxTimings extends QueueTimings {
  /**
   * How long a registration's confirmation mail waits for the client's explicit
   * sendconfirmationemail call, which sends it at once instead of a second mail; without that
   * call it goes out when the hold ends. Default 2 min (the web app calls within a second).
   */
  registrationHoldMs: number;
}

export const DEFAULT_OUTBOX_TIMINGS: OutboxTimings = { ...DEFAULT_QUEUE_TIMINGS, registrationHoldMs: 2 * 60_000 };

export { retryDelayMs } from "../shared/outbox.ts";

/** The kinds of mail that carry a single-use link (a token row); the others are notices. */
export const LINK_KINDS: readonly TokenPurpose[] = ["confirm_email", "invite", "reset_password"];

function isLinkKind(kind: OutboxKind): kind is TokenPurpose {
  return (LINK_KINDS as readonly string[]).includes(kind);
}

/** A link mail to queue: its mail, and the user and token row it belongs to. */
export interface QueuedLinkMail extends LinkMail {
  userId: string;
  /** The mail's language (accounts.ts decides it: the request's, else the account's, else English). */
  language: MailLanguage;
  /** identity_user_tokens.id of `token`: the mail is dropped if that row is gone, used or expired when it is sent. */
  tokenId: string;
}

/**
 * A notice to queue, and the user whose account changed; it is sent whatever links die later. A
 * deletion's notice names no user: the account is gone when it is sent.
 */
export type QueuedNotice = (
  | (NoticeMail & { kind: Exclude<NoticeMail["kind"], "account_deleted">; userId: string })
  | (NoticeMail & { kind: "account_deleted"; userId: null })
) & { language: MailLanguage };

/** Anything the outbox sends. */
export type QueuedMail = QueuedLinkMail | QueuedNotice;

/** A password reset request as queued: the address as asked (normalised), and the page its link may use. */
export interface ResetRequest {
  email: string;
  requestedUri?: string;
  /** The language the request asked for (services/shared/language.ts); absent: the account's is used. */
  language?: MailLanguage;
}

/** A row this process has claimed and must deliver with `deliver` (after its transaction committed). */
export interface ClaimedMail {
  id: string;
  claimId: string;
}

export interface Outbox {
  /**
   * Queues `mail` in `trx`, already claimed by this process: call `deliver` once `trx` has
   * committed. Should this process die first, the claim's lease lapses and any sender sends it.
   */
  enqueue(trx: Transaction<IdentityDatabase>, mail: QueuedMail): Promise<ClaimedMail>;
  /**
   * Queues `mail` in `trx` to go out after `registrationHoldMs`, unless `claimWaiting` takes it
   * earlier. Call `wake` after the commit so this process times the hold.
   */
  hold(trx: Transaction<IdentityDatabase>, mail: QueuedLinkMail): Promise<void>;
  /**
   * In `trx`, claims the newest pending mail of `kind` for `userId` whose link still works at
   * `now` (held, or waiting for a retry), to send it now with `requestedUri` (undefined: the
   * default page), in `language` when given (null: the language it was queued in). `"in_flight"`:
   * such a mail is being sent by a sender right now; null: none waits, and `trx` may queue a new
   * one. It first takes the lock of this account's `kind` mails (a PostgreSQL advisory lock, held
   * until `trx` ends), so that two requests for one account, in any process, decide one after
   * the other: the second sees the mail the first queued as in flight and queues none.
   */
  claimWaiting(
    trx: Transaction<IdentityDatabase>,
    userId: string,
    kind: TokenPurpose,
    requestedUri: string | undefined,
    now: Date,
    language?: MailLanguage | null,
  ): Promise<ClaimedMail | "in_flight" | null>;
  /**
   * Cancels the pending link mails of `userId` (of `kind` only, when given) in `trx`: their
   * links died with the change `trx` makes. Their raw tokens are cleared. Notices are never
   * cancelled: a later change does not make an earlier one untrue. A mail being sent right now
   * (its claim's lease is live) is left to its sender: it goes out with its dead link and is
   * marked sent, so a row's status always says whether its mail went out.
   */
  cancelPending(trx: Transaction<IdentityDatabase>, userId: string, kind?: TokenPurpose): Promise<void>;
  /**
   * Queues a password reset request, whether or not an account has the address: one insert, the
   * same for every address (no lookup), then wakes the sender. The sender later resolves it with
   * `resolveResetRequest` and sends the reset mail, if any, at once.
   */
  requestReset(request: ResetRequest): Promise<void>;
  /**
   * Before an account is deleted (README "Deleting an account"): every address the mails of `userId`
   * name, lower case (recipients, and an e-mail change's new address), in `trx`.
   */
  addressesOf(trx: Transaction<IdentityDatabase>, userId: string): Promise<string[]>;
  /**
   * For a deleted account, in `trx`: deletes the reset requests that name one of `addresses` (lower
   * case), in any state. The account's own rows go with its user row (the schema's cascade).
   * @returns how many rows were deleted
   */
  forgetRequests(trx: Transaction<IdentityDatabase>, addresses: string[]): Promise<number>;
  /**
   * For a deleted account: deletes the messages the transport keeps that name one of `addresses` (the
   * .eml files of the outbox directory; services/shared/mail.ts `forget`). Call it before the deletion
   * notice is delivered, which it would delete too.
   * @returns how many messages were deleted
   * @throws the file system's error
   */
  forgetMails(addresses: string[]): Promise<number>;
  /**
   * Delivers a claimed mail now through the transport and marks it sent. A link mail whose link
   * no longer works at `now` (token superseded, used or expired) is cancelled instead, silently.
   * @throws MailDeliveryError when the transport fails: the row stays pending and is retried
   *   after the backoff (or is given up after maxAttempts), so the mail may still arrive later.
   */
  deliver(claimed: ClaimedMail): Promise<void>;
  /** Makes the sender look at the table now (after a commit that queued or held a mail). */
  wake(): void;
  /** Starts the sender: it delivers what is due at once (leftovers of an earlier run), then sleeps until the next due row. */
  start(): void;
  /**
   * Stops the sender: no timer is left, no new delivery starts, and deliveries in flight get
   * closeGraceMs to finish. One still running then is abandoned to its lease (it makes no
   * further query) and may be sent again by the next sender. Idempotent.
   */
  close(): Promise<void>;
}

export interface OutboxOptions {
  db: Kysely<IdentityDatabase>;
  mailer: Mailer;
  /** Builds the message of a row when it is sent (mail.ts accountMailRenderer). */
  render: (mail: AccountMail) => OutgoingMail;
  logger: Logger;
  /** The clock of the token rules (a link's expiry); queue times use the database's clock. */
  now: () => Date;
  timings?: Partial<OutboxTimings>;
  /**
   * The sender's half of a reset request (accounts.ts resolvePasswordResetRequest), run in the
   * transaction that marks the request `done`: answers the reset mail it queued there (claimed
   * by this process, delivered once the transaction commits), or null when no account has the
   * address. An error rolls the transaction back and the request is retried like a failed mail.
   */
  resolveResetRequest: (trx: Transaction<IdentityDatabase>, request: ResetRequest) => Promise<ClaimedMail | null>;
}

/** The mail a row describes, as the renderer takes it (a reset request is no mail). */
function mailOf(row: OutboxRow & { kind: Exclude<OutboxKind, "reset_request"> }): AccountMail {
  const language = mailLanguageOf(null, row.language);
  if (isLinkKind(row.kind)) {
    return { kind: row.kind, to: row.recipient, token: row.token ?? "", ...(row.requested_uri ? { requestedUri: row.requested_uri } : {}), language };
  }
  const at = row.occurred_at ?? row.created_at;
  if (row.kind === "email_changed") return { kind: row.kind, to: row.recipient, at, newAddress: row.new_address ?? "", language };
  return { kind: row.kind, to: row.recipient, at, language };
}

/**
 * Creates the outbox of one identity authority process. Nothing runs until `start`.
 * @param opts the database, the transport, the renderer, the logger, the token clock and optional timings.
 */
export function createOutbox(opts: OutboxOptions): Outbox {
  const { db, mailer, render, logger } = opts;
  const t: OutboxTimings = { ...DEFAULT_OUTBOX_TIMINGS, ...opts.timings };
  // The raw token never outlives its row's pending state (a check constraint says so too).
  // The notice of a deleted account is the last row naming its person: it goes once sent (or given up).
  const queue = createLeasedQueue({
    db,
    table: "identity_outbox",
    logger,
    timings: t,
    handle: deliverClaimed,
    clearOnFinish: { token: null },
    deleteOnFinish: ["account_deleted"],
  });

  /** True when the row's link still works at the token clock's `now`. */
  async function linkAlive(row: OutboxRow): Promise<boolean> {
    if (row.token_id === null || row.token === null) return false;
    const token = await db.selectFrom("identity_user_tokens").select(["used_at", "expires_at"]).where("id", "=", row.token_id).executeTakeFirst();
    return token !== undefined && token.used_at === null && token.expires_at.getTime() > opts.now().getTime();
  }

  /**
   * A claimed reset request: in one transaction, marks it done and lets `resolveResetRequest`
   * queue the reset mail when an account has the address; then delivers that mail. The row
   * itself is left as it was asked (no user, same recipient), whatever was found.
   */
  async function resolveRequest(row: OutboxRow, claimId: string): Promise<void> {
    queue.checkOpen();
    let mail: ClaimedMail | null;
    try {
      mail = await db.transaction().execute(async (trx) => {
        const taken = await queue.finish({ id: row.id, claimId }, "done", { last_error: null }, trx);
        if (!taken) return null; // its lease lapsed and another sender has it
        return opts.resolveResetRequest(trx, {
          email: row.recipient,
          ...(row.requested_uri ? { requestedUri: row.requested_uri } : {}),
          ...(row.language ? { language: row.language } : {}),
        });
      });
    } catch (err) {
      const reason = errorText(err, null);
      await queue.recordFailure(row, claimId, reason, "reset request");
      throw new MailDeliveryError(reason, { cause: err });
    }
    logger.debug({ mailId: row.id }, "reset request handled");
    // A failure here is the reset mail's own: logged, and retried from its row.
    if (mail) await deliverClaimed(mail);
  }

  async function deliverClaimed(claimed: ClaimedMail): Promise<void> {
    const row = await queue.loadClaimed<OutboxRow>(claimed);
    if (!row) {
      logger.debug({ mailId: claimed.id }, "outbox mail no longer ours to send (cancelled, or its lease lapsed)");
      return;
    }
    if (row.kind === "reset_request") {
      await resolveRequest(row, claimed.claimId);
      return;
    }
    queue.checkOpen();
    if (isLinkKind(row.kind) && !(await linkAlive(row))) {
      await queue.finish(claimed, "cancelled");
      logger.info({ mailId: row.id, kind: row.kind }, "outbox mail dropped: its link no longer works");
      return;
    }
    await queue.send(mailer, claimed, row, render(mailOf({ ...row, kind: row.kind })), row.token);
  }

  /** The outbox columns of `mail` (the queue's own columns are set by the queue). */
  function rowOf(mail: QueuedMail) {
    const common = { user_id: mail.userId, kind: mail.kind, recipient: mail.to, language: mail.language };
    if ("token" in mail) {
      return { ...common, token_id: mail.tokenId, token: mail.token, requested_uri: mail.requestedUri ?? null, occurred_at: null, new_address: null };
    }
    return {
      ...common,
      token_id: null,
      token: null,
      requested_uri: null,
      occurred_at: mail.at,
      new_address: mail.kind === "email_changed" ? mail.newAddress : null,
    };
  }

  return {
    enqueue(trx, mail) {
      return queue.insertClaimed(trx, rowOf(mail));
    },

    async hold(trx, mail) {
      await trx
        .insertInto("identity_outbox")
        .values({
          ...rowOf(mail),
          id: randomUUID(),
          status: "pending",
          attempts: 0,
          next_attempt_at: dbNowPlus(t.registrationHoldMs),
          claimed_by: null,
          claimed_until: null,
          last_error: null,
          created_at: sql<Date>`now()`,
          finished_at: null,
        })
        .execute();
    },

    async claimWaiting(trx, userId, kind, requestedUri, now, language) {
      await sql`select pg_advisory_xact_lock(hashtextextended(${`identity_outbox:${kind}:${userId}`}, 0))`.execute(trx);
      const claimId = randomUUID();
      const claimed = await sql<{ id: string }>`
        update identity_outbox
           set claimed_by = ${claimId}, claimed_until = ${dbNowPlus(t.leaseMs)}, attempts = attempts + 1,
               next_attempt_at = now(), requested_uri = ${requestedUri ?? null},
               language = coalesce(${language ?? null}::text, language)
         where id = (select o.id from identity_outbox o
                       join identity_user_tokens k on k.id = o.token_id
                      where o.user_id = ${userId} and o.kind = ${kind} and o.status = 'pending'
                        and (o.claimed_until is null or o.claimed_until <= now())
                        and k.used_at is null and k.expires_at > ${now}
                      order by o.created_at desc
                      limit 1
                      for update of o skip locked)
        returning id`.execute(trx);
      const id = claimed.rows[0]?.id;
      if (id) return { id, claimId };
      const sending = await trx
        .selectFrom("identity_outbox")
        .select("id")
        .where("user_id", "=", userId)
        .where("kind", "=", kind)
        .where("status", "=", "pending")
        .where("claimed_until", ">", sql<Date>`now()`)
        .executeTakeFirst();
      return sending ? "in_flight" : null;
    },

    async cancelPending(trx, userId, kind) {
      let query = trx
        .updateTable("identity_outbox")
        .set({ status: "cancelled", token: null, claimed_by: null, claimed_until: null, finished_at: sql<Date>`now()` })
        .where("user_id", "=", userId)
        .where("status", "=", "pending")
        .where((eb) => eb.or([eb("claimed_until", "is", null), eb("claimed_until", "<=", sql<Date>`now()`)]));
      query = kind ? query.where("kind", "=", kind) : query.where("kind", "in", LINK_KINDS);
      await query.execute();
    },

    async requestReset(request) {
      await db
        .insertInto("identity_outbox")
        .values({
          id: randomUUID(),
          user_id: null,
          token_id: null,
          kind: "reset_request",
          recipient: request.email,
          token: null,
          requested_uri: request.requestedUri ?? null,
          status: "pending",
          attempts: 0,
          next_attempt_at: sql<Date>`now()`,
          claimed_by: null,
          claimed_until: null,
          last_error: null,
          created_at: sql<Date>`now()`,
          finished_at: null,
          occurred_at: null,
          new_address: null,
          language: request.language ?? null,
        })
        .execute();
      queue.wake();
    },

    async addressesOf(trx, userId) {
      const user = await trx.selectFrom("identity_users").select("user_name").where("id", "=", userId).executeTakeFirst();
      const rows = await trx.selectFrom("identity_outbox").select(["recipient", "new_address"]).where("user_id", "=", userId).execute();
      const named = [user?.user_name, ...rows.flatMap((row) => [row.recipient, row.new_address])];
      return [...new Set(named.filter((a): a is string => !!a).map((a) => a.trim().toLowerCase()))];
    },

    async forgetRequests(trx, addresses) {
      if (addresses.length === 0) return 0;
      const result = await trx
        .deleteFrom("identity_outbox")
        .where("kind", "=", "reset_request")
        // Requests keep the address normalised (accounts.ts requestPasswordReset), as `addresses` are.
        .where("recipient", "in", addresses)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    forgetMails(addresses) {
      return mailer.forget(addresses);
    },

    deliver(claimed) {
      return queue.deliver(claimed);
    },

    wake: queue.wake,
    start: queue.start,
    close: queue.close,
  };
}
