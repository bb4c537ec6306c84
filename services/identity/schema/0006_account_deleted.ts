// Identity authority, sixth schema: deleted accounts (services/identity/README.md "Deleting an
// account"). The notice that confirms a deletion outlives the account it tells of, so its outbox row
// names no user (like a reset request): the deletion removes the user row, whose other outbox rows go
// with it. Only SQL that PostgreSQL 13+ and PGlite accept.
import { sql } from "kysely";
import type { Kysely } from "kysely";
import type { Migration } from "../../../lib/db/migrate.ts";

const KINDS_0004 = sql`kind in ('confirm_email', 'invite', 'reset_password', 'password_changed', 'password_reset', 'email_changed', 'reset_request')`;

export const accountDeleted: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable("identity_outbox").dropConstraint("identity_outbox_kind_check").execute();
    await db.schema
      .alterTable("identity_outbox")
      .addCheckConstraint(
        "identity_outbox_kind_check",
        sql`kind in ('confirm_email', 'invite', 'reset_password', 'password_changed', 'password_reset', 'email_changed', 'reset_request', 'account_deleted')`,
      )
      .execute();
    await db.schema.alterTable("identity_outbox").dropConstraint("identity_outbox_user_unless_request").execute();
    // A request row and a deletion notice never name a user; every other mail row does.
    await db.schema
      .alterTable("identity_outbox")
      .addCheckConstraint("identity_outbox_user_unless_request", sql`(kind in ('reset_request', 'account_deleted')) = (user_id is null)`)
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.deleteFrom("identity_outbox").where("kind", "=", "account_deleted").execute();
    await db.schema.alterTable("identity_outbox").dropConstraint("identity_outbox_user_unless_request").execute();
    await db.schema
      .alterTable("identity_outbox")
      .addCheckConstraint("identity_outbox_user_unless_request", sql`(kind = 'reset_request') = (user_id is null)`)
      .execute();
    await db.schema.alterTable("identity_outbox").dropConstraint("identity_outbox_kind_check").execute();
    await db.schema.alterTable("identity_outbox").addCheckConstraint("identity_outbox_kind_check", KINDS_0004).execute();
  },
};
