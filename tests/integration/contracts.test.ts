// Contract tests (docs/architecture/upstream-calls.md §6.1): every call of contracts/identity.ts,
// contracts/consumer.ts and contracts/business.ts made once against the reference services, each request checked against
// the call's request schema before it is sent and each answer parsed with the answer schema the
// app's clients use (contractFetch also fails on keys the contract does not document). The last
// test fails when a call of any contract was not made here.
import { labById } from "../../services/consumer/labs/index.ts";
import { labCriteria } from "../../services/consumer/results/criteria.ts";
import { labHost, resultLink, startLabSites } from "../lab-sites/server.ts";
import type { LabSites } from "../lab-sites/server.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import type { CallContract } from "../../contracts/call.ts";
import { businessCalls } from "../../contracts/business.ts";
import type { BusinessCallName } from "../../contracts/business.ts";
import { consumerCalls } from "../../contracts/consumer.ts";
import { checkPass } from "../../contracts/pass.ts";
import type { ConsumerCallName } from "../../contracts/consumer.ts";
import { identityCalls } from "../../contracts/identity.ts";
import type { IdentityCallName } from "../../contracts/identity.ts";
import { harborviewPdf } from "../fixtures/index.ts";
import { checkAnswer, contractFetch, mailAfter, makeUser, startServices } from "./support.ts";
import type { Services, TestUser } from "./support.ts";

const CLIENT = { clientId: "safewindow-web", clientSecret: "contracts-secret-0123456789abcdef" };
const PUBLIC_URL = "http://localhost:3000";

let services: Services;
let sites: LabSites;

beforeAll(async () => {
  // The reference lab sites serve the result links of the link calls (the test-only lab server).
  sites = await startLabSites();
  const links = { testServer: { address: sites.address, port: sites.port, ca: sites.ca } };
  services = await startServices({ client: CLIENT, tmpPrefix: "contracts-", reviewers: [REVIEWER], business: true, links });
});

afterAll(async () => {
  await services?.close();
  await sites?.close();
});

// ---------------------------------------------------------------- making a call

/** What a test sends: at most one body kind, as the call's contract names it. */
interface Sent {
  token?: string;
  query?: Record<string, string>;
  json?: unknown;
  form?: Record<string, string>;
  multipart?: { [field: string]: File };
}

/** Names of the calls made so far, `identity.<name>`, `consumer.<name>` and `business.<name>`. */
const made = new Set<string>();

/**
 * Makes the call `name` of `call` at `base`: checks `sent` against the call's request schemas,
 * sends it, asserts a 200 and answers the body parsed with the call's answer schema.
 */
async function make<C extends CallContract>(base: string, name: string, call: C, sent: Sent = {}): Promise<z.output<C["answer"]>> {
  if (sent.query) expect(call.query, `${name} takes a query`).toBeDefined();
  call.query?.parse(sent.query ?? {});
  if (call.json) call.json.parse(sent.json);
  if (call.form) call.form.parse(sent.form);
  if (call.multipart) call.multipart.parse(sent.multipart);
  const url = new URL(base + call.path);
  for (const [key, value] of Object.entries(sent.query ?? {})) url.searchParams.set(key, value);
  const headers = new Headers();
  if (sent.token) headers.set("authorization", `Bearer ${sent.token}`);
  let body: string | FormData | undefined;
  if (sent.json !== undefined) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(sent.json);
  } else if (sent.form) {
    headers.set("content-type", "application/x-www-form-urlencoded");
    body = new URLSearchParams(sent.form).toString();
  } else if (sent.multipart) {
    body = new FormData();
    for (const [field, file] of Object.entries(sent.multipart)) body.append(field, file, file.name);
  }
  const res = await contractFetch(url, { method: call.method, headers, body });
  const answer: unknown = await res.json();
  expect(res.status, `${name} answered ${JSON.stringify(answer)}`).toBe(200);
  made.add(name);
  return call.answer.parse(answer) as z.output<C["answer"]>;
}

const identity = <N extends IdentityCallName>(name: N, sent?: Sent) => make(services.identityUrl, `identity.${name}`, identityCalls[name], sent);
const consumer = <N extends ConsumerCallName>(name: N, who: TestUser, sent: Sent = {}) =>
  make(services.consumer.url, `consumer.${name}`, consumerCalls[name], { ...sent, token: who.token });

const business = <N extends BusinessCallName>(name: N, who: TestUser, sent: Sent = {}) =>
  make(services.business!.url, `business.${name}`, businessCalls[name], { ...sent, token: who.token });

// ---------------------------------------------------------------- mails

/** Runs `action` and answers the `token` of the link in the first mail to `address` written after it started. */
async function mailedToken(address: string, action: () => Promise<unknown>): Promise<string> {
  const token = (await mailAfter(services, address, action)).link?.searchParams.get("token");
  if (!token) throw new Error(`the mail to ${address} has no token`);
  return token;
}

let counter = 0;
/** The consumer API's one dispute reviewer (the review calls, contract extensions). */
const REVIEWER = `contract-reviewer-${Math.random().toString(36).slice(2, 8)}@example.com`;
const newEmail = (tag: string) => `${tag}-${(counter += 1)}-${Math.random().toString(36).slice(2, 8)}@example.com`;
const newPassword = () => `Ct!${Math.random().toString(36).slice(2, 10)}x9Z`;

// ---------------------------------------------------------------- identity authority

describe("identity authority", () => {
  it("answers every call as its contract says", async () => {
    const client = await identity("token", {
      form: { grant_type: "client_credentials", scope: "identity.api", client_id: CLIENT.clientId, client_secret: CLIENT.clientSecret },
    });
    expect(client.token_type).toBe("Bearer");
    const asClient = (query: Record<string, string>) => ({ token: client.access_token, query });

    const email = newEmail("contract");
    let password = newPassword();
    expect(await identity("isAvailable", asClient({ email }))).toBe(true);
    expect(await identity("validateRequestedEmail", asClient({ email }))).toEqual({ available: true, valid: true });
    expect(await identity("register", { token: client.access_token, json: { userName: email, password } })).toEqual({ succeeded: true, errors: [] });

    const user = await identity("token", {
      form: { grant_type: "password", username: email, password, client_id: CLIENT.clientId, client_secret: CLIENT.clientSecret },
    });
    const asUser = (query?: Record<string, string>) => ({ token: user.access_token, ...(query ? { query } : {}) });
    expect((await identity("getUserInfo", asUser())).userName).toBe(email);
    expect(await identity("isEmailConfirmed", asUser())).toBe(false);

    const link = (page: string) => ({ applicationContext: "SafeWindow", requestedUri: `${PUBLIC_URL}/${page}` });
    const confirmToken = await mailedToken(email, async () => {
      expect(await identity("sendConfirmationEmail", asClient({ email, ...link("confirmemail") }))).toBe(true);
    });
    expect((await identity("confirmEmail", asClient({ email, token: confirmToken }))).succeeded).toBe(true);

    const resetToken = await mailedToken(email, async () => {
      expect(await identity("requestPasswordChange", asClient({ email, ...link("resetpassword") }))).toBe(true);
    });
    const reset = newPassword();
    expect((await identity("changePasswordUsingToken", asClient({ email, newPassword: reset, token: resetToken }))).succeeded).toBe(true);
    password = reset;

    const changed = newPassword();
    expect(await identity("changePasswordUsingCurrent", asUser({ currentPassword: password, newPassword: changed, applicationContext: "SafeWindow" }))).toBe(true);
    expect(await identity("changeUserName", asUser({ userName: newEmail("renamed"), applicationContext: "SafeWindow" }))).toBe(true);

    const invitee = newEmail("invitee");
    const inviteToken = await mailedToken(invitee, async () => {
      expect((await identity("invite", { token: client.access_token, json: { userName: invitee } })).succeeded).toBe(true);
    });
    expect((await identity("confirmAccount", asClient({ email: invitee, password: newPassword(), token: inviteToken }))).succeeded).toBe(true);
  });
});

// ---------------------------------------------------------------- consumer API

describe("consumer API", () => {
  const ADA = { firstName: "Ada", middleName: null, lastName: "Contract", dob: "1990-12-10", postalCode: "94105" };

  it("answers every profile, follow and test-result call as its contract says", async () => {
    const ada = await makeUser(services, { tag: "contract-ada" });
    expect(await consumer("getProfile", ada)).toBeNull();
    expect((await consumer("getPermissions", ada)).enabledScreens).toEqual(["Settings"]);
    const created = await consumer("createProfile", ada, { json: { consumer: ADA, latitude: 37.77, longitude: -122.42 } });
    expect(created.consumer!.identityUserId).toBe(ada.sub);
    const saved = await consumer("modifyCore", ada, {
      form: { identityUserId: ada.sub, firstName: "Ada", middleName: "", lastName: "Contract", dob: "1990-12-10", postalCode: "94110" },
    });
    expect(saved.consumer!.postalCode).toBe("94110");
    expect((await consumer("getProfile", ada))?.sF_ConsumerId).toBe(created.consumer!.sF_ConsumerId);
    expect((await consumer("getSafeWindow", ada)).safeWindowId).toBe(created.consumer!.safeWindowId);

    // Follows: Grace finds Ada by her product ID, asks, Ada confirms, Grace unfollows; then Ada
    // asks and withdraws, and asks again and Grace declines.
    const grace = await makeUser(services, { tag: "contract-grace" });
    await consumer("createProfile", grace, { json: { consumer: { ...ADA, firstName: "Grace", lastName: "Hopper" }, latitude: null, longitude: null } });
    const found = await consumer("searchPublishers", grace, { query: { searchString: created.consumer!.safeWindowId } });
    expect(found.consumers.map((c) => c.sF_ConsumerId)).toEqual([created.consumer!.sF_ConsumerId]);
    const asked = await consumer("requestSubscription", grace, { query: { sfConsumerId: created.consumer!.sF_ConsumerId } });
    expect(await consumer("subscriptionStatus", grace, { query: { sfConsumerId: created.consumer!.sF_ConsumerId } })).toEqual({ success: true, pending: true, subscribed: false });
    expect((await consumer("subscribers", ada)).subscriptions.map((s) => s.sF_ConsumerSubscriptionId)).toEqual([asked.sF_ConsumerSubscriptionId]);
    await consumer("confirmSubscriptionRequest", ada, { query: { sfConsumerSubscriptionId: asked.sF_ConsumerSubscriptionId! } });
    expect((await consumer("publishers", grace)).subscriptions[0]?.confirmed).toBe(1);
    await consumer("deleteSubscription", grace, { query: { sfConsumerSubscriptionId: asked.sF_ConsumerSubscriptionId! } });
    const graceId = (await consumer("getProfile", grace))?.sF_ConsumerId ?? "";
    const withdrawn = await consumer("requestSubscription", ada, { query: { sfConsumerId: graceId } });
    await consumer("cancelSubscriptionRequest", ada, { query: { sfConsumerSubscriptionId: withdrawn.sF_ConsumerSubscriptionId! } });
    const declined = await consumer("requestSubscription", ada, { query: { sfConsumerId: graceId } });
    await consumer("declineSubscriptionRequest", grace, { query: { sfConsumerSubscriptionId: declined.sF_ConsumerSubscriptionId! } });

    // Test results: a report with another first name is stored but not validated, so it can be disputed.
    const pdf = await harborviewPdf({ ...ADA, firstName: "Augusta", collectedAt: new Date(Date.now() - 3 * 3600_000) });
    const uploaded = await consumer("addTestResultMultipart", ada, {
      multipart: { multipartData: new File([pdf.slice()], "result.pdf", { type: "application/pdf" }) },
    });
    const results = await consumer("getCurrentUserTestResults", ada);
    const result = results.find((r) => r.sF_TestResultId === uploaded.sF_TestResultId!);
    expect(result?.valid).toBe(0);
    const values = await consumer("testResultPropertyValues", ada, { query: { sfTestResultId: uploaded.sF_TestResultId! } });
    expect(values.map((v) => v.name)).toEqual(["First Name", "Last Name", "Date of Birth"]);
    const image = await consumer("getImage", ada, { query: { testResultId: uploaded.sF_TestResultId! } });
    expect(Buffer.from(image, "base64").subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(await consumer("dispute", ada, { json: { ...result, disputeComment: "The lab misspelt my first name." } })).toEqual({ success: true });

    // Results by link: the text objects of Meridian's page, then the result read by the lab's labels
    // (addtestresultlink) and Cascade's PDF by its link (addtestresulturl).
    const collectedAt = new Date(Math.floor((Date.now() - 2 * 3600_000) / 60_000) * 60_000).toISOString();
    const pageLink = resultLink("meridian", { firstName: "Ada", lastName: "Contract", dob: "1990-12-10", collectedAt });
    const objects = await consumer("generateTestResultTextObjectsUrl", ada, { query: { url: pageLink } });
    expect(objects.textObjects.map((t) => t.text)).toContain("Contract");
    // The lab's own labels as criteria (tests/integration/consumer-results-links.test.ts writes them out).
    const criteria = labCriteria(labById("meridian")!);
    expect((await consumer("addTestResultLink", ada, { json: { url: pageLink, criteria } })).consumerMessage).toMatch(/validated/);
    const byUrl = await consumer("addTestResultUrl", ada, { query: { url: resultLink("cascade", { firstName: "Ada", lastName: "Contract", dob: "1990-12-10", collectedAt }) } });
    expect((await consumer("getCurrentUserTestResults", ada)).find((r) => r.sF_TestResultId === byUrl.sF_TestResultId)?.fetchedFrom).toBe(labHost("cascade"));

    // Dispute reviews (extensions): the reviewer reads the queue and the page, accepts, reads the trail.
    const reviewer = await makeUser(services, { email: REVIEWER, confirmed: true });
    const queue = await consumer("disputeQueue", reviewer);
    expect(queue.map((d) => d.sF_TestResultId)).toContain(uploaded.sF_TestResultId!);
    const page = await consumer("disputeImage", reviewer, { query: { testResultId: uploaded.sF_TestResultId! } });
    expect(Buffer.from(page, "base64").subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(await consumer("reviewDispute", reviewer, { json: { sF_TestResultId: uploaded.sF_TestResultId, decision: "accept", responseComment: "Typo confirmed." } })).toEqual({ success: true });
    expect((await consumer("disputeReviews", reviewer)).map((r) => r.decision)).toEqual(["accept"]);

    // The SafeWindow Pass (extensions): Ada's window is open since the review; her pass checks
    // against the published keys, which anyone may read.
    const pass = await consumer("issuePass", ada, { json: { issuer: PUBLIC_URL } });
    expect(pass.initials).toBe("AC");
    const keys = await make(services.consumer.url, "consumer.passKeys", consumerCalls.passKeys);
    expect(await checkPass(pass.pass, keys, PUBLIC_URL, new Date())).toMatchObject({ ok: true });

    // The person's own data (extensions): the export, and the original PDF.
    const exported = await consumer("exportData", ada);
    expect(exported.results.find((r) => r.sF_TestResultId === uploaded.sF_TestResultId!)).toMatchObject({ valid: 1, originalPdf: true, reviews: [{ decision: "accept" }] });
    const original = await consumer("getPdf", ada, { query: { testResultId: uploaded.sF_TestResultId! } });
    expect(Buffer.from(original, "base64").equals(Buffer.from(pdf))).toBe(true);

    // Deleting an account (extensions): the consumer API's data, then the identity account.
    const leaver = await makeUser(services, { tag: "contract-leaver" });
    expect(await consumer("deleteProfile", leaver)).toEqual({ success: true });
    expect(await identity("deleteAccount", { token: leaver.token, json: { password: leaver.password } })).toBe(true);
  });
});

describe("business API, and the consumer API's venue calls", () => {
  it("answers every call as its contract says", async () => {
    const owner = await makeUser(services, { tag: "contract-owner", confirmed: true });
    expect(await business("saveUserInfoPartial", owner, { json: { firstName: "Olga", mobileNumber: "2065550100" } })).toMatchObject({ firstName: "Olga" });
    expect(await business("getUserInfo", owner)).toMatchObject({ mobileNumber: "2065550100" });
    const created = await business("createSubscription", owner, {
      json: { businessName: "Contract Cafe", address: "1 Main St", city: "Seattle", state: "WA", postalCode: "98101", phone: "2065550100", plan: "monthly" },
    });
    const groupId = created.hospitalityGroup.hospitalityGroupId;
    expect(await business("isUserLicensedAdministrator", owner)).toEqual({ isLicensedAdministrator: true, hospitalityGroupIds: [groupId] });
    const app = await business("getApplicationByName", owner, { query: { applicationName: "SafeWindow" } });
    const roles = await business("getApplicationRoles", owner, { query: { applicationId: app.applicationId } });
    const locationRole = roles.find((r) => r.scope === "location")!.applicationRoleId;
    const given = await business("buildAndCreateRoleLocation", owner, {
      json: { hospitalityGroupId: groupId, applicationRoleId: locationRole, email: "door@example.com", location: { name: "Contract Patio", address: "1 Main St", city: "Seattle", state: "WA", postalCode: "98101", phone: "2065550101" } },
    });
    const locationId = given.locationId!;
    expect(await business("updateRoleLocation", owner, { json: { applicationUserRoleLocationId: given.applicationUserRoleLocationId, location: { name: "Contract Garden" } } })).toMatchObject({ locationName: "Contract Garden" });
    expect((await business("getHospitalityGroup", owner, { query: { hospitalityGroupId: groupId } })).locations).toHaveLength(1);
    expect(await business("getAdministratorHospitalityGroups", owner)).toHaveLength(1);
    expect(await business("getUsersAndRoles", owner, { query: { hospitalityGroupId: groupId } })).toHaveLength(2);
    expect((await business("isUserLocationAdministrator", owner, { query: { locationId } })).isLocationAdministrator).toBe(true);
    expect((await business("searchLocations", owner, { query: { latitude: "47.61", longitude: "-122.33", miles: "5" } })).map((l) => l.name)).toContain("Contract Garden");
    const billing = await business("getBillingDetails", owner, { query: { hospitalityGroupId: groupId } });
    expect((await business("retryInvoice", owner, { json: { invoiceId: billing.invoices[0]!.invoiceId } })).invoice.status).toBe("paid");

    // The consumer API's venue calls: the search, a code, the check, the check-in, the visits and a rating.
    const visitor = await makeUser(services, { tag: "contract-visitor" });
    await consumer("createProfile", visitor, { json: { consumer: { firstName: "Vi", lastName: "Sitor", dob: "1990-01-01", postalCode: "98101" }, latitude: null, longitude: null } });
    expect((await consumer("searchLocations", visitor, { query: { zip: "98101", miles: "5" } })).locations.map((l) => l.name)).toContain("Contract Garden");
    const { code } = await consumer("issueCheckinCode", visitor);
    const check = await consumer("redeemCheckinCode", owner, { json: { code, locationId } });
    expect(check.windowState).toBe("None");
    expect((await consumer("checkIn", owner, { json: { visitId: check.visitId } })).checkedInAt).not.toBeNull();
    expect(await consumer("getCurrentUserVisits", visitor)).toHaveLength(1);
    expect((await consumer("setRating", visitor, { json: { visitId: check.visitId, rating: 5 } })).rating).toBe(5);

    expect(await business("deleteRoleLocation", owner, { json: { applicationUserRoleLocationId: given.applicationUserRoleLocationId } })).toEqual({ success: true });
    expect((await business("updateSubscriptionStatus", owner, { json: { subscriptionId: created.subscription.subscriptionId, status: "canceled" } })).status).toBe("canceled");
    expect(await business("deleteUserInfo", owner)).toEqual({ success: true });
  });
});

describe("the check itself", () => {
  const answer = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

  it("fails on an answer that does not fit, or that carries an undocumented key", async () => {
    await expect(checkAnswer("GET", "http://upstream/consumersubscription/subscriptionstatus/?sfConsumerId=x", answer({ success: true, pending: "no" }))).rejects.toThrow(
      /subscriptionStatus.*does not fit its contract: pending/,
    );
    await expect(checkAnswer("GET", "http://upstream/consumer/getpermissions", answer({ enabledScreens: [], role: "admin" }))).rejects.toThrow(/does not document: role/);
    await expect(checkAnswer("POST", "http://upstream/api/account/register", answer({ succeeded: false, errors: [] }, 400))).rejects.toThrow(/register.*400/);
  });

  it("leaves answers of paths and statuses no contract names alone", async () => {
    await expect(checkAnswer("GET", "http://upstream/healthz", answer({ anything: 1 }))).resolves.toBeUndefined();
    await expect(checkAnswer("GET", "http://upstream/consumer/getpermissions", answer({ error: "invalid_token" }, 401))).resolves.toBeUndefined();
  });
});

describe("coverage", () => {
  it("made every call of the three contracts", () => {
    const every = [
      ...Object.keys(identityCalls).map((n) => `identity.${n}`),
      ...Object.keys(consumerCalls).map((n) => `consumer.${n}`),
      ...Object.keys(businessCalls).map((n) => `business.${n}`),
    ];
    expect(every.filter((name) => !made.has(name))).toEqual([]);
  });
});
