// Consumer API: the mail's language (docs/product/calls.md §7.4 "The mail's language"). Beside the
// latest e-mail address of an identity user's token (consumer_identity_emails, the address a mail goes
// to), the last language the user's requests asked for (null: never said, English); and on each
// outbox row the language its mail is written in, decided when it is queued (a dispute's decision
// follows its owner's language, never the reviewer's). Only SQL that PostgreSQL 13+ and PGlite both
// accept.
import { sql } from "kysely";
import type { Kysely } from "kysely";
import type { Migration } from "../../../lib/db/migrate.ts";

export const mailLanguage: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable("consumer_identity_emails")
      .addColumn("language", "text", (c) => c.check(sql`language in ('en', 'es')`))
      .execute();
    await db.schema
      .alterTable("consumer_outbox")
      .addColumn("language", "text", (c) => c.notNull().defaultTo("en").check(sql`language in ('en', 'es')`))
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable("consumer_outbox").dropColumn("language").execute();
    await db.schema.alterTable("consumer_identity_emails").dropColumn("language").execute();
  },
};
