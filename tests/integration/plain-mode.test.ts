// The reference services' plain mode (UPSTREAM_EXTENSIONS=off; docs/product/calls.md §7.4
// "Extensions"; services/shared/http.ts plainMode): the way to check the app against an upstream
// that answers exactly as the product rules say. The attacks it stops are of the quiet kind: an app (or a
// contract) that depends on an extension passes every test against the stand-ins and breaks against
// a real upstream. Here the identity authority, the consumer API and the business API run with
// extensions off, on PGlite, and every answer is checked against the list of marks
// (contracts/extension-marks.ts): extension calls answer 404, the product rules' calls carry no marked field or
// value, and the calls between the services themselves (JWKS, the venue search) still work.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { profileScreenNames } from "../../contracts/consumer.ts";
import { extensionMarks } from "../../contracts/extension-marks.ts";
import type { ExtensionMark } from "../../contracts/extension-marks.ts";
import { markedFields, rulesPart, withoutExtensions } from "../../contracts/extension.ts";
import { harborviewPdf } from "../fixtures/index.ts";
import { accessToken, contractCallAt, makePerson, makeUser, requestToken, startServices } from "./support.ts";
import type { Person, Services, TestUser } from "./support.ts";
import { newGroup } from "./venue-groups.ts";

const HOUR = 3600_000;
const ADA = { firstName: "Ada", lastName: "Lovelace", dob: "1990-12-10", postalCode: "94105" };
const BABBAGE = { firstName: "Charles", lastName: "Babbage", dob: "1971-12-26", postalCode: "94105" };
const reviewerEmail = `plain-reviewer-${Date.now()}@example.com`;

let services: Services;
let ada: Person;
let babbage: Person;
const marks = extensionMarks();
/** `upstream call place` of every answer of a product rules' call checked below. */
const checked = new Set<string>();

beforeAll(async () => {
  services = await startServices({
    client: { clientId: "safewindow-web", clientSecret: "plain-mode-secret-0123456789abcdef" },
    tmpPrefix: "plain-mode-",
    business: true,
    extensions: false,
    reviewers: [reviewerEmail],
  });
  ada = await makePerson(services, ADA, { email: reviewerEmail, confirmed: true });
  babbage = await makePerson(services, BABBAGE, { tag: "plain-babbage" });
}, 120_000);

afterAll(async () => {
  await services?.close();
});

const baseOf = (upstream: ExtensionMark["upstream"]) =>
  upstream === "identity" ? services.identityUrl : upstream === "consumer" ? services.consumer.url : services.business!.url;

/**
 * fetch, then the check this file is about: the answer of a product rules' call fits the rules' part of its
 * schema (contracts/extension.ts rulesPart) and carries none of the fields or values the contract
 * marks (deleting them changes nothing). Answers the body.
 */
async function plainAnswer(url: string, init: RequestInit = {}): Promise<{ status: number; body: any }> {
  const method = init.method ?? "GET";
  const res = await fetch(url, init);
  const body: unknown = await res.json();
  const found = contractCallAt(method, new URL(url).pathname);
  expect(found, `${method} ${url} is a contract call`).toBeDefined();
  const { name, call } = found!;
  const place = res.status < 300 ? "answer" : `error ${res.status}`;
  const schema: z.ZodType | undefined = res.status < 300 ? call.answer : call.errorAnswers?.[res.status]?.schema;
  expect(schema, `${name} lists status ${res.status}`).toBeDefined();
  expect(withoutExtensions(schema!, body), `${name} ${place} carries an extension field`).toEqual(body);
  expect(rulesPart(schema!).safeParse(body).success, `${name} ${place} fits the rules' part`).toBe(true);
  const origin = new URL(url).origin;
  const upstream = (["identity", "consumer", "business"] as const).find((u) => new URL(baseOf(u)).origin === origin);
  checked.add(`${upstream} ${name} ${place}`);
  return { status: res.status, body };
}

const bearer = (who: TestUser | string) => ({ authorization: `Bearer ${typeof who === "string" ? who : who.token}` });
const consumer = (pathAndQuery: string, who: TestUser, init: RequestInit = {}) =>
  plainAnswer(`${services.consumer.url}${pathAndQuery}`, { ...init, headers: { ...bearer(who), ...(init.headers as Record<string, string> | undefined) } });

async function upload(who: TestUser, bytes: Uint8Array) {
  const body = new FormData();
  body.append("multipartData", new Blob([bytes.slice()], { type: "application/pdf" }), "result.pdf");
  return consumer("/testresult/addtestresultmultipart/", who, { method: "POST", body });
}

describe("UPSTREAM_EXTENSIONS=off", () => {
  it("answers 404, as an unknown path, to every extension call (with a valid token and a body)", async () => {
    const calls = marks.filter((m) => m.kind === "call" && !m.keptWhenOff);
    expect(calls.map((m) => `${m.upstream} ${m.call}`)).toEqual(
      expect.arrayContaining(["identity deleteAccount", "consumer exportData", "consumer disputeQueue", "consumer issueCheckinCode", "business deleteUserInfo"]),
    );
    for (const mark of calls) {
      const init: RequestInit = { method: mark.method, headers: { ...bearer(ada), "content-type": "application/json" } };
      if (mark.method === "POST") init.body = JSON.stringify({ password: ada.password, code: "ABCDEF", locationId: "x", visitId: "x" });
      const res = await fetch(`${baseOf(mark.upstream)}${mark.path}`, init);
      expect(res.status, `${mark.method} ${mark.path}`).toBe(404);
      expect(await res.json()).toEqual({ error: "not_found", error_description: "No such endpoint." });
    }
    // Nothing was done: the account that the delete call named still signs in, its profile is there.
    expect((await requestToken(services, { grant_type: "password", username: ada.email, password: ada.password })).status).toBe(200);
    expect((await consumer("/consumer", ada)).body).toMatchObject({ firstName: "Ada" });
  });

  it("answers the identity authority's calls with the product rules' fields: the token and the user info", async () => {
    const { clientId, clientSecret } = services.client;
    const form = new URLSearchParams({ client_id: clientId, client_secret: clientSecret, grant_type: "password", username: babbage.email, password: babbage.password });
    const token = await plainAnswer(`${services.identityUrl}/connect/token`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: form.toString() });
    expect(Object.keys(token.body).sort()).toEqual(["access_token", "expires_in"]);
    const info = await plainAnswer(`${services.identityUrl}/api/users/`, { headers: bearer(babbage) });
    expect(info.body).toEqual({ userName: babbage.email });
  });

  it("answers getpermissions with the product rules' screens only, even for a dispute reviewer", async () => {
    const { body } = await consumer("/consumer/getpermissions", ada);
    expect(body).toEqual({ enabledScreens: [...profileScreenNames] });
  });

  it("answers the profile writes and the safe window without ids, records or proof", async () => {
    const user = await makeUser(services, { tag: "plain-writer" });
    const created = await consumer("/consumer/createprofile", user, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ consumer: ADA, latitude: null, longitude: null }) });
    expect(created).toEqual({ status: 200, body: { success: true } });
    const form = new URLSearchParams({ identityUserId: user.sub, firstName: "Ada", middleName: "", lastName: "Byron", dob: ADA.dob, postalCode: "94105" });
    const saved = await consumer("/consumer/modifycore/", user, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: form.toString() });
    expect(saved).toEqual({ status: 200, body: { success: true } });
    const card = await consumer("/consumer/getsafewindow", user);
    expect(card.body).toMatchObject({ lastName: "Byron" });
    expect(card.body).not.toHaveProperty("safeWindowProof");
  });

  it("answers an upload and the results without id, outcome, pages, lab link or proof, and refusals without a reason", async () => {
    const bytes = await harborviewPdf({ ...ADA, collectedAt: new Date(Date.now() - 3 * HOUR) });
    const stored = await upload(ada, bytes);
    expect(stored.status).toBe(200);
    expect(Object.keys(stored.body).sort()).toEqual(["consumerMessage", "success"]);
    const again = await upload(ada, bytes);
    expect(again.status).toBe(422);
    expect(again.body).toEqual({ success: false, consumerMessage: expect.stringContaining("already uploaded") });

    const results = (await consumer("/testresult/getcurrentusertestresults/", ada)).body as Record<string, unknown>[];
    expect(results).toHaveLength(1);
    for (const field of ["result", "pageCount", "fetchedFrom", "proof"]) expect(results[0]).not.toHaveProperty(field);
    const id = results[0]!.sF_TestResultId as string;
    expect((await consumer(`/testresult/testresultpropertyvalues/?sfTestResultId=${id}`, ada)).status).toBe(200);
    const missing = await consumer(`/testresult/testresultpropertyvalues/?sfTestResultId=${crypto.randomUUID()}`, ada);
    expect(missing.status).toBe(404);
    expect(missing.body).not.toHaveProperty("reason");

    // getImage's `page` is an extension: the product rules' call answers page 1, so page 2 of a one-page result is page 1, not a 404.
    const first = await consumer(`/testresult/getimage/?testResultId=${id}`, ada);
    const paged = await consumer(`/testresult/getimage/?testResultId=${id}&page=2`, ada);
    expect(paged).toEqual(first);
    expect(first.status).toBe(200);

    const link = await consumer(`/testresult/addtestresulturl/?url=${encodeURIComponent("not a link")}`, ada);
    expect(link.status).toBe(400);
    expect(link.body).toEqual({ success: false, consumerMessage: expect.any(String) });
  });

  it("answers the follow calls without the product ID or the new relation's id", async () => {
    const hits = await consumer(`/consumersubscription/searchpublishers/?searchString=Babb`, ada);
    expect(hits.body.consumers).toEqual([{ sF_ConsumerId: babbage.profile.sF_ConsumerId, firstName: "Charles", lastName: "Babbage" }]);
    const requested = await consumer(`/consumersubscription/requestsubscription/?sfConsumerId=${babbage.profile.sF_ConsumerId}`, ada);
    expect(requested.body).toEqual({ success: true });
    const followers = (await consumer("/consumersubscription/subscribers/", babbage)).body.subscriptions as Record<string, unknown>[];
    expect(followers).toHaveLength(1);
    expect(followers[0]).not.toHaveProperty("safeWindowId");
    const relation = followers[0]!.sF_ConsumerSubscriptionId as string;
    expect((await consumer(`/consumersubscription/confirmsubscriptionrequest/?sfConsumerSubscriptionId=${relation}`, babbage)).body).toEqual({ success: true });
    const following = (await consumer("/consumersubscription/publishers/", ada)).body.subscriptions as Record<string, unknown>[];
    expect(following).toEqual([expect.objectContaining({ sF_ConsumerSubscriptionId: relation, confirmed: 1 })]);
    for (const field of ["safeWindowId", "safeWindowProof"]) expect(following[0]).not.toHaveProperty(field);
    expect((await consumer(`/consumersubscription/subscriptionstatus/?sfConsumerId=${babbage.profile.sF_ConsumerId}`, ada)).body).toEqual({ success: true, pending: false, subscribed: true });
  });

  it("keeps the calls between the services: the identity JWKS, the venue search behind GET /search/, the invitation", async () => {
    const jwks = await fetch(`${services.identityUrl}/.well-known/jwks.json`);
    expect(jwks.status).toBe(200);
    expect(((await jwks.json()) as { keys: unknown[] }).keys.length).toBeGreaterThan(0);

    const group = await newGroup(services.business!.db, 1);
    const found = await consumer("/search/?zip=98101&miles=5", ada);
    expect(found.status).toBe(200);
    expect(found.body.locations.map((l: { locationId: string }) => l.locationId)).toContain(group.locationIds[0]);

    const client = await accessToken(services, { grant_type: "client_credentials", scope: "identity.api" });
    const invited = await fetch(`${services.identityUrl}/api/account/invite`, {
      method: "POST",
      headers: { ...bearer(client), "content-type": "application/json" },
      body: JSON.stringify({ userName: `plain-invited-${Date.now()}@example.com` }),
    });
    expect(invited.status).toBe(200);
  });

  it("checked the answer of every product rules' call whose answer the contracts mark a field or value in", () => {
    // The result-link calls' answers need the reference lab server (consumer-results-links.test.ts); their refusal is checked above.
    const needLabServer = new Set(["addTestResultUrl", "addTestResultLink"]);
    const expected = marks
      .filter((m): m is Extract<ExtensionMark, { place: string }> => m.kind !== "call" && m.place === "answer" && !needLabServer.has(m.call))
      .map((m) => `${m.upstream} ${m.call} answer`);
    expect(expected.length).toBeGreaterThan(10);
    expect([...new Set(expected)].filter((key) => !checked.has(key))).toEqual([]);
    expect(checked).toContain("consumer addTestResultMultipart error 422");
    expect(checked).toContain("consumer addTestResultUrl error 400");
    // The check itself finds marked fields: an extensions-on answer fails it.
    const onAnswer = { success: true, consumerMessage: "stored", sF_TestResultId: "x" };
    const schema = contractCallAt("POST", "/testresult/addtestresultmultipart/")!.call.answer;
    expect(withoutExtensions(schema, onAnswer)).not.toEqual(onAnswer);
    expect(markedFields(schema).map((f) => f.name)).toEqual(["sF_TestResultId"]);
  });
});
