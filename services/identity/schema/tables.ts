// Row types of the identity authority's tables (see 0001_initial.ts). Kysely reads these;
// the migrations are the source of truth for the SQL.
import type { ColumnType, Selectable } from "kysely";

/** What a token row was issued for; each purpose has its own lifetime (accounts.ts). */
export type TokenPurpose = "confirm_email" | "invite" | "reset_password";

export interface IdentityUsersTable {
  id: string; // uuid
  /** The e-mail address, normalised (trimmed, lower-case); unique. SPEC §3: userName is the e-mail. */
  user_name: string;
  /** argon2id PHC string; null for an invited account that has not set a password yet. */
  password_hash: string | null;
  email_confirmed: boolean;
  created_at: ColumnType<Date, Date, never>;
  updated_at: Date;
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
  /** JSON text of the private JWK (RS256). */
  private_jwk: string;
  /** JSON text of the public JWK, as served in the JWKS. */
  public_jwk: string;
  created_at: ColumnType<Date, Date, never>;
}

export interface IdentityDatabase {
  identity_users: IdentityUsersTable;
  identity_user_tokens: IdentityUserTokensTable;
  identity_signing_keys: IdentitySigningKeysTable;
}

export type UserRow = Selectable<IdentityUsersTable>;
export type UserTokenRow = Selectable<IdentityUserTokensTable>;
export type SigningKeyRow = Selectable<IdentitySigningKeysTable>;
