// Consumer API, follow relations (docs/product/data.md §3 Consumer subscription, §4 Follow relation) and what
// search needs (docs/product/data.md §5 Search, §1 "find other users by name, product ID or e-mail"). Only SQL
// that PostgreSQL 13+ and PGlite both accept.
import { sql } from "kysely";
import type { Kysely } from "kysely";
import type { Migration } from "../../../lib/db/migrate.ts";

export const subscriptions: Migration = {
  async up(db: Kysely<any>) {
    // One row per relation follower → followed, pending (confirmed false) or confirmed. A declined
    // or cancelled request and a deleted relation leave no row. The unique pair keeps concurrent
    // requests from creating duplicates; the check refuses following oneself.
    await db.schema
      .createTable("consumer_subscriptions")
      .addColumn("id", "uuid", (c) => c.primaryKey())
      .addColumn("follower_id", "uuid", (c) => c.notNull().references("consumer_profiles.id").onDelete("cascade"))
      .addColumn("followed_id", "uuid", (c) => c.notNull().references("consumer_profiles.id").onDelete("cascade"))
      .addColumn("confirmed", "boolean", (c) => c.notNull().defaultTo(false))
      .addColumn("requested_at", "timestamptz", (c) => c.notNull())
      .addColumn("confirmed_at", "timestamptz")
      .addUniqueConstraint("consumer_subscriptions_follower_followed_key", ["follower_id", "followed_id"])
      .addCheckConstraint("consumer_subscriptions_not_self_check", sql`follower_id <> followed_id`)
      .addCheckConstraint("consumer_subscriptions_confirmed_at_check", sql`confirmed = (confirmed_at is not null)`)
      .execute();
    // The unique key serves "my publishers" (follower_id first); this one serves "my subscribers".
    await db.schema.createIndex("consumer_subscriptions_followed_idx").on("consumer_subscriptions").columns(["followed_id", "follower_id"]).execute();

    // The consumer API learns a user's e-mail only from the `email` claim of their tokens (the
    // identity authority has no look-up by e-mail), so it keeps the latest one per identity user
    // for search by exact e-mail. Keyed by the token's `sub`, not the profile: it is written on
    // every authenticated call, createprofile included, before the profile exists. Never answered.
    await db.schema
      .createTable("consumer_identity_emails")
      .addColumn("identity_user_id", "text", (c) => c.primaryKey())
      .addColumn("email", "text", (c) => c.notNull())
      .addColumn("updated_at", "timestamptz", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("consumer_identity_emails_email_idx").on("consumer_identity_emails").expression(sql`lower(email)`).execute();

    // Name search is a case-insensitive prefix match on NFC-normalised names (subscriptions.ts);
    // text_pattern_ops lets LIKE 'abc%' use these indexes whatever the database's collation.
    await sql`create index consumer_profiles_first_name_search_idx on consumer_profiles (lower(normalize(first_name, NFC)) text_pattern_ops)`.execute(db);
    await sql`create index consumer_profiles_last_name_search_idx on consumer_profiles (lower(normalize(last_name, NFC)) text_pattern_ops)`.execute(db);
    await sql`create index consumer_profiles_full_name_search_idx on consumer_profiles (lower(normalize(first_name || ' ' || last_name, NFC)) text_pattern_ops)`.execute(db);
  },
  async down(db: Kysely<any>) {
    for (const index of ["consumer_profiles_full_name_search_idx", "consumer_profiles_last_name_search_idx", "consumer_profiles_first_name_search_idx"]) {
      await db.schema.dropIndex(index).ifExists().execute();
    }
    await db.schema.dropTable("consumer_identity_emails").ifExists().execute();
    await db.schema.dropTable("consumer_subscriptions").ifExists().execute();
  },
};
