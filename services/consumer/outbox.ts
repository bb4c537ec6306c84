// The consumer API's mail outbox (services/consumer/README.md "Mail"): a mail is a row of consumer_outbox,
// written in the same transaction as the change it tells of (a dispute's decision), and sent by the
// shared queue engine (services/shared/outbox.ts: claims with a lease, backoff, retries, purge), so a
// crash can delay the mail but never lose it, and processes sharing the database never send it twice.
import type { Kysely, Selectable, Transaction } from "kysely";
import type { Logger } from "pino";
import { DEFAULT_QUEUE_TIMINGS, createLeasedQueue } from "../shared/outbox.ts";
import type { ClaimedRow, QueueTimings } from "../shared/outbox.ts";
import type { Mailer, OutgoingMail } from "../shared/mail.ts";
import type { ConsumerMail } from "./mail.ts";
import type { ConsumerDatabase, ConsumerOutboxTable } from "./schema/tables.ts";

type OutboxRow = Selectable<ConsumerOutboxTable>;

export interface ConsumerOutbox {
  /** Queues `mail` in `trx`, claimed by this process: call `deliver` once `trx` has committed. */
  enqueue(trx: Transaction<ConsumerDatabase>, mail: ConsumerMail): Promise<ClaimedRow>;
  /**
   * Sends a claimed mail now and marks it sent.
   * @throws MailDeliveryError when the transport fails (the row is retried after the backoff) or the outbox is closed.
   */
  deliver(claimed: ClaimedRow): Promise<void>;
  /**
   * For a deleted profile: deletes the messages the transport keeps that name one of `addresses` (the
   * .eml files of the outbox directory; services/shared/mail.ts `forget`).
   * @returns how many were deleted
   * @throws the file system's error
   */
  forgetMails(addresses: string[]): Promise<number>;
  /** Starts the sender (it sends leftovers of an earlier run at once). */
  start(): void;
  /** Stops the sender; deliveries in flight get the grace of the timings. Idempotent. */
  close(): Promise<void>;
}

export interface ConsumerOutboxOptions {
  db: Kysely<ConsumerDatabase>;
  mailer: Mailer;
  /** Builds the message of a row when it is sent (mail.ts consumerMailRenderer). */
  render: (mail: ConsumerMail) => OutgoingMail;
  logger: Logger;
  timings?: Partial<QueueTimings>;
}

/** Creates the consumer API's outbox. Nothing runs until `start`. */
export function createConsumerOutbox(opts: ConsumerOutboxOptions): ConsumerOutbox {
  const { db, mailer, render, logger } = opts;
  const queue = createLeasedQueue({ db, table: "consumer_outbox", logger, timings: { ...DEFAULT_QUEUE_TIMINGS, ...opts.timings }, handle: deliverClaimed });

  async function deliverClaimed(claimed: ClaimedRow): Promise<void> {
    const row = await queue.loadClaimed<OutboxRow>(claimed);
    if (!row) return; // its lease lapsed and another sender has it
    const mail: ConsumerMail = {
      kind: row.kind,
      to: row.recipient,
      resultId: row.result_id,
      decision: row.decision,
      responseComment: row.response_comment,
      publicName: row.public_name,
      collectedAt: row.collected_at,
      language: row.language,
    };
    await queue.send(mailer, claimed, row, render(mail));
  }

  return {
    enqueue(trx, mail) {
      return queue.insertClaimed(trx, {
        kind: mail.kind,
        recipient: mail.to,
        result_id: mail.resultId,
        decision: mail.decision,
        response_comment: mail.responseComment,
        public_name: mail.publicName,
        collected_at: mail.collectedAt,
        language: mail.language ?? "en",
      });
    },
    deliver: queue.deliver,
    forgetMails: (addresses) => mailer.forget(addresses),
    start: queue.start,
    close: queue.close,
  };
}
