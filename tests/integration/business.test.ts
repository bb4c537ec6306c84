// The reference business API over real HTTP (docs/product/calls.md §7.3; docs/venues.md; contracts/business.ts),
// with a real identity authority issuing the tokens: every call, and who may make it. A role is given
// to an e-mail address and held only once that address is confirmed; a group is invisible (404) to
// anyone without a role in it, and a smaller role gets 403. Every answer goes through contractFetch,
// so each is also checked against its contract. Also: the group's last licensed administrator stays
// when two take each other's role at once, invoice retries are idempotent under concurrency, and the
// records survive a restart of the service. And the seed command of the sample venues.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { plans } from "../../contracts/business.ts";
import { lockDataDir } from "../../lib/data-dir-lock.ts";
import { createDatabase } from "../../lib/db/database.ts";
import { SAMPLE_GROUP_ID, SAMPLE_VENUES } from "../../services/business/seed.ts";
import { startBusinessService } from "../../services/business/server.ts";
import type { BusinessService } from "../../services/business/server.ts";
import { accessToken, confirmAddress, contractFetch, json, makeUser, startServices } from "./support.ts";
import type { NewAccount, Services, TestUser } from "./support.ts";
import { root } from "./server-process.ts";

const CLIENT = { clientId: "safewindow-web", clientSecret: "business-test-secret-0123456789abc" };

let services: Services;
let business: BusinessService;
let businessDir: string;

const startBusiness = () => startBusinessService({ dataDir: businessDir, identityUrl: services.identityUrl, identityIssuer: services.identity.issuer, logger: pino({ level: "silent" }) });

beforeAll(async () => {
  services = await startServices({ client: CLIENT, tmpPrefix: "business-", pinIssuer: true });
  businessDir = await mkdtemp(path.join(tmpdir(), "business-api-"));
  business = await startBusiness();
}, 60_000);

afterAll(async () => {
  await business?.close();
  await services?.close();
  if (businessDir) await rm(businessDir, { recursive: true, force: true });
});

// ---------------------------------------------------------------- helpers

interface Answer {
  status: number;
  body: any;
}

/** A call to the business API as `who` (a user, a raw token, or nobody); JSON body for a POST. */
async function call(who: TestUser | string | null, method: "GET" | "POST", pathAndQuery: string, body?: unknown): Promise<Answer> {
  const headers: Record<string, string> = {};
  const token = typeof who === "string" ? who : who?.token;
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await contractFetch(`${business.url}${pathAndQuery}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  return { status: res.status, body: await json(res) };
}

const get = (who: TestUser | string | null, pathAndQuery: string) => call(who, "GET", pathAndQuery);
const post = (who: TestUser | string | null, pathAndQuery: string, body: unknown) => call(who, "POST", pathAndQuery, body);

let counter = 0;
/** A fresh account; confirmed unless told otherwise (roles are held by confirmed addresses only). */
function newUser(account: NewAccount = {}): Promise<TestUser> {
  counter += 1;
  return makeUser(services, { email: `Venue.Person${counter}.${randomUUID().slice(0, 6)}@Example.com`, confirmed: true, ...account });
}

const VENUE = { businessName: "Harbor Lights Hospitality", address: "1201 Alaskan Way", city: "Seattle", state: "WA", postalCode: "98101", phone: "2065550100", plan: "monthly" };
const LOCATION = { name: "Pier 57 Taproom", address: "1301 Alaskan Way", city: "Seattle", state: "WA", postalCode: "98101", phone: "2065550111" };

/** A confirmed person who subscribed a new group: its licensed administrator. */
async function newGroup(): Promise<{ admin: TestUser; groupId: string; subscriptionId: string }> {
  const admin = await newUser();
  const created = await post(admin, "/subscription/create/", VENUE);
  expect(created.status).toBe(200);
  return { admin, groupId: created.body.hospitalityGroup.hospitalityGroupId, subscriptionId: created.body.subscription.subscriptionId };
}

let roles: { licensed: string; location: string } | undefined;
async function roleIds(who: TestUser): Promise<{ licensed: string; location: string }> {
  if (roles) return roles;
  const app = await get(who, "/application/getbyname?applicationName=SafeWindow");
  const list = await get(who, `/application/getapplicationroles/?applicationId=${app.body.applicationId}`);
  roles = {
    licensed: list.body.find((r: any) => r.name === "Licensed Administrator").applicationRoleId,
    location: list.body.find((r: any) => r.name === "Location Administrator").applicationRoleId,
  };
  return roles;
}

// ---------------------------------------------------------------- tokens

describe("bearer tokens", () => {
  it("refuses a call without a token, with a forged one, with a token not for business.api, and with a client token", async () => {
    expect((await get(null, "/applicationsecurity/getuserinfo/")).status).toBe(401);
    expect((await get("eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln", "/applicationsecurity/getuserinfo/")).status).toBe(401);
    const user = await newUser({ confirmed: false });
    const consumerOnly = await accessToken(services, { grant_type: "password", username: user.email, password: user.password, scope: "openid consumer.api" });
    const refused = await get(consumerOnly, "/applicationsecurity/getuserinfo/");
    expect(refused.status).toBe(401);
    expect(refused.body.error_description).toContain("business.api");
    const client = await accessToken(services, { grant_type: "client_credentials", scope: "identity.api" });
    // A client token is genuine but speaks for no user.
    expect((await get(client, "/applicationsecurity/getuserinfo/")).status).toBe(403);
  });
});

// ---------------------------------------------------------------- the person

describe("user info", () => {
  it("answers the token's user name and nulls until saved; a partial save keeps the other fields", async () => {
    const user = await newUser({ confirmed: false });
    const info = await get(user, "/applicationsecurity/getuserinfo/");
    expect(info).toEqual({ status: 200, body: { identityUserId: user.sub, userName: user.email.toLowerCase(), firstName: null, lastName: null, mobileNumber: null } });

    const saved = await post(user, "/applicationsecurity/saveuserinfopartial/", { firstName: " Grace ", lastName: "Hopper" });
    expect(saved.body).toMatchObject({ firstName: "Grace", lastName: "Hopper", mobileNumber: null });
    const phone = await post(user, "/applicationsecurity/saveuserinfopartial/", { mobileNumber: "2065550123" });
    expect(phone.body).toMatchObject({ firstName: "Grace", lastName: "Hopper", mobileNumber: "2065550123" });
    expect((await get(user, "/applicationsecurity/getuserinfo/")).body.mobileNumber).toBe("2065550123");
  });

  it("forgets the person's info on request (the person's own data), and keeps the roles given to the address", async () => {
    const { admin, groupId } = await newGroup();
    await post(admin, "/applicationsecurity/saveuserinfopartial/", { firstName: "Gone", lastName: "Soon", mobileNumber: "2065550177" });
    expect((await post(admin, "/applicationsecurity/deleteuserinfo/", {})).body).toEqual({ success: true });
    expect((await get(admin, "/applicationsecurity/getuserinfo/")).body).toMatchObject({ firstName: null, lastName: null, mobileNumber: null });
    const rows = await business.db.selectFrom("business_users").select(["first_name", "mobile_number"]).where("identity_user_id", "=", admin.sub).execute();
    expect(rows.every((row) => row.first_name === null && row.mobile_number === null)).toBe(true);
    expect((await get(admin, `/hospitalitygroup/getusersandroles/?hospitalityGroupId=${groupId}`)).body).toEqual([expect.objectContaining({ roleName: "Licensed Administrator", firstName: null })]);
    expect((await post(admin, "/applicationsecurity/deleteuserinfo/", {})).status).toBe(200);
  });

  it("refuses a bad phone, an empty name, an empty body and a form body, and keeps what was saved", async () => {
    const user = await newUser({ confirmed: false });
    await post(user, "/applicationsecurity/saveuserinfopartial/", { firstName: "Alan" });
    for (const body of [{ mobileNumber: "(206) 555-0123" }, { mobileNumber: "206555012" }, { firstName: "   " }, {}, { firstName: "A\u0000B" }]) {
      const refused = await post(user, "/applicationsecurity/saveuserinfopartial/", body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error).toBe("invalid_request");
    }
    const res = await fetch(`${business.url}/applicationsecurity/saveuserinfopartial/`, {
      method: "POST",
      headers: { authorization: `Bearer ${user.token}`, "content-type": "application/x-www-form-urlencoded" },
      body: "firstName=Eve",
    });
    expect(res.status).toBe(400);
    expect((await get(user, "/applicationsecurity/getuserinfo/")).body.firstName).toBe("Alan");
  });
});

describe("applications and roles", () => {
  it("finds the application by name in any case, and lists its two roles", async () => {
    const user = await newUser({ confirmed: false });
    const app = await get(user, "/application/getbyname?applicationName=safewindow");
    expect(app.status).toBe(200);
    expect(app.body.name).toBe("SafeWindow");
    const list = await get(user, `/application/getapplicationroles/?applicationId=${app.body.applicationId}`);
    expect(list.body).toEqual([
      { applicationRoleId: expect.any(String), name: "Licensed Administrator", scope: "hospitalityGroup" },
      { applicationRoleId: expect.any(String), name: "Location Administrator", scope: "location" },
    ]);
    expect((await get(user, "/application/getbyname?applicationName=Other")).status).toBe(404);
    expect((await get(user, "/application/getapplicationroles/?applicationId=not-a-uuid")).status).toBe(404);
    expect((await get(user, `/application/getapplicationroles/?applicationId=${randomUUID()}`)).status).toBe(404);
    expect((await get(user, "/application/getbyname")).status).toBe(400);
    expect((await get(user, "/application/getbyname?applicationName=a&applicationName=b")).status).toBe(400);
  });
});

// ---------------------------------------------------------------- subscribing

describe("subscription create", () => {
  it("needs a confirmed address", async () => {
    const user = await newUser({ confirmed: false });
    const refused = await post(user, "/subscription/create/", VENUE);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe("email_unverified");
    expect((await get(user, "/applicationsecurity/isuserlicensedadministrator/")).body).toEqual({ isLicensedAdministrator: false, hospitalityGroupIds: [] });
  });

  it("creates the group, an active subscription and its paid first invoice, with the caller as licensed administrator", async () => {
    const { admin, groupId, subscriptionId } = await newGroup();
    expect((await get(admin, "/applicationsecurity/isuserlicensedadministrator/")).body).toEqual({ isLicensedAdministrator: true, hospitalityGroupIds: [groupId] });
    const groups = await get(admin, "/hospitalitygroup/getadministratorhospitalitygroups/");
    expect(groups.body).toEqual([{ hospitalityGroupId: groupId, name: VENUE.businessName, address: VENUE.address, city: "Seattle", state: "WA", postalCode: "98101", phone: VENUE.phone, locations: [] }]);
    const billing = await get(admin, `/subscription/getbillingdetails/?hospitalityGroupId=${groupId}`);
    expect(billing.body).toMatchObject({ hospitalityGroupId: groupId, billingName: VENUE.businessName, billingEmail: admin.email.toLowerCase(), subscription: { subscriptionId, plan: "monthly", status: "active" } });
    expect(billing.body.invoices).toHaveLength(1);
    expect(billing.body.invoices[0]).toMatchObject({ amountCents: plans.monthly.priceCents, status: "paid", attempts: 1 });
    // One month of service: the period ends a calendar month after it starts.
    const { periodStart, periodEnd } = billing.body.invoices[0];
    expect(new Date(periodEnd).getTime() - new Date(periodStart).getTime()).toBeGreaterThanOrEqual(28 * 86_400_000);
    const users = await get(admin, `/hospitalitygroup/getusersandroles/?hospitalityGroupId=${groupId}`);
    expect(users.body).toEqual([expect.objectContaining({ email: admin.email.toLowerCase(), roleName: "Licensed Administrator", locationId: null })]);
  });

  it("refuses bad fields: an unknown state, a 4-digit ZIP, a phone with punctuation, an unknown plan", async () => {
    const admin = await newUser();
    for (const change of [{ state: "XX" }, { postalCode: "9810" }, { phone: "(206) 555-0100" }, { plan: "weekly" }, { businessName: "" }]) {
      const refused = await post(admin, "/subscription/create/", { ...VENUE, ...change });
      expect(refused.status, JSON.stringify(change)).toBe(400);
    }
    expect((await get(admin, "/hospitalitygroup/getadministratorhospitalitygroups/")).body).toEqual([]);
  });
});

// ---------------------------------------------------------------- roles and locations

describe("roles at locations", () => {
  it("builds a location at its ZIP code's centre and gives a location role, held once the address is confirmed", async () => {
    const { admin, groupId } = await newGroup();
    const ids = await roleIds(admin);
    const doorman = await newUser({ confirmed: false });
    const created = await post(admin, "/applicationuserrolelocation/buildandcreate/", { hospitalityGroupId: groupId, applicationRoleId: ids.location, email: doorman.email, location: LOCATION });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ hospitalityGroupId: groupId, email: doorman.email.toLowerCase(), roleName: "Location Administrator", locationName: LOCATION.name });
    const group = await get(admin, `/hospitalitygroup/?hospitalityGroupId=${groupId}`);
    const [location] = group.body.locations;
    expect(location).toMatchObject({ ...LOCATION, locationId: created.body.locationId });
    // Seattle's 98101 centre, from the ZIP code table.
    expect(location.latitude).toBeCloseTo(47.61, 1);
    expect(location.longitude).toBeCloseTo(-122.33, 1);

    // Not confirmed yet: the role is not theirs.
    expect((await get(doorman, "/applicationsecurity/isuserlocationadministrator/")).body).toEqual({ isLocationAdministrator: false, locations: [] });
    expect((await get(doorman, `/hospitalitygroup/?hospitalityGroupId=${groupId}`)).status).toBe(404);

    await confirmAddress(services, doorman.email);
    const token = await accessToken(services, { grant_type: "password", username: doorman.email, password: doorman.password });
    const checked = await get(token, "/applicationsecurity/isuserlocationadministrator/");
    expect(checked.body).toEqual({ isLocationAdministrator: true, locations: [location] });
    expect((await get(token, `/applicationsecurity/isuserlocationadministrator/?locationId=${location.locationId}`)).body.isLocationAdministrator).toBe(true);
    expect((await get(token, `/applicationsecurity/isuserlocationadministrator/?locationId=${randomUUID()}`)).body).toEqual({ isLocationAdministrator: false, locations: [] });
    // A member reads the group; a location role is too small for the group's roles and billing.
    expect((await get(token, `/hospitalitygroup/?hospitalityGroupId=${groupId}`)).status).toBe(200);
    expect((await get(token, `/hospitalitygroup/getusersandroles/?hospitalityGroupId=${groupId}`)).status).toBe(403);
    expect((await get(token, `/subscription/getbillingdetails/?hospitalityGroupId=${groupId}`)).status).toBe(403);
    expect((await post(token, "/applicationuserrolelocation/buildandcreate/", { hospitalityGroupId: groupId, applicationRoleId: ids.location, email: "x@example.com", locationId: location.locationId })).status).toBe(403);
    // The licensed administrator administers every location of the group.
    expect((await get(admin, "/applicationsecurity/isuserlocationadministrator/")).body.locations).toEqual([location]);
    // And sees the doorman's names once saved.
    await post(token, "/applicationsecurity/saveuserinfopartial/", { firstName: "Dana", lastName: "Door" });
    const users = await get(admin, `/hospitalitygroup/getusersandroles/?hospitalityGroupId=${groupId}`);
    expect(users.body.find((u: any) => u.roleName === "Location Administrator")).toMatchObject({ firstName: "Dana", lastName: "Door", locationId: location.locationId });
  });

  it("keeps every group invisible to a stranger: 404 for its reads and writes, as for a group that does not exist", async () => {
    const { groupId, subscriptionId } = await newGroup();
    const stranger = await newUser();
    const ids = await roleIds(stranger);
    for (const query of [groupId, randomUUID(), "not-a-uuid"]) {
      expect((await get(stranger, `/hospitalitygroup/?hospitalityGroupId=${query}`)).status).toBe(404);
      expect((await get(stranger, `/hospitalitygroup/getusersandroles/?hospitalityGroupId=${query}`)).status).toBe(404);
      expect((await get(stranger, `/subscription/getbillingdetails/?hospitalityGroupId=${query}`)).status).toBe(404);
    }
    const build = await post(stranger, "/applicationuserrolelocation/buildandcreate/", { hospitalityGroupId: groupId, applicationRoleId: ids.licensed, email: stranger.email });
    expect(build.status).toBe(404);
    expect((await post(stranger, "/subscription/updatestatus/", { subscriptionId, status: "canceled" })).status).toBe(404);
    expect((await get(stranger, "/applicationsecurity/isuserlicensedadministrator/")).body.isLicensedAdministrator).toBe(false);
  });

  it("refuses a location role without a place, a group role with one, an unknown ZIP without a position, a duplicate, and another group's location", async () => {
    const { admin, groupId } = await newGroup();
    const other = await newGroup();
    const ids = await roleIds(admin);
    const base = { hospitalityGroupId: groupId, email: "staff@example.com" };
    const noPlace = await post(admin, "/applicationuserrolelocation/buildandcreate/", { ...base, applicationRoleId: ids.location });
    expect(noPlace.status).toBe(400);
    expect((await post(admin, "/applicationuserrolelocation/buildandcreate/", { ...base, applicationRoleId: ids.licensed, location: LOCATION })).status).toBe(400);
    const unknownZip = await post(admin, "/applicationuserrolelocation/buildandcreate/", { ...base, applicationRoleId: ids.location, location: { ...LOCATION, postalCode: "00000" } });
    expect(unknownZip.status).toBe(400);
    expect(unknownZip.body.error).toBe("unknown_postal_code");
    const placed = await post(admin, "/applicationuserrolelocation/buildandcreate/", { ...base, applicationRoleId: ids.location, location: { ...LOCATION, postalCode: "00000", latitude: 47.6, longitude: -122.3 } });
    expect(placed.status).toBe(200);
    const again = await post(admin, "/applicationuserrolelocation/buildandcreate/", { ...base, email: "STAFF@example.com", applicationRoleId: ids.location, locationId: placed.body.locationId });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe("duplicate");
    const otherPlace = await post(other.admin, "/applicationuserrolelocation/buildandcreate/", { hospitalityGroupId: other.groupId, applicationRoleId: ids.location, email: "x@example.com", location: LOCATION });
    const foreign = await post(admin, "/applicationuserrolelocation/buildandcreate/", { ...base, email: "y@example.com", applicationRoleId: ids.location, locationId: otherPlace.body.locationId });
    expect(foreign.status).toBe(404);
    // Nothing half-built: the refused ones left no location behind.
    expect((await get(admin, `/hospitalitygroup/?hospitalityGroupId=${groupId}`)).body.locations).toHaveLength(1);
  });

  it("updates a location's fields (a new ZIP moves it) and a role; keeps the last licensed administrator", async () => {
    const { admin, groupId } = await newGroup();
    const ids = await roleIds(admin);
    const host = await newUser();
    await get(host, "/applicationsecurity/getuserinfo/"); // signed in once with the address confirmed
    const created = await post(admin, "/applicationuserrolelocation/buildandcreate/", { hospitalityGroupId: groupId, applicationRoleId: ids.location, email: host.email, location: LOCATION });
    const moved = await post(admin, "/applicationuserrolelocation/update/", { applicationUserRoleLocationId: created.body.applicationUserRoleLocationId, location: { name: "Pier 57 Taproom & Grill", postalCode: "97201" } });
    expect(moved.status).toBe(200);
    expect(moved.body.locationName).toBe("Pier 57 Taproom & Grill");
    const [place] = (await get(admin, `/hospitalitygroup/?hospitalityGroupId=${groupId}`)).body.locations;
    expect(place).toMatchObject({ postalCode: "97201", address: LOCATION.address });
    expect(place.latitude).toBeCloseTo(45.5, 0); // Portland, Oregon

    const promoted = await post(admin, "/applicationuserrolelocation/update/", { applicationUserRoleLocationId: created.body.applicationUserRoleLocationId, applicationRoleId: ids.licensed });
    expect(promoted.body).toMatchObject({ roleName: "Licensed Administrator", locationId: null });

    const mine = (await get(admin, `/hospitalitygroup/getusersandroles/?hospitalityGroupId=${groupId}`)).body.find((u: any) => u.email === admin.email.toLowerCase());
    // Two licensed administrators now: the admin may step down to a location role, then not the other.
    const down = await post(admin, "/applicationuserrolelocation/update/", { applicationUserRoleLocationId: mine.applicationUserRoleLocationId, applicationRoleId: ids.location, locationId: place.locationId });
    expect(down.status).toBe(200);
    expect((await post(admin, "/applicationuserrolelocation/update/", { applicationUserRoleLocationId: created.body.applicationUserRoleLocationId, location: { name: "x" } })).status).toBe(403);
  });

  it("does not count a role given to an address nobody confirmed as the administrator the group keeps", async () => {
    const { admin, groupId } = await newGroup();
    const ids = await roleIds(admin);
    await post(admin, "/applicationuserrolelocation/buildandcreate/", { hospitalityGroupId: groupId, applicationRoleId: ids.licensed, email: "typo@exmaple.com" });
    const mine = (await get(admin, `/hospitalitygroup/getusersandroles/?hospitalityGroupId=${groupId}`)).body.find((u: any) => u.email === admin.email.toLowerCase());
    const refused = await post(admin, "/applicationuserrolelocation/delete/", { applicationUserRoleLocationId: mine.applicationUserRoleLocationId });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe("last_administrator");
  });

  it("lets two licensed administrators taking each other's role at once leave one", async () => {
    const { admin, groupId } = await newGroup();
    const ids = await roleIds(admin);
    const second = await newUser();
    await post(admin, "/applicationuserrolelocation/buildandcreate/", { hospitalityGroupId: groupId, applicationRoleId: ids.licensed, email: second.email });
    const list = (await get(admin, `/hospitalitygroup/getusersandroles/?hospitalityGroupId=${groupId}`)).body;
    const roleOf = (user: TestUser) => list.find((u: any) => u.email === user.email.toLowerCase()).applicationUserRoleLocationId;
    const answers = await Promise.all([
      post(admin, "/applicationuserrolelocation/delete/", { applicationUserRoleLocationId: roleOf(second) }),
      post(second, "/applicationuserrolelocation/delete/", { applicationUserRoleLocationId: roleOf(admin) }),
    ]);
    const statuses = answers.map((a) => a.status).sort();
    // One goes through; the other has then either no role in the group (404, as for a stranger) or is the last one (409).
    expect(statuses[0]).toBe(200);
    expect([404, 409]).toContain(statuses[1]);
    const left = await Promise.all([admin, second].map((u) => get(u, "/applicationsecurity/isuserlicensedadministrator/")));
    expect(left.filter((a) => a.body.isLicensedAdministrator)).toHaveLength(1);
    const survivor = left[0]!.body.isLicensedAdministrator ? admin : second;
    const last = await post(survivor, "/applicationuserrolelocation/delete/", { applicationUserRoleLocationId: roleOf(survivor) });
    expect(last.status).toBe(409);
    expect(last.body.error).toBe("last_administrator");
  });
});

// ---------------------------------------------------------------- billing

describe("subscription states and invoices", () => {
  it("pauses, resumes and cancels; canceled is final; a group out of service has no venue to find or check in at", async () => {
    const { admin, groupId, subscriptionId } = await newGroup();
    const ids = await roleIds(admin);
    // A venue in a corner of Montana no other test uses.
    const place = { ...LOCATION, name: "Service Check Saloon", city: "Jordan", state: "MT", postalCode: "59337", phone: "4065550100" };
    const built = await post(admin, "/applicationuserrolelocation/buildandcreate/", { hospitalityGroupId: groupId, applicationRoleId: ids.location, email: "host@example.com", location: place });
    const [latitude, longitude] = [47.32, -106.91];
    const found = async () => (await get(admin, `/location/search/?latitude=${latitude}&longitude=${longitude}&miles=25`)).body.map((l: any) => l.locationId);
    const administered = async () => (await get(admin, `/applicationsecurity/isuserlocationadministrator/?locationId=${built.body.locationId}`)).body.isLocationAdministrator;
    expect(await found()).toEqual([built.body.locationId]);
    expect(await administered()).toBe(true);
    const status = (value: string) => post(admin, "/subscription/updatestatus/", { subscriptionId, status: value });
    expect((await status("paused")).body.status).toBe("paused");
    expect(await found()).toEqual([]);
    expect(await administered()).toBe(false);
    expect((await status("paused")).body.status).toBe("paused");
    expect((await status("active")).body.status).toBe("active");
    expect(await found()).toEqual([built.body.locationId]);
    expect((await status("canceled")).body.status).toBe("canceled");
    expect(await found()).toEqual([]);
    const after = await status("active");
    expect(after.status).toBe(409);
    expect(after.body.error).toBe("invalid_transition");
    expect((await post(admin, "/subscription/updatestatus/", { subscriptionId, status: "past_due" })).status).toBe(400);
  });

  it("pays a failed invoice on retry, once, however many retries arrive at once; a past-due subscription is active again", async () => {
    const { admin, groupId, subscriptionId } = await newGroup();
    const failedId = randomUUID();
    const now = new Date();
    await business.db.insertInto("business_invoices").values({ id: failedId, subscription_id: subscriptionId, amount_cents: 4900, status: "failed", attempts: 1, period_start: now, period_end: now, created_at: now, paid_at: null }).execute();
    await business.db.updateTable("business_subscriptions").set({ status: "past_due" }).where("id", "=", subscriptionId).execute();

    const resume = await post(admin, "/subscription/updatestatus/", { subscriptionId, status: "active" });
    expect(resume.status).toBe(409);
    const retries = await Promise.all(Array.from({ length: 5 }, () => post(admin, "/subscription/retryinvoice/", { invoiceId: failedId })));
    for (const retry of retries) {
      expect(retry.status).toBe(200);
      expect(retry.body.invoice).toMatchObject({ invoiceId: failedId, status: "paid", attempts: 2 });
      expect(retry.body.subscription.status).toBe("active");
    }
    const billing = await get(admin, `/subscription/getbillingdetails/?hospitalityGroupId=${groupId}`);
    expect(billing.body.invoices.find((i: any) => i.invoiceId === failedId)).toMatchObject({ status: "paid", attempts: 2 });
  });

  it("voids a failed invoice when the subscription is canceled, and refuses to retry it; strangers and location roles are refused", async () => {
    const { admin, groupId, subscriptionId } = await newGroup();
    const ids = await roleIds(admin);
    const failedId = randomUUID();
    const now = new Date();
    await business.db.insertInto("business_invoices").values({ id: failedId, subscription_id: subscriptionId, amount_cents: 4900, status: "failed", attempts: 1, period_start: now, period_end: now, created_at: now, paid_at: null }).execute();
    await business.db.updateTable("business_subscriptions").set({ status: "past_due" }).where("id", "=", subscriptionId).execute();

    const stranger = await newUser();
    expect((await post(stranger, "/subscription/retryinvoice/", { invoiceId: failedId })).status).toBe(404);
    const staff = await newUser();
    await post(admin, "/applicationuserrolelocation/buildandcreate/", { hospitalityGroupId: groupId, applicationRoleId: ids.location, email: staff.email, location: LOCATION });
    expect((await post(staff, "/subscription/retryinvoice/", { invoiceId: failedId })).status).toBe(403);
    expect((await post(admin, "/subscription/retryinvoice/", { invoiceId: "nope" })).status).toBe(404);

    expect((await post(admin, "/subscription/updatestatus/", { subscriptionId, status: "canceled" })).body.status).toBe("canceled");
    const voided = await post(admin, "/subscription/retryinvoice/", { invoiceId: failedId });
    expect(voided.status).toBe(409);
    const billing = await get(admin, `/subscription/getbillingdetails/?hospitalityGroupId=${groupId}`);
    expect(billing.body.invoices.find((i: any) => i.invoiceId === failedId).status).toBe("void");
  });
});

// ---------------------------------------------------------------- restart

describe("a restart", () => {
  it("keeps groups, roles and subscriptions; answers 404 for unknown paths and keeps no secret in answers", async () => {
    const { admin, groupId } = await newGroup();
    await business.close();
    business = await startBusiness();
    expect((await get(admin, "/applicationsecurity/isuserlicensedadministrator/")).body.hospitalityGroupIds).toContain(groupId);
    expect((await get(admin, `/subscription/getbillingdetails/?hospitalityGroupId=${groupId}`)).body.subscription.status).toBe("active");
    expect((await get(admin, "/nothing/here")).status).toBe(404);
    expect((await fetch(`${business.url}/healthz`)).status).toBe(200);
  });
});

// ---------------------------------------------------------------- the seed command

describe("npm run seed:venues", () => {
  // Run without blocking this process's event loop: the services this file started in it keep
  // answering (and their idle keep-alive connections are not cut under the next request).
  const runSeed = (dataDir: string, ...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> =>
    new Promise((resolve) => {
      execFile(process.execPath, [path.join(root, "services/business/seed-cli.ts"), ...args], { env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "" }, encoding: "utf8", timeout: 60_000 }, (error, stdout, stderr) =>
        resolve({ status: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout, stderr }),
      );
    });

  it("writes the sample venues once, refuses while a process holds DATA_DIR, and the named administrator holds them once confirmed", async () => {
    const parent = await mkdtemp(path.join(tmpdir(), "business-seed-"));
    // A DATA_DIR that does not exist yet, as before a first start.
    const dataDir = path.join(parent, "data");
    try {
      expect((await runSeed(dataDir)).status).toBe(2);
      expect((await runSeed(dataDir, "not-an-address")).status).toBe(2);
      const admin = await newUser();
      const first = await runSeed(dataDir, admin.email);
      expect(first.stderr).toBe("");
      expect(first.status).toBe(0);
      expect(first.stdout).toContain(`${SAMPLE_VENUES.length} locations added`);
      const second = await runSeed(dataDir, admin.email);
      expect(second.status).toBe(0);
      expect(second.stdout).toContain("nothing changed");
      const two = await runSeed(dataDir, admin.email, "second.admin@example.com");
      expect(two.status).toBe(0);
      expect(two.stdout).toContain("second.admin@example.com made licensed administrator");
      expect((await runSeed(dataDir, admin.email, "not-an-address")).status).toBe(2);

      const lock = await lockDataDir(dataDir, { onLost: () => {} });
      try {
        const refused = await runSeed(dataDir, admin.email);
        expect(refused.status).toBe(1);
        expect(refused.stderr).toContain("Stop that server before seeding");
      } finally {
        await lock.release();
      }

      const seeded = await startBusinessService({ dataDir, identityUrl: services.identityUrl, identityIssuer: services.identity.issuer, logger: pino({ level: "silent" }), db: await createDatabase({ dataDir, name: "db" }) });
      try {
        const res = await fetch(`${seeded.url}/hospitalitygroup/getadministratorhospitalitygroups/`, { headers: { authorization: `Bearer ${admin.token}` } });
        const [group] = await res.json();
        expect(group.hospitalityGroupId).toBe(SAMPLE_GROUP_ID);
        expect(group.locations.map((l: any) => l.name).sort()).toEqual(SAMPLE_VENUES.map((v) => v.name).sort());
        for (const location of group.locations) expect(Math.abs(location.latitude) + Math.abs(location.longitude)).toBeGreaterThan(50);
      } finally {
        await seeded.close();
        await seeded.db.destroy();
      }
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  }, 60_000);
});
