// Identity authority: the mail's language (docs/product/calls.md §7.4 "The mail's language"). An
// account keeps the last language its holder's requests asked for (null: never said, English), and
// every outbox row keeps the language its mail is written in, decided when it is queued; a reset
// request keeps its request's (null: none), which the sender uses before the account's. Only SQL that
// PostgreSQL 13+ and PGlite accept.
import { sql } from "kysely";
import type { Kysely } from "kysely";
import type { Migration } from "../../../lib/db/migrate.ts";

export const mailLanguage: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable("identity_users")
      .addColumn("language", "text", (c) => c.check(sql`language in ('en', 'es')`))
      .execute();
    await db.schema
      .alterTable("identity_outbox")
      .addColumn("language", "text", (c) => c.check(sql`language in ('en', 'es')`))
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable("identity_outbox").dropColumn("language").execute();
    await db.schema.alterTable("identity_users").dropColumn("language").execute();
  },
};
