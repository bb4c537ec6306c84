// Consumer API, check-in code guesses (docs/venues.md "Check-in", docs/security/limits.md "Check-in code
// guesses"): the codes entered that do not exist, counted per caller, per location, per hospitality
// group and over all venues, in fixed windows, so that every consumer API process on the database
// shares one count and a restart keeps it. One row per scope, key and window, raised atomically by
// INSERT … ON CONFLICT … DO UPDATE … RETURNING (guesses.ts); rows of past windows are purged. Only SQL
// that PostgreSQL 13+ and PGlite both accept.
import { sql } from "kysely";
import type { Kysely } from "kysely";
import type { Migration } from "../../../lib/db/migrate.ts";

export const checkinGuesses: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable("consumer_checkin_guesses")
      .addColumn("scope", "text", (c) => c.notNull().check(sql`scope in ('caller', 'location', 'group', 'all')`))
      // The identity user id, the location id or the group id (business API); '' for 'all'.
      .addColumn("key", "text", (c) => c.notNull())
      .addColumn("window_start", "timestamptz", (c) => c.notNull())
      .addColumn("misses", "integer", (c) => c.notNull())
      .addPrimaryKeyConstraint("consumer_checkin_guesses_pkey", ["scope", "key", "window_start"])
      .execute();
    await db.schema.createIndex("consumer_checkin_guesses_window_idx").on("consumer_checkin_guesses").column("window_start").execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable("consumer_checkin_guesses").ifExists().execute();
  },
};
