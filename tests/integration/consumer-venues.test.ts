// Venues through the consumer API, with real identity, business and consumer services; the sample
// venues are the business API's seed.
// - Finding venues (docs/venues.md "Finding venues"; contracts/consumer.ts searchLocations): GET
//   /search/ by ZIP code or by point, nearest first within the radius; the refusals (bad radius, no
//   point, unknown ZIP, a repeated parameter) and a business API that is down or does not answer.
// - Check-in and visits (docs/venues.md "Check-in", "My Fun"): a code the visitor asked for, entered
//   by a location administrator, shows the name and the window and is used up; Check in; the
//   visitor's visits and rating. And what breaks it: an expired, replaced or used code, a caller who
//   administers no location there, guessing, two venues entering one code at once, another
//   person's visit.
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BusinessService } from "../../services/business/server.ts";
import { SAMPLE_VENUES, seedVenues } from "../../services/business/seed.ts";
import { CONSUMER_MIGRATION_TABLE, consumerMigrations } from "../../services/consumer/schema/migrations.ts";
import type { ConsumerDatabase } from "../../services/consumer/schema/tables.ts";
import { startConsumerService } from "../../services/consumer/server.ts";
import { createDatabase } from "../../services/db/database.ts";
import { migrateToLatest } from "../../services/db/migrate.ts";
import type { ConsumerService } from "../../services/consumer/server.ts";
import { callApi, createProfile, json, makeUser, startServices } from "./support.ts";
import type { Services, TestUser } from "./support.ts";

const CLIENT = { clientId: "safewindow-web", clientSecret: "venues-test-secret-0123456789abcd" };

let services: Services;
let business: BusinessService;
let dir: string;
let user: TestUser;
const extra: ConsumerService[] = [];
let silent: Server;
/** The consumer API's clock runs this many ms ahead of the real one (codes expire by it). */
let clockOffsetMs = 0;

beforeAll(async () => {
  services = await startServices({ client: CLIENT, tmpPrefix: "consumer-venues-", pinIssuer: true, business: true, consumerNow: () => new Date(Date.now() + clockOffsetMs) });
  business = services.business!;
  dir = await mkdtemp(path.join(tmpdir(), "consumer-venues-other-"));
  await seedVenues(business.db, "owner@example.com");
  user = await makeUser(services);
  silent = createServer(() => {});
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
}, 60_000);

afterAll(async () => {
  for (const consumer of extra) await consumer.close();
  await services?.close();
  silent?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const search = (query: string, who: TestUser | null = user) => callApi(services, `/search/?${query}`, who);

describe("GET /search/", () => {
  it("finds the venues near a ZIP code's centre, nearest first, with their distance", async () => {
    const res = await search("latitude=&longitude=&miles=10&zip=98101");
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.success).toBe(true);
    // Downtown Seattle (98101): the taproom in 98101 itself, then Capitol Hill (98122) about 1.5 miles away; nothing in Portland.
    expect(body.locations.map((l: any) => l.name)).toEqual(["Harborview Taproom", "Capitol Hill Music Hall"]);
    expect(body.locations[0].distanceMiles).toBe(0);
    expect(body.locations[1].distanceMiles).toBeGreaterThan(0.5);
    expect(body.locations[1].distanceMiles).toBeLessThan(3);
    expect(body.locations[1]).toMatchObject({ city: "Seattle", state: "WA", postalCode: "98122", phone: "2065550142" });
  });

  it("finds by a point, widens with the radius, and answers an empty list far from every venue", async () => {
    // Centralia, Washington: about 69 miles from both Seattle venues and 83 from Portland's.
    const near = await json(await search("latitude=46.716&longitude=-122.954&miles=50"));
    expect(near.locations).toEqual([]);
    const seattle = await json(await search("latitude=46.716&longitude=-122.954&miles=75"));
    expect(seattle.locations.map((l: any) => l.city)).toEqual(["Seattle", "Seattle"]);
    const wide = await json(await search("latitude=46.716&longitude=-122.954&miles=100"));
    expect(wide.locations.map((l: any) => l.city).sort()).toEqual(["Portland", "Seattle", "Seattle"]);
    const distances = wide.locations.map((l: any) => l.distanceMiles);
    expect(distances).toEqual([...distances].sort((a: number, b: number) => a - b));
    // The zip wins over a point.
    expect((await json(await search("latitude=0&longitude=0&miles=5&zip=10011"))).locations.map((l: any) => l.name)).toEqual(["Chelsea Rooftop Lounge"]);
    expect((await json(await search("miles=100&zip=99501"))).locations).toEqual([]); // Anchorage
  });

  it("refuses a missing or out-of-range radius, no point, a half point, a bad or unknown ZIP, a repeated parameter, and no token", async () => {
    for (const [query, code] of [
      ["zip=98101", "invalid_request"],
      ["miles=0&zip=98101", "invalid_request"],
      ["miles=101&zip=98101", "invalid_request"],
      ["miles=ten&zip=98101", "invalid_request"],
      ["miles=10", "invalid_request"],
      ["miles=10&latitude=47.6", "invalid_request"],
      ["miles=10&latitude=95&longitude=0", "invalid_request"],
      ["miles=10&zip=9810", "invalid_request"],
      ["miles=10&zip=00000", "unknown_postal_code"],
      ["miles=10&miles=20&zip=98101", "invalid_request"],
    ] as const) {
      const res = await search(query);
      expect(res.status, query).toBe(400);
      expect((await json(res)).error, query).toBe(code);
    }
    expect((await search("miles=10&zip=98101", null)).status).toBe(401);
    expect(SAMPLE_VENUES.length).toBeGreaterThan(2);
  });

  it("answers 503 with Retry-After when the business API is down or does not answer, and 404 without one", async () => {
    // Three more consumer APIs on the first one's database, each with another business API.
    const consumerWith = (name: string, businessUrl?: string) =>
      startConsumerService({ dataDir: path.join(dir, name), db: services.consumer.db, identityUrl: services.identityUrl, identityIssuer: services.identity.issuer, logger: pino({ level: "silent" }), businessUrl });
    const down = await consumerWith("down", "http://127.0.0.1:9");
    const slow = await consumerWith("slow", `http://127.0.0.1:${(silent.address() as { port: number }).port}`);
    const none = await consumerWith("none");
    extra.push(down, slow, none);
    for (const consumer of [down, slow]) {
      const res = await fetch(`${consumer.url}/search/?miles=10&zip=98101`, { headers: { authorization: `Bearer ${user.token}` } });
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("5");
      expect((await res.json()).error).toBe("temporarily_unavailable");
    }
    const res = await fetch(`${none.url}/search/?miles=10&zip=98101`, { headers: { authorization: `Bearer ${user.token}` } });
    expect(res.status).toBe(404);
    expect((await res.json()).error).toBe("no_venues");
  }, 60_000);
});

// ---------------------------------------------------------------- check-in and visits

describe("check-in codes and visits", () => {
  const post = (who: TestUser, pathName: string, body: unknown = {}) =>
    callApi(services, pathName, who, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const venue = SAMPLE_VENUES[0];

  /** A person with a profile, and a window (set on the profile as the pipeline would) of `strongHours` / `weakHours` from now. */
  async function visitor(firstName: string, window?: { strongHours: number; weakHours: number }): Promise<TestUser> {
    const person = await makeUser(services);
    expect((await createProfile(services, person, { firstName, lastName: "Visitor", dob: "1990-04-02", postalCode: "98101" })).status).toBe(200);
    if (window) {
      const at = (hours: number) => new Date(Date.now() + hours * 3_600_000);
      await services.consumer.db.updateTable("consumer_profiles").set({ strong_safety_date: at(window.strongHours), weak_safety_date: at(window.weakHours) }).where("identity_user_id", "=", person.sub).execute();
    }
    return person;
  }

  /** A confirmed person made licensed administrator of the sample venues. */
  async function doorman(): Promise<TestUser> {
    const admin = await makeUser(services, { confirmed: true });
    await seedVenues(business.db, admin.email);
    return admin;
  }

  it("shows the venue the name and the open window, uses the code up, checks in, and the visitor sees and rates the visit", async () => {
    const admin = await doorman();
    const ada = await visitor("Ada", { strongHours: 20, weakHours: 50 });
    const issued = await json(await post(ada, "/checkin/issuecode/"));
    expect(issued.code).toMatch(/^[0-9A-HJKMNP-TV-Z]{6}$/);
    const lifetime = new Date(issued.expiresAt).getTime() - Date.now();
    expect(lifetime).toBeGreaterThan(110_000);
    expect(lifetime).toBeLessThanOrEqual(121_000);

    // Typed as a person might: lower case, with a space.
    const typed = `${issued.code.slice(0, 3).toLowerCase()} ${issued.code.slice(3)}`;
    const checked = await post(admin, "/checkin/redeemcode/", { code: typed, locationId: venue.id });
    expect(checked.status).toBe(200);
    const check = await json(checked);
    expect(check).toMatchObject({ firstName: "Ada", lastName: "Visitor", windowState: "Strong", locationId: venue.id, locationName: venue.name, checkedInAt: null });
    // contractFetch has checked that nothing else came: no date of birth, no product ID.
    expect(JSON.stringify(check)).not.toContain("1990");

    const again = await post(admin, "/checkin/redeemcode/", { code: issued.code, locationId: venue.id });
    expect(again.status).toBe(409);
    expect((await json(again)).error).toBe("code_used");

    const checkedIn = await json(await post(admin, "/checkin/checkin/", { visitId: check.visitId }));
    expect(checkedIn.checkedInAt).not.toBeNull();
    const twice = await json(await post(admin, "/checkin/checkin/", { visitId: check.visitId }));
    expect(twice.checkedInAt).toBe(checkedIn.checkedInAt);

    const visits = await json(await callApi(services, "/locationvisit/getcurrentuservisits/", ada));
    expect(visits).toEqual([
      { visitId: check.visitId, locationId: venue.id, locationName: venue.name, city: venue.city, state: venue.state, checkedAt: check.checkedAt, windowState: "Strong", checkedInAt: checkedIn.checkedInAt, rating: null },
    ]);
    expect((await json(await post(ada, "/locationvisit/setrating/", { visitId: check.visitId, rating: 4 }))).rating).toBe(4);
    expect((await json(await post(ada, "/locationvisit/setrating/", { visitId: check.visitId, rating: 5 }))).rating).toBe(5);
    for (const rating of [0, 6, 3.5, "5"]) expect((await post(ada, "/locationvisit/setrating/", { visitId: check.visitId, rating })).status).toBe(400);
    // Nobody else rates it, and the venue cannot read the visitor's list.
    expect((await post(admin, "/locationvisit/setrating/", { visitId: check.visitId, rating: 1 })).status).toBe(404);
    expect((await post(await visitor("Eve"), "/locationvisit/setrating/", { visitId: check.visitId, rating: 1 })).status).toBe(404);
    expect((await json(await callApi(services, "/locationvisit/getcurrentuservisits/", ada)))[0].rating).toBe(5);
  });

  it("says Weak or None as the window is, and a check without Check in cannot be rated", async () => {
    const admin = await doorman();
    const weak = await visitor("Wendy", { strongHours: -2, weakHours: 10 });
    const none = await visitor("Noah");
    const weakCheck = await json(await post(admin, "/checkin/redeemcode/", { code: (await json(await post(weak, "/checkin/issuecode/"))).code, locationId: venue.id }));
    expect(weakCheck.windowState).toBe("Weak");
    const noneCheck = await json(await post(admin, "/checkin/redeemcode/", { code: (await json(await post(none, "/checkin/issuecode/"))).code, locationId: venue.id }));
    expect(noneCheck).toMatchObject({ windowState: "None", strongSafetyDate: null, weakSafetyDate: null });
    const refused = await post(none, "/locationvisit/setrating/", { visitId: noneCheck.visitId, rating: 3 });
    expect(refused.status).toBe(409);
    expect((await json(refused)).error).toBe("not_checked_in");
    // Every check is in the visitor's list, checked in or not.
    expect((await json(await callApi(services, "/locationvisit/getcurrentuservisits/", none))).map((v: any) => v.checkedInAt)).toEqual([null]);
  });

  it("refuses an expired code, a replaced one, and a code entered where the caller administers nothing; the code survives a refused caller", async () => {
    const admin = await doorman();
    const ada = await visitor("Ada", { strongHours: 20, weakHours: 50 });
    const stranger = await makeUser(services, { confirmed: true });

    const first = await json(await post(ada, "/checkin/issuecode/"));
    const forbidden = await post(stranger, "/checkin/redeemcode/", { code: first.code, locationId: venue.id });
    expect(forbidden.status).toBe(403);
    expect((await json(forbidden)).error).toBe("not_location_administrator");
    expect((await post(admin, "/checkin/redeemcode/", { code: first.code, locationId: "5a1e7d0c-0000-4000-8000-00000000ffff" })).status).toBe(403);
    // A check-in the stranger did not make is not theirs to finish.
    const second = await json(await post(ada, "/checkin/issuecode/"));
    const replaced = await post(admin, "/checkin/redeemcode/", { code: first.code, locationId: venue.id });
    expect(replaced.status).toBe(409);
    expect((await json(replaced)).error).toBe("code_expired");
    const check = await json(await post(admin, "/checkin/redeemcode/", { code: second.code, locationId: venue.id }));
    expect((await post(stranger, "/checkin/checkin/", { visitId: check.visitId })).status).toBe(404);

    const third = await json(await post(ada, "/checkin/issuecode/"));
    clockOffsetMs = 121_000;
    try {
      const expired = await post(admin, "/checkin/redeemcode/", { code: third.code, locationId: venue.id });
      expect(expired.status).toBe(409);
      expect((await json(expired)).error).toBe("code_expired");
    } finally {
      clockOffsetMs = 0;
    }
    expect((await post(await visitor("Nobody"), "/checkin/issuecode/")).status).toBe(200);
    expect((await post(await makeUser(services), "/checkin/issuecode/")).status).toBe(404); // no profile
  });

  it("lets two venues entering one code at once see it once", async () => {
    const [a, b] = [await doorman(), await doorman()];
    const ada = await visitor("Ada", { strongHours: 20, weakHours: 50 });
    const { code } = await json(await post(ada, "/checkin/issuecode/"));
    const answers = await Promise.all([a, b, a, b].map((admin) => post(admin, "/checkin/redeemcode/", { code, locationId: venue.id })));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    expect(await json(await callApi(services, "/locationvisit/getcurrentuservisits/", ada))).toHaveLength(1);
  });

  it("puts the visits in the person's data export, and deletes them and the codes with the profile", async () => {
    const admin = await doorman();
    const ada = await visitor("Ada", { strongHours: 20, weakHours: 50 });
    const check = await json(await post(admin, "/checkin/redeemcode/", { code: (await json(await post(ada, "/checkin/issuecode/"))).code, locationId: venue.id }));
    await post(ada, "/checkin/issuecode/"); // a live code
    const exported = await json(await callApi(services, "/consumer/export", ada));
    expect(exported.visits).toEqual([expect.objectContaining({ visitId: check.visitId, locationName: venue.name, windowState: "Strong" })]);
    expect((await post(ada, "/consumer/deleteprofile")).status).toBe(200);
    const consumerDb = services.consumer.db;
    expect(await consumerDb.selectFrom("consumer_visits").select("id").where("id", "=", check.visitId).execute()).toEqual([]);
    const profileIds = await consumerDb.selectFrom("consumer_profiles").select("id").where("identity_user_id", "=", ada.sub).execute();
    expect(profileIds).toEqual([]);
    const orphans = await consumerDb.selectFrom("consumer_checkin_codes as c").leftJoin("consumer_profiles as p", "p.id", "c.consumer_id").select("c.code").where("p.id", "is", null).execute();
    expect(orphans).toEqual([]);
    // The venue's finished check of a deleted person is gone too.
    expect((await post(admin, "/checkin/checkin/", { visitId: check.visitId })).status).toBe(404);
  });

  it("counts guesses sent at once: no more than 10 get an answer", async () => {
    const admin = await doorman();
    const answers = await Promise.all(Array.from({ length: 25 }, (_, i) => post(admin, "/checkin/redeemcode/", { code: `YYYY${String(i).padStart(2, "0")}`, locationId: venue.id })));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((status) => status === 404)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(15);
  });

  it("makes a caller who enters codes that do not exist wait", async () => {
    const admin = await doorman();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await post(admin, "/checkin/redeemcode/", { code: `ZZZZ${String(i).padStart(2, "0")}`, locationId: venue.id })).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(404));
    expect(statuses[10]).toBe(429);
    const waiting = await post(admin, "/checkin/redeemcode/", { code: "ZZZZ99", locationId: venue.id });
    expect(waiting.status).toBe(429);
    expect(Number(waiting.headers.get("retry-after"))).toBeGreaterThan(500);
    // Another venue is not held up.
    expect((await post(await doorman(), "/checkin/redeemcode/", { code: "ZZZZ98", locationId: venue.id })).status).toBe(404);
    expect((await post(admin, "/checkin/redeemcode/", { code: "not a code", locationId: venue.id })).status).toBe(429);
  });
});

// ---------------------------------------------------------------- the venue screens for earlier profiles

describe("migration 0008", () => {
  it("gives the profiles made before it the venue screens, and leaves a profile an operator narrowed as it is", async () => {
    const db = await createDatabase<ConsumerDatabase>({ dataDir: dir, name: "migration-0008" });
    try {
      const before = Object.fromEntries(Object.entries(consumerMigrations).filter(([name]) => name < "0008"));
      await migrateToLatest(db, before, CONSUMER_MIGRATION_TABLE);
      const profile = (id: string, productId: string) => ({
        id,
        identity_user_id: `user-${id}`,
        first_name: "Old",
        middle_name: null,
        last_name: "Profile",
        dob: "1980-01-01",
        postal_code: "98101",
        marketing_opt_out: false,
        health_updates_opt_out: false,
        safe_window_id: productId,
        latitude: null,
        longitude: null,
        strong_safety_date: null,
        weak_safety_date: null,
        safe_window_description: null,
        created_at: new Date(),
        updated_at: new Date(),
      });
      const [usual, narrowed] = [randomUUID(), randomUUID()];
      await db.insertInto("consumer_profiles").values([profile(usual, "AAAAAAAA"), profile(narrowed, "BBBBBBBB")]).execute();
      await db.insertInto("consumer_screen_permissions").values(["SafeWindow", "MyTests", "Friends", "Settings"].map((screen) => ({ consumer_id: usual, screen: screen as never }))).execute();
      await db.insertInto("consumer_screen_permissions").values({ consumer_id: narrowed, screen: "Settings" }).execute();
      expect((await migrateToLatest(db, consumerMigrations, CONSUMER_MIGRATION_TABLE))[0]).toBe("0008_visits");
      const screensOf = async (id: string) => (await db.selectFrom("consumer_screen_permissions").select("screen").where("consumer_id", "=", id).execute()).map((r) => r.screen).sort();
      expect(await screensOf(usual)).toEqual(["Friends", "Locations", "MyFun", "MyTests", "SafeWindow", "Settings"]);
      expect(await screensOf(narrowed)).toEqual(["Settings"]);
    } finally {
      await db.destroy();
    }
  }, 60_000);
});
