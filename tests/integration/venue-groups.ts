/**
 * Hospitality groups for the check-in tests, written into the business API's database as its seed
 * writes them (services/business/seed.ts): a group with an active subscription and `locations`
 * locations in Seattle, and administrators given by e-mail address (a licensed administrator of the
 * whole group, or a location administrator of one location). Each call makes a new group, so that
 * counters keyed by group and location start from nothing.
 */
import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { roleNames } from "../../contracts/business.ts";
import type { BusinessDatabase } from "../../services/business/schema/tables.ts";
import { zipCentre } from "../../services/shared/places.ts";

export interface TestGroup {
  groupId: string;
  locationIds: string[];
  /** Gives `email` (a confirmed account's) the licensed administrator role of the group, or the location administrator role of `locationId`. */
  addAdministrator(email: string, locationId?: string): Promise<void>;
}

/** A new group in service with `locations` locations (docs/venues.md "The business side", "Subscriptions"). */
export async function newGroup(db: Kysely<BusinessDatabase>, locations: number): Promise<TestGroup> {
  const now = new Date();
  const groupId = randomUUID();
  const centre = zipCentre("98101");
  if (!centre) throw new Error("the ZIP code table does not know 98101");
  await db
    .insertInto("business_hospitality_groups")
    .values({ id: groupId, name: `Test Group ${groupId.slice(0, 8)}`, address: "1 Test Way", city: "Seattle", state: "WA", postal_code: "98101", phone: "2065550100", billing_email: "billing@example.com", created_at: now })
    .execute();
  await db
    .insertInto("business_subscriptions")
    .values({ id: randomUUID(), hospitality_group_id: groupId, plan: "monthly", status: "active", current_period_end: new Date(now.getTime() + 30 * 86_400_000), created_at: now, updated_at: now })
    .execute();
  const locationIds = Array.from({ length: locations }, () => randomUUID());
  await db
    .insertInto("business_locations")
    .values(locationIds.map((id, i) => ({ id, hospitality_group_id: groupId, name: `Test Venue ${i + 1}`, address: `${i + 1} Test Way`, city: "Seattle", state: "WA", postal_code: "98101", phone: "2065550101", ...centre, created_at: now, updated_at: now })))
    .execute();
  return {
    groupId,
    locationIds,
    async addAdministrator(email, locationId) {
      const name = locationId === undefined ? roleNames.licensedAdministrator : roleNames.locationAdministrator;
      const role = await db.selectFrom("business_application_roles").select("id").where("name", "=", name).executeTakeFirstOrThrow();
      await db
        .insertInto("business_user_role_locations")
        .values({ id: randomUUID(), hospitality_group_id: groupId, application_role_id: role.id, email: email.toLowerCase(), location_id: locationId ?? null, created_at: new Date() })
        .execute();
    },
  };
}
