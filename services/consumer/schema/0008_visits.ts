// Consumer API, check-in codes and visits (docs/venues.md "Check-in", "My Fun"), and the
// venue screens for the profiles made before them. A person
// shows a venue a short code they asked for; a location administrator who enters it sees their
// window at a glance, which is recorded as a check (a visit row), and checks them in. The visit keeps
// what the venue saw (the window's state and dates then) and the venue's name and city then, so that
// My Fun reads the same later whatever changes. Only SQL that PostgreSQL 13+ and PGlite both accept.
import { sql } from "kysely";
import type { Kysely } from "kysely";
import type { Migration } from "../../../lib/db/migrate.ts";

export const visits: Migration = {
  async up(db: Kysely<any>) {
    // A code lives 2 minutes and serves once. Its row stays (used or expired) so that a second
    // attempt can be told why it fails; rows older than a day are purged (visits.ts).
    await db.schema
      .createTable("consumer_checkin_codes")
      .addColumn("code", "text", (c) => c.primaryKey().check(sql`code ~ '^[0-9A-HJKMNP-TV-Z]{6}$'`))
      .addColumn("consumer_id", "uuid", (c) => c.notNull().references("consumer_profiles.id").onDelete("cascade"))
      .addColumn("created_at", "timestamptz", (c) => c.notNull())
      .addColumn("expires_at", "timestamptz", (c) => c.notNull())
      .addColumn("used_at", "timestamptz")
      .addColumn("withdrawn_at", "timestamptz")
      .execute();
    await db.schema.createIndex("consumer_checkin_codes_consumer_idx").on("consumer_checkin_codes").column("consumer_id").execute();
    await db.schema.createIndex("consumer_checkin_codes_created_at_idx").on("consumer_checkin_codes").column("created_at").execute();

    await db.schema
      .createTable("consumer_visits")
      .addColumn("id", "uuid", (c) => c.primaryKey())
      .addColumn("consumer_id", "uuid", (c) => c.notNull().references("consumer_profiles.id").onDelete("cascade"))
      .addColumn("location_id", "text", (c) => c.notNull())
      .addColumn("location_name", "text", (c) => c.notNull())
      .addColumn("location_city", "text", (c) => c.notNull())
      .addColumn("location_state", "text", (c) => c.notNull())
      // The identity user id of the location administrator who entered the code.
      .addColumn("checked_by", "text", (c) => c.notNull())
      .addColumn("checked_at", "timestamptz", (c) => c.notNull())
      .addColumn("window_state", "text", (c) => c.notNull().check(sql`window_state in ('Strong', 'Weak', 'None')`))
      .addColumn("strong_safety_date", "timestamptz")
      .addColumn("weak_safety_date", "timestamptz")
      .addColumn("checked_in_at", "timestamptz")
      .addColumn("rating", "integer", (c) => c.check(sql`rating between 1 and 5`))
      .addColumn("rated_at", "timestamptz")
      .addCheckConstraint("consumer_visits_rated_check", sql`(rating is null) = (rated_at is null)`)
      .execute();
    await db.schema.createIndex("consumer_visits_consumer_idx").on("consumer_visits").columns(["consumer_id", "checked_at"]).execute();

    // The venue screens exist now: every profile made before them gets them, as new profiles do
    // (permissions.ts DEFAULT_SCREENS). A profile an operator narrowed (no SafeWindow row) is left as it is.
    for (const screen of ["MyFun", "Locations"]) {
      await sql`insert into consumer_screen_permissions (consumer_id, screen)
        select p.consumer_id, ${screen} from consumer_screen_permissions p
        where p.screen = 'SafeWindow'
          and not exists (select 1 from consumer_screen_permissions q where q.consumer_id = p.consumer_id and q.screen = ${screen})`.execute(db);
    }
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable("consumer_visits").ifExists().execute();
    await db.schema.dropTable("consumer_checkin_codes").ifExists().execute();
  },
};
