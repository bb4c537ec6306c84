// Identity authority, fourth schema: reset requests queued in the outbox (services/identity/
// README.md "Reset requests", docs/decisions/0011-reset-requests-queued.md). A request row holds
// only the address as asked and the requested page; it has no user (the request path does not
// look one up), and the sender marks it `done` once it has decided whether an account has that
// address. Only SQL that PostgreSQL 13+ and PGlite accept.
import { sql } from "kysely";
import type { Kysely } from "kysely";
import type { Migration } from "../../../lib/db/migrate.ts";

const KINDS_0003 = sql`kind in ('confirm_email', 'invite', 'reset_password', 'password_changed', 'password_reset', 'email_changed')`;

export const resetRequests: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable("identity_outbox").dropConstraint("identity_outbox_kind_check").execute();
    await db.schema
      .alterTable("identity_outbox")
      .addCheckConstraint(
        "identity_outbox_kind_check",
        sql`kind in ('confirm_email', 'invite', 'reset_password', 'password_changed', 'password_reset', 'email_changed', 'reset_request')`,
      )
      .execute();
    await db.schema.alterTable("identity_outbox").dropConstraint("identity_outbox_status_check").execute();
    await db.schema
      .alterTable("identity_outbox")
      .addCheckConstraint("identity_outbox_status_check", sql`status in ('pending', 'sent', 'cancelled', 'failed', 'done')`)
      .execute();
    await db.schema.alterTable("identity_outbox").alterColumn("user_id", (c) => c.dropNotNull()).execute();
    // A request row never names a user, whatever the sender finds; every mail row does.
    await db.schema
      .alterTable("identity_outbox")
      .addCheckConstraint("identity_outbox_user_unless_request", sql`(kind = 'reset_request') = (user_id is null)`)
      .execute();
    // `done` is a handled request; a mail is sent, cancelled or failed.
    await db.schema
      .alterTable("identity_outbox")
      .addCheckConstraint("identity_outbox_done_only_requests", sql`status <> 'done' or kind = 'reset_request'`)
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.deleteFrom("identity_outbox").where("kind", "=", "reset_request").execute();
    await db.schema.alterTable("identity_outbox").dropConstraint("identity_outbox_done_only_requests").execute();
    await db.schema.alterTable("identity_outbox").dropConstraint("identity_outbox_user_unless_request").execute();
    await db.schema.alterTable("identity_outbox").alterColumn("user_id", (c) => c.setNotNull()).execute();
    await db.schema.alterTable("identity_outbox").dropConstraint("identity_outbox_status_check").execute();
    await db.schema
      .alterTable("identity_outbox")
      .addCheckConstraint("identity_outbox_status_check", sql`status in ('pending', 'sent', 'cancelled', 'failed')`)
      .execute();
    await db.schema.alterTable("identity_outbox").dropConstraint("identity_outbox_kind_check").execute();
    await db.schema.alterTable("identity_outbox").addCheckConstraint("identity_outbox_kind_check", KINDS_0003).execute();
  },
};
