// Identity authority: indexes for deleting an account (services/identity/README.md "Deleting an
// account"). The deletion reads every outbox row of the user, sent or not (the partial index of
// 0002 covers pending rows only), which the user row's cascade deletes too, and deletes the reset
// requests naming the account's addresses (stored normalised). Only SQL that PostgreSQL 13+ and
// PGlite accept.
import { sql } from "kysely";
import type { Kysely } from "kysely";
import type { Migration } from "../../../lib/db/migrate.ts";

export const outboxDeletionIndexes: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.createIndex("identity_outbox_user_idx").on("identity_outbox").column("user_id").execute();
    await db.schema
      .createIndex("identity_outbox_reset_recipient_idx")
      .on("identity_outbox")
      .column("recipient")
      .where(sql.ref("kind"), "=", "reset_request")
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropIndex("identity_outbox_reset_recipient_idx").ifExists().execute();
    await db.schema.dropIndex("identity_outbox_user_idx").ifExists().execute();
  },
};
