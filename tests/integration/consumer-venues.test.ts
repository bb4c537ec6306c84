// Venues through the consumer API, with real identity, business and consumer services; the sample
// venues are the business API's seed.
// - Finding venues (docs/venues.md "Finding venues"; contracts/consumer.ts searchLocations): GET
//   /search/ by ZIP code or by point, nearest first within the radius; the refusals (bad radius, no
//   point, unknown ZIP, a repeated parameter) and a business API that is down or does not answer.
// - Check-in and visits (docs/venues.md "Check-in", "My Fun"): a code the visitor asked for, entered
//   by a location administrator, shows the name and the window and is used up; Check in; the
//   visitor's visits and rating. And what breaks it: an expired, replaced or used code, a caller who
//   administers no location there, two venues entering one code at once, another person's visit.
// - Guessing codes (docs/security/limits.md "Check-in code guesses"): codes that do not exist are limited
//   per caller, per location and per hospitality group, however many administrators enter them and
//   whether sent at once; the count survives a restart; past a global ceiling only a metric and a
//   log line. (Two consumer API servers on one PostgreSQL: consumer-checkin-postgres.test.ts.)
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { readFileSync } from "node:fs";
import path from "node:path";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PASS_SECRET_FILE } from "../../services/consumer/pass/keys.ts";
import type { BusinessService } from "../../services/business/server.ts";
import { SAMPLE_VENUES, seedVenues } from "../../services/business/seed.ts";
import { CONSUMER_MIGRATION_TABLE, consumerMigrations } from "../../services/consumer/schema/migrations.ts";
import type { ConsumerDatabase } from "../../services/consumer/schema/tables.ts";
import { startConsumerService } from "../../services/consumer/server.ts";
import { createDatabase } from "../../lib/db/database.ts";
import { migrateToLatest } from "../../lib/db/migrate.ts";
import type { ConsumerService } from "../../services/consumer/server.ts";
import { GUESS_WINDOW_MS } from "../../services/consumer/guesses.ts";
import { registry } from "../../lib/metrics.ts";
import { callApi, createProfile, json, lineSink, makeUser, startServices } from "./support.ts";
import type { Services, TestUser } from "./support.ts";
import { newGroup } from "./venue-groups.ts";
import type { TestGroup } from "./venue-groups.ts";

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
}, 120_000);

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
      startConsumerService({
        dataDir: path.join(dir, name),
        db: services.consumer.db,
        // Replicas of one database share the secret its pass keys are sealed with.
        passSecret: readFileSync(path.join(services.consumerDataDir, PASS_SECRET_FILE), "utf8").trim(),
        identityUrl: services.identityUrl,
        identityIssuer: services.identity.issuer,
        logger: pino({ level: "silent" }),
        businessUrl,
      });
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
    clockOffsetMs += 121_000;
    try {
      const expired = await post(admin, "/checkin/redeemcode/", { code: third.code, locationId: venue.id });
      expect(expired.status).toBe(409);
      expect((await json(expired)).error).toBe("code_expired");
    } finally {
      clockOffsetMs -= 121_000;
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
});

// ---------------------------------------------------------------- guessing check-in codes

describe("guessing check-in codes", () => {
  const post = (who: TestUser, pathName: string, body: unknown = {}, consumer: ConsumerService = services.consumer) =>
    fetch(`${consumer.url}${pathName}`, { method: "POST", headers: { authorization: `Bearer ${who.token}`, "content-type": "application/json" }, body: JSON.stringify(body) });
  let guesses = 0;
  /** A code nobody was given: a series of this test file's own (a random issued code matching one is a 1 in 2^30 chance). */
  const guess = () => `W${(guesses++).toString(32).toUpperCase().replace(/[ILOU]/g, "X").padStart(5, "0")}`;
  /** The answer to `admin` entering `code` (default a guess) at `locationId`, on `consumer` (default the test's). */
  const enter = (admin: TestUser, locationId: string, code = guess(), consumer?: ConsumerService) => post(admin, "/checkin/redeemcode/", { code, locationId }, consumer);
  /** Statuses of entering `count` guesses one after the other. */
  async function guessAway(admin: TestUser, locationId: string, count: number): Promise<number[]> {
    const statuses: number[] = [];
    for (let i = 0; i < count; i++) statuses.push((await enter(admin, locationId)).status);
    return statuses;
  }
  /** A confirmed person made licensed administrator of `group`, or location administrator of `locationId`. */
  async function adminOf(group: TestGroup, locationId?: string): Promise<TestUser> {
    const admin = await makeUser(services, { confirmed: true });
    await group.addAdministrator(admin.email, locationId);
    return admin;
  }
  /**
   * Moves the consumer API's clock past the current counting window when less than a minute of it is
   * left, so that a test's attempts fall in one window (guesses.ts counts in fixed windows).
   */
  function awayFromWindowEdge(): void {
    const left = GUESS_WINDOW_MS - ((Date.now() + clockOffsetMs) % GUESS_WINDOW_MS);
    if (left < 60_000) clockOffsetMs += left + 1_000;
  }
  /** Seconds from the consumer API's `at` (ms) to the end of its window. */
  const secondsLeftAt = (at: number) => Math.ceil((Math.floor(at / GUESS_WINDOW_MS) * GUESS_WINDOW_MS + GUESS_WINDOW_MS - at) / 1000);
  /** A consumer API of its own (PGlite under `name`) on the test's identity authority and business API. */
  const ownConsumer = (name: string, options: Partial<Parameters<typeof startConsumerService>[0]> = {}) =>
    startConsumerService({
      dataDir: path.join(dir, name),
      identityUrl: services.identityUrl,
      identityIssuer: services.identity.issuer,
      logger: pino({ level: "silent" }),
      businessUrl: business.url,
      now: () => new Date(Date.now() + clockOffsetMs),
      ...options,
    });

  it("counts guesses sent at once: no more than 10 get an answer", async () => {
    awayFromWindowEdge();
    const group = await newGroup(business.db, 1);
    const admin = await adminOf(group);
    const answers = await Promise.all(Array.from({ length: 25 }, () => enter(admin, group.locationIds[0]!)));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((status) => status === 404)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(15);
    // Refused attempts were not counted: the caller's row holds the ten.
    const rows = await services.consumer.db.selectFrom("consumer_checkin_guesses").select(["scope", "misses"]).where("key", "in", [admin.sub, group.locationIds[0]!, group.groupId]).orderBy("scope").execute();
    expect(rows).toEqual([
      { scope: "caller", misses: 10 },
      { scope: "group", misses: 10 },
      { scope: "location", misses: 10 },
    ]);
  });

  it("makes a caller who enters 10 codes that do not exist wait until the window ends, at every location; codes that exist are not guesses", async () => {
    awayFromWindowEdge();
    const group = await newGroup(business.db, 2);
    const [here, there] = group.locationIds as [string, string];
    const admin = await adminOf(group);
    expect(await guessAway(admin, here, 9)).toEqual(Array(9).fill(404));
    // A code replaced, one used, and not a code at all: none is a guess.
    const ada = await makeUser(services);
    expect((await createProfile(services, ada, { firstName: "Ada", lastName: "Visitor", dob: "1990-04-02", postalCode: "98101" })).status).toBe(200);
    const replaced = (await json(await post(ada, "/checkin/issuecode/"))).code;
    const live = (await json(await post(ada, "/checkin/issuecode/"))).code;
    expect((await enter(admin, here, replaced)).status).toBe(409);
    expect((await enter(admin, here, live)).status).toBe(200);
    expect((await enter(admin, here, live)).status).toBe(409);
    expect((await enter(admin, here, "not a code")).status).toBe(400);
    expect((await enter(admin, there)).status).toBe(404); // the tenth guess

    const before = Date.now() + clockOffsetMs;
    const refused = await enter(admin, here);
    const after = Date.now() + clockOffsetMs;
    expect(refused.status).toBe(429);
    expect(await json(refused)).toEqual({ success: false, error: "too_many_attempts", error_description: "You entered too many codes that do not exist. Wait a few minutes." });
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(secondsLeftAt(after));
    expect(retryAfter).toBeLessThanOrEqual(secondsLeftAt(before));
    // At the group's other location too, and whatever is typed.
    expect((await enter(admin, there)).status).toBe(429);
    expect((await enter(admin, here, "not a code")).status).toBe(429);
    // Before the business API is asked: even where the caller administers nothing, they wait.
    expect((await enter(admin, "5a1e7d0c-0000-4000-8000-00000000ffff")).status).toBe(429);
    // Another administrator of the location is not held up.
    expect((await enter(await adminOf(group, here), here)).status).toBe(404);
  }, 60_000);

  it("lets the administrators of one location together enter no more than 20 codes that do not exist", async () => {
    awayFromWindowEdge();
    const group = await newGroup(business.db, 2);
    const [here, there] = group.locationIds as [string, string];
    const [a, b, c] = [await adminOf(group, here), await adminOf(group, here), await adminOf(group, here)];
    expect([...(await guessAway(a, here, 10)), ...(await guessAway(b, here, 10))]).toEqual(Array(20).fill(404));
    // A third account of the location has guessed nothing, and still waits.
    const refused = await enter(c, here);
    expect(refused.status).toBe(429);
    expect((await json(refused)).error_description).toBe("Too many codes that do not exist were entered at this location. Wait a few minutes.");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await enter(await adminOf(group), here)).status).toBe(429);
    // The group's other location is not held up.
    expect((await enter(await adminOf(group, there), there)).status).toBe(404);
  }, 60_000);

  it("lets the administrators at a hospitality group's locations together enter no more than 40 codes that do not exist", async () => {
    awayFromWindowEdge();
    const group = await newGroup(business.db, 3);
    const [first, second, third] = group.locationIds as [string, string, string];
    // Two administrators at each of two locations: 40 guesses, each within its caller's and location's limit.
    for (const locationId of [first, second]) {
      for (const admin of [await adminOf(group, locationId), await adminOf(group, locationId)]) expect(await guessAway(admin, locationId, 10)).toEqual(Array(10).fill(404));
    }
    // A new administrator at the third location, with nothing guessed there, waits.
    const refused = await enter(await adminOf(group, third), third);
    expect(refused.status).toBe(429);
    expect((await json(refused)).error_description).toBe("Too many codes that do not exist were entered at this hospitality group's locations. Wait a few minutes.");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await enter(await adminOf(group), third)).status).toBe(429);
    // Another group is not held up.
    const other = await newGroup(business.db, 1);
    expect((await enter(await adminOf(other), other.locationIds[0]!)).status).toBe(404);
  }, 120_000);

  it("keeps the count across a restart of the consumer API", async () => {
    awayFromWindowEdge();
    const group = await newGroup(business.db, 1);
    const [here] = group.locationIds as [string];
    const admin = await adminOf(group);
    const first = await ownConsumer("restart");
    try {
      for (let i = 0; i < 10; i++) expect((await enter(admin, here, guess(), first)).status).toBe(404);
    } finally {
      await first.close();
    }
    const again = await ownConsumer("restart");
    extra.push(again);
    const refused = await enter(admin, here, guess(), again);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  }, 120_000);

  it("past the ceiling over all venues, counts each code not found in a metric and logs once, and refuses nobody for it", async () => {
    awayFromWindowEdge();
    const lines: string[] = [];
    const consumer = await ownConsumer("ceiling", { logger: pino({ level: "info" }, lineSink(lines)), checkinLimits: { ceiling: 3 } });
    extra.push(consumer);
    const overCeiling = async () => (await registry.getSingleMetric("safewindow_checkin_guesses_over_ceiling_total")?.get())?.values[0]?.value ?? 0;
    const before = await overCeiling();
    // Five groups, one guess each: every caller, location and group far within its limit.
    for (let i = 0; i < 5; i++) {
      const group = await newGroup(business.db, 1);
      expect((await enter(await adminOf(group), group.locationIds[0]!, guess(), consumer)).status).toBe(404);
    }
    expect((await overCeiling()) - before).toBe(2);
    const warnings = lines.map((line) => JSON.parse(line)).filter((entry) => entry.level === 40 && /global ceiling/.test(entry.msg));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ ceiling: 3 });
  }, 120_000);
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
