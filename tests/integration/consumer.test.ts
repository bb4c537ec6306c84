// The reference consumer API over real HTTP (docs/product/calls.md §7 consumer table: profile, permissions, safe
// window; §5 profile rules; §6 one user, acting for itself only), with a real identity
// authority issuing the tokens. Both services on ephemeral ports with fresh PGlite data dirs.
import { SignJWT, decodeJwt, decodeProtectedHeader, generateKeyPair } from "jose";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ageRuleDate } from "../../contracts/rules.ts";
import { createTokenVerifier } from "../../services/shared/auth.ts";
import { accessToken, callApi, contractFetch, createProfile as postProfile, json, lineSink, makePerson, makeUser, modifyCore as postModifyCore, startServices } from "./support.ts";
import type { Profile, Services, TestUser } from "./support.ts";

const CLIENT = { clientId: "safewindow-web", clientSecret: "consumer-test-secret-0123456789" };
const PRODUCT_ID = /^[0-9A-HJKMNP-TV-Z]{8}$/;

let services: Services;
let base: string;
/** Added to the consumer's clock only (tokens are issued on the real clock). */
let consumerClockOffsetMs = 0;
const logLines: string[] = [];
/** Every token value used below; none may appear in a log line. */
const secrets = new Set<string>();

beforeAll(async () => {
  services = await startServices({
    client: CLIENT,
    tmpPrefix: "consumer-",
    identityLogger: pino({ level: "info" }, lineSink(logLines)),
    consumerLogger: pino({ level: "debug" }, lineSink(logLines)),
    consumerNow: () => new Date(Date.now() + consumerClockOffsetMs),
    onToken: (token) => secrets.add(token),
  });
  base = services.consumer.url;
});

afterAll(async () => {
  await services?.close();
});

// ---------------------------------------------------------------- helpers

const clientToken = () => accessToken(services, { grant_type: "client_credentials", scope: "identity.api" });
/** Registers a fresh identity user and logs them in (password grant, all user scopes). */
const newUser = () => makeUser(services, { tag: "consumer" });
const api = (pathAndQuery: string, token: string | null, init?: RequestInit) => callApi(services, pathAndQuery, token, init);

/** 'YYYY-MM-DD' of the consumer's today by the age rule (the date in UTC−12, contracts/rules.ts) moved by whole years and days (calendar arithmetic). */
function dateFromToday(years: number, days = 0): string {
  const today = ageRuleDate(new Date(Date.now() + consumerClockOffsetMs));
  const d = new Date(Date.UTC(today.year + years, today.month - 1, today.day + days));
  return d.toISOString().slice(0, 10);
}

const goodProfile = { firstName: "Ada", lastName: "Lovelace", dob: "1990-12-10", postalCode: "94105" };

const createProfile = (user: TestUser, consumer: Record<string, unknown> = goodProfile, extra?: Record<string, unknown>) => postProfile(services, user, consumer, extra);
const modifyCore = (user: TestUser, fields: Record<string, string>) => postModifyCore(services, user, fields);

async function withProfile(consumer: Record<string, unknown> = goodProfile): Promise<{ user: TestUser; profile: Profile }> {
  const { profile, ...user } = await makePerson(services, consumer, { tag: "consumer" });
  return { user, profile };
}

const CALLS: [string, RequestInit?][] = [
  ["/consumer"],
  ["/consumer/getpermissions"],
  ["/consumer/getsafewindow"],
  ["/consumer/createprofile", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ consumer: goodProfile, latitude: null, longitude: null }) }],
  ["/consumer/modifycore/", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "identityUserId=x&firstName=A" }],
];

// ---------------------------------------------------------------- authentication

describe("authentication", () => {
  it("serves /healthz without a token", async () => {
    const res = await contractFetch(`${base}/healthz`);
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ ok: true });
  });

  it("answers 401 invalid_token without a bearer token, on every call", async () => {
    for (const [p, init] of CALLS) {
      for (const authorization of [undefined, "Bearer", "Basic dXNlcjpwYXNz", "Bearer not-a-jwt", "Bearer a.b.c"]) {
        const headers = new Headers(init?.headers);
        if (authorization) headers.set("authorization", authorization);
        const res = await contractFetch(`${base}${p}`, { ...init, headers });
        expect(res.status, `${p} ${authorization}`).toBe(401);
        expect(res.headers.get("www-authenticate")).toContain('error="invalid_token"');
        expect((await json(res)).error).toBe("invalid_token");
      }
    }
  });

  it("refuses forged tokens: another key, an unknown key id, HS256, alg none", async () => {
    const real = await newUser();
    const claims = decodeJwt(real.token);
    const { kid } = decodeProtectedHeader(real.token);
    const { privateKey } = await generateKeyPair("RS256");
    const forge = (header: { alg: string; kid?: string; typ?: string }, key: CryptoKey | Uint8Array) =>
      new SignJWT({ ...claims }).setProtectedHeader(header).sign(key);
    const forged = [
      await forge({ alg: "RS256", kid: kid as string, typ: "at+jwt" }, privateKey),
      await forge({ alg: "RS256", kid: "someone-elses-key", typ: "at+jwt" }, privateKey),
      await forge({ alg: "HS256", kid: kid as string }, new TextEncoder().encode("a-shared-secret-of-32-bytes-long!")),
      `${Buffer.from(JSON.stringify({ alg: "none" })).toString("base64url")}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.`,
    ];
    // A real token with its payload swapped for another user's is forged too.
    const other = decodeJwt((await newUser()).token);
    const [h, , s] = real.token.split(".");
    forged.push(`${h}.${Buffer.from(JSON.stringify({ ...claims, sub: other.sub })).toString("base64url")}.${s}`);
    for (const token of forged) {
      secrets.add(token);
      const res = await api("/consumer", token);
      expect(res.status).toBe(401);
      expect((await json(res)).error).toBe("invalid_token");
    }
    // The genuine token still works.
    expect((await api("/consumer", real.token)).status).toBe(200);
  });

  // A verified token is kept by its exact text (services/shared/auth.ts): its expiry is still read
  // on every call, and a text differing by one character is checked in full.
  it("refuses an expired token with 401, though it was verified a call before", async () => {
    const user = await newUser();
    expect((await api("/consumer", user.token)).status).toBe(200);
    consumerClockOffsetMs = 2 * 3600_000;
    try {
      const res = await api("/consumer", user.token);
      expect(res.status).toBe(401);
      expect(await json(res)).toMatchObject({ error: "invalid_token", error_description: "The access token expired." });
    } finally {
      consumerClockOffsetMs = 0;
    }
    expect((await api("/consumer", user.token)).status).toBe(200);
  });

  it("refuses a token whose signature differs by one character from one verified a call before", async () => {
    const user = await newUser();
    expect((await api("/consumer", user.token)).status).toBe(200);
    const signature = user.token.lastIndexOf(".") + 10;
    const altered = `${user.token.slice(0, signature)}${user.token[signature] === "A" ? "B" : "A"}${user.token.slice(signature + 1)}`;
    const res = await api("/consumer", altered);
    expect(res.status).toBe(401);
    expect((await json(res)).error).toBe("invalid_token");
  });

  it("answers 403 insufficient_scope to a client-credentials token (no user)", async () => {
    const token = await clientToken();
    for (const [p, init] of CALLS) {
      const res = await api(p, token, init);
      expect(res.status, p).toBe(403);
      expect(res.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
      expect((await json(res)).error).toBe("insufficient_scope");
    }
  });

  it("refuses a user token without the consumer.api audience", async () => {
    const user = await newUser();
    const token = await accessToken(services, { grant_type: "password", username: user.email, password: user.password, scope: "openid identity.user" });
    expect(decodeJwt(token).aud).toEqual(["identity.api"]);
    const res = await api("/consumer", token);
    expect(res.status).toBe(401);
    expect((await json(res)).error_description).toContain("consumer.api");
  });

  it("checks the issuer (discovered from the authority, or as configured)", async () => {
    const user = await newUser();
    const now = () => new Date();
    const discovered = createTokenVerifier({ identityUrl: services.identityUrl, now });
    expect(await discovered.verify(`Bearer ${user.token}`)).toEqual({ identityUserId: user.sub, email: user.email, emailVerified: false });
    const configured = createTokenVerifier({ identityUrl: services.identityUrl, issuer: services.identity.issuer, now });
    expect(await configured.verify(`Bearer ${user.token}`)).toEqual({ identityUserId: user.sub, email: user.email, emailVerified: false });
    const elsewhere = createTokenVerifier({ identityUrl: services.identityUrl, issuer: "https://login.example.com", now });
    await expect(elsewhere.verify(`Bearer ${user.token}`)).rejects.toMatchObject({ name: "InvalidTokenError" });
  });
});

// ---------------------------------------------------------------- GET /consumer, createprofile

const PROFILE_KEYS = [
  "sF_ConsumerId",
  "identityUserId",
  "firstName",
  "middleName",
  "lastName",
  "dob",
  "postalCode",
  "marketingOptOut",
  "healthUpdatesOptOut",
  "safeWindowId",
  "strongSafetyDate",
  "weakSafetyDate",
  "safeWindowDescription",
].sort();

describe("profile: GET /consumer and POST /consumer/createprofile", () => {
  it("answers null, Settings only and 404 before a profile exists", async () => {
    const user = await newUser();
    const profile = await api("/consumer", user.token);
    expect(profile.status).toBe(200);
    expect(await json(profile)).toBeNull();
    expect(await json(await api("/consumer/getpermissions", user.token))).toEqual({ enabledScreens: ["Settings"] });
    const window = await api("/consumer/getsafewindow", user.token);
    expect(window.status).toBe(404);
    expect(await json(window)).toMatchObject({ error: "no_profile" });
  });

  it("creates the profile with a product ID, and GET /consumer answers it", async () => {
    const user = await newUser();
    const res = await createProfile(user, { firstName: "  Ada ", lastName: "Lovelace", dob: "1990-12-10", postalCode: " 94105 " });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.success).toBe(true);
    expect(Object.keys(body.consumer).sort()).toEqual(PROFILE_KEYS);
    expect(body.consumer).toEqual({
      sF_ConsumerId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      identityUserId: user.sub,
      firstName: "Ada",
      middleName: null,
      lastName: "Lovelace",
      dob: "1990-12-10",
      postalCode: "94105",
      marketingOptOut: false,
      healthUpdatesOptOut: false,
      safeWindowId: expect.stringMatching(PRODUCT_ID),
      strongSafetyDate: null,
      weakSafetyDate: null,
      safeWindowDescription: null,
    });
    expect(await json(await api("/consumer", user.token))).toEqual(body.consumer);
    // Trailing slash and case as docs/product/calls.md §7 writes paths are the same route.
    expect(await json(await api("/consumer/", user.token))).toEqual(body.consumer);
  });

  it("accepts MM/DD/YYYY, a middle name, opt-outs and coordinates", async () => {
    const user = await newUser();
    const res = await createProfile(
      user,
      { firstName: "Grace", middleName: "Brewster", lastName: "Hopper", dob: "12/09/1986", postalCode: "SW1A 1AA", marketingOptOut: true, healthUpdatesOptOut: true, identityUserId: "ignored" },
      { latitude: 51.501, longitude: -0.1416 },
    );
    expect(res.status).toBe(200);
    expect((await json(res)).consumer).toMatchObject({
      identityUserId: user.sub,
      middleName: "Brewster",
      dob: "1986-12-09",
      postalCode: "SW1A 1AA",
      marketingOptOut: true,
      healthUpdatesOptOut: true,
    });
  });

  it("answers 409 when the user already has a profile, and keeps the first", async () => {
    const { user, profile } = await withProfile();
    const res = await createProfile(user, { ...goodProfile, firstName: "Other" });
    expect(res.status).toBe(409);
    expect(await json(res)).toEqual({ success: false, errors: [{ field: null, message: "A profile already exists." }] });
    expect(await json(await api("/consumer", user.token))).toEqual(profile);
  });

  it("answers 400 with field errors for each broken rule, and creates nothing", async () => {
    const user = await newUser();
    const cases: [Record<string, unknown>, string, RegExp?][] = [
      [{ ...goodProfile, firstName: undefined }, "firstName", /required/],
      [{ ...goodProfile, firstName: "   " }, "firstName", /required/],
      [{ ...goodProfile, firstName: null }, "firstName", /required/],
      [{ ...goodProfile, lastName: "" }, "lastName", /required/],
      [{ ...goodProfile, lastName: "x".repeat(101) }, "lastName", /at most 100/],
      [{ ...goodProfile, middleName: "y".repeat(101) }, "middleName", /at most 100/],
      [{ ...goodProfile, firstName: "Ada\nBob" }, "firstName", /not allowed/],
      [{ ...goodProfile, postalCode: "" }, "postalCode", /required/],
      [{ ...goodProfile, postalCode: "1234567890123" }, "postalCode", /at most 12/],
      [{ ...goodProfile, postalCode: "941#05" }, "postalCode", /letters, digits/],
      [{ ...goodProfile, dob: undefined }, "dob", /required/],
      [{ ...goodProfile, dob: "1990/12/10" }, "dob", /format|form/],
      [{ ...goodProfile, dob: "10-12-1990" }, "dob", /form/],
      [{ ...goodProfile, dob: "1/2/1990" }, "dob", /form/],
      [{ ...goodProfile, dob: "yesterday" }, "dob", /form/],
      [{ ...goodProfile, dob: "02/30/2000" }, "dob", /real calendar date/],
      [{ ...goodProfile, dob: "13/01/2000" }, "dob", /real calendar date/],
      [{ ...goodProfile, dob: "2001-02-29" }, "dob", /real calendar date/],
      [{ ...goodProfile, dob: "1990-00-10" }, "dob", /real calendar date/],
      [{ ...goodProfile, dob: "1899-12-31" }, "dob", /1900/],
      [{ ...goodProfile, dob: dateFromToday(0, 1) }, "dob", /future/],
      [{ ...goodProfile, dob: dateFromToday(-18, 1) }, "dob", /at least 18/],
      [{ ...goodProfile, dob: dateFromToday(-5) }, "dob", /at least 18/],
    ];
    for (const [profile, field, message] of cases) {
      const res = await createProfile(user, profile);
      expect(res.status, JSON.stringify(profile)).toBe(400);
      const body = await json(res);
      expect(body.success).toBe(false);
      expect(body.errors, JSON.stringify(profile)).toEqual([{ field, message: expect.stringMatching(message ?? /./) }]);
    }
    const coords = await createProfile(user, goodProfile, { latitude: 91, longitude: -181 });
    expect(coords.status).toBe(400);
    expect((await json(coords)).errors.map((e: { field: string }) => e.field)).toEqual(["latitude", "longitude"]);
    // Every failed rule is listed, not only the first.
    const many = await createProfile(user, { firstName: "", lastName: "", dob: "", postalCode: "" });
    expect((await json(many)).errors.map((e: { field: string }) => e.field)).toEqual(["firstName", "lastName", "dob", "postalCode"]);
    expect(await json(await api("/consumer", user.token))).toBeNull();
  });

  it("accepts a user who turns 18 today", async () => {
    const user = await newUser();
    const dob = dateFromToday(-18);
    const res = await createProfile(user, { ...goodProfile, dob });
    expect(res.status).toBe(200);
    expect((await json(res)).consumer.dob).toBe(dob);
  });

  it("answers malformed input with 400 invalid_request, never 500, and keeps answering", async () => {
    const user = await newUser();
    const post = (body: string, type = "application/json") =>
      api("/consumer/createprofile", user.token, { method: "POST", headers: { "content-type": type }, body });
    const cases = [
      await post("{not json"),
      await post("[]"),
      await post('"a string"'),
      await post("null"),
      await post(JSON.stringify({ latitude: 1, longitude: 2 })),
      await post(JSON.stringify({ consumer: "Ada" })),
      await post(JSON.stringify({ consumer: { ...goodProfile, firstName: 5 } })),
      await post(JSON.stringify({ consumer: { ...goodProfile, marketingOptOut: "yes" } })),
      await post(JSON.stringify({ consumer: goodProfile, latitude: "51.5" })),
      await post(new URLSearchParams(goodProfile).toString(), "application/x-www-form-urlencoded"),
      await post("hello", "text/plain"),
    ];
    for (const res of cases) {
      expect(res.status).toBe(400);
      expect((await json(res)).error).toBe("invalid_request");
    }
    const big = await post(JSON.stringify({ consumer: { ...goodProfile, firstName: "x".repeat(100 * 1024) } }));
    expect(big.status).toBe(413);
    expect((await json(big)).error).toBe("payload_too_large");
    const unknown = await api("/consumer/nothing-here", user.token);
    expect(unknown.status).toBe(404);
    expect((await json(unknown)).error).toBe("not_found");
    const elsewhere = await contractFetch(`${base}/no/such/path`);
    expect(elsewhere.status).toBe(404);
    expect((await json(elsewhere)).error).toBe("not_found");

    expect(await json(await contractFetch(`${base}/healthz`))).toEqual({ ok: true });
    expect((await createProfile(user)).status).toBe(200);
  });
});

// ---------------------------------------------------------------- modifycore

describe("profile: POST /consumer/modifycore/", () => {
  it("changes the core fields; an empty middle name becomes null; the product ID stays", async () => {
    const { user, profile } = await withProfile({ ...goodProfile, middleName: "Augusta" });
    const res = await modifyCore(user, {
      identityUserId: user.sub,
      firstName: "Augusta Ada",
      middleName: "",
      lastName: "King",
      dob: "1985-07-04T00:00:00",
      postalCode: "10001",
    });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toEqual({
      success: true,
      consumer: { ...profile, firstName: "Augusta Ada", middleName: null, lastName: "King", dob: "1985-07-04", postalCode: "10001" },
    });
    expect(await json(await api("/consumer", user.token))).toEqual(body.consumer);
    // A plain 'YYYY-MM-DD' and a middle name are taken too; no trailing slash is the same route.
    const again = await api("/consumer/modifycore", user.token, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ identityUserId: user.sub, firstName: "Ada", middleName: "B", lastName: "King", dob: "1985-07-05", postalCode: "10001" }).toString(),
    });
    expect((await json(again)).consumer).toMatchObject({ middleName: "B", dob: "1985-07-05", safeWindowId: profile.safeWindowId });
  });

  it("answers 400 on a broken rule and leaves the profile as it was", async () => {
    const { user, profile } = await withProfile();
    const fields = { identityUserId: user.sub, firstName: "Ada", middleName: "", lastName: "Lovelace", dob: "1990-12-10", postalCode: "94105" };
    const cases: [Record<string, string>, string][] = [
      [{ ...fields, firstName: "" }, "firstName"],
      [{ ...fields, dob: dateFromToday(-18, 1) }, "dob"],
      [{ ...fields, dob: "1990-02-30T00:00:00" }, "dob"],
      [{ ...fields, postalCode: "" }, "postalCode"],
    ];
    for (const [form, field] of cases) {
      const res = await modifyCore(user, form);
      expect(res.status).toBe(400);
      expect(await json(res)).toEqual({ success: false, errors: [{ field, message: expect.any(String) }] });
    }
    const { lastName: _, ...noLastName } = fields;
    expect((await json(await modifyCore(user, noLastName))).errors).toEqual([{ field: "lastName", message: "Last name is required." }]);
    expect(await json(await api("/consumer", user.token))).toEqual(profile);
  });

  it("answers 403 when identityUserId is not the token's user, 404 without a profile, 400 when malformed", async () => {
    const { user, profile } = await withProfile();
    const stranger = await newUser();
    const fields = { firstName: "Eve", lastName: "Mallory", dob: "1980-01-01", postalCode: "666" };

    const forbidden = await modifyCore(user, { identityUserId: stranger.sub, ...fields });
    expect(forbidden.status).toBe(403);
    expect((await json(forbidden)).success).toBe(false);

    const missing = await modifyCore(stranger, { identityUserId: stranger.sub, ...fields });
    expect(missing.status).toBe(404);
    expect(await json(missing)).toMatchObject({ success: false });

    const noId = await modifyCore(user, fields);
    expect(noId.status).toBe(400);
    expect((await json(noId)).error).toBe("invalid_request");
    const repeated = await api("/consumer/modifycore/", user.token, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `identityUserId=${user.sub}&firstName=A&firstName=B`,
    });
    expect(repeated.status).toBe(400);
    const asJson = await api("/consumer/modifycore/", user.token, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ identityUserId: user.sub, ...fields }),
    });
    expect(asJson.status).toBe(400);
    expect(await json(await api("/consumer", user.token))).toEqual(profile);
  });
});

// ---------------------------------------------------------------- permissions, safe window

describe("GET /consumer/getpermissions and /consumer/getsafewindow", () => {
  it("gives a profile the default screens and its safe window card", async () => {
    const { user, profile } = await withProfile({ ...goodProfile, middleName: "Byron" });
    expect(await json(await api("/consumer/getpermissions", user.token))).toEqual({ enabledScreens: ["SafeWindow", "MyTests", "MyFun", "Locations", "Friends", "Settings"] });
    const res = await api("/consumer/getsafewindow", user.token);
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({
      firstName: "Ada",
      middleName: "Byron",
      lastName: "Lovelace",
      dob: "1990-12-10",
      safeWindowId: profile.safeWindowId,
      strongSafetyDate: null,
      weakSafetyDate: null,
      safeWindowDescription: null,
      // No window, so no result it comes from.
      safeWindowProof: null,
    });
  });
});

// ---------------------------------------------------------------- isolation between users

describe("one user never reads or changes another's profile", () => {
  it("keeps a second user to their own profile", async () => {
    const { user: first, profile: firstProfile } = await withProfile();
    const second = await newUser();

    expect(await json(await api("/consumer", second.token))).toBeNull();
    expect((await api("/consumer/getsafewindow", second.token)).status).toBe(404);
    expect(await json(await api("/consumer/getpermissions", second.token))).toEqual({ enabledScreens: ["Settings"] });

    // Naming the first user in the form does not let the second change them.
    const attack = await modifyCore(second, { identityUserId: first.sub, firstName: "Mallory", middleName: "", lastName: "X", dob: "1980-01-01", postalCode: "1" });
    expect(attack.status).toBe(403);
    expect(await json(await api("/consumer", first.token))).toEqual(firstProfile);

    // Their own profile is theirs alone, with its own product ID.
    const created = await createProfile(second, { firstName: "Bob", lastName: "Builder", dob: "1970-01-01", postalCode: "12345", identityUserId: first.sub });
    expect(created.status).toBe(200);
    const secondProfile = (await json(created)).consumer;
    expect(secondProfile.identityUserId).toBe(second.sub);
    expect(secondProfile.safeWindowId).not.toBe(firstProfile.safeWindowId);
    expect(secondProfile.sF_ConsumerId).not.toBe(firstProfile.sF_ConsumerId);
    expect(await json(await api("/consumer", second.token))).toEqual(secondProfile);
    expect((await json(await api("/consumer/getsafewindow", second.token))).firstName).toBe("Bob");
    expect(await json(await api("/consumer", first.token))).toEqual(firstProfile);
  });
});

// ---------------------------------------------------------------- product IDs

describe("product IDs", () => {
  it("are unique and well-formed across 50 profiles", async () => {
    const ids: string[] = [];
    for (let batch = 0; batch < 5; batch += 1) {
      const profiles = await Promise.all(
        Array.from({ length: 10 }, async (_, i) => (await withProfile({ ...goodProfile, firstName: `P${batch}-${i}` })).profile as { safeWindowId: string }),
      );
      ids.push(...profiles.map((p) => p.safeWindowId));
    }
    expect(ids).toHaveLength(50);
    for (const id of ids) expect(id).toMatch(PRODUCT_ID);
    expect(new Set(ids).size).toBe(50);
  });
});

// ---------------------------------------------------------------- logging (keep last)

describe("logging", () => {
  it("logs each request with an id and never a bearer token", async () => {
    const user = await newUser();
    const res = await api("/consumer", user.token, { headers: { "x-request-id": "consumer-req-1" } });
    expect(res.headers.get("x-request-id")).toBe("consumer-req-1");
    await api(`/consumer?access_token=${user.token}`, null);
    await new Promise((r) => setTimeout(r, 50));

    const consumerLines = logLines.map((l) => JSON.parse(l) as { service?: string; req?: { id?: string; url?: string } }).filter((l) => l.service === "consumer" && l.req);
    expect(consumerLines.length).toBeGreaterThan(100);
    expect(consumerLines.every((l) => typeof l.req?.id === "string" && l.req.id.length > 0)).toBe(true);
    expect(consumerLines.some((l) => l.req?.id === "consumer-req-1")).toBe(true);
    expect(consumerLines.some((l) => l.req?.url === "/consumer?access_token=[redacted]")).toBe(true);

    const all = logLines.join("\n");
    expect(secrets.size).toBeGreaterThan(50);
    for (const secret of secrets) {
      expect(all.includes(secret), "a token reached the log").toBe(false);
      // Neither any of its three parts (the signature alone is a secret-bearing value).
      for (const part of secret.split(".").filter((p) => p.length > 20)) expect(all.includes(part)).toBe(false);
    }
    expect(all.toLowerCase()).not.toContain("authorization");
    expect(all.toLowerCase()).not.toContain("bearer");
  });
});
