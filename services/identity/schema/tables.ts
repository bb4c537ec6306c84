// Row types of the identity authority's tables (see 0001_initial.ts … 0004_reset_requests.ts). Kysely reads these;
// the migrations are the source of truth for the SQL.
import type { ColumnType, Selectable } from "kysely";
import type { MailLanguage } from "../../shared/language.ts";
import type { QueueTableColumns } from "../../shared/outbox.ts";

/** What a token row was issued for; each purpose has its own lifetime (accounts.ts). */
export type TokenPurpose = "confirm_email" | "invite" | "reset_password";

/** A mail that tells an address of a change to its account; it carries no link token. */
export type NoticeKind = "password_changed" | "password_reset" | "email_changed" | "account_deleted";

/**
 * Every kind of outbox row: one per token purpose (a link mail), the notices, and a reset
 * request (not a mail: the sender turns it into a reset mail when an account has the address).
 */
export type OutboxKind = TokenPurpose | NoticeKind | "reset_request";

export interface IdentityUsersTable {
  id: string; // uuid
  /** The e-mail address, normalised (trimmed, lower-case); unique. docs/product/data.md §3: userName is the e-mail. */
  user_name: string;
  /** argon2id PHC string; null for an invited account that has not set a password yet. */
  password_hash: string | null;
  email_confirmed: boolean;
  created_at: ColumnType<Date, Date, never>;
  updated_at: Date;
  /** The last mail language the holder's requests asked for (0009_mail_language.ts); null: never said (English). */
  language: ColumnType<MailLanguage | null, MailLanguage | null | undefined, MailLanguage | null>;
}

export interface IdentityUserTokensTable {
  id: string; // uuid
  user_id: string;
  purpose: TokenPurpose;
  /** The address the link was mailed to; the token is only good while it is still the user name. */
  email: string;
  /** Lower-case hex SHA-256 of the token sent by mail; the token itself is never stored. */
  token_hash: string;
  created_at: ColumnType<Date, Date, never>;
  expires_at: ColumnType<Date, Date, never>;
  /** Set once: when the token was redeemed or superseded by a newer one. */
  used_at: Date | null;
}

export interface IdentitySigningKeysTable {
  kid: string;
  alg: string;
  /** The private JWK (RS256) sealed with DATA_DIR/identity-signing-secret (tokens.ts sealPrivateKey). */
  sealed_private_jwk: string;
  /** JSON text of the public JWK, as served in the JWKS. */
  public_jwk: string;
  created_at: ColumnType<Date, Date, never>;
}

/**
 * Where an outbox row stands: waiting (or retrying), delivered, dropped (dead link), given up;
 * `done` is a reset request the sender has handled, whether or not an account had the address.
 */
export type OutboxStatus = "pending" | "sent" | "cancelled" | "failed" | "done";

/** One mail of the outbox (services/identity/README.md "Mail outbox"), with the queue's columns. Times are the database's clock. */
export interface IdentityOutboxTable extends QueueTableColumns<OutboxStatus> {
  /** The account a mail is about; null for a reset request (the request path looks no account up). */
  user_id: string | null;
  /**
   * The token row the link redeems; null once superseded or deleted (a link mail is then
   * cancelled), and always null for a notice.
   */
  token_id: string | null;
  /** Which mail: one per token purpose (confirm e-mail, invitation, password reset), a notice, or a reset request. */
  kind: OutboxKind;
  /** Whom the mail goes to; for a reset request, the address asked for (normalised), account or not. */
  recipient: string;
  /** The raw token of the link, only while pending (a check constraint clears it with the status); null for a notice. */
  token: string | null;
  /** The caller's requestedUri, checked again when the mail is rendered. */
  requested_uri: string | null;
  /** A notice's time of the change it tells of (the service's clock, shown in UTC); null for link mails. */
  occurred_at: Date | null;
  /** An e-mail change notice's new address (`recipient` is the old one); null otherwise. */
  new_address: string | null;
  /** The mail's language, decided when it was queued; a reset request's is its request's (null: none said). */
  language: ColumnType<MailLanguage | null, MailLanguage | null | undefined, MailLanguage | null>;
}

export interface IdentityDatabase {
  identity_users: IdentityUsersTable;
  identity_user_tokens: IdentityUserTokensTable;
  identity_signing_keys: IdentitySigningKeysTable;
  identity_outbox: IdentityOutboxTable;
}

export type UserRow = Selectable<IdentityUsersTable>;
export type OutboxRow = Selectable<IdentityOutboxTable>;
