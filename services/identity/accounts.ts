// Accounts of the identity authority (docs/product/calls.md §7 identity table, §5 password rule): users,
// passwords, e-mail confirmation, resets and invitations. Plain values in, plain values out;
// http.ts does the HTTP. Rule failures throw AccountError, which http.ts maps to 400.
// Every mail is queued in the outbox in the transaction of the change that causes it
// (services/identity/README.md "Mail outbox"), then delivered at once by this process (the
// confirmation mail of sendconfirmationemail right after the call answered, README "Sending the
// confirmation mail"): the link mails, and the notices that tell an address of a password change or reset, or of its
// account moving to another address (README "Mails"). Each mail is written in the language of the
// request that causes it, else the account's kept language, else English; a request of the account's
// holder (registration, sign-in, a mailed link redeemed, a signed-in change) keeps its language with
// the account (docs/product/calls.md §7.4 "The mail's language").
import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { hash, verify } from "@node-rs/argon2";
import type { Kysely, Transaction } from "kysely";
import type { Logger } from "pino";
import { z } from "zod";
import { hasControlCharacters, missingPasswordClasses, passwordMaxLength, passwordMinLength } from "../../contracts/rules.ts";
import { AccountError, MailDeliveryError, describe } from "./errors.ts";
import type { IdentityErrorItem } from "./errors.ts";
import { mailLanguageOf } from "../shared/language.ts";
import type { MailLanguage } from "../shared/language.ts";
import type { ClaimedMail, Outbox, QueuedNotice } from "./outbox.ts";
import type { IdentityDatabase, TokenPurpose, UserRow } from "./schema/tables.ts";

/** Longest accepted e-mail address (RFC 5321 path limit). */
export const EMAIL_MAX_LENGTH = 254;

/** Lifetimes of the single-use mail tokens, in milliseconds. */
export const TOKEN_LIFETIME_MS: Record<TokenPurpose, number> = {
  confirm_email: 24 * 60 * 60 * 1000,
  invite: 24 * 60 * 60 * 1000,
  reset_password: 60 * 60 * 1000,
};

/** A user as other code sees it; never carries the password hash. */
export interface PublicUser {
  id: string;
  /** The normalised e-mail address (docs/product/data.md §3: userName is the e-mail). */
  userName: string;
  emailConfirmed: boolean;
}

/** What every account function needs: the database, the clock, the mail outbox and the logger. */
export interface AccountsContext {
  db: Kysely<IdentityDatabase>;
  now: () => Date;
  /** Mails are queued here in the same transaction as the change that causes them (outbox.ts). */
  outbox: Outbox;
  logger: Logger;
}

// ---------------------------------------------------------------- rules on plain values

/** Trims and lower-cases an address: user names are unique case-insensitively. */
export function normalizeEmail(raw: string): string {
  return raw.trim().toLowerCase();
}

const emailSchema = z.email().max(EMAIL_MAX_LENGTH);

/** True when `email` (already normalised) is a syntactically valid address (zod's check). */
export function isValidEmail(email: string): boolean {
  return emailSchema.safeParse(email).success;
}

/** The error item of each character class the password rule asks for. */
const passwordClassErrors = {
  special: describe.passwordRequiresNonAlphanumeric,
  digit: describe.passwordRequiresDigit,
  lower: describe.passwordRequiresLower,
  upper: describe.passwordRequiresUpper,
};

/**
 * docs/product/data.md §5 password rule (contracts/rules.ts, which the app's forms check too), as
 * ASP.NET Identity error items; empty when the password passes: PasswordTooShort (< 8),
 * PasswordTooLong (> 128), PasswordRequiresNonAlphanumeric (one of !@#$%^&*), PasswordRequiresDigit
 * / Lower / Upper (ASCII, like ASP.NET Identity), PasswordHasControlCharacters.
 */
export function passwordErrors(password: string): IdentityErrorItem[] {
  const errors: IdentityErrorItem[] = [];
  if (password.length < passwordMinLength) errors.push(describe.passwordTooShort(passwordMinLength));
  if (password.length > passwordMaxLength) errors.push(describe.passwordTooLong(passwordMaxLength));
  for (const missing of missingPasswordClasses(password)) errors.push(passwordClassErrors[missing]());
  if (hasControlCharacters(password)) errors.push(describe.passwordHasControlCharacters());
  return errors;
}

// ---------------------------------------------------------------- passwords and tokens

/** argon2id, m=19 MiB, t=2, p=1 (OWASP's first recommended setting; the library's defaults). */
async function hashPassword(password: string): Promise<string> {
  return hash(password, { memoryCost: 19456, timeCost: 2, parallelism: 1 });
}

let dummyHash: Promise<string> | undefined;
/** Verifies against a throwaway hash so unknown users cost as much time as known ones. */
async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword(randomBytes(16).toString("base64url"));
  await verify(await dummyHash, password).catch(() => false);
}

async function passwordMatches(user: UserRow, password: string): Promise<boolean> {
  if (!user.password_hash) {
    await burnPasswordCheck(password);
    return false;
  }
  return verify(user.password_hash, password).catch(() => false);
}

function sha256Hex(value: string): string {
  return createHash("sha256").update(value, "utf8").digest("hex");
}

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, "hex");
  const y = Buffer.from(b, "hex");
  return x.length === y.length && timingSafeEqual(x, y);
}

/** In `trx`: ends the links of `userId` for `purpose`: deletes the tokens and cancels their pending mails. */
async function endLinks(ctx: AccountsContext, trx: Transaction<IdentityDatabase>, userId: string, purpose: TokenPurpose): Promise<void> {
  await ctx.outbox.cancelPending(trx, userId, purpose);
  await trx.deleteFrom("identity_user_tokens").where("user_id", "=", userId).where("purpose", "=", purpose).execute();
}

/**
 * In `trx`: creates a single-use token for `user` and `purpose` (32 random bytes, base64url;
 * only its SHA-256 is stored in identity_user_tokens), deletes older tokens of the same purpose
 * and cancels their pending mails (a new link supersedes them), and queues the mail carrying it.
 * `hold`: the mail waits for an explicit request (registration); otherwise it is claimed by
 * this process, to be delivered once `trx` commits.
 */
async function queueTokenMail(
  ctx: AccountsContext,
  trx: Transaction<IdentityDatabase>,
  user: Pick<UserRow, "id" | "user_name">,
  purpose: TokenPurpose,
  options: { now: Date; requestedUri?: string | undefined; hold?: boolean; language: MailLanguage },
): Promise<ClaimedMail | null> {
  const token = randomBytes(32).toString("base64url");
  const tokenId = randomUUID();
  await endLinks(ctx, trx, user.id, purpose);
  await trx
    .insertInto("identity_user_tokens")
    .values({
      id: tokenId,
      user_id: user.id,
      purpose,
      email: user.user_name,
      token_hash: sha256Hex(token),
      created_at: options.now,
      expires_at: new Date(options.now.getTime() + TOKEN_LIFETIME_MS[purpose]),
      used_at: null,
    })
    .execute();
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
async function queueMailNow(
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
 * Keeps `language` as the account's mail language, through `executor` (a transaction, or the
 * database): the account's holder asked for it. Nothing when it is null (the request said none)
 * or already kept, so a sign-in in the same language writes nothing.
 */
async function keepLanguage(executor: Kysely<IdentityDatabase>, userId: string, language: MailLanguage | null): Promise<void> {
  if (!language) return;
  await executor.updateTable("identity_users").set({ language }).where("id", "=", userId).where("language", "is distinct from", language).execute();
}

/**
 * Delivers mails this process queued and claimed, once their transaction committed, for a
 * change that stands whether or not they go out now: a transport failure is logged (the
 * outbox logs the row and retries it), never thrown. Other errors (the database) are thrown.
 */
async function deliverAfterChange(ctx: AccountsContext, claimed: ClaimedMail[], userId: string, change: string): Promise<void> {
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
function deliverAfterAnswer(ctx: AccountsContext, claimed: ClaimedMail): void {
  ctx.outbox.deliver(claimed).catch((err: unknown) => {
    const error = { type: (err as Error)?.name, message: (err as Error)?.message };
    if (err instanceof MailDeliveryError) ctx.logger.warn({ err: error, mailId: claimed.id }, "a mail queued by a request failed and stays queued for a retry");
    else ctx.logger.error({ err: error, mailId: claimed.id }, "a mail queued by a request could not be sent; its lease frees it for the sender");
  });
}

/** The user behind `email` when `token` is a live token of `purpose` for them, else null. */
async function findTokenOwner(
  db: Kysely<IdentityDatabase>,
  email: string,
  purpose: TokenPurpose,
  token: string,
  now: Date,
): Promise<{ user: UserRow; tokenId: string } | null> {
  const user = await findUserByName(db, normalizeEmail(email));
  if (!user) return null;
  const rows = await db
    .selectFrom("identity_user_tokens")
    .selectAll()
    .where("user_id", "=", user.id)
    .where("purpose", "=", purpose)
    .execute();
  const presented = sha256Hex(token);
  const row = rows.find((r) => sameHash(r.token_hash, presented));
  if (!row || row.used_at !== null || row.expires_at.getTime() <= now.getTime() || row.email !== user.user_name) return null;
  return { user, tokenId: row.id };
}

/** Marks a token used; false when another request redeemed it first (single use under races). */
async function consumeToken(trx: Transaction<IdentityDatabase>, tokenId: string, now: Date): Promise<boolean> {
  const result = await trx
    .updateTable("identity_user_tokens")
    .set({ used_at: now })
    .where("id", "=", tokenId)
    .where("used_at", "is", null)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

// ---------------------------------------------------------------- lookups

async function findUserByName(db: Kysely<IdentityDatabase>, userName: string): Promise<UserRow | undefined> {
  return db
    .selectFrom("identity_users")
    .selectAll()
    .where((eb) => eb(eb.fn("lower", ["user_name"]), "=", userName.toLowerCase()))
    .executeTakeFirst();
}

function toPublic(user: UserRow): PublicUser {
  return { id: user.id, userName: user.user_name, emailConfirmed: user.email_confirmed };
}

function isUniqueViolation(err: unknown): boolean {
  return typeof err === "object" && err !== null && "code" in err && (err as { code: unknown }).code === "23505";
}

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
