// Follow relations on the reference consumer API over real HTTP (docs/product/README.md §1 Sharing, §3 Consumer
// subscription, §4 Follow relation, §5 Search, §6 "Only the followed person can confirm or
// decline", §7 /consumersubscription/ calls), with a real identity authority issuing the tokens.
// Both services share one in-memory PGlite through a socket server (one database to create),
// so the test can also reach the tables: to give a profile a safe window (the test-result
// pipeline is not involved here) and to add many profiles for the result cap.
import { randomBytes, randomUUID } from "node:crypto";
import { base32crockford } from "@scure/base";
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase } from "../../lib/db/database.ts";
import type { ConsumerDatabase } from "../../services/consumer/schema/tables.ts";
import { rememberEmail } from "../../services/consumer/subscriptions.ts";
import { callApi, makePerson, makeUser, startPgliteServer, startServices } from "./support.ts";
import type { Person, PgliteServer, Services, TestUser } from "./support.ts";

const CLIENT = { clientId: "safewindow-web", clientSecret: "subscriptions-test-secret-0123456789" };

let pg: PgliteServer;
let db: Kysely<ConsumerDatabase>;
let services: Services;
/** Every /consumersubscription answer's raw text, checked for e-mails and dates of birth at the end. */
const answers: string[] = [];

beforeAll(async () => {
  pg = await startPgliteServer();
  // No memory of stored e-mail addresses (EmailMemory, unit-tested in tests/unit/email-memory.test.ts): an
  // address changed behind the consumer API's back is brought back by the very next call.
  services = await startServices({ client: CLIENT, tmpPrefix: "consumer-subs-", databaseUrl: pg.databaseUrl, pinIssuer: true, emailMemoryMs: 0 });
  db = await createDatabase<ConsumerDatabase>({ databaseUrl: pg.databaseUrl, name: "consumer", poolSize: 2 });
});

afterAll(async () => {
  await db?.destroy();
  await services?.close();
  await pg?.close();
});

// ---------------------------------------------------------------- helpers

let counter = 0;
/** A fresh identity account with a mixed-case e-mail address (the search must ignore case). */
function newAccount() {
  counter += 1;
  return { email: `Follow.User${counter}.${randomBytes(3).toString("hex")}@Example.com`, password: `Fs!${randomBytes(4).toString("hex")}x9Z` };
}

/** Registers a fresh identity user and logs them in with all user scopes. */
const newUser = () => makeUser(services, newAccount());

/** A user with a profile; createprofile is their first call to the consumer API. */
const newPerson = (firstName: string, lastName: string, dob: string) => makePerson(services, { firstName, lastName, dob, postalCode: "94105" }, newAccount());

interface Answer {
  status: number;
  body: any;
}

/** GET /consumersubscription/<call>/?<query> as `user` (or without a token); records the raw answer. */
async function call(user: TestUser | null, callName: string, query: Record<string, string> = {}): Promise<Answer> {
  const qs = new URLSearchParams(query).toString();
  const res = await callApi(services, `/consumersubscription/${callName}/${qs ? `?${qs}` : ""}`, user);
  expect(res.headers.get("content-type")).toContain("application/json");
  const text = await res.text();
  answers.push(text);
  return { status: res.status, body: JSON.parse(text) };
}

async function search(user: TestUser, searchString: string): Promise<string[]> {
  const { status, body } = await call(user, "searchpublishers", { searchString });
  expect(status, searchString).toBe(200);
  expect(body.success).toBe(true);
  return (body.consumers as { sF_ConsumerId: string }[]).map((c) => c.sF_ConsumerId);
}

async function request(follower: TestUser, followed: Person): Promise<string> {
  const { status, body } = await call(follower, "requestsubscription", { sfConsumerId: followed.profile.sF_ConsumerId });
  expect(status).toBe(200);
  expect(body).toEqual({ success: true, sF_ConsumerSubscriptionId: expect.any(String) });
  return body.sF_ConsumerSubscriptionId;
}

async function onRelation(user: TestUser, action: string, id: string): Promise<Answer> {
  return call(user, action, { sfConsumerSubscriptionId: id });
}

async function list(user: TestUser, side: "subscribers" | "publishers"): Promise<any[]> {
  const { status, body } = await call(user, side);
  expect(status).toBe(200);
  expect(body.success).toBe(true);
  return body.subscriptions;
}

async function status(user: TestUser, of: Person): Promise<{ pending: boolean; subscribed: boolean }> {
  const { status: code, body } = await call(user, "subscriptionstatus", { sfConsumerId: of.profile.sF_ConsumerId });
  expect(code).toBe(200);
  expect(body.success).toBe(true);
  return { pending: body.pending, subscribed: body.subscribed };
}

function expectRefused(answer: Answer, code: number, error: string): void {
  expect(answer.status).toBe(code);
  expect(answer.body).toEqual({ success: false, error, error_description: expect.any(String) });
}

/** The row another person's list shows for `person`. */
function rowFor(person: Person, id: string, confirmed: 0 | 1, dates: { strongSafetyDate: string | null; weakSafetyDate: string | null } = { strongSafetyDate: null, weakSafetyDate: null }) {
  return {
    sF_ConsumerSubscriptionId: id,
    sF_ConsumerId: person.profile.sF_ConsumerId,
    firstName: person.profile.firstName,
    lastName: person.profile.lastName,
    safeWindowId: person.profile.safeWindowId,
    confirmed,
    ...dates,
    // setWindow writes the dates alone, as no result of the pipeline: no proof to show.
    safeWindowProof: null,
  };
}

/** Gives a profile a safe window directly in the database (the test-result pipeline's job in the product). */
async function setWindow(person: Person, strongDays: number, weakDays: number): Promise<void> {
  const day = 86_400_000;
  await db
    .updateTable("consumer_profiles")
    .set({ strong_safety_date: new Date(Date.now() + strongDays * day), weak_safety_date: new Date(Date.now() + weakDays * day) })
    .where("id", "=", person.profile.sF_ConsumerId)
    .execute();
}

/** The person's own window, as GET /consumer/getsafewindow answers it. */
async function ownWindow(person: Person): Promise<{ strongSafetyDate: string | null; weakSafetyDate: string | null }> {
  const res = await callApi(services, "/consumer/getsafewindow", person);
  expect(res.status).toBe(200);
  const { strongSafetyDate, weakSafetyDate } = (await res.json()) as { strongSafetyDate: string | null; weakSafetyDate: string | null };
  return { strongSafetyDate, weakSafetyDate };
}

async function relationCount(follower: Person, followed: Person): Promise<number> {
  const rows = await db
    .selectFrom("consumer_subscriptions")
    .select("id")
    .where("follower_id", "=", follower.profile.sF_ConsumerId)
    .where("followed_id", "=", followed.profile.sF_ConsumerId)
    .execute();
  return rows.length;
}

// ---------------------------------------------------------------- people

let ada: Person; // searches, follows
let berenice: Person; // is found and followed
let carl: Person; // the third user
let adalbert: Person; // shares a first-name prefix with Ada
let noProfile: TestUser;
/** A profile added straight into the table: "Abe Cappedaa". */
let cappedAbe: string;

beforeAll(async () => {
  ada = await newPerson("Ada", "Searcher", "1990-12-10");
  berenice = await newPerson("Bérénice", "Quartermaine", "1985-03-04");
  carl = await newPerson("Carl", "Third", "1979-07-08");
  adalbert = await newPerson("Adalbert", "Zeta", "1970-01-02");
  noProfile = await newUser();
});

// ---------------------------------------------------------------- search

describe("searchpublishers", () => {
  it("matches a first-name prefix, a last name and 'first last', in any case, accents as written after NFC", async () => {
    const b = berenice.profile.sF_ConsumerId;
    expect(await search(ada, "bér")).toEqual([b]);
    expect(await search(ada, "BÉRÉN")).toEqual([b]);
    expect(await search(ada, "be\u0301re\u0301nice")).toEqual([b]); // decomposed é
    expect(await search(ada, "ber")).toEqual([]); // é is not e
    expect(await search(ada, "quarter")).toEqual([b]);
    expect(await search(ada, "QUARTERMAINE")).toEqual([b]);
    expect(await search(ada, "Bérénice Quar")).toEqual([b]);
    expect(await search(ada, "  bérénice   quartermaine ")).toEqual([b]);
    expect(await search(ada, "uarter")).toEqual([]); // a prefix, not a substring
    expect(await search(ada, "Quartermaine Bérénice")).toEqual([]);
    // LIKE wildcards in the search text are plain characters.
    expect(await search(ada, "b%%")).toEqual([]);
    expect(await search(ada, "___")).toEqual([]);
  });

  it("answers names and product IDs only", async () => {
    const { body } = await call(ada, "searchpublishers", { searchString: "Quartermaine" });
    expect(body).toEqual({
      success: true,
      consumers: [{ sF_ConsumerId: berenice.profile.sF_ConsumerId, firstName: "Bérénice", lastName: "Quartermaine", safeWindowId: berenice.profile.safeWindowId }],
    });
  });

  it("matches an exact product ID, in any case, with a dash or spaces", async () => {
    const id = berenice.profile.safeWindowId;
    const b = berenice.profile.sF_ConsumerId;
    expect(await search(ada, id)).toEqual([b]);
    expect(await search(ada, id.toLowerCase())).toEqual([b]);
    expect(await search(ada, `${id.slice(0, 4)}-${id.slice(4)}`)).toEqual([b]);
    expect(await search(ada, `${id.slice(0, 4)}-${id.slice(4)}`.toLowerCase())).toEqual([b]);
    expect(await search(ada, ` ${id.slice(0, 4)} ${id.slice(4)} `)).toEqual([b]);
    expect(await search(ada, id.slice(0, 7))).toEqual([]); // not a prefix search
  });

  it("matches an exact e-mail address in any case, known from the user's token since createprofile", async () => {
    const b = berenice.profile.sF_ConsumerId;
    expect(await search(ada, berenice.email)).toEqual([b]);
    expect(await search(ada, berenice.email.toUpperCase())).toEqual([b]);
    expect(await search(ada, berenice.email.toLowerCase())).toEqual([b]);
    expect(await search(ada, berenice.email.slice(0, -1))).toEqual([]);
    expect(await search(ada, "@example.com")).toEqual([]);
    expect(await search(ada, berenice.email.split("@")[0] as string)).toEqual([]);
  });

  it("keeps the stored e-mail up to date with the caller's token", async () => {
    await rememberEmail(db, berenice.sub, "stale.address@example.org", new Date());
    expect(await search(ada, "stale.address@example.org")).toEqual([berenice.profile.sF_ConsumerId]);
    expect(await search(ada, berenice.email)).toEqual([]);
    // Any authenticated call by Bérénice brings back the address her token carries.
    await ownWindow(berenice);
    expect(await search(ada, "stale.address@example.org")).toEqual([]);
    expect(await search(ada, berenice.email)).toEqual([berenice.profile.sF_ConsumerId]);
  });

  it("never answers the searcher", async () => {
    expect(await search(ada, "ada")).toEqual([adalbert.profile.sF_ConsumerId]);
    expect(await search(adalbert, "ada")).toEqual([ada.profile.sF_ConsumerId]);
    expect(await search(ada, ada.profile.safeWindowId)).toEqual([]);
    expect(await search(ada, ada.email)).toEqual([]);
    expect(await search(ada, "Ada Searcher")).toEqual([]);
  });

  it("needs at least 3 non-blank characters", async () => {
    for (const searchString of ["", "  ", "ab", " a b ", "é\u0301", "a\tb"]) {
      expectRefused(await call(ada, "searchpublishers", { searchString }), 400, "invalid_request");
    }
    expectRefused(await call(ada, "searchpublishers"), 400, "invalid_request");
    expectRefused(await call(ada, "searchpublishers", { searchString: "x".repeat(321) }), 400, "invalid_request");
    expect(await search(ada, "b é r")).toEqual([]); // 3 non-blank characters: searched
    expect(await search(ada, "Car")).toEqual([carl.profile.sF_ConsumerId]);
  });

  it("answers at most 20, ordered by last name, then first name", async () => {
    // 25 more profiles straight into the table (their owners never sign in), in shuffled name
    // order; the first two share the last name "Cappedaa", which sorts first.
    const people = Array.from({ length: 25 }, (_, i) => ({
      id: randomUUID(),
      firstName: i === 0 ? "Zed" : "Abe",
      lastName: i < 2 ? "Cappedaa" : `Capped${String.fromCharCode(97 + ((i * 7) % 25))}`,
    }));
    cappedAbe = people[1]!.id;
    await db
      .insertInto("consumer_profiles")
      .values(
        people.map((person, i) => ({
          id: person.id,
          identity_user_id: `capped-${i}`,
          first_name: person.firstName,
          middle_name: null,
          last_name: person.lastName,
          dob: "1980-01-01",
          postal_code: "10001",
          marketing_opt_out: false,
          health_updates_opt_out: false,
          safe_window_id: base32crockford.encode(randomBytes(5)),
          latitude: null,
          longitude: null,
          strong_safety_date: null,
          weak_safety_date: null,
          safe_window_description: null,
          created_at: new Date(),
          updated_at: new Date(),
        })),
      )
      .execute();
    const byName = (x: { firstName: string; lastName: string }, y: { firstName: string; lastName: string }) =>
      x.lastName.localeCompare(y.lastName, "en") || x.firstName.localeCompare(y.firstName, "en");
    const expected = [...people].sort(byName).slice(0, 20).map((p) => p.id);
    expect(await search(ada, "capped")).toEqual(expected);
    expect(expected[0]).toBe(cappedAbe);
    expect(await search(ada, "CAPPEDAA")).toEqual([people[1]!.id, people[0]!.id]);
  });
});

// ---------------------------------------------------------------- the follow relation

describe("requesting, confirming, declining, cancelling and deleting", () => {
  let adaFollowsBerenice: string;

  it("starts a request pending, on both sides' lists, without windows", async () => {
    await setWindow(berenice, 2, 5);
    await setWindow(ada, 1, 3);
    adaFollowsBerenice = await request(ada, berenice);
    expect(await list(ada, "publishers")).toEqual([rowFor(berenice, adaFollowsBerenice, 0)]);
    expect(await list(berenice, "subscribers")).toEqual([rowFor(ada, adaFollowsBerenice, 0)]);
    expect(await list(ada, "subscribers")).toEqual([]);
    expect(await list(berenice, "publishers")).toEqual([]);
    expect(await status(ada, berenice)).toEqual({ pending: true, subscribed: false });
    expect(await status(berenice, ada)).toEqual({ pending: false, subscribed: false });
  });

  it("refuses duplicates, following oneself, unknown and missing consumers", async () => {
    expectRefused(await call(ada, "requestsubscription", { sfConsumerId: berenice.profile.sF_ConsumerId }), 400, "duplicate");
    expectRefused(await call(ada, "requestsubscription", { sfConsumerId: ada.profile.sF_ConsumerId }), 400, "self_follow");
    expectRefused(await call(ada, "requestsubscription", { sfConsumerId: randomUUID() }), 404, "not_found");
    expectRefused(await call(ada, "requestsubscription", { sfConsumerId: "not-a-consumer" }), 404, "not_found");
    expectRefused(await call(ada, "requestsubscription"), 400, "invalid_request");
    expectRefused(await call(ada, "requestsubscription", { sfConsumerId: " " }), 400, "invalid_request");
    expect(await relationCount(ada, berenice)).toBe(1);
  });

  it("lets only the followed person confirm or decline, only the requester cancel, and nobody delete a pending request", async () => {
    for (const user of [carl, ada]) {
      expectRefused(await onRelation(user, "confirmsubscriptionrequest", adaFollowsBerenice), 403, "forbidden");
      expectRefused(await onRelation(user, "declinesubscriptionrequest", adaFollowsBerenice), 403, "forbidden");
    }
    for (const user of [carl, berenice]) expectRefused(await onRelation(user, "cancelsubscriptionrequest", adaFollowsBerenice), 403, "forbidden");
    for (const user of [carl, ada, berenice]) expectRefused(await onRelation(user, "deletesubscription", adaFollowsBerenice), 403, "forbidden");
    expect(await status(ada, berenice)).toEqual({ pending: true, subscribed: false });
  });

  it("after confirmation shows the follower the followed person's window, and the status says subscribed", async () => {
    expect(await onRelation(berenice, "confirmsubscriptionrequest", adaFollowsBerenice)).toEqual({ status: 200, body: { success: true } });
    const window = await ownWindow(berenice);
    expect(window.strongSafetyDate).toMatch(/Z$/);
    expect(window.weakSafetyDate).toMatch(/Z$/);
    expect(await list(ada, "publishers")).toEqual([rowFor(berenice, adaFollowsBerenice, 1, window)]);
    expect(await status(ada, berenice)).toEqual({ pending: false, subscribed: true });
    // Bérénice sees her follower, but not Ada's window: Ada shares it with her confirmed followers only.
    expect(await list(berenice, "subscribers")).toEqual([rowFor(ada, adaFollowsBerenice, 1)]);
    expect(await status(berenice, ada)).toEqual({ pending: false, subscribed: false });
  });

  it("refuses state changes that no longer apply to a confirmed relation", async () => {
    expectRefused(await onRelation(berenice, "confirmsubscriptionrequest", adaFollowsBerenice), 403, "forbidden");
    expectRefused(await onRelation(berenice, "declinesubscriptionrequest", adaFollowsBerenice), 403, "forbidden");
    expectRefused(await onRelation(ada, "cancelsubscriptionrequest", adaFollowsBerenice), 403, "forbidden");
    expectRefused(await call(ada, "requestsubscription", { sfConsumerId: berenice.profile.sF_ConsumerId }), 400, "duplicate");
  });

  it("shows each side the other's window once both follow each other (follow back)", async () => {
    const back = await request(berenice, ada);
    expect(await status(berenice, ada)).toEqual({ pending: true, subscribed: false });
    expect(await list(ada, "subscribers")).toEqual([rowFor(berenice, back, 0)]);
    expect(await onRelation(ada, "confirmsubscriptionrequest", back)).toEqual({ status: 200, body: { success: true } });
    const adaWindow = await ownWindow(ada);
    expect(await list(berenice, "publishers")).toEqual([rowFor(ada, back, 1, adaWindow)]);
    expect(await list(berenice, "subscribers")).toEqual([rowFor(ada, adaFollowsBerenice, 1, adaWindow)]);
    expect(await list(ada, "subscribers")).toEqual([rowFor(berenice, back, 1, await ownWindow(berenice))]);

    // A window is never shown to a pending follower.
    const carlFollowsAda = await request(carl, ada);
    expect(await list(carl, "publishers")).toEqual([rowFor(ada, carlFollowsAda, 0)]);
    // Pending first, then confirmed; within each, by last name ("Cappedaa" before "Third").
    const fromCapped = randomUUID();
    await db
      .insertInto("consumer_subscriptions")
      .values({ id: fromCapped, follower_id: cappedAbe, followed_id: ada.profile.sF_ConsumerId, confirmed: false, requested_at: new Date(), confirmed_at: null })
      .execute();
    expect((await list(ada, "subscribers")).map((r) => r.sF_ConsumerSubscriptionId)).toEqual([fromCapped, carlFollowsAda, back]);
    expect(await onRelation(ada, "declinesubscriptionrequest", fromCapped)).toEqual({ status: 200, body: { success: true } });
    expect(await onRelation(carl, "cancelsubscriptionrequest", carlFollowsAda)).toEqual({ status: 200, body: { success: true } });

    // Either side deletes a confirmed relation; a third user cannot.
    expectRefused(await onRelation(carl, "deletesubscription", back), 403, "forbidden");
    expect(await onRelation(ada, "deletesubscription", back)).toEqual({ status: 200, body: { success: true } }); // the followed side
    expect(await relationCount(berenice, ada)).toBe(0);
    expectRefused(await onRelation(carl, "deletesubscription", adaFollowsBerenice), 403, "forbidden");
    expect(await onRelation(ada, "deletesubscription", adaFollowsBerenice)).toEqual({ status: 200, body: { success: true } }); // the follower side
    expect(await relationCount(ada, berenice)).toBe(0);
    expect(await list(ada, "publishers")).toEqual([]);
    expect(await list(ada, "subscribers")).toEqual([]);
    expect(await list(berenice, "subscribers")).toEqual([]);
    expect(await list(berenice, "publishers")).toEqual([]);
    expect(await status(ada, berenice)).toEqual({ pending: false, subscribed: false });
    expectRefused(await onRelation(ada, "deletesubscription", adaFollowsBerenice), 404, "not_found");
  });

  it("leaves no relation after a decline or a cancel, so the request can be made again", async () => {
    const declined = await request(carl, berenice);
    expect(await onRelation(berenice, "declinesubscriptionrequest", declined)).toEqual({ status: 200, body: { success: true } });
    expect(await relationCount(carl, berenice)).toBe(0);
    expect(await list(berenice, "subscribers")).toEqual([]);
    expect(await list(carl, "publishers")).toEqual([]);
    expect(await status(carl, berenice)).toEqual({ pending: false, subscribed: false });
    expectRefused(await onRelation(berenice, "confirmsubscriptionrequest", declined), 404, "not_found");

    const cancelled = await request(carl, berenice);
    expect(cancelled).not.toBe(declined);
    expect(await onRelation(carl, "cancelsubscriptionrequest", cancelled)).toEqual({ status: 200, body: { success: true } });
    expect(await relationCount(carl, berenice)).toBe(0);
    expect(await list(berenice, "subscribers")).toEqual([]);
    expect(await status(carl, berenice)).toEqual({ pending: false, subscribed: false });
    expectRefused(await onRelation(berenice, "declinesubscriptionrequest", cancelled), 404, "not_found");
  });

  it("creates one relation when the same request arrives many times at once", async () => {
    const requests = await Promise.all(Array.from({ length: 6 }, () => call(adalbert, "requestsubscription", { sfConsumerId: carl.profile.sF_ConsumerId })));
    expect(requests.filter((a) => a.status === 200)).toHaveLength(1);
    for (const a of requests.filter((x) => x.status !== 200)) expectRefused(a, 400, "duplicate");
    expect(await relationCount(adalbert, carl)).toBe(1);
    // Confirm and decline racing: one wins; the other finds it confirmed (403) or gone (404).
    const id = (await list(carl, "subscribers"))[0].sF_ConsumerSubscriptionId;
    const [confirm, decline] = await Promise.all([onRelation(carl, "confirmsubscriptionrequest", id), onRelation(carl, "declinesubscriptionrequest", id)]);
    expect([confirm!.status, decline!.status].filter((s) => s === 200)).toHaveLength(1);
    const loser = confirm!.status === 200 ? decline! : confirm!;
    expect(loser.body.success).toBe(false);
    expect([403, 404]).toContain(loser.status);
    expect(await relationCount(adalbert, carl)).toBe(confirm!.status === 200 ? 1 : 0);
  });

  it("answers 404 for unknown relations and 400 for a missing id, on every call that takes one", async () => {
    for (const action of ["cancelsubscriptionrequest", "confirmsubscriptionrequest", "declinesubscriptionrequest", "deletesubscription"]) {
      expectRefused(await onRelation(ada, action, randomUUID()), 404, "not_found");
      expectRefused(await onRelation(ada, action, "12345"), 404, "not_found");
      expectRefused(await call(ada, action), 400, "invalid_request");
    }
    expectRefused(await call(ada, "subscriptionstatus", { sfConsumerId: randomUUID() }), 404, "not_found");
    expectRefused(await call(ada, "subscriptionstatus"), 400, "invalid_request");
  });
});

// ---------------------------------------------------------------- who may call

describe("callers", () => {
  it("answers 404 no_profile to a user without a profile, on every call", async () => {
    const id = randomUUID();
    for (const [name, query] of [
      ["subscribers", {}],
      ["publishers", {}],
      ["searchpublishers", { searchString: "Quartermaine" }],
      ["requestsubscription", { sfConsumerId: berenice.profile.sF_ConsumerId }],
      ["cancelsubscriptionrequest", { sfConsumerSubscriptionId: id }],
      ["confirmsubscriptionrequest", { sfConsumerSubscriptionId: id }],
      ["declinesubscriptionrequest", { sfConsumerSubscriptionId: id }],
      ["deletesubscription", { sfConsumerSubscriptionId: id }],
      ["subscriptionstatus", { sfConsumerId: berenice.profile.sF_ConsumerId }],
    ] as const) {
      expectRefused(await call(noProfile, name, query), 404, "no_profile");
    }
  });

  it("answers 401 without a bearer token", async () => {
    const answer = await call(null, "subscribers");
    expect(answer.status).toBe(401);
    expect(answer.body.error).toBe("invalid_token");
  });

  it("never answered an e-mail address or a date of birth", () => {
    expect(answers.length).toBeGreaterThan(100);
    const all = answers.join("\n");
    for (const person of [ada, berenice, carl, adalbert]) {
      expect(all.toLowerCase()).not.toContain(person.email.toLowerCase());
      expect(all).not.toContain(person.profile.dob);
    }
    expect(all).not.toContain("stale.address@example.org");
    expect(all).not.toMatch(/"(dob|email|userName|identityUserId)"/i);
    expect(all).not.toContain("@");
  });
});
