// Sample venues (docs/venues.md "Sample venues"): one hospitality group with a handful of locations in
// several US cities, an active subscription with its paid first invoice, and a licensed administrator
// named by e-mail address (who holds the role once signed in with that address confirmed). Written by
// `npm run seed:venues -- EMAIL` (seed-cli.ts), never on start. Running it again changes nothing:
// every row has a fixed id.
import type { Kysely } from "kysely";
import { plans, roleNames } from "../../contracts/business.ts";
import { addMonths } from "./billing.ts";
import { zipCentre } from "../shared/places.ts";
import type { BusinessDatabase } from "./schema/tables.ts";

/** The sample group's id (fixed, so that a second run finds it). */
export const SAMPLE_GROUP_ID = "5a1e7d0c-5eed-4000-8000-000000000100";

/** The sample venues: fictional names and street addresses in real ZIP codes (positioned at the ZIP code's centre). */
export const SAMPLE_VENUES = [
  { id: "5a1e7d0c-5eed-4000-8000-000000000101", name: "Harborview Taproom", address: "1301 Alaskan Way", city: "Seattle", state: "WA", postalCode: "98101", phone: "2065550141" },
  { id: "5a1e7d0c-5eed-4000-8000-000000000102", name: "Capitol Hill Music Hall", address: "915 E Pine St", city: "Seattle", state: "WA", postalCode: "98122", phone: "2065550142" },
  { id: "5a1e7d0c-5eed-4000-8000-000000000103", name: "Pearl District Supper Club", address: "1122 NW Glisan St", city: "Portland", state: "OR", postalCode: "97209", phone: "5035550143" },
  { id: "5a1e7d0c-5eed-4000-8000-000000000104", name: "Mission Street Cantina", address: "2534 Mission St", city: "San Francisco", state: "CA", postalCode: "94110", phone: "4155550144" },
  { id: "5a1e7d0c-5eed-4000-8000-000000000105", name: "Chelsea Rooftop Lounge", address: "210 W 21st St", city: "New York", state: "NY", postalCode: "10011", phone: "2125550145" },
  { id: "5a1e7d0c-5eed-4000-8000-000000000106", name: "Wicker Park Bowl", address: "1544 N Milwaukee Ave", city: "Chicago", state: "IL", postalCode: "60622", phone: "3125550146" },
  { id: "5a1e7d0c-5eed-4000-8000-000000000107", name: "South Congress Dance Hall", address: "1400 S Congress Ave", city: "Austin", state: "TX", postalCode: "78704", phone: "5125550147" },
] as const;

/** What a seed run did: the rows it added (0 on a second run). */
export interface SeedOutcome {
  groupCreated: boolean;
  locationsAdded: number;
  administratorAdded: boolean;
}

/**
 * Writes the sample group, its locations, subscription and first invoice, and gives `adminEmail` the
 * licensed administrator role, each only when missing, in one transaction.
 * @throws Error when a sample ZIP code is not in the ZIP code table (a broken package install)
 */
export async function seedVenues(db: Kysely<BusinessDatabase>, adminEmail: string, now: Date = new Date()): Promise<SeedOutcome> {
  const email = adminEmail.trim().toLowerCase();
  return db.transaction().execute(async (trx) => {
    const group = await trx
      .insertInto("business_hospitality_groups")
      .values({ id: SAMPLE_GROUP_ID, name: "SafeWindow Sample Venues", address: "1301 Alaskan Way", city: "Seattle", state: "WA", postal_code: "98101", phone: "2065550140", billing_email: email, created_at: now })
      .onConflict((oc) => oc.column("id").doNothing())
      .returning("id")
      .executeTakeFirst();
    if (group) {
      const periodEnd = addMonths(now, plans.monthly.months);
      const subscriptionId = "5a1e7d0c-5eed-4000-8000-000000000200";
      await trx.insertInto("business_subscriptions").values({ id: subscriptionId, hospitality_group_id: SAMPLE_GROUP_ID, plan: "monthly", status: "active", current_period_end: periodEnd, created_at: now, updated_at: now }).execute();
      await trx
        .insertInto("business_invoices")
        .values({ id: "5a1e7d0c-5eed-4000-8000-000000000201", subscription_id: subscriptionId, amount_cents: plans.monthly.priceCents, status: "paid", attempts: 1, period_start: now, period_end: periodEnd, created_at: now, paid_at: now })
        .execute();
    }
    let locationsAdded = 0;
    for (const venue of SAMPLE_VENUES) {
      const position = zipCentre(venue.postalCode);
      if (!position) throw new Error(`the ZIP code table does not know ${venue.postalCode}`);
      const added = await trx
        .insertInto("business_locations")
        .values({ id: venue.id, hospitality_group_id: SAMPLE_GROUP_ID, name: venue.name, address: venue.address, city: venue.city, state: venue.state, postal_code: venue.postalCode, phone: venue.phone, ...position, created_at: now, updated_at: now })
        .onConflict((oc) => oc.column("id").doNothing())
        .returning("id")
        .executeTakeFirst();
      if (added) locationsAdded += 1;
    }
    const role = await trx.selectFrom("business_application_roles").select("id").where("name", "=", roleNames.licensedAdministrator).executeTakeFirstOrThrow();
    const admin = await trx
      .insertInto("business_user_role_locations")
      .values({ id: crypto.randomUUID(), hospitality_group_id: SAMPLE_GROUP_ID, application_role_id: role.id, email, location_id: null, created_at: now })
      .onConflict((oc) => oc.doNothing())
      .returning("id")
      .executeTakeFirst();
    return { groupCreated: group !== undefined, locationsAdded, administratorAdded: admin !== undefined };
  });
}
