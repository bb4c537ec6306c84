// Consumer API, first schema: profiles (docs/product/data.md §3 Consumer) and the screens each consumer may
// use (docs/product/data.md §6). Only SQL that PostgreSQL 13+ and PGlite both accept.
import { sql } from "kysely";
import type { Kysely } from "kysely";
import type { Migration } from "../../../lib/db/migrate.ts";

export const profiles: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable("consumer_profiles")
      .addColumn("id", "uuid", (c) => c.primaryKey())
      .addColumn("identity_user_id", "text", (c) => c.notNull())
      .addColumn("first_name", "text", (c) => c.notNull())
      .addColumn("middle_name", "text")
      .addColumn("last_name", "text", (c) => c.notNull())
      .addColumn("dob", "date", (c) => c.notNull())
      .addColumn("postal_code", "text", (c) => c.notNull())
      .addColumn("marketing_opt_out", "boolean", (c) => c.notNull().defaultTo(false))
      .addColumn("health_updates_opt_out", "boolean", (c) => c.notNull().defaultTo(false))
      .addColumn("safe_window_id", "text", (c) => c.notNull().check(sql`safe_window_id ~ '^[0-9A-HJKMNP-TV-Z]{8}$'`))
      .addColumn("latitude", "double precision", (c) => c.check(sql`latitude between -90 and 90`))
      .addColumn("longitude", "double precision", (c) => c.check(sql`longitude between -180 and 180`))
      .addColumn("strong_safety_date", "timestamptz")
      .addColumn("weak_safety_date", "timestamptz")
      .addColumn("safe_window_description", "text")
      .addColumn("created_at", "timestamptz", (c) => c.notNull())
      .addColumn("updated_at", "timestamptz", (c) => c.notNull())
      .addUniqueConstraint("consumer_profiles_identity_user_id_key", ["identity_user_id"])
      // Product IDs are never reused: profiles are not deleted, and this keeps any two apart.
      .addUniqueConstraint("consumer_profiles_safe_window_id_key", ["safe_window_id"])
      .execute();

    await db.schema
      .createTable("consumer_screen_permissions")
      .addColumn("consumer_id", "uuid", (c) => c.notNull().references("consumer_profiles.id").onDelete("cascade"))
      .addColumn("screen", "text", (c) =>
        c.notNull().check(sql`screen in ('SafeWindow', 'MyTests', 'MyFun', 'Locations', 'Settings', 'Friends')`),
      )
      .addPrimaryKeyConstraint("consumer_screen_permissions_pkey", ["consumer_id", "screen"])
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable("consumer_screen_permissions").ifExists().execute();
    await db.schema.dropTable("consumer_profiles").ifExists().execute();
  },
};
