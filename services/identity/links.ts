// The single-use tokens the account mails carry (confirmation, invitation and reset links): 32
// random bytes each, of which only the SHA-256 is kept (identity_user_tokens), live for a set time,
// redeemed once, and ended when a newer link of the same purpose supersedes them. The mails that
// carry them are queued by mailing.ts.
import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import { findUserByName, normalizeEmail } from "./users.ts";
import type { AccountsContext } from "./users.ts";
import type { IdentityDatabase, TokenPurpose, UserRow } from "./schema/tables.ts";

/** Lifetimes of the single-use mail tokens, in milliseconds. */
export const TOKEN_LIFETIME_MS: Record<TokenPurpose, number> = {
  confirm_email: 24 * 60 * 60 * 1000,
  invite: 24 * 60 * 60 * 1000,
  reset_password: 60 * 60 * 1000,
};

/** The SHA-256 of a token, as hex: what identity_user_tokens keeps of it. */
function sha256Hex(value: string): string {
  return createHash("sha256").update(value, "utf8").digest("hex");
}

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, "hex");
  const y = Buffer.from(b, "hex");
  return x.length === y.length && timingSafeEqual(x, y);
}

/** In `trx`: ends the links of `userId` for `purpose`: deletes the tokens and cancels their pending mails. */
export async function endLinks(ctx: AccountsContext, trx: Transaction<IdentityDatabase>, userId: string, purpose: TokenPurpose): Promise<void> {
  await ctx.outbox.cancelPending(trx, userId, purpose);
  await trx.deleteFrom("identity_user_tokens").where("user_id", "=", userId).where("purpose", "=", purpose).execute();
}

/**
 * In `trx`: a new single-use token for `user` and `purpose` (32 random bytes, base64url; only its
 * SHA-256 is stored in identity_user_tokens), live for TOKEN_LIFETIME_MS[purpose] from `now`. Older
 * tokens of the same purpose end and their pending mails are cancelled: a new link supersedes them.
 * @returns the token, for the mail that carries it, and its row's id
 */
export async function newLinkToken(
  ctx: AccountsContext,
  trx: Transaction<IdentityDatabase>,
  user: Pick<UserRow, "id" | "user_name">,
  purpose: TokenPurpose,
  now: Date,
): Promise<{ token: string; tokenId: string }> {
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
      created_at: now,
      expires_at: new Date(now.getTime() + TOKEN_LIFETIME_MS[purpose]),
      used_at: null,
    })
    .execute();
  return { token, tokenId };
}

/** The user behind `email` when `token` is a live token of `purpose` for them, else null. */
export async function findTokenOwner(
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
export async function consumeToken(trx: Transaction<IdentityDatabase>, tokenId: string, now: Date): Promise<boolean> {
  const result = await trx
    .updateTable("identity_user_tokens")
    .set({ used_at: now })
    .where("id", "=", tokenId)
    .where("used_at", "is", null)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}
