// The identity authority's users as the account operations read them (docs/product/data.md §3:
// userName is the e-mail address): the context every account function takes, the public view of a
// user, addresses normalised and checked, and the lookups by address.
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import { z } from "zod";
import type { Outbox } from "./outbox.ts";
import type { IdentityDatabase, UserRow } from "./schema/tables.ts";

/** Longest accepted e-mail address (RFC 5321 path limit). */
export const EMAIL_MAX_LENGTH = 254;

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

/** Trims and lower-cases an address: user names are unique case-insensitively. */
export function normalizeEmail(raw: string): string {
  return raw.trim().toLowerCase();
}

const emailSchema = z.email().max(EMAIL_MAX_LENGTH);

/** True when `email` (already normalised) is a syntactically valid address (zod's check). */
export function isValidEmail(email: string): boolean {
  return emailSchema.safeParse(email).success;
}

/** The user whose address is `userName`, compared case-insensitively, through `db` (a transaction, or the database). */
export async function findUserByName(db: Kysely<IdentityDatabase>, userName: string): Promise<UserRow | undefined> {
  return db
    .selectFrom("identity_users")
    .selectAll()
    .where((eb) => eb(eb.fn("lower", ["user_name"]), "=", userName.toLowerCase()))
    .executeTakeFirst();
}

/** The public view of a user row: no password hash. */
export function toPublic(user: UserRow): PublicUser {
  return { id: user.id, userName: user.user_name, emailConfirmed: user.email_confirmed };
}

/** True when `err` is PostgreSQL's unique violation (23505): another request took the address first. */
export function isUniqueViolation(err: unknown): boolean {
  return typeof err === "object" && err !== null && "code" in err && (err as { code: unknown }).code === "23505";
}
