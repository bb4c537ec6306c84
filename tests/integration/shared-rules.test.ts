// The rules both the app and the reference services check (docs/product/shared-rules.md), checked for
// agreement: fast-check generates values, the app's form schema judges each as a route action does
// (conform's parseWithZod), the reference service judges it over HTTP (the identity authority's
// register, the consumer API's modifycore), and the two must accept and refuse the same ones. Both
// sides are built from contracts/rules.ts, so this tests the wiring, not the rule against itself.
// Both services run on one injected clock, which the age cases move (tokens are issued and checked
// on it too).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseWithZod } from "@conform-to/zod/v4";
import fc from "fast-check";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registrationSchema } from "../../app/forms/account";
import { personalInfoSchemaOn } from "../../app/forms/profile";
import * as messages from "../../app/messages";
import { startConsumerService } from "../../services/consumer/server.ts";
import type { ConsumerService } from "../../services/consumer/server.ts";
import { startIdentityService } from "../../services/identity/server.ts";
import type { IdentityService } from "../../services/identity/server.ts";
import { accessToken, callApi, contractFetch, createProfile, makeUser, modifyCore } from "./support.ts";
import type { Authority, TestUser } from "./support.ts";

/** The services' clock: before every instant the age cases set, so the signing key is never younger than a token. */
let clock = new Date("2026-02-20T00:00:00Z");
const now = () => clock;

let dirs: string[] = [];
let identity: IdentityService | undefined;
let consumer: ConsumerService | undefined;
let authority: Authority;
let person: TestUser;

beforeAll(async () => {
  dirs = await Promise.all([mkdtemp(path.join(tmpdir(), "shared-rules-id-")), mkdtemp(path.join(tmpdir(), "shared-rules-"))]);
  const silent = pino({ level: "silent" });
  const client = { clientId: "shared-rules", clientSecret: "shared-rules-secret" };
  identity = await startIdentityService({ dataDir: dirs[0]!, publicUrl: "http://localhost:3000", clients: [client], logger: silent, now });
  consumer = await startConsumerService({ dataDir: dirs[1]!, identityUrl: identity.url, logger: silent, now, publicUrl: "http://localhost:3000" });
  authority = { identityUrl: identity.url, client };
  person = await makeUser(authority, { tag: "shared-rules" });
  expect((await createProfile({ consumer }, person, { firstName: "Ada", lastName: "Lovelace", dob: "1990-12-10", postalCode: "94105" })).status).toBe(200);
}, 60_000);

afterAll(async () => {
  await consumer?.close();
  await identity?.close();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

// ---------------------------------------------------------------- generators

/** Control characters of every kind the rule names: C0 (NUL, tab, line breaks among them), DEL and C1. */
const controlCharacter = fc.constantFrom("\u0000", "\u0007", "\t", "\n", "\r", "\u001b", "\u001f", "\u007f", "\u0080", "\u0085", "\u009f");

const passwordCharacter = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(..."abcxyz") },
  { weight: 3, arbitrary: fc.constantFrom(..."ABCXYZ") },
  { weight: 2, arbitrary: fc.constantFrom(..."0189") },
  { weight: 2, arbitrary: fc.constantFrom(..."!@#$%^&*") },
  { weight: 1, arbitrary: fc.constantFrom("~", " ", "-", "_", "é", "ß", "😀") },
  { weight: 1, arbitrary: controlCharacter },
);

/** Random characters around both length limits (8 and 128). */
const filler = fc.oneof(fc.string({ unit: passwordCharacter, maxLength: 12 }), fc.string({ unit: passwordCharacter, minLength: 118, maxLength: 128 }));

/** Passwords around both length limits, with and without each character class: random, or one of each class set into random ones. */
const password = fc.oneof(
  filler,
  fc
    .tuple(fc.constantFrom(..."az"), fc.constantFrom(..."AZ"), fc.constantFrom(..."09"), fc.constantFrom(..."!@#$%^&*"), filler, fc.nat())
    .map(([lower, upper, digit, special, rest, at]) => {
      const cut = at % (rest.length + 1);
      return `${rest.slice(0, cut)}${lower}${upper}${digit}${special}${rest.slice(cut)}`;
    }),
);

const nameCharacter = fc.oneof({ weight: 8, arbitrary: fc.constantFrom(..."AdaLovelace-' é") }, { weight: 1, arbitrary: controlCharacter });
const name = fc.oneof({ weight: 6, arbitrary: fc.string({ unit: nameCharacter, maxLength: 8 }) }, { weight: 1, arbitrary: fc.integer({ min: 98, max: 102 }).map((n) => "x".repeat(n)) });

const postalCharacter = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(..."AZaz0159") },
  { weight: 3, arbitrary: fc.constantFrom(" ", "-") },
  { weight: 1, arbitrary: fc.constantFrom("_", "#", "é") },
  { weight: 1, arbitrary: controlCharacter },
);
const postalCode = fc.string({ unit: postalCharacter, maxLength: 14 });

/**
 * A person who turns 18 at their local midnight, near that midnight: a day (a leap-day birthday's
 * 1 March, mid-year, a new year), a zone (UTC−12 to UTC+14 in quarter hours), the clock up to two
 * hours either side of the midnight there, and a birth date on the 18th birthday, the day before or
 * the day after.
 */
const ageCase = fc.record({
  day: fc.constantFrom("2026-03-01", "2026-06-15", "2027-01-01"),
  zoneQuarterHours: fc.integer({ min: -48, max: 56 }),
  minutes: fc.integer({ min: -120, max: 120 }),
  shiftDays: fc.integer({ min: -1, max: 1 }),
});

// ---------------------------------------------------------------- helpers

function form(values: Record<string, string>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(values)) data.append(key, value);
  return data;
}

/** The service's verdict from its answer: 200 accepts, 400 refuses; anything else fails the test. */
function verdict(status: number, what: unknown): boolean {
  expect([200, 400], JSON.stringify(what)).toContain(status);
  return status === 200;
}

const two = (n: number) => String(n).padStart(2, "0");

const appProfile = personalInfoSchemaOn(now)(messages);

/** Both verdicts on one /personalinfo form: the app's schema, and modifycore as `token`'s user. */
async function profileVerdicts(token: string, fields: { firstName: string; lastName: string; dob: string; postalCode: string }): Promise<{ app: boolean; service: boolean }> {
  const app = parseWithZod(form(fields), { schema: appProfile }).status === "success";
  const [month, day, year] = fields.dob.split("/");
  const res = await modifyCore({ consumer: consumer! }, token, { identityUserId: person.sub, ...fields, middleName: "", dob: `${year}-${month}-${day}` });
  await res.arrayBuffer();
  return { app, service: verdict(res.status, fields) };
}

// ---------------------------------------------------------------- the properties

describe("the app's forms and the reference services agree (docs/product/shared-rules.md)", () => {
  it("on passwords: Create Account's schema and the identity authority's register", async () => {
    clock = new Date("2026-02-20T00:00:00Z");
    const clientToken = await accessToken(authority, { grant_type: "client_credentials", scope: "identity.api" });
    const schema = registrationSchema(messages);
    const seen = { accepted: 0, refused: 0 };
    let n = 0;
    await fc.assert(
      fc.asyncProperty(password, async (value) => {
        const email = `password-${++n}-${Math.random().toString(36).slice(2, 8)}@example.com`;
        const app = parseWithZod(form({ email, password: value, confirmPassword: value, acceptTerms: "on", acceptPrivacy: "on" }), { schema }).status === "success";
        const res = await contractFetch(`${authority.identityUrl}/api/account/register`, {
          method: "POST",
          headers: { authorization: `Bearer ${clientToken}`, "content-type": "application/json" },
          body: JSON.stringify({ userName: email, password: value }),
        });
        await res.arrayBuffer();
        const service = verdict(res.status, value);
        expect(service, `password ${JSON.stringify(value)}: the app ${app ? "accepts" : "refuses"} it`).toBe(app);
        seen[app ? "accepted" : "refused"] += 1;
      }),
      // Besides the random ones: a character outside the BMP, counted as two by both (8 long, valid).
      { numRuns: 60, examples: [["a!a0A\u{1F600}A"], ["a!a0\u{1F600}A"]] },
    );
    expect(seen.accepted).toBeGreaterThan(0);
    expect(seen.refused).toBeGreaterThan(0);
  }, 60_000);

  it("on names, postal codes and control characters: /personalinfo's schema and modifycore", async () => {
    clock = new Date("2026-02-20T00:00:00Z");
    const token = await accessToken(authority, { grant_type: "password", username: person.email, password: person.password });
    const seen = { accepted: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(name, name, postalCode, async (firstName, lastName, postal) => {
        const fields = { firstName, lastName, dob: "12/10/1990", postalCode: postal };
        const { app, service } = await profileVerdicts(token, fields);
        expect(service, `${JSON.stringify(fields)}: the app ${app ? "accepts" : "refuses"} it`).toBe(app);
        seen[app ? "accepted" : "refused"] += 1;
      }),
      { numRuns: 80 },
    );
    expect(seen.accepted).toBeGreaterThan(0);
    expect(seen.refused).toBeGreaterThan(0);
  }, 60_000);

  it("on control characters in any other parameter: the services' edge refuses C1 as the forms do (services/shared/http.ts)", async () => {
    clock = new Date("2026-02-20T00:00:00Z");
    const token = await accessToken(authority, { grant_type: "password", username: person.email, password: person.password });
    for (const character of ["\u0000", "\u0085", "\u009f"]) {
      const res = await callApi({ consumer: consumer! }, `/consumersubscription/searchpublishers/?searchString=${encodeURIComponent(`Lovelace${character}`)}`, token);
      expect(res.status, JSON.stringify(character)).toBe(400);
      expect(await res.text()).toContain("searchString");
    }
    const clean = await callApi({ consumer: consumer! }, "/consumersubscription/searchpublishers/?searchString=Lovelace", token);
    expect(clean.status).toBe(200);
    await clean.arrayBuffer();
  }, 30_000);

  it("on the age of 18, near midnight in every zone, on the same injected clock", async () => {
    const seen = { accepted: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(ageCase, async ({ day, zoneQuarterHours, minutes, shiftDays }) => {
        const offsetMs = zoneQuarterHours * 15 * 60_000;
        clock = new Date(Date.parse(`${day}T00:00:00Z`) - offsetMs + minutes * 60_000);
        const local = new Date(clock.getTime() + offsetMs);
        const birth = new Date(Date.UTC(local.getUTCFullYear() - 18, local.getUTCMonth(), local.getUTCDate() + shiftDays));
        const dob = `${two(birth.getUTCMonth() + 1)}/${two(birth.getUTCDate())}/${birth.getUTCFullYear()}`;
        // A token issued on the moved clock, so the consumer API takes it on the same clock.
        const token = await accessToken(authority, { grant_type: "password", username: person.email, password: person.password });
        const { app, service } = await profileVerdicts(token, { firstName: "Ada", lastName: "Lovelace", dob, postalCode: "94105" });
        expect(service, `born ${dob}, at ${clock.toISOString()}: the app ${app ? "accepts" : "refuses"} it`).toBe(app);
        seen[app ? "accepted" : "refused"] += 1;
      }),
      { numRuns: 60 },
    );
    expect(seen.accepted).toBeGreaterThan(0);
    expect(seen.refused).toBeGreaterThan(0);
  }, 60_000);
});
