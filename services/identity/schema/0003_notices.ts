// Identity authority, third schema: notices in the mail outbox (services/identity/README.md
// "Mails"). A notice tells an address of a change to its account (password changed or reset,
// e-mail address changed), with the time of the change; it carries no link token, so it has no
// token row and is never cancelled by a newer link. Only SQL that PostgreSQL 13+ and PGlite accept.
import { sql } from "kysely";
import type { Kysely } from "kysely";
import type { Migration } from "../../../lib/db/migrate.ts";

export const notices: Migration = {
  async up(db: Kysely<any>) {
    // 0002 named the column check after its table and column (PostgreSQL's default name).
    await db.schema.alterTable("identity_outbox").dropConstraint("identity_outbox_kind_check").execute();
    await db.schema
      .alterTable("identity_outbox")
      .addCheckConstraint(
        "identity_outbox_kind_check",
        sql`kind in ('confirm_email', 'invite', 'reset_password', 'password_changed', 'password_reset', 'email_changed')`,
      )
      .execute();
    // When the change a notice tells of was made (the service's clock); null for link mails.
    await db.schema.alterTable("identity_outbox").addColumn("occurred_at", "timestamptz").execute();
    // An e-mail change notice's new address (the recipient is the old one); null otherwise.
    await db.schema.alterTable("identity_outbox").addColumn("new_address", "text").execute();
  },
  async down(db: Kysely<any>) {
    await db.deleteFrom("identity_outbox").where("kind", "in", ["password_changed", "password_reset", "email_changed"]).execute();
    await db.schema.alterTable("identity_outbox").dropColumn("new_address").execute();
    await db.schema.alterTable("identity_outbox").dropColumn("occurred_at").execute();
    await db.schema.alterTable("identity_outbox").dropConstraint("identity_outbox_kind_check").execute();
    await db.schema
      .alterTable("identity_outbox")
      .addCheckConstraint("identity_outbox_kind_check", sql`kind in ('confirm_email', 'invite', 'reset_password')`)
      .execute();
  },
};
