// Accounts of the identity authority (docs/product/calls.md §7 identity table): registration,
// sign-in, e-mail confirmation, resets, invitations and the signed-in user's own changes. Plain
// values in, plain values out; http.ts does the HTTP. Rule failures throw AccountError, which
// http.ts maps to 400. The concerns they share live beside it: users.ts (the users and their
// addresses), passwords.ts (the password rule and hashing), links.ts (the single-use mail tokens),
// mailing.ts (queueing and delivering the mails) and language.ts (the mails' language).
import { randomUUID } from "node:crypto";
import type { Transaction } from "kysely";
import { z } from "zod";
import { AccountError, describe } from "./errors.ts";
import type { IdentityErrorItem } from "./errors.ts";
import { mailLanguageOf } from "../shared/language.ts";
import type { MailLanguage } from "../shared/language.ts";
import { keepLanguage } from "./language.ts";
import { consumeToken, endLinks, findTokenOwner } from "./links.ts";
import { deliverAfterAnswer, deliverAfterChange, queueMailNow, queueTokenMail } from "./mailing.ts";
import type { ClaimedMail, QueuedNotice } from "./outbox.ts";
import { burnPasswordCheck, hashPassword, passwordErrors, passwordMatches } from "./passwords.ts";
import type { IdentityDatabase, TokenPurpose, UserRow } from "./schema/tables.ts";
import { findUserByName, isUniqueViolation, isValidEmail, normalizeEmail, toPublic } from "./users.ts";
import type { AccountsContext, PublicUser } from "./users.ts";

export type { AccountsContext, PublicUser };

// ---------------------------------------------------------------- lookups

/** The user with this id, or null. */
export async function findUserById(ctx: AccountsContext, id: string): Promise<PublicUser | null> {
  if (!z.uuid().safeParse(id).success) return null;
  const user = await ctx.db.selectFrom("identity_users").selectAll().where("id", "=", id).executeTakeFirst();
  return user ? toPublic(user) : null;
}

/** docs/product/calls.md §7 isavailable: true when no account uses `email` (compared normalised). */
export async function isUserNameAvailable(ctx: AccountsContext, email: string): Promise<boolean> {
  return (await findUserByName(ctx.db, normalizeEmail(email))) === undefined;
}

/** docs/product/calls.md §7 validaterequestedemail: `valid` is the address's syntax, `available` as isavailable. */
export async function validateRequestedEmail(ctx: AccountsContext, email: string): Promise<{ available: boolean; valid: boolean }> {
  const normalized = normalizeEmail(email);
  return { available: await isUserNameAvailable(ctx, normalized), valid: isValidEmail(normalized) };
}

// ---------------------------------------------------------------- flows

/**
 * docs/product/calls.md §7 register: creates an account with e-mail unconfirmed and, in the same transaction,
 * its confirmation mail (24 h link) in `language` (the request's, kept with the account; null: English), held in the outbox for `registrationHoldMs` (2 min): the
 * client's sendconfirmationemail call right after registering (README "Mail outbox") sends it at once
 * instead of a second one; without the call (the client crashed) it goes out when the hold ends.
 * @throws AccountError with every failing rule: InvalidEmail, DuplicateUserName, Password*.
 */
export async function registerUser(ctx: AccountsContext, input: { userName: string; password: string }, language: MailLanguage | null = null): Promise<PublicUser> {
  const userName = normalizeEmail(input.userName);
  const errors: IdentityErrorItem[] = [];
  if (!isValidEmail(userName)) errors.push(describe.invalidEmail(input.userName.trim()));
  else if (!(await isUserNameAvailable(ctx, userName))) errors.push(describe.duplicateUserName(userName));
  errors.push(...passwordErrors(input.password));
  if (errors.length > 0) throw new AccountError(errors);

  const passwordHash = await hashPassword(input.password);
  const now = ctx.now();
  const user: UserRow = {
    id: randomUUID(),
    user_name: userName,
    password_hash: passwordHash,
    email_confirmed: false,
    created_at: now,
    updated_at: now,
    language,
  };
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await trx.insertInto("identity_users").values(user).execute();
      await queueTokenMail(ctx, trx, user, "confirm_email", { now, hold: true, language: mailLanguageOf(language, null) });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new AccountError([describe.duplicateUserName(userName)]);
    throw err;
  }
  ctx.outbox.wake();
  return toPublic(user);
}

/**
 * The password grant's check. Null for an unknown user, an account without a password yet,
 * or a wrong password (the caller answers invalid_grant for all three alike). An unconfirmed
 * e-mail may still log in: the app then shows /checkconfirmation (docs/product/screens.md §2).
 * A sign-in keeps the request's `language` with the account (null: the request said none).
 */
export async function authenticateUser(ctx: AccountsContext, userName: string, password: string, language: MailLanguage | null = null): Promise<PublicUser | null> {
  const user = await findUserByName(ctx.db, normalizeEmail(userName));
  if (!user) {
    await burnPasswordCheck(password);
    return null;
  }
  if (!(await passwordMatches(user, password))) return null;
  await keepLanguage(ctx.db, user.id, language);
  return toPublic(user);
}

/**
 * docs/product/calls.md §7 sendconfirmationemail: queues a confirmation link (24 h) for an existing
 * account whose e-mail is not confirmed yet, and returns; the mail is sent after the caller has
 * answered (README "Sending the confirmation mail"). Nothing is mailed for unknown or confirmed addresses, so the
 * answer discloses nothing. A confirmation mail still waiting in the outbox with a working link (the
 * one registration holds, or one waiting for a retry) is sent instead of a second mail, so
 * registering and then asking for the mail yields one mail; otherwise a new link supersedes the
 * older ones. Nothing new is queued while such a mail is being sent: requests for one account
 * decide one after the other, in any process (outbox.ts claimWaiting), and a mail's claim lasts
 * until it was sent or its lease lapsed.
 *
 * What the time of the answer tells (README "Sending the confirmation mail"): every address takes
 * one transaction with the same steps: the lookup, the advisory lock (of the account, or of an id
 * no row has), the look for a waiting mail, and the ending of older links (on that id, nothing).
 * Only an unconfirmed account with no mail waiting then writes its new token and outbox row, two
 * inserts; no address waits for the mail transport any more, which was the difference that told
 * an unconfirmed account apart.
 *
 * `requestedUri` may replace the link's page (mail.ts checks it). The mail is in `language` (the
 * request's), else the account's; anyone may ask, so the request's language is not kept.
 * @throws the database's error when the mail cannot be queued (the caller answers 500); never
 *   MailDeliveryError: a transport failure after the answer is retried from the outbox.
 */
export async function sendEmailConfirmation(ctx: AccountsContext, email: string, requestedUri?: string, language: MailLanguage | null = null): Promise<void> {
  const userName = normalizeEmail(email);
  const now = ctx.now();
  const claimed = await ctx.db.transaction().execute(async (trx) => {
    const user = await findUserByName(trx, userName);
    const owner = user && !user.email_confirmed ? user : null;
    // An address with no unconfirmed account takes the same steps on an id no row has.
    const userId = owner?.id ?? randomUUID();
    const waiting = await ctx.outbox.claimWaiting(trx, userId, "confirm_email", requestedUri, now, language);
    if (waiting === "in_flight") return null;
    if (waiting) return waiting;
    if (!owner) {
      await endLinks(ctx, trx, userId, "confirm_email");
      return null;
    }
    return queueMailNow(ctx, trx, owner, "confirm_email", now, requestedUri, mailLanguageOf(language, owner.language));
  });
  if (claimed) deliverAfterAnswer(ctx, claimed);
}

/**
 * docs/product/calls.md §7 confirmemail: marks the e-mail confirmed, and keeps the request's `language`
 * with the account (the link proves the holder).
 * @throws AccountError InvalidToken for a wrong, expired (24 h), superseded or reused token.
 */
export async function confirmEmail(ctx: AccountsContext, email: string, token: string, language: MailLanguage | null = null): Promise<void> {
  const now = ctx.now();
  const found = await findTokenOwner(ctx.db, email, "confirm_email", token, now);
  if (!found) throw new AccountError([describe.invalidToken()]);
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await consumeToken(trx, found.tokenId, now))) throw new AccountError([describe.invalidToken()]);
    await trx.updateTable("identity_users").set({ email_confirmed: true, updated_at: now }).where("id", "=", found.user.id).execute();
    await keepLanguage(trx, found.user.id, language);
    // A confirmation mail still queued (a retry) would only carry a dead link now.
    await ctx.outbox.cancelPending(trx, found.user.id, "confirm_email");
  });
}

/**
 * requestpasswordchange, the request path: queues a reset request for `email` (normalised) and
 * returns. It does the same work for every address, known or not: one insert into the outbox,
 * no lookup, no token, no mail, so neither the answer nor its time discloses whether an account
 * has the address (README "Reset requests", docs/decisions/0011-reset-requests-queued.md). The
 * sender then resolves the request (resolvePasswordResetRequest), normally within milliseconds.
 * The request keeps its `language` for the mail (anyone may ask: it is not kept with the account).
 * @throws only database errors (the caller answers 500); never MailDeliveryError.
 */
export async function requestPasswordReset(ctx: AccountsContext, email: string, requestedUri?: string, language: MailLanguage | null = null): Promise<void> {
  await ctx.outbox.requestReset({ email: normalizeEmail(email), ...(requestedUri ? { requestedUri } : {}), ...(language ? { language } : {}) });
}

/**
 * The sender's half of a reset request (outbox.ts calls it in the transaction that marks the
 * request done): when an account has `request.email`, creates a reset token (1 h; older reset
 * links and their queued mails end) and queues its mail in `trx`, claimed by this process for
 * delivery after the commit. `requestedUri` may replace the link's page (mail.ts checks it). The mail
 * is in the request's language, else the account's.
 * @returns the queued mail, or null when no account has the address (nothing is sent).
 */
export async function resolvePasswordResetRequest(
  ctx: AccountsContext,
  trx: Transaction<IdentityDatabase>,
  request: { email: string; requestedUri?: string; language?: MailLanguage },
): Promise<ClaimedMail | null> {
  const user = await findUserByName(trx, request.email);
  if (!user) return null;
  return queueMailNow(ctx, trx, user, "reset_password", ctx.now(), request.requestedUri, mailLanguageOf(request.language, user.language));
}

/**
 * Shared by the two "set a password with a mailed token" flows: checks the token first (so a
 * dead link is reported before the password), then the rule, then redeems the token and sets
 * the password in one transaction; `confirm` also marks the e-mail confirmed. A reset also
 * queues, in that transaction, the notice of the reset to the account's address (an invitation
 * sets the first password: nothing to tell), and sends it once committed. The link proves the
 * holder: the request's `language` is kept with the account, and the notice is in it.
 */
async function setPasswordWithToken(
  ctx: AccountsContext,
  purpose: TokenPurpose,
  input: { email: string; token: string; password: string },
  confirm: boolean,
  language: MailLanguage | null,
): Promise<void> {
  const found = await findTokenOwner(ctx.db, input.email, purpose, input.token, ctx.now());
  if (!found) throw new AccountError([describe.invalidToken()]);
  const ruleErrors = passwordErrors(input.password);
  if (ruleErrors.length > 0) throw new AccountError(ruleErrors);
  const passwordHash = await hashPassword(input.password);
  const now = ctx.now();
  const notice = await ctx.db.transaction().execute(async (trx) => {
    if (!(await consumeToken(trx, found.tokenId, now))) throw new AccountError([describe.invalidToken()]);
    await trx
      .updateTable("identity_users")
      .set(confirm ? { password_hash: passwordHash, email_confirmed: true, updated_at: now } : { password_hash: passwordHash, updated_at: now })
      .where("id", "=", found.user.id)
      .execute();
    await keepLanguage(trx, found.user.id, language);
    // A password set by mail ends every other outstanding reset link, and its queued mail.
    await trx
      .deleteFrom("identity_user_tokens")
      .where("user_id", "=", found.user.id)
      .where("purpose", "=", "reset_password")
      .where("id", "!=", found.tokenId)
      .execute();
    await ctx.outbox.cancelPending(trx, found.user.id, "reset_password");
    if (purpose !== "reset_password") {
      await ctx.outbox.cancelPending(trx, found.user.id, purpose);
      return null;
    }
    const noticeLanguage = mailLanguageOf(language, found.user.language);
    return ctx.outbox.enqueue(trx, { kind: "password_reset", to: found.user.user_name, at: now, userId: found.user.id, language: noticeLanguage });
  });
  if (notice) await deliverAfterChange(ctx, [notice], found.user.id, "password reset");
}

/**
 * docs/product/calls.md §7 changepasswordusingtoken (the reset link's form). The account's address is told of
 * the reset, with its time (README "Mails"); a failure to send that notice does not undo the
 * reset (it is retried).
 * @throws AccountError InvalidToken (wrong, expired after 1 h, reused) or the password rule's codes.
 */
export async function resetPasswordWithToken(
  ctx: AccountsContext,
  input: { email: string; token: string; newPassword: string },
  language: MailLanguage | null = null,
): Promise<void> {
  await setPasswordWithToken(ctx, "reset_password", { email: input.email, token: input.token, password: input.newPassword }, false, language);
}

/**
 * Invitation (not in the table of docs/product/calls.md §7; how the business side creates an account without a
 * password): creates the account if missing, password unset and e-mail unconfirmed, and mails
 * a /confirmaccount link (24 h). Inviting an existing account that has no password yet sends a
 * new link (the old one stops working). The account, the token and the mail are written in one
 * transaction. The mail is in the request's `language`, else the account's; the request is the
 * inviter's, so its language is not kept.
 * @throws AccountError InvalidEmail, or UserAlreadyHasPassword for an account already in use.
 * @throws MailDeliveryError when the mail transport fails (the account stays and the mail is
 *   retried from the outbox; inviting again sends a new link instead).
 */
export async function inviteUser(ctx: AccountsContext, rawUserName: string, language: MailLanguage | null = null): Promise<void> {
  const userName = normalizeEmail(rawUserName);
  if (!isValidEmail(userName)) throw new AccountError([describe.invalidEmail(rawUserName.trim())]);
  const now = ctx.now();
  const claimed = await ctx.db.transaction().execute(async (trx) => {
    let user = await findUserByName(trx, userName);
    if (!user) {
      const created: UserRow = { id: randomUUID(), user_name: userName, password_hash: null, email_confirmed: false, created_at: now, updated_at: now, language: null };
      // Another request may create the same address meanwhile: then use that account.
      await trx.insertInto("identity_users").values(created).onConflict((oc) => oc.doNothing()).execute();
      user = await findUserByName(trx, userName);
    }
    if (!user || user.password_hash) throw new AccountError([describe.userAlreadyHasPassword()]);
    return queueMailNow(ctx, trx, user, "invite", now, undefined, mailLanguageOf(language, user.language));
  });
  await ctx.outbox.deliver(claimed);
}

/**
 * docs/product/calls.md §7 confirmaccount: sets the invited account's password and confirms its e-mail.
 * @throws AccountError InvalidToken (wrong, expired after 24 h, reused) or the password rule's codes.
 */
export async function confirmAccount(ctx: AccountsContext, input: { email: string; token: string; password: string }, language: MailLanguage | null = null): Promise<void> {
  await setPasswordWithToken(ctx, "invite", input, true, language);
}

/**
 * docs/product/calls.md §7 changeusername for the signed-in user. Returns false (docs/product/calls.md §7: falsy means failure) when
 * the new name is not a valid address or is taken (including by this user). On success the
 * new address is unconfirmed until its link is followed, outstanding mail links die (their
 * queued mails are cancelled), and two mails are queued in the same transaction as the change
 * and sent at once: a confirmation link (24 h) to the new address, and to the old address a
 * notice of the change with its time and how to get help if it was not them (README "Mails").
 * A mail failure is logged but the change stands (the outbox retries it, the app can resend
 * the confirmation). Both mails are in the request's `language`, which the account keeps, else the
 * account's.
 */
export async function changeUserName(
  ctx: AccountsContext,
  userId: string,
  rawUserName: string,
  requestedUri?: string,
  language: MailLanguage | null = null,
): Promise<boolean> {
  const userName = normalizeEmail(rawUserName);
  if (!isValidEmail(userName)) return false;
  const user = await ctx.db.selectFrom("identity_users").selectAll().where("id", "=", userId).executeTakeFirst();
  if (!user) return false;
  if (!(await isUserNameAvailable(ctx, userName))) return false;
  const now = ctx.now();
  let claimed: ClaimedMail[];
  try {
    claimed = await ctx.db.transaction().execute(async (trx) => {
      // The address being replaced, read under the row's lock: the notice goes to it even when two changes race.
      const locked = await trx.selectFrom("identity_users").select(["user_name", "language"]).where("id", "=", userId).forUpdate().executeTakeFirstOrThrow();
      const oldAddress = locked.user_name;
      const mailLanguage = mailLanguageOf(language, locked.language);
      await keepLanguage(trx, userId, language);
      await trx.updateTable("identity_users").set({ user_name: userName, email_confirmed: false, updated_at: now }).where("id", "=", userId).execute();
      await ctx.outbox.cancelPending(trx, userId);
      await trx.deleteFrom("identity_user_tokens").where("user_id", "=", userId).execute();
      const confirmation = await queueMailNow(ctx, trx, { id: userId, user_name: userName }, "confirm_email", now, requestedUri, mailLanguage);
      const notice: QueuedNotice = { kind: "email_changed", to: oldAddress, at: now, newAddress: userName, userId, language: mailLanguage };
      return [confirmation, await ctx.outbox.enqueue(trx, notice)];
    });
  } catch (err) {
    if (isUniqueViolation(err)) return false;
    throw err;
  }
  await deliverAfterChange(ctx, claimed, userId, "user name changed");
  return true;
}

/**
 * docs/product/calls.md §7 changepasswordusingcurrent for the signed-in user: true when changed; false for a
 * wrong current password or a new password failing the docs/product/data.md §5 rule. A change ends outstanding
 * reset links and tells the account's address of the change, with its time (README "Mails"):
 * the notice is queued in the change's transaction and sent at once; a failure to send it does
 * not undo the change (it is retried). The notice is in the request's `language`, which the account
 * keeps, else the account's.
 */
export async function changePasswordWithCurrent(
  ctx: AccountsContext,
  userId: string,
  input: { currentPassword: string; newPassword: string },
  language: MailLanguage | null = null,
): Promise<boolean> {
  const user = await ctx.db.selectFrom("identity_users").selectAll().where("id", "=", userId).executeTakeFirst();
  if (!user || !(await passwordMatches(user, input.currentPassword))) return false;
  if (passwordErrors(input.newPassword).length > 0) return false;
  const passwordHash = await hashPassword(input.newPassword);
  const now = ctx.now();
  const notice = await ctx.db.transaction().execute(async (trx) => {
    // The address at the time of the change (an e-mail change may have raced this one).
    const changed = await trx
      .updateTable("identity_users")
      .set({ password_hash: passwordHash, updated_at: now })
      .where("id", "=", userId)
      .returning(["user_name", "language"])
      .executeTakeFirstOrThrow();
    await keepLanguage(trx, userId, language);
    await trx.deleteFrom("identity_user_tokens").where("user_id", "=", userId).where("purpose", "=", "reset_password").execute();
    await ctx.outbox.cancelPending(trx, userId, "reset_password");
    return ctx.outbox.enqueue(trx, { kind: "password_changed", to: changed.user_name, at: now, userId, language: mailLanguageOf(language, changed.language) });
  });
  await deliverAfterChange(ctx, [notice], userId, "password changed");
  return true;
}

/**
 * Deletes the signed-in user's account (an extension of docs/product/calls.md §7; README "Deleting an
 * account"): checks the current password, then in one transaction deletes the user row (its link tokens
 * and every outbox row of it, sent or not, go with it, by the schema's cascades) and the reset requests
 * naming its addresses, and queues the notice that confirms the deletion to the account's address. Then
 * the mails kept in the outbox directory that name those addresses are deleted, and the notice is sent
 * (a failure to send it is retried; the deletion stands). The notice's row is deleted once sent or given
 * up: nothing here names the person afterwards (docs/security/accounts.md "Deleting an account").
 * Access tokens already issued are not revoked: they expire within ACCESS_TOKEN_LIFETIME_SECONDS, and
 * every call of this authority that needs a user refuses them at once (the user is gone).
 * The notice is in the request's `language`, else the account's.
 * @returns true when deleted; false for a wrong password or an account that is already gone.
 */
export async function deleteAccount(ctx: AccountsContext, userId: string, password: string, language: MailLanguage | null = null): Promise<boolean> {
  const user = await ctx.db.selectFrom("identity_users").selectAll().where("id", "=", userId).executeTakeFirst();
  if (!user || !(await passwordMatches(user, password))) return false;
  const now = ctx.now();
  const done = await ctx.db.transaction().execute(async (trx) => {
    const addresses = await ctx.outbox.addressesOf(trx, userId);
    const deleted = await trx.deleteFrom("identity_users").where("id", "=", userId).returning(["user_name", "language"]).executeTakeFirst();
    if (!deleted) return null; // deleted meanwhile, by a second request
    await ctx.outbox.forgetRequests(trx, addresses);
    const notice = await ctx.outbox.enqueue(trx, {
      kind: "account_deleted",
      to: deleted.user_name,
      at: now,
      userId: null,
      language: mailLanguageOf(language, deleted.language),
    });
    return { notice, addresses };
  });
  if (!done) return false;
  try {
    await ctx.outbox.forgetMails(done.addresses);
  } catch (err) {
    // The deletion stands; the files are left for the operator, who is told.
    ctx.logger.error({ err: { type: (err as Error).name, message: (err as Error).message }, userId }, "account deleted; its mails in the outbox directory could not be deleted");
  }
  await deliverAfterChange(ctx, [done.notice], userId, "account deleted");
  return true;
}
