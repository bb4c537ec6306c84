// Hospitality groups, their locations and the roles given in them (docs/venues.md "The business
// side", "Roles"; contracts/business.ts). Who may do what:
// - anyone with a role in a group reads the group; for anyone else the group does not exist (404);
// - a licensed administrator of a group lists and changes its roles and locations, and its billing
//   (billing.ts); a member with a smaller role gets 403;
// - a location administrator of a location, or a licensed administrator of its group, administers
//   the location (the consumer API asks before a check-in).
// A role is held by the person whose confirmed e-mail address it was given to (users.ts heldEmail).
// Changes to a group's roles run in a transaction that locks the group's row first, so two
// administrators taking each other's role at once cannot leave the group without one.
import { randomUUID } from "node:crypto";
import type { ExpressionBuilder, Kysely, Selectable, Transaction } from "kysely";
import { roleNames, searchLimit } from "../../contracts/business.ts";
import type {
  Application,
  ApplicationRole,
  BuildAndCreateRequest,
  HospitalityGroup,
  LicensedAdministrator,
  Location,
  LocationAdministrator,
  LocationFields,
  LocationHit,
  UpdateRoleLocationRequest,
  UserRoleLocation,
} from "../../contracts/business.ts";
import type { AuthenticatedUser } from "../shared/auth.ts";
import { BusinessError } from "./errors.ts";
import { isUuid } from "../shared/ids.ts";
import { boundsWithin, distanceMiles, zipCentre } from "../shared/places.ts";
import type { BusinessDatabase, BusinessLocationsTable } from "./schema/tables.ts";
import { heldEmail } from "./users.ts";

type Db = Kysely<BusinessDatabase>;
type LocationRow = Selectable<BusinessLocationsTable>;

const noGroup = () => new BusinessError("not_found", "No such hospitality group.");

// ---------------------------------------------------------------- shapes

/** A location row as the contract answers it. */
export function locationOf(row: LocationRow): Location {
  return {
    locationId: row.id,
    hospitalityGroupId: row.hospitality_group_id,
    name: row.name,
    address: row.address,
    city: row.city,
    state: row.state,
    postalCode: row.postal_code,
    phone: row.phone,
    latitude: row.latitude,
    longitude: row.longitude,
  };
}

async function groupsWithLocations(db: Db, ids: readonly string[]): Promise<HospitalityGroup[]> {
  if (ids.length === 0) return [];
  const groups = await db.selectFrom("business_hospitality_groups").selectAll().where("id", "in", ids).orderBy("name").orderBy("id").execute();
  const locations = await db.selectFrom("business_locations").selectAll().where("hospitality_group_id", "in", ids).orderBy("name").orderBy("id").execute();
  return groups.map((g) => ({
    hospitalityGroupId: g.id,
    name: g.name,
    address: g.address,
    city: g.city,
    state: g.state,
    postalCode: g.postal_code,
    phone: g.phone,
    locations: locations.filter((l) => l.hospitality_group_id === g.id).map(locationOf),
  }));
}

// ---------------------------------------------------------------- who holds what

interface HeldRole {
  hospitalityGroupId: string;
  roleName: string;
  locationId: string | null;
}

/** The roles the user holds (none without a confirmed e-mail address). */
async function heldRoles(db: Db, user: AuthenticatedUser): Promise<HeldRole[]> {
  const email = heldEmail(user);
  if (!email) return [];
  const rows = await db
    .selectFrom("business_user_role_locations as url")
    .innerJoin("business_application_roles as r", "r.id", "url.application_role_id")
    .select(["url.hospitality_group_id", "r.name", "url.location_id"])
    .where("url.email", "=", email)
    .execute();
  return rows.map((row) => ({ hospitalityGroupId: row.hospitality_group_id, roleName: row.name, locationId: row.location_id }));
}

/** The groups the user is a licensed administrator of. */
async function licensedGroupIds(db: Db, user: AuthenticatedUser): Promise<string[]> {
  return [...new Set((await heldRoles(db, user)).filter((r) => r.roleName === roleNames.licensedAdministrator).map((r) => r.hospitalityGroupId))];
}

/**
 * Checks that the user is a licensed administrator of the group.
 * @throws BusinessError not_found when they hold no role in it (or it does not exist); forbidden when they hold a smaller one
 */
export async function requireLicensed(db: Db, user: AuthenticatedUser, hospitalityGroupId: string): Promise<void> {
  const roles = (await heldRoles(db, user)).filter((r) => r.hospitalityGroupId === hospitalityGroupId);
  if (roles.length === 0) throw noGroup();
  if (!roles.some((r) => r.roleName === roleNames.licensedAdministrator)) {
    throw new BusinessError("forbidden", "Only a licensed administrator of this hospitality group may do this.");
  }
}

/** GET isuserlicensedadministrator. */
export async function licensedAdministrator(db: Db, user: AuthenticatedUser): Promise<LicensedAdministrator> {
  const ids = await licensedGroupIds(db, user);
  return { isLicensedAdministrator: ids.length > 0, hospitalityGroupIds: ids.sort() };
}

/**
 * GET isuserlocationadministrator: the locations in service the user administers (a location role there,
 * or a licensed administrator of its group), by name; only `locationId` when it is given.
 */
export async function locationAdministrator(db: Db, user: AuthenticatedUser, locationId?: string): Promise<LocationAdministrator> {
  const roles = await heldRoles(db, user);
  const groups = roles.filter((r) => r.roleName === roleNames.licensedAdministrator).map((r) => r.hospitalityGroupId);
  const places = roles.filter((r) => r.roleName === roleNames.locationAdministrator && r.locationId !== null).map((r) => r.locationId as string);
  if (groups.length === 0 && places.length === 0) return { isLocationAdministrator: false, locations: [] };
  let query = db
    .selectFrom("business_locations")
    .selectAll()
    .where((eb) => eb.or([...(groups.length ? [eb("hospitality_group_id", "in", groups)] : []), ...(places.length ? [eb("id", "in", places)] : [])]))
    .where(inService);
  if (locationId !== undefined) query = query.where("id", "=", locationId);
  const rows = await query.orderBy("name").orderBy("id").execute();
  return { isLocationAdministrator: rows.length > 0, locations: rows.map(locationOf) };
}

/**
 * Locations in service: of a group whose subscription is active or past due (docs/venues.md
 * "Subscriptions"). A paused or canceled group's venues are not found and check nobody in.
 */
function inService(eb: ExpressionBuilder<BusinessDatabase, "business_locations">) {
  return eb.exists(
    eb
      .selectFrom("business_subscriptions as s")
      .select("s.id")
      .whereRef("s.hospitality_group_id", "=", "business_locations.hospitality_group_id")
      .where("s.status", "in", ["active", "past_due"]),
  );
}

/**
 * GET /location/search/ (extension): every location within `miles` of `centre`, nearest first, at
 * most `searchLimit` (contracts/business.ts), with its distance to 0.1 mile. The position index
 * narrows to the bounding box; the great-circle distance decides.
 */
export async function searchLocations(db: Db, centre: { latitude: number; longitude: number }, miles: number): Promise<LocationHit[]> {
  const box = boundsWithin(centre, miles);
  const rows = await db
    .selectFrom("business_locations")
    .selectAll()
    .where(inService)
    .where("latitude", ">=", box.south)
    .where("latitude", "<=", box.north)
    // A box across the 180th meridian has its west edge east of its east edge.
    .where((eb) => (box.west <= box.east ? eb.and([eb("longitude", ">=", box.west), eb("longitude", "<=", box.east)]) : eb.or([eb("longitude", ">=", box.west), eb("longitude", "<=", box.east)])))
    .execute();
  return rows
    .map((row) => ({ ...locationOf(row), distanceMiles: Math.round(distanceMiles(centre, row) * 10) / 10 }))
    .filter((hit) => hit.distanceMiles <= miles)
    .sort((a, b) => a.distanceMiles - b.distanceMiles || a.name.localeCompare(b.name) || a.locationId.localeCompare(b.locationId))
    .slice(0, searchLimit);
}

// ---------------------------------------------------------------- groups, applications

/**
 * GET /hospitalitygroup/: the group with its locations.
 * @throws BusinessError not_found when the user holds no role in it
 */
export async function getHospitalityGroup(db: Db, user: AuthenticatedUser, hospitalityGroupId: string): Promise<HospitalityGroup> {
  if (!(await heldRoles(db, user)).some((r) => r.hospitalityGroupId === hospitalityGroupId)) throw noGroup();
  const [group] = await groupsWithLocations(db, [hospitalityGroupId]);
  if (!group) throw noGroup();
  return group;
}

/** GET getadministratorhospitalitygroups: the groups the user is a licensed administrator of, by name. */
export async function administratorGroups(db: Db, user: AuthenticatedUser): Promise<HospitalityGroup[]> {
  return groupsWithLocations(db, await licensedGroupIds(db, user));
}

/**
 * GET /application/getbyname: exact name, any case.
 * @throws BusinessError not_found
 */
export async function applicationByName(db: Db, name: string): Promise<Application> {
  const row = await db
    .selectFrom("business_applications")
    .selectAll()
    .where((eb) => eb(eb.fn("lower", ["name"]), "=", name.toLowerCase()))
    .executeTakeFirst();
  if (!row) throw new BusinessError("not_found", "No application of that name.");
  return { applicationId: row.id, name: row.name, description: row.description };
}

/**
 * GET getapplicationroles, by name.
 * @throws BusinessError not_found for an unknown application
 */
export async function applicationRoles(db: Db, applicationId: string): Promise<ApplicationRole[]> {
  if (!isUuid(applicationId)) throw new BusinessError("not_found", "No such application.");
  const app = await db.selectFrom("business_applications").select("id").where("id", "=", applicationId).executeTakeFirst();
  if (!app) throw new BusinessError("not_found", "No such application.");
  const rows = await db.selectFrom("business_application_roles").selectAll().where("application_id", "=", applicationId).orderBy("name").execute();
  return rows.map((r) => ({ applicationRoleId: r.id, name: r.name, scope: r.scope }));
}

// ---------------------------------------------------------------- roles in a group

async function assignmentsOf(db: Db | Transaction<BusinessDatabase>, where: { groupId?: string; id?: string }): Promise<UserRoleLocation[]> {
  let query = db
    .selectFrom("business_user_role_locations as url")
    .innerJoin("business_application_roles as r", "r.id", "url.application_role_id")
    .leftJoin("business_locations as l", "l.id", "url.location_id")
    .select([
      "url.id",
      "url.hospitality_group_id",
      "url.email",
      "url.application_role_id",
      "r.name as role_name",
      "url.location_id",
      "l.name as location_name",
      "url.created_at",
    ]);
  if (where.groupId !== undefined) query = query.where("url.hospitality_group_id", "=", where.groupId);
  if (where.id !== undefined) query = query.where("url.id", "=", where.id);
  const rows = await query.orderBy("url.email").orderBy("r.name").orderBy("l.name").orderBy("url.id").execute();
  // The holders' names: from the newest user record that has the address confirmed.
  const emails = [...new Set(rows.map((row) => row.email))];
  const names = new Map<string, { first_name: string | null; last_name: string | null }>();
  if (emails.length > 0) {
    const users = await db
      .selectFrom("business_users")
      .select([(eb) => eb.fn<string>("lower", ["email"]).as("email_lower"), "first_name", "last_name"])
      .where("email_verified", "=", true)
      .where((eb) => eb(eb.fn("lower", ["email"]), "in", emails))
      .orderBy("updated_at", "desc")
      .execute();
    for (const user of users) if (!names.has(user.email_lower)) names.set(user.email_lower, user);
  }
  return rows.map((row) => ({
    applicationUserRoleLocationId: row.id,
    hospitalityGroupId: row.hospitality_group_id,
    email: row.email,
    firstName: names.get(row.email)?.first_name ?? null,
    lastName: names.get(row.email)?.last_name ?? null,
    applicationRoleId: row.application_role_id,
    roleName: row.role_name,
    locationId: row.location_id,
    locationName: row.location_name ?? null,
    createdAt: row.created_at.toISOString(),
  }));
}

/**
 * GET getusersandroles.
 * @throws BusinessError not_found / forbidden (requireLicensed)
 */
export async function usersAndRoles(db: Db, user: AuthenticatedUser, hospitalityGroupId: string): Promise<UserRoleLocation[]> {
  await requireLicensed(db, user, hospitalityGroupId);
  return assignmentsOf(db, { groupId: hospitalityGroupId });
}

/** Locks the group's row for the rest of the transaction (role changes of one group run one at a time). */
async function lockGroup(trx: Transaction<BusinessDatabase>, hospitalityGroupId: string): Promise<void> {
  const row = await trx.selectFrom("business_hospitality_groups").select("id").where("id", "=", hospitalityGroupId).forUpdate().executeTakeFirst();
  if (!row) throw noGroup();
}

async function roleById(trx: Transaction<BusinessDatabase>, applicationRoleId: string) {
  const role = isUuid(applicationRoleId) ? await trx.selectFrom("business_application_roles").selectAll().where("id", "=", applicationRoleId).executeTakeFirst() : undefined;
  if (!role) throw new BusinessError("not_found", "No such application role.");
  return role;
}

async function locationOfGroup(trx: Transaction<BusinessDatabase>, hospitalityGroupId: string, locationId: string): Promise<LocationRow> {
  const row = isUuid(locationId)
    ? await trx.selectFrom("business_locations").selectAll().where("id", "=", locationId).where("hospitality_group_id", "=", hospitalityGroupId).executeTakeFirst()
    : undefined;
  if (!row) throw new BusinessError("not_found", "No such location in this hospitality group.");
  return row;
}

/**
 * The position of a location: the one given (latitude and longitude both), else its ZIP code's centre.
 * @throws BusinessError invalid_request for one coordinate without the other; unknown_postal_code
 */
function positionOf(fields: { postalCode: string; latitude?: number | undefined; longitude?: number | undefined }): { latitude: number; longitude: number } {
  if ((fields.latitude === undefined) !== (fields.longitude === undefined)) {
    throw new BusinessError("invalid_request", "Give both latitude and longitude, or neither.");
  }
  if (fields.latitude !== undefined && fields.longitude !== undefined) return { latitude: fields.latitude, longitude: fields.longitude };
  const centre = zipCentre(fields.postalCode);
  if (!centre) throw new BusinessError("unknown_postal_code", `The ZIP code ${fields.postalCode} is not a known US ZIP code; give the location's latitude and longitude.`);
  return centre;
}

/** Builds a new location of the group (position from positionOf). */
export async function insertLocation(trx: Kysely<BusinessDatabase>, hospitalityGroupId: string, fields: LocationFields, now: Date): Promise<LocationRow> {
  const position = positionOf(fields);
  return trx
    .insertInto("business_locations")
    .values({
      id: randomUUID(),
      hospitality_group_id: hospitalityGroupId,
      name: fields.name,
      address: fields.address,
      city: fields.city,
      state: fields.state,
      postal_code: fields.postalCode,
      phone: fields.phone,
      ...position,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

async function insertAssignment(
  trx: Transaction<BusinessDatabase>,
  values: { hospitalityGroupId: string; applicationRoleId: string; email: string; locationId: string | null },
  now: Date,
): Promise<string> {
  const id = randomUUID();
  const inserted = await trx
    .insertInto("business_user_role_locations")
    .values({ id, hospitality_group_id: values.hospitalityGroupId, application_role_id: values.applicationRoleId, email: values.email, location_id: values.locationId, created_at: now })
    .onConflict((oc) => oc.doNothing())
    .returning("id")
    .executeTakeFirst();
  if (!inserted) throw new BusinessError("duplicate", "This person already holds this role there.");
  return id;
}

/**
 * POST buildandcreate: gives the role to the e-mail address in the group; for a location role, at
 * the existing location named or at a new one built from `location`, in one transaction.
 * @throws BusinessError not_found / forbidden (requireLicensed, unknown role or location),
 *   invalid_request (a location role without a place, a group role with one), duplicate, unknown_postal_code
 */
export async function buildAndCreate(db: Db, user: AuthenticatedUser, body: BuildAndCreateRequest, now: Date): Promise<UserRoleLocation> {
  if (!isUuid(body.hospitalityGroupId)) throw noGroup();
  await requireLicensed(db, user, body.hospitalityGroupId);
  const id = await db.transaction().execute(async (trx) => {
    await lockGroup(trx, body.hospitalityGroupId);
    const role = await roleById(trx, body.applicationRoleId);
    let locationId: string | null = null;
    if (role.scope === "location") {
      if (body.locationId !== undefined) locationId = (await locationOfGroup(trx, body.hospitalityGroupId, body.locationId)).id;
      else if (body.location !== undefined) locationId = (await insertLocation(trx, body.hospitalityGroupId, body.location, now)).id;
      else throw new BusinessError("invalid_request", `A ${role.name} needs a location: give locationId or location.`);
    } else if (body.locationId !== undefined || body.location !== undefined) {
      throw new BusinessError("invalid_request", `A ${role.name} covers the whole group: give no location.`);
    }
    return insertAssignment(trx, { hospitalityGroupId: body.hospitalityGroupId, applicationRoleId: role.id, email: body.email.toLowerCase(), locationId }, now);
  });
  const [created] = await assignmentsOf(db, { id });
  return created as UserRoleLocation;
}

/** Finds an assignment the user may change: of a group they are a licensed administrator of. */
async function assignmentForChange(db: Db, user: AuthenticatedUser, applicationUserRoleLocationId: string) {
  const row = isUuid(applicationUserRoleLocationId)
    ? await db.selectFrom("business_user_role_locations").selectAll().where("id", "=", applicationUserRoleLocationId).executeTakeFirst()
    : undefined;
  if (!row) throw new BusinessError("not_found", "No such role assignment.");
  try {
    await requireLicensed(db, user, row.hospitality_group_id);
  } catch (err) {
    if (err instanceof BusinessError && err.code === "not_found") throw new BusinessError("not_found", "No such role assignment.");
    throw err;
  }
  return row;
}

/** The licensed administrators of a group who hold the role (a confirmed address), inside its lock. */
async function licensedCount(trx: Transaction<BusinessDatabase>, hospitalityGroupId: string): Promise<number> {
  const row = await trx
    .selectFrom("business_user_role_locations as url")
    .innerJoin("business_application_roles as r", "r.id", "url.application_role_id")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("url.hospitality_group_id", "=", hospitalityGroupId)
    .where("r.name", "=", roleNames.licensedAdministrator)
    // Only an address someone has confirmed holds the role: a role given to a typo keeps nobody in charge.
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom("business_users as u")
          .select("u.identity_user_id")
          .where("u.email_verified", "=", true)
          .where((inner) => inner(inner.fn("lower", ["u.email"]), "=", inner.ref("url.email"))),
      ),
    )
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * POST update: a new role or location for the assignment, and/or changes to its location's fields
 * (a new ZIP code without a position moves the location to the ZIP code's centre).
 * @throws BusinessError not_found / forbidden, invalid_request, duplicate, last_administrator, unknown_postal_code
 */
export async function updateRoleLocation(db: Db, user: AuthenticatedUser, body: UpdateRoleLocationRequest, now: Date): Promise<UserRoleLocation> {
  const current = await assignmentForChange(db, user, body.applicationUserRoleLocationId);
  await db.transaction().execute(async (trx) => {
    await lockGroup(trx, current.hospitality_group_id);
    const row = await trx.selectFrom("business_user_role_locations").selectAll().where("id", "=", current.id).executeTakeFirst();
    if (!row) throw new BusinessError("not_found", "No such role assignment.");
    const oldRole = await roleById(trx, row.application_role_id);
    const role = body.applicationRoleId !== undefined ? await roleById(trx, body.applicationRoleId) : oldRole;
    let locationId = row.location_id;
    if (role.scope === "location") {
      if (body.locationId !== undefined) locationId = (await locationOfGroup(trx, row.hospitality_group_id, body.locationId)).id;
      if (locationId === null) throw new BusinessError("invalid_request", `A ${role.name} needs a location: give locationId.`);
    } else {
      if (body.locationId !== undefined || body.location !== undefined) throw new BusinessError("invalid_request", `A ${role.name} covers the whole group: give no location.`);
      locationId = null;
    }
    if (oldRole.name === roleNames.licensedAdministrator && role.name !== roleNames.licensedAdministrator && (await licensedCount(trx, row.hospitality_group_id)) <= 1) {
      throw new BusinessError("last_administrator", "A hospitality group keeps at least one licensed administrator.");
    }
    if (role.id !== row.application_role_id || locationId !== row.location_id) {
      const clash = await trx
        .selectFrom("business_user_role_locations")
        .select("id")
        .where("hospitality_group_id", "=", row.hospitality_group_id)
        .where("application_role_id", "=", role.id)
        .where("email", "=", row.email)
        .where((eb) => (locationId === null ? eb("location_id", "is", null) : eb("location_id", "=", locationId)))
        .where("id", "<>", row.id)
        .executeTakeFirst();
      if (clash) throw new BusinessError("duplicate", "This person already holds this role there.");
      await trx.updateTable("business_user_role_locations").set({ application_role_id: role.id, location_id: locationId }).where("id", "=", row.id).execute();
    }
    if (body.location !== undefined && locationId !== null) {
      const place = await locationOfGroup(trx, row.hospitality_group_id, locationId);
      const changes = body.location;
      const postalCode = changes.postalCode ?? place.postal_code;
      const moved = changes.latitude !== undefined || changes.longitude !== undefined || changes.postalCode !== undefined;
      await trx
        .updateTable("business_locations")
        .set({
          ...(changes.name !== undefined ? { name: changes.name } : {}),
          ...(changes.address !== undefined ? { address: changes.address } : {}),
          ...(changes.city !== undefined ? { city: changes.city } : {}),
          ...(changes.state !== undefined ? { state: changes.state } : {}),
          ...(changes.phone !== undefined ? { phone: changes.phone } : {}),
          ...(moved ? { postal_code: postalCode, ...positionOf({ postalCode, latitude: changes.latitude, longitude: changes.longitude }) } : {}),
          updated_at: now,
        })
        .where("id", "=", place.id)
        .execute();
    }
  });
  const [updated] = await assignmentsOf(db, { id: current.id });
  return updated as UserRoleLocation;
}

/**
 * POST delete: takes the role back (the location stays).
 * @throws BusinessError not_found / forbidden, last_administrator
 */
export async function deleteRoleLocation(db: Db, user: AuthenticatedUser, applicationUserRoleLocationId: string): Promise<void> {
  const current = await assignmentForChange(db, user, applicationUserRoleLocationId);
  await db.transaction().execute(async (trx) => {
    await lockGroup(trx, current.hospitality_group_id);
    const row = await trx.selectFrom("business_user_role_locations").selectAll().where("id", "=", current.id).executeTakeFirst();
    if (!row) return; // taken back meanwhile: the same end
    const role = await roleById(trx, row.application_role_id);
    if (role.name === roleNames.licensedAdministrator && (await licensedCount(trx, row.hospitality_group_id)) <= 1) {
      throw new BusinessError("last_administrator", "A hospitality group keeps at least one licensed administrator.");
    }
    await trx.deleteFrom("business_user_role_locations").where("id", "=", row.id).execute();
  });
}
