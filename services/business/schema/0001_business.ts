// The business API's tables (docs/venues.md "The business side"; contracts/business.ts): the
// application and its roles (rows written here: the product is one application with two roles),
// business users, hospitality groups, their locations, the roles given per location, subscriptions
// and invoices. Every table is prefixed business_ so that it can share a database with the identity
// authority and the consumer API. Only SQL that PostgreSQL 13+ and PGlite both accept.
import { sql } from "kysely";
import type { Kysely } from "kysely";
import type { Migration } from "../../../lib/db/migrate.ts";

export const business: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable("business_applications")
      .addColumn("id", "uuid", (c) => c.primaryKey())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("description", "text", (c) => c.notNull())
      .execute();
    await sql`create unique index business_applications_name_key on business_applications (lower(name))`.execute(db);

    await db.schema
      .createTable("business_application_roles")
      .addColumn("id", "uuid", (c) => c.primaryKey())
      .addColumn("application_id", "uuid", (c) => c.notNull().references("business_applications.id").onDelete("cascade"))
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("scope", "text", (c) => c.notNull().check(sql`scope in ('hospitalityGroup', 'location')`))
      .addUniqueConstraint("business_application_roles_name_key", ["application_id", "name"])
      .execute();

    // The product and its two roles, with fixed ids so that every installation names them alike.
    const applicationId = "5a1e7d0c-0000-4000-8000-000000000001";
    await db.insertInto("business_applications").values({ id: applicationId, name: "SafeWindow", description: "Safe windows from COVID-19 test results, checked at the door of a venue." }).execute();
    await db
      .insertInto("business_application_roles")
      .values([
        { id: "5a1e7d0c-0000-4000-8000-000000000011", application_id: applicationId, name: "Licensed Administrator", scope: "hospitalityGroup" },
        { id: "5a1e7d0c-0000-4000-8000-000000000012", application_id: applicationId, name: "Location Administrator", scope: "location" },
      ])
      .execute();

    // A person as the business side knows them: the token's subject and e-mail, and what they saved.
    await db.schema
      .createTable("business_users")
      .addColumn("identity_user_id", "text", (c) => c.primaryKey())
      .addColumn("email", "text")
      .addColumn("email_verified", "boolean", (c) => c.notNull().defaultTo(false))
      .addColumn("first_name", "text")
      .addColumn("last_name", "text")
      .addColumn("mobile_number", "text", (c) => c.check(sql`mobile_number ~ '^[0-9]{10}$'`))
      .addColumn("updated_at", "timestamptz", (c) => c.notNull())
      .execute();
    await sql`create index business_users_email_idx on business_users (lower(email))`.execute(db);

    await db.schema
      .createTable("business_hospitality_groups")
      .addColumn("id", "uuid", (c) => c.primaryKey())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("address", "text", (c) => c.notNull())
      .addColumn("city", "text", (c) => c.notNull())
      .addColumn("state", "text", (c) => c.notNull())
      .addColumn("postal_code", "text", (c) => c.notNull())
      .addColumn("phone", "text", (c) => c.notNull().check(sql`phone ~ '^[0-9]{10}$'`))
      .addColumn("billing_email", "text", (c) => c.notNull())
      .addColumn("created_at", "timestamptz", (c) => c.notNull())
      .execute();

    // A venue. The position serves the consumer API's search by distance (a bounding box on
    // latitude, then the exact distance), hence the index.
    await db.schema
      .createTable("business_locations")
      .addColumn("id", "uuid", (c) => c.primaryKey())
      .addColumn("hospitality_group_id", "uuid", (c) => c.notNull().references("business_hospitality_groups.id").onDelete("cascade"))
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("address", "text", (c) => c.notNull())
      .addColumn("city", "text", (c) => c.notNull())
      .addColumn("state", "text", (c) => c.notNull())
      .addColumn("postal_code", "text", (c) => c.notNull())
      .addColumn("phone", "text", (c) => c.notNull().check(sql`phone ~ '^[0-9]{10}$'`))
      .addColumn("latitude", "double precision", (c) => c.notNull().check(sql`latitude between -90 and 90`))
      .addColumn("longitude", "double precision", (c) => c.notNull().check(sql`longitude between -180 and 180`))
      .addColumn("created_at", "timestamptz", (c) => c.notNull())
      .addColumn("updated_at", "timestamptz", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("business_locations_group_idx").on("business_locations").column("hospitality_group_id").execute();
    await db.schema.createIndex("business_locations_position_idx").on("business_locations").columns(["latitude", "longitude"]).execute();

    // A role given to a person, named by e-mail address (lower case), in a group, and at one of its
    // locations for a location role. The person holds it once a token with that address, confirmed,
    // reaches the API. One row per person, role and place: the unique index treats a group role's
    // null location as one place.
    await db.schema
      .createTable("business_user_role_locations")
      .addColumn("id", "uuid", (c) => c.primaryKey())
      .addColumn("hospitality_group_id", "uuid", (c) => c.notNull().references("business_hospitality_groups.id").onDelete("cascade"))
      .addColumn("application_role_id", "uuid", (c) => c.notNull().references("business_application_roles.id"))
      .addColumn("email", "text", (c) => c.notNull().check(sql`email = lower(email)`))
      .addColumn("location_id", "uuid", (c) => c.references("business_locations.id").onDelete("cascade"))
      .addColumn("created_at", "timestamptz", (c) => c.notNull())
      .execute();
    await sql`create unique index business_user_role_locations_key on business_user_role_locations (hospitality_group_id, application_role_id, email, coalesce(location_id, '00000000-0000-0000-0000-000000000000'::uuid))`.execute(db);
    await db.schema.createIndex("business_user_role_locations_email_idx").on("business_user_role_locations").column("email").execute();
    await db.schema.createIndex("business_user_role_locations_location_idx").on("business_user_role_locations").column("location_id").execute();

    await db.schema
      .createTable("business_subscriptions")
      .addColumn("id", "uuid", (c) => c.primaryKey())
      .addColumn("hospitality_group_id", "uuid", (c) => c.notNull().references("business_hospitality_groups.id").onDelete("cascade"))
      .addColumn("plan", "text", (c) => c.notNull().check(sql`plan in ('monthly', 'annual')`))
      .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('active', 'past_due', 'paused', 'canceled')`))
      .addColumn("current_period_end", "timestamptz", (c) => c.notNull())
      .addColumn("created_at", "timestamptz", (c) => c.notNull())
      .addColumn("updated_at", "timestamptz", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("business_subscriptions_group_idx").on("business_subscriptions").columns(["hospitality_group_id", "created_at"]).execute();

    await db.schema
      .createTable("business_invoices")
      .addColumn("id", "uuid", (c) => c.primaryKey())
      .addColumn("subscription_id", "uuid", (c) => c.notNull().references("business_subscriptions.id").onDelete("cascade"))
      .addColumn("amount_cents", "integer", (c) => c.notNull().check(sql`amount_cents >= 0`))
      .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('paid', 'failed', 'void')`))
      .addColumn("attempts", "integer", (c) => c.notNull().check(sql`attempts >= 1`))
      .addColumn("period_start", "timestamptz", (c) => c.notNull())
      .addColumn("period_end", "timestamptz", (c) => c.notNull())
      .addColumn("created_at", "timestamptz", (c) => c.notNull())
      .addColumn("paid_at", "timestamptz")
      .addCheckConstraint("business_invoices_paid_at_check", sql`(status = 'paid') = (paid_at is not null)`)
      .execute();
    await db.schema.createIndex("business_invoices_subscription_idx").on("business_invoices").columns(["subscription_id", "created_at"]).execute();
  },
  async down(db: Kysely<any>) {
    for (const table of [
      "business_invoices",
      "business_subscriptions",
      "business_user_role_locations",
      "business_locations",
      "business_hospitality_groups",
      "business_users",
      "business_application_roles",
      "business_applications",
    ]) {
      await db.schema.dropTable(table).ifExists().execute();
    }
  },
};
