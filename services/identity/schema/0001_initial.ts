// Identity authority, first schema: users, single-use mail tokens, signing keys.
// Only SQL that PostgreSQL 13+ and PGlite both accept.
import { sql } from "kysely";
import type { Kysely } from "kysely";
import type { Migration } from "../../../lib/db/migrate.ts";

export const initial: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable("identity_users")
      .addColumn("id", "uuid", (c) => c.primaryKey())
      .addColumn("user_name", "text", (c) => c.notNull())
      .addColumn("password_hash", "text")
      .addColumn("email_confirmed", "boolean", (c) => c.notNull().defaultTo(false))
      .addColumn("created_at", "timestamptz", (c) => c.notNull())
      .addColumn("updated_at", "timestamptz", (c) => c.notNull())
      .execute();
    // Case-insensitive uniqueness even if a caller forgot to normalise.
    await db.schema
      .createIndex("identity_users_user_name_key")
      .on("identity_users")
      .unique()
      .expression(sql`lower(user_name)`)
      .execute();

    await db.schema
      .createTable("identity_user_tokens")
      .addColumn("id", "uuid", (c) => c.primaryKey())
      .addColumn("user_id", "uuid", (c) => c.notNull().references("identity_users.id").onDelete("cascade"))
      .addColumn("purpose", "text", (c) =>
        c.notNull().check(sql`purpose in ('confirm_email', 'invite', 'reset_password')`),
      )
      .addColumn("email", "text", (c) => c.notNull())
      .addColumn("token_hash", "text", (c) => c.notNull())
      .addColumn("created_at", "timestamptz", (c) => c.notNull())
      .addColumn("expires_at", "timestamptz", (c) => c.notNull())
      .addColumn("used_at", "timestamptz")
      .execute();
    await db.schema
      .createIndex("identity_user_tokens_user_purpose_idx")
      .on("identity_user_tokens")
      .columns(["user_id", "purpose"])
      .execute();

    await db.schema
      .createTable("identity_signing_keys")
      .addColumn("kid", "text", (c) => c.primaryKey())
      .addColumn("alg", "text", (c) => c.notNull())
      .addColumn("private_jwk", "text", (c) => c.notNull())
      .addColumn("public_jwk", "text", (c) => c.notNull())
      .addColumn("created_at", "timestamptz", (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable("identity_signing_keys").ifExists().execute();
    await db.schema.dropTable("identity_user_tokens").ifExists().execute();
    await db.schema.dropTable("identity_users").ifExists().execute();
  },
};
