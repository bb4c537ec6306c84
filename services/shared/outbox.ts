// A leased queue of mails in a database table (docs/architecture/README.md §2 "mail"): the engine under the
// identity authority's outbox (services/identity/outbox.ts) and the consumer API's
// (services/consumer/outbox.ts). A service writes a row in the same transaction as the change that
// causes it, so a crash can delay a mail but never lose it. A sender claims due rows one at a time
// with a lease (`for update skip locked`), so that processes sharing one database never send the
// same row twice; a failed attempt waits with exponential backoff and is given up after
// maxAttempts; finished rows are purged after keepFinishedMs, except the kinds a queue deletes as
// soon as they finish (deleteOnFinish).
//
// Queue times (backoff, leases) are the database's clock, the one clock every process sharing the
// database agrees on.
//
// Every queue table has these columns: id (uuid), kind, status ('pending' until a final status),
// attempts, next_attempt_at, claimed_by, claimed_until, last_error, created_at, finished_at.
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import type { ColumnType, Kysely, RawBuilder } from "kysely";
import type { Logger } from "pino";
import { MailDeliveryError } from "./errors.ts";
import type { Mailer, OutgoingMail } from "./mail.ts";

/** The columns every queue table has, as Kysely row types declare them; `Status` lists the table's statuses ('pending' first). */
export interface QueueTableColumns<Status extends string> {
  id: string; // uuid
  status: Status;
  /** Delivery attempts started, including one cut short by a crash. */
  attempts: number;
  /** Not sent before this time (a hold or a retry's backoff). */
  next_attempt_at: Date;
  /** The claim of the sender delivering it now, with its lease; a lapsed lease frees the row. */
  claimed_by: string | null;
  claimed_until: Date | null;
  /** The last transport error's message (never a token). */
  last_error: string | null;
  created_at: ColumnType<Date, Date, never>;
  /** When it was sent, cancelled or given up. */
  finished_at: Date | null;
}

/** How a queue paces itself; every value in milliseconds except maxAttempts. */
export interface QueueTimings {
  /** Wait after the first failed attempt; doubled after each further failure, up to retryMaxMs. Default 30 s. */
  retryBaseMs: number;
  /** Longest wait between two attempts. Default 30 min. */
  retryMaxMs: number;
  /** Attempts before a row is given up (status 'failed', logged at error). Default 8 (about an hour with the defaults). */
  maxAttempts: number;
  /** A claim's lease: the row of a sender that died mid-send is free again after this. Default 2 min. */
  leaseMs: number;
  /** Longest sleep of the sender between two looks at the table (rows queued by other processes, lapsed leases). Default 30 s. */
  pollMs: number;
  /** Finished rows (any status but 'pending') are deleted this long after they were queued. Default 7 days. */
  keepFinishedMs: number;
  /** How long close() waits for deliveries in flight before it abandons them to their lease. Default 5 s. */
  closeGraceMs: number;
}

export const DEFAULT_QUEUE_TIMINGS: QueueTimings = {
  retryBaseMs: 30_000,
  retryMaxMs: 30 * 60_000,
  maxAttempts: 8,
  leaseMs: 2 * 60_000,
  pollMs: 30_000,
  keepFinishedMs: 7 * 24 * 3600_000,
  closeGraceMs: 5_000,
};

/** The wait before attempt `attempts + 1`, after `attempts` failed ones: base, 2 base, 4 base, …, at most max. */
export function retryDelayMs(attempts: number, timings: Pick<QueueTimings, "retryBaseMs" | "retryMaxMs">): number {
  return Math.min(timings.retryBaseMs * 2 ** Math.max(0, attempts - 1), timings.retryMaxMs);
}

/** now() + ms on the database's clock. */
export function dbNowPlus(ms: number): RawBuilder<Date> {
  return sql<Date>`now() + ${Math.round(ms)}::float8 * interval '1 millisecond'`;
}

/** An error's message for the log and the row, at most 500 characters, with `secret` (a link's token) taken out should it ever be echoed. */
export function errorText(err: unknown, secret: string | null): string {
  let text = err instanceof Error ? err.message : String(err);
  if (secret) text = text.replaceAll(secret, "[redacted]").replaceAll(encodeURIComponent(secret), "[redacted]");
  return text.slice(0, 500);
}

/** A row this process has claimed and must handle (after the transaction that queued it committed). */
export interface ClaimedRow {
  id: string;
  claimId: string;
}

/** What recordFailure needs of a row. */
export interface AttemptedRow {
  id: string;
  kind: string;
  attempts: number;
}

export interface LeasedQueueOptions {
  /** The database holding `table` (any schema: the queue uses only the common columns). */
  db: Kysely<any>;
  table: string;
  logger: Logger;
  timings: QueueTimings;
  /**
   * Handles a claimed row: delivers it (then `finish` it 'sent'), or cancels it. A transport
   * failure is recorded with `recordFailure` and thrown as MailDeliveryError; anything else it
   * throws is logged as the database's failure, and the row's lease frees it later.
   */
  handle: (claimed: ClaimedRow) => Promise<void>;
  /** Columns set to null whenever a row finishes or is given up (the identity outbox's raw token). */
  clearOnFinish?: Record<string, null>;
  /**
   * Kinds whose rows are deleted instead of kept once they finish (sent, cancelled, done) or are given
   * up: a mail that must not outlive its sending (the notice of a deleted account names a person
   * nothing else of ours still names).
   */
  deleteOnFinish?: readonly string[];
}

export interface LeasedQueue {
  /**
   * Inserts `values` (every column but the queue's own) in `trx`, due now and already claimed by
   * this process: call `deliver` once `trx` has committed. Should this process die first, the
   * lease lapses and any sender handles it.
   */
  insertClaimed(trx: Kysely<any>, values: Record<string, unknown>): Promise<ClaimedRow>;
  /**
   * Handles a claimed row now (`handle`), as a delivery close() waits for.
   * @throws MailDeliveryError when the queue is closed (the row stays queued for the next start) or the transport fails.
   */
  deliver(claimed: ClaimedRow): Promise<void>;
  /**
   * Marks a claimed pending row finished with `status` ('sent', 'cancelled', …), clearing its claim
   * and the clearOnFinish columns, with `extra` columns (`last_error: null` for a success), through `executor` (a transaction;
   * default the database). Answers false when the row was no longer this claim's (cancelled, or its
   * lease lapsed and another sender took it).
   */
  finish(claimed: ClaimedRow, status: string, extra?: Record<string, unknown>, executor?: Kysely<any>): Promise<boolean>;
  /**
   * Records a failed attempt at `row` with `reason`: it waits for the backoff, or is given up after
   * maxAttempts (status 'failed'). Logs `what` ("mail delivery", "reset request").
   */
  recordFailure(row: AttemptedRow, claimId: string, reason: string, what: string): Promise<void>;
  /** The claimed row, still pending and still this claim's; undefined when its lease lapsed and another sender took it (or it was cancelled). */
  loadClaimed<Row>(claimed: ClaimedRow): Promise<Row | undefined>;
  /**
   * Sends `mail`, the message of the claimed `row`, through `mailer` and marks the row sent; on a
   * transport failure records it (recordFailure, with `secret` redacted from the reason) and throws.
   * @throws MailDeliveryError when the transport fails or the queue was closed meanwhile.
   */
  send(mailer: Mailer, claimed: ClaimedRow, row: AttemptedRow, mail: OutgoingMail, secret?: string | null): Promise<void>;
  /** @throws MailDeliveryError once close() has abandoned the deliveries still running: they make no further query. */
  checkOpen(): void;
  /** True once close() gave up waiting for deliveries in flight. */
  readonly abandoned: boolean;
  /** Makes the sender look at the table now (after a commit that queued a row). */
  wake(): void;
  /** Starts the sender: it handles what is due at once (leftovers of an earlier run), then sleeps until the next due row. */
  start(): void;
  /**
   * Stops the sender: no timer is left, no new delivery starts, and deliveries in flight get
   * closeGraceMs to finish. One still running then is abandoned to its lease (it makes no further
   * query) and may be sent again by the next sender. Idempotent.
   */
  close(): Promise<void>;
}

/** Creates the queue engine of one process over `table`. Nothing runs until `start`. */
export function createLeasedQueue(opts: LeasedQueueOptions): LeasedQueue {
  const { db, table, logger, timings: t } = opts;
  const clear = opts.clearOnFinish ?? {};
  const forgotten = opts.deleteOnFinish ?? [];

  /** Deletes the claimed pending row when its kind is one of deleteOnFinish; true when it did. */
  async function deleteIfForgotten(id: string, claimId: string, executor: Kysely<any>): Promise<boolean> {
    if (forgotten.length === 0) return false;
    const result = await executor
      .deleteFrom(table)
      .where("id", "=", id)
      .where("claimed_by", "=", claimId)
      .where("status", "=", "pending")
      .where("kind", "in", forgotten)
      .executeTakeFirst();
    return result.numDeletedRows === 1n;
  }
  let started = false;
  let closed = false;
  let abandoned = false;
  let timer: NodeJS.Timeout | undefined;
  let loop: Promise<void> | undefined;
  let loopAgain = false;
  let lastPurge = 0;
  const inFlight = new Set<Promise<unknown>>();
  let closing: Promise<void> | undefined;

  function track<T>(work: Promise<T>): Promise<T> {
    inFlight.add(work);
    const done = () => inFlight.delete(work);
    work.then(done, done);
    return work;
  }

  function checkOpen(): void {
    if (abandoned) throw new MailDeliveryError("The mail outbox was closed while this mail was being sent.");
  }

  async function finish(claimed: ClaimedRow, status: string, extra: Record<string, unknown> = {}, executor: Kysely<any> = db): Promise<boolean> {
    checkOpen();
    if (await deleteIfForgotten(claimed.id, claimed.claimId, executor)) return true;
    const result = await executor
      .updateTable(table)
      .set({ ...clear, status, claimed_by: null, claimed_until: null, finished_at: sql<Date>`now()`, ...extra })
      .where("id", "=", claimed.id)
      .where("claimed_by", "=", claimed.claimId)
      .where("status", "=", "pending")
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  }

  async function recordFailure(row: AttemptedRow, claimId: string, reason: string, what: string): Promise<void> {
    checkOpen();
    const giveUp = row.attempts >= t.maxAttempts;
    const retryInMs = retryDelayMs(row.attempts, t);
    if (giveUp && (await deleteIfForgotten(row.id, claimId, db))) {
      logger.error({ mailId: row.id, kind: row.kind, attempts: row.attempts, err: reason }, `${what} failed; giving up (the row is deleted)`);
      return;
    }
    await db
      .updateTable(table)
      .set(
        giveUp
          ? { ...clear, status: "failed", claimed_by: null, claimed_until: null, last_error: reason, finished_at: sql<Date>`now()` }
          : { next_attempt_at: dbNowPlus(retryInMs), claimed_by: null, claimed_until: null, last_error: reason },
      )
      .where("id", "=", row.id)
      .where("claimed_by", "=", claimId)
      .where("status", "=", "pending")
      .execute();
    if (giveUp) {
      logger.error({ mailId: row.id, kind: row.kind, attempts: row.attempts, err: reason }, `${what} failed; giving up`);
    } else {
      logger.warn({ mailId: row.id, kind: row.kind, attempts: row.attempts, retryInMs, err: reason }, `${what} failed; will retry`);
      schedule(retryInMs);
    }
  }

  async function loadClaimed<Row>(claimed: ClaimedRow): Promise<Row | undefined> {
    checkOpen();
    return (await db
      .selectFrom(table)
      .selectAll()
      .where("id", "=", claimed.id)
      .where("claimed_by", "=", claimed.claimId)
      .where("status", "=", "pending")
      .executeTakeFirst()) as Row | undefined;
  }

  async function send(mailer: Mailer, claimed: ClaimedRow, row: AttemptedRow, mail: OutgoingMail, secret: string | null = null): Promise<void> {
    checkOpen();
    try {
      await mailer.send(mail);
    } catch (err) {
      const reason = errorText(err, secret);
      await recordFailure(row, claimed.claimId, reason, "mail delivery");
      throw err instanceof MailDeliveryError ? err : new MailDeliveryError(reason, { cause: err });
    }
    if (abandoned) {
      logger.warn({ mailId: row.id }, "mail sent after the outbox closed; it may be sent again");
      return;
    }
    if (!(await finish(claimed, "sent", { last_error: null }))) logger.warn({ mailId: row.id }, "mail sent, but its row was cancelled or reclaimed meanwhile");
  }

  /**
   * Claims one due row: pending, due, and not claimed by a live lease. `for update skip locked`
   * makes concurrent senders pass over a row another one is claiming; the lease keeps it theirs.
   */
  async function claimDue(): Promise<ClaimedRow | null> {
    const claimId = randomUUID();
    const claimed = await sql<{ id: string }>`
      update ${sql.table(table)}
         set claimed_by = ${claimId}, claimed_until = ${dbNowPlus(t.leaseMs)}, attempts = attempts + 1
       where id = (select id from ${sql.table(table)}
                    where status = 'pending' and next_attempt_at <= now()
                      and (claimed_until is null or claimed_until <= now())
                    order by next_attempt_at
                    limit 1
                    for update skip locked)
      returning id`.execute(db);
    const id = claimed.rows[0]?.id;
    return id ? { id, claimId } : null;
  }

  /** Milliseconds until the next pending row is due (or its lease lapses); null when none is pending. */
  async function msUntilNextDue(): Promise<number | null> {
    const { rows } = await sql<{ due: Date | null; now: Date }>`
      select min(greatest(next_attempt_at, coalesce(claimed_until, next_attempt_at))) as due, now() as now
        from ${sql.table(table)}
       where status = 'pending'`.execute(db);
    const row = rows[0];
    if (!row?.due) return null;
    return Math.max(0, row.due.getTime() - row.now.getTime());
  }

  async function purgeFinished(): Promise<void> {
    if (Date.now() - lastPurge < 3600_000) return;
    lastPurge = Date.now();
    const result = await db
      .deleteFrom(table)
      .where("status", "!=", "pending")
      .where("created_at", "<", sql<Date>`now() - ${Math.round(t.keepFinishedMs)}::float8 * interval '1 millisecond'`)
      .executeTakeFirst();
    if (result.numDeletedRows > 0n) logger.debug({ table, deleted: Number(result.numDeletedRows) }, "outbox: old finished rows deleted");
  }

  /** Handles every due row, one at a time, then sleeps until the next one is due (pollMs at most). */
  async function runOnce(): Promise<void> {
    let next: number | null = null;
    try {
      for (;;) {
        if (closed) return;
        const claimed = await claimDue();
        if (!claimed) break;
        if (closed) {
          if (abandoned) return;
          // Claimed just as close() began: hand it back rather than leave it to the lease.
          await db
            .updateTable(table)
            .set({ claimed_by: null, claimed_until: null, attempts: sql<number>`attempts - 1` })
            .where("id", "=", claimed.id)
            .where("claimed_by", "=", claimed.claimId)
            .execute();
          return;
        }
        await opts.handle(claimed).catch((err: unknown) => {
          // A transport failure is logged and rescheduled by handle; anything else is the database's.
          if (!(err instanceof MailDeliveryError)) logger.error({ mailId: claimed.id, err: errorText(err, null) }, "outbox sender: could not record a delivery");
        });
      }
      if (closed) return;
      await purgeFinished();
      next = await msUntilNextDue();
    } catch (err) {
      if (closed) return;
      logger.error({ err: errorText(err, null) }, "outbox sender: the database did not answer; trying again later");
    }
    schedule(next ?? t.pollMs);
  }

  function schedule(ms: number): void {
    if (closed || !started) return;
    clearTimeout(timer);
    timer = setTimeout(wake, Math.min(Math.max(ms, 0), t.pollMs));
    // The sender alone never keeps the process alive; close() clears the timer anyway.
    timer.unref();
  }

  function wake(): void {
    if (closed || !started) return;
    if (loop) {
      loopAgain = true;
      return;
    }
    clearTimeout(timer);
    timer = undefined;
    loop = track(runOnce()).finally(() => {
      loop = undefined;
      if (loopAgain) {
        loopAgain = false;
        wake();
      }
    });
  }

  return {
    async insertClaimed(trx, values) {
      const claimId = randomUUID();
      const id = randomUUID();
      await trx
        .insertInto(table)
        .values({
          ...values,
          id,
          status: "pending",
          attempts: 1,
          next_attempt_at: sql<Date>`now()`,
          claimed_by: claimId,
          claimed_until: dbNowPlus(t.leaseMs),
          last_error: null,
          created_at: sql<Date>`now()`,
          finished_at: null,
        })
        .execute();
      return { id, claimId };
    },

    deliver(claimed) {
      if (closed) return Promise.reject(new MailDeliveryError("The mail outbox is closed; the mail stays queued for the next start."));
      return track(opts.handle(claimed));
    },

    finish,
    recordFailure,
    loadClaimed,
    send,
    checkOpen,
    get abandoned() {
      return abandoned;
    },
    wake,

    start() {
      if (started || closed) return;
      started = true;
      wake();
    },

    close() {
      closing ??= (async () => {
        closed = true;
        clearTimeout(timer);
        timer = undefined;
        if (inFlight.size > 0) {
          let graceTimer: NodeJS.Timeout | undefined;
          const grace = new Promise<"timeout">((resolve) => {
            graceTimer = setTimeout(() => resolve("timeout"), t.closeGraceMs);
          });
          const outcome = await Promise.race([Promise.allSettled([...inFlight]).then(() => "done" as const), grace]);
          clearTimeout(graceTimer);
          if (outcome === "timeout") {
            abandoned = true;
            logger.warn({ table, deliveries: inFlight.size }, "outbox closed with mail deliveries still running; their leases will free them");
          }
        }
      })();
      return closing;
    },
  };
}
