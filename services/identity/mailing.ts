// Queueing and delivering the account mails (services/identity/README.md "Mail outbox"): every
// mail is queued in the outbox in the transaction of the change that causes it, then delivered at
// once by this process (the confirmation mail of sendconfirmationemail right after the call
// answered): the link mails, and the notices that tell an address of a password change or reset,
// or of its account moving to another address.
import type { Transaction } from "kysely";
import type { MailLanguage } from "../shared/language.ts";
import { MailDeliveryError } from "./errors.ts";
import { newLinkToken } from "./links.ts";
import type { ClaimedMail } from "./outbox.ts";
import type { IdentityDatabase, TokenPurpose, UserRow } from "./schema/tables.ts";
import type { AccountsContext } from "./users.ts";

/**
 * In `trx`: creates a single-use token for `user` and `purpose` (links.ts newLinkToken: older
 * links of the purpose end, their pending mails cancelled) and queues the mail carrying it.
 * `hold`: the mail waits for an explicit request (registration); otherwise it is claimed by
 * this process, to be delivered once `trx` commits.
 */
export async function queueTokenMail(
  ctx: AccountsContext,
  trx: Transaction<IdentityDatabase>,
  user: Pick<UserRow, "id" | "user_name">,
  purpose: TokenPurpose,
  options: { now: Date; requestedUri?: string | undefined; hold?: boolean; language: MailLanguage },
): Promise<ClaimedMail | null> {
  const { token, tokenId } = await newLinkToken(ctx, trx, user, purpose, options.now);
  const mail = {
    kind: purpose,
    to: user.user_name,
    token,
    userId: user.id,
    tokenId,
    language: options.language,
    ...(options.requestedUri ? { requestedUri: options.requestedUri } : {}),
  };
  if (options.hold) {
    await ctx.outbox.hold(trx, mail);
    return null;
  }
  return ctx.outbox.enqueue(trx, mail);
}

/** queueTokenMail for a mail this process delivers right after the commit. */
export async function queueMailNow(
  ctx: AccountsContext,
  trx: Transaction<IdentityDatabase>,
  user: Pick<UserRow, "id" | "user_name">,
  purpose: TokenPurpose,
  now: Date,
  requestedUri: string | undefined,
  language: MailLanguage,
): Promise<ClaimedMail> {
  return (await queueTokenMail(ctx, trx, user, purpose, { now, requestedUri, language })) as ClaimedMail;
}

/**
 * Delivers mails this process queued and claimed, once their transaction committed, for a
 * change that stands whether or not they go out now: a transport failure is logged (the
 * outbox logs the row and retries it), never thrown. Other errors (the database) are thrown.
 */
export async function deliverAfterChange(ctx: AccountsContext, claimed: ClaimedMail[], userId: string, change: string): Promise<void> {
  for (const mail of claimed) {
    try {
      await ctx.outbox.deliver(mail);
    } catch (err) {
      if (!(err instanceof MailDeliveryError)) throw err;
      ctx.logger.warn({ err: { type: err.name, message: err.message }, userId, mailId: mail.id }, `${change}; a mail about it failed and stays queued for a retry`);
    }
  }
}

/**
 * Starts delivering a mail this process queued and claimed, once its transaction committed, and
 * returns at once: the caller answers while the mail is sent (sendconfirmationemail, README
 * "Sending the confirmation mail"). The outbox tracks the delivery, so close() waits for it. A transport failure is
 * logged by the outbox, which retries the row; any other failure (the database) is logged here,
 * and the row's lease frees it for the sender. The row stays claimed until then, so no other
 * request queues a second mail meanwhile.
 */
export function deliverAfterAnswer(ctx: AccountsContext, claimed: ClaimedMail): void {
  ctx.outbox.deliver(claimed).catch((err: unknown) => {
    const error = { type: (err as Error)?.name, message: (err as Error)?.message };
    if (err instanceof MailDeliveryError) ctx.logger.warn({ err: error, mailId: claimed.id }, "a mail queued by a request failed and stays queued for a retry");
    else ctx.logger.error({ err: error, mailId: claimed.id }, "a mail queued by a request could not be sent; its lease frees it for the sender");
  });
}
