// The SafeWindow Pass calls of the consumer API (contracts/consumer.ts issuePass, passKeys;
// services/consumer/pass/): the published keys, open to anyone and cacheable; a fresh pass of an
// open window that checks against them (contracts/pass.ts) and holds only the minimum; refusals
// without a window, without a profile, without a token, and for an issuer that is not an address.
// Real identity authority, consumer API, worker pool and PGlite; a generated lab PDF.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkPass } from "../../contracts/pass.ts";
import { harborviewPdf } from "../fixtures/index.ts";
import { callApi, json, makePerson, makeUser, startServices } from "./support.ts";
import type { Services, TestUser } from "./support.ts";

const CLIENT = { clientId: "safewindow-web", clientSecret: "consumer-pass-secret-0123456789" };
const ISSUER = "https://safewindow.example.com/sw";
const ADA = { firstName: "Ada", lastName: "Lovelace", dob: "1990-12-10" };
let services: Services;

beforeAll(async () => {
  services = await startServices({ client: CLIENT, tmpPrefix: "pass-" });
});

afterAll(async () => {
  await services?.close();
});

const issue = (user: TestUser | null, body: unknown, contentType = "application/json") =>
  callApi(services, "/consumer/pass", user, { method: "POST", headers: { "content-type": contentType }, body: typeof body === "string" ? body : JSON.stringify(body) });

describe("the SafeWindow Pass calls", () => {
  it("publish the keys to anyone, cacheable for a minute, public halves only", async () => {
    const res = await callApi(services, "/consumer/passkeys", null);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=60");
    const keys = await json(res);
    expect(keys.keys).toEqual([{ kty: "EC", crv: "P-256", x: expect.any(String), y: expect.any(String), kid: expect.stringMatching(/^.{1,8}$/), alg: "ES256", use: "sig" }]);
  });

  it("issue a pass of an open window that checks against the published keys and says only the minimum", async () => {
    const ada = await makePerson(services, { ...ADA, postalCode: "94105" }, { tag: "pass" });
    const collectedAt = new Date(Math.floor((Date.now() - 2 * 3600_000) / 60_000) * 60_000);
    const body = new FormData();
    body.append("multipartData", new Blob([(await harborviewPdf({ ...ADA, collectedAt })).slice()], { type: "application/pdf" }), "r.pdf");
    expect((await callApi(services, "/testresult/addtestresultmultipart/", ada, { method: "POST", body })).status).toBe(200);

    const res = await issue(ada, { issuer: ISSUER });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const answer = await json(res);
    expect(answer).toMatchObject({ issuer: ISSUER, initials: "AL", birthMonthDay: "12-10" });
    const [header, payload] = (answer.pass as string).split(".").slice(0, 2).map((part) => JSON.parse(Buffer.from(part, "base64url").toString()));
    expect(Object.keys(header).sort()).toEqual(["alg", "kid"]);
    expect(Object.keys(payload).sort()).toEqual(["b", "exp", "iat", "iss", "n", "s"]);
    expect(JSON.stringify(payload)).not.toMatch(/Lovelace|1990|Harborview/);
    const keys = await json(await callApi(services, "/consumer/passkeys", null));
    const checked = await checkPass(answer.pass, keys, ISSUER, new Date());
    expect(checked).toMatchObject({ ok: true, window: "strong", initials: "AL", birthMonthDay: "12-10" });
    expect(checked.ok && checked.weakUntil.toISOString()).toBe(answer.weakSafetyDate);
    // Another issuer's checker refuses it; opening again gives a fresh pass.
    expect(await checkPass(answer.pass, keys, "https://elsewhere.example", new Date())).toEqual({ ok: false, reason: "other_issuer" });
    const again = await json(await issue(ada, { issuer: ISSUER }));
    expect(Date.parse(again.issuedAt)).toBeGreaterThanOrEqual(Date.parse(answer.issuedAt));
  });

  it("refuse without an open window, without a profile, without a token, and for an issuer that is not an address", async () => {
    const grace = await makePerson(services, { firstName: "Grace", lastName: "Hopper", dob: "1906-12-09", postalCode: "94105" }, { tag: "pass" });
    const noWindow = await issue(grace, { issuer: ISSUER });
    expect(noWindow.status).toBe(409);
    expect(await json(noWindow)).toMatchObject({ success: false, error: "no_window" });
    const noProfile = await issue(await makeUser(services, { tag: "pass" }), { issuer: ISSUER });
    expect(noProfile.status).toBe(404);
    expect((await issue(null, { issuer: ISSUER })).status).toBe(401);
    for (const issuer of ["javascript:alert(1)", `${ISSUER}/`, `${ISSUER}?x=1`, `${ISSUER}#x`, "", `https://${"a".repeat(200)}.example`]) {
      expect((await issue(grace, { issuer })).status, issuer).toBe(400);
    }
    expect((await issue(grace, `issuer=${encodeURIComponent(ISSUER)}`, "application/x-www-form-urlencoded")).status).toBe(400);
  });
});
