// Identity authority, second schema: the mail outbox (services/identity/README.md "Mail
// outbox"). A mail is a row written in the same transaction as the change that causes it, and
// a sender delivers pending rows, retries failures and claims rows so that processes sharing
// one database never send the same row twice. Only SQL that PostgreSQL 13+ and PGlite accept.
import { sql } from "kysely";
import type { Kysely } from "kysely";
import type { Migration } from "../../../lib/db/migrate.ts";

export const outbox: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable("identity_outbox")
      .addColumn("id", "uuid", (c) => c.primaryKey())
      .addColumn("user_id", "uuid", (c) => c.notNull().references("identity_users.id").onDelete("cascade"))
      // The link's token row; null once it was superseded or deleted (the mail is then not sent).
      .addColumn("token_id", "uuid", (c) => c.references("identity_user_tokens.id").onDelete("set null"))
      .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('confirm_email', 'invite', 'reset_password')`))
      .addColumn("recipient", "text", (c) => c.notNull())
      // The raw single-use token the link carries, kept only while the mail is pending.
      .addColumn("token", "text")
      .addColumn("requested_uri", "text")
      .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('pending', 'sent', 'cancelled', 'failed')`))
      .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("next_attempt_at", "timestamptz", (c) => c.notNull())
      .addColumn("claimed_by", "uuid")
      .addColumn("claimed_until", "timestamptz")
      .addColumn("last_error", "text")
      .addColumn("created_at", "timestamptz", (c) => c.notNull())
      .addColumn("finished_at", "timestamptz")
      .addCheckConstraint("identity_outbox_token_only_pending", sql`status = 'pending' or token is null`)
      .execute();
    await db.schema
      .createIndex("identity_outbox_due_idx")
      .on("identity_outbox")
      .column("next_attempt_at")
      .where(sql.ref("status"), "=", "pending")
      .execute();
    await db.schema
      .createIndex("identity_outbox_user_kind_idx")
      .on("identity_outbox")
      .columns(["user_id", "kind"])
      .where(sql.ref("status"), "=", "pending")
      .execute();
    // Deleting a superseded token nulls token_id here: index it so that delete stays cheap.
    await db.schema.createIndex("identity_outbox_token_idx").on("identity_outbox").column("token_id").execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable("identity_outbox").ifExists().execute();
  },
};
