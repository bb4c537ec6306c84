// The person's own data (contracts/consumer.ts exportData and getPdf, extensions of
// docs/product/calls.md §7; services/consumer/export.ts): the export holds everything the consumer API keeps
// about the signed-in user and nothing of anyone else's; the original PDF comes back byte for byte.
// Deleting an account (deleteProfile, deleteAccount) removes all of it, on both sides of every follow
// relation. Real identity authority, consumer API, worker pool and PGlite; generated lab PDFs.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { harborviewPdf } from "../fixtures/index.ts";
import { readFile, readdir } from "node:fs/promises";
import path from "node:path";
import PostalMime from "postal-mime";
import { sql } from "kysely";
import { accessToken, callApi, contractFetch, json, mailAfter, makePerson, makeUser, requestToken, startServices } from "./support.ts";
import type { Bearer, Person, Services, TestUser } from "./support.ts";

const HOUR = 3600_000;
const REVIEWER = `export-reviewer-${Math.random().toString(36).slice(2, 8)}@example.com`;
let services: Services;

beforeAll(async () => {
  services = await startServices({ client: { clientId: "safewindow-web", clientSecret: "consumer-export-secret-0123456789" }, tmpPrefix: "export-", reviewers: [REVIEWER] });
});

afterAll(async () => {
  await services?.close();
});

const api = (p: string, who: Bearer, init?: RequestInit) => callApi(services, p, who, init);

let reviewerAccount: Promise<TestUser> | undefined;
/** The reviewer's account, made once. */
const reviewerUser = () => (reviewerAccount ??= makeUser(services, { email: REVIEWER, confirmed: true }));

/** The subjects of the .eml files in `dataDir`/outbox that name `address` anywhere (headers, subject, text, HTML). */
async function mailsNaming(dataDir: string, address: string): Promise<string[]> {
  const dir = path.join(dataDir, "outbox");
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith(".eml"));
  const named: string[] = [];
  for (const file of files) {
    const raw = await readFile(path.join(dir, file), "utf8");
    const mail = await PostalMime.parse(raw);
    const text = [raw, mail.subject, mail.text, mail.html, ...mail.headers.map((h) => h.value)].join("\n").toLowerCase();
    if (text.includes(address.toLowerCase())) named.push(mail.subject ?? "");
  }
  return named;
}
const postJson = (p: string, who: Bearer, body: unknown) => api(p, who, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

/** Uploads `pdf` for `who`; the stored result's id. */
async function upload(who: Person, pdf: Uint8Array): Promise<string> {
  const body = new FormData();
  body.append("multipartData", new Blob([pdf.slice()], { type: "application/pdf" }), "r.pdf");
  const res = await api("/testresult/addtestresultmultipart/", who, { method: "POST", body });
  expect(res.status).toBe(200);
  return (await json(res)).sF_TestResultId as string;
}

const follow = async (follower: Person, followed: Person, confirm: boolean) => {
  const asked = await json(await api(`/consumersubscription/requestsubscription/?sfConsumerId=${followed.profile.sF_ConsumerId}`, follower));
  if (confirm) expect((await api(`/consumersubscription/confirmsubscriptionrequest/?sfConsumerSubscriptionId=${asked.sF_ConsumerSubscriptionId}`, followed)).status).toBe(200);
};

describe("the person's own data", () => {
  it("exports the profile, every result with its checks and dispute, and both follow lists, and nothing of anyone else", async () => {
    const ada = await makePerson(services, { firstName: "Ada", lastName: "Lovelace", dob: "1990-12-10", postalCode: "94105" }, { tag: "export" });
    const grace = await makePerson(services, { firstName: "Grace", lastName: "Hopper", dob: "1986-12-09", postalCode: "10001" }, { tag: "export" });
    const alan = await makePerson(services, { firstName: "Alan", lastName: "Turing", dob: "1980-06-23", postalCode: "02139" }, { tag: "export" });
    const collectedAt = new Date(Math.floor((Date.now() - 3 * HOUR) / 60_000) * 60_000);
    const validPdf = await harborviewPdf({ firstName: "Ada", lastName: "Lovelace", dob: "1990-12-10", collectedAt });
    const valid = await upload(ada, validPdf);
    const typo = await upload(ada, await harborviewPdf({ firstName: "Adda", lastName: "Lovelace", dob: "1990-12-10", collectedAt: new Date(collectedAt.getTime() - HOUR) }));
    await upload(grace, await harborviewPdf({ firstName: "Grace", lastName: "Hopper", dob: "1986-12-09", collectedAt }));
    expect((await postJson("/testresult/dispute/", ada, { sF_TestResultId: typo, disputeComment: "The lab typed Adda." })).status).toBe(200);
    const reviewer = await reviewerUser();
    expect((await postJson("/testresult/reviewdispute/", reviewer, { sF_TestResultId: typo, decision: "decline", responseComment: "Please ask the lab for a corrected report." })).status).toBe(200);
    await follow(grace, ada, true);
    await follow(ada, alan, false);

    const res = await api("/consumer/export", ada);
    expect(res.status).toBe(200);
    const data = await json(res);
    expect(data).toMatchObject({
      exportedAt: expect.any(String),
      email: ada.email,
      language: null,
      profile: { sF_ConsumerId: ada.profile.sF_ConsumerId, firstName: "Ada", lastName: "Lovelace", dob: "1990-12-10", postalCode: "94105", safeWindowId: ada.profile.safeWindowId },
      followers: [{ sF_ConsumerId: grace.profile.sF_ConsumerId, firstName: "Grace", confirmed: 1 }],
      following: [{ sF_ConsumerId: alan.profile.sF_ConsumerId, firstName: "Alan", confirmed: 0 }],
    });
    expect(data.results.map((r: any) => r.sF_TestResultId)).toEqual([valid, typo]);
    expect(data.results[0]).toMatchObject({ valid: 1, disputeStatus: 0, disputedAt: null, reviews: [], originalPdf: true, uploadedAt: expect.any(String) });
    expect(data.results[0].propertyValues.map((p: any) => [p.name, p.matchInfo])).toEqual([
      ["First Name", null],
      ["Last Name", null],
      ["Date of Birth", null],
    ]);
    expect(data.results[1]).toMatchObject({
      valid: 0,
      disputeStatus: 1,
      disputeComment: "The lab typed Adda.",
      disputeResponseComment: "Please ask the lab for a corrected report.",
      disputedAt: expect.any(String),
      reviews: [{ decision: "decline", responseComment: "Please ask the lab for a corrected report.", reviewedAt: expect.any(String) }],
    });
    // Nobody else's data: not the others' birth dates, addresses, results or e-mail, nor the reviewer.
    const text = JSON.stringify(data);
    for (const foreign of ["1986-12-09", "1980-06-23", "10001", "02139", grace.email, alan.email, REVIEWER]) expect(text).not.toContain(foreign);

    // The original PDF, byte for byte; only to its owner.
    const pdf = await api(`/testresult/getpdf/?testResultId=${valid}`, ada);
    expect(pdf.status).toBe(200);
    expect(Buffer.from(await json<string>(pdf), "base64").equals(Buffer.from(validPdf))).toBe(true);
    for (const who of [grace, alan]) {
      const refused = await api(`/testresult/getpdf/?testResultId=${valid}`, who);
      expect(refused.status).toBe(404);
    }
    expect((await api("/testresult/getpdf/?testResultId=not-an-id", ada)).status).toBe(404);
    expect((await api("/testresult/getpdf/", ada)).status).toBe(400);
  });

  it("exports an account without a profile as its e-mail alone, and refuses a call without a token", async () => {
    const bare = await makeUser(services, { tag: "export-bare" });
    expect(await json(await api("/consumer/export", bare))).toEqual({ exportedAt: expect.any(String), email: bare.email, language: null, profile: null, results: [], followers: [], following: [], visits: [] });
    expect((await api("/consumer/export", null)).status).toBe(401);
  });
});

describe("deleting an account", () => {
  it("removes the profile, results, files and follow relations on both sides, then the identity account, with a confirmation mail; no outbox row or mail file names her but that mail", async () => {
    const ada = await makePerson(services, { firstName: "Ada", lastName: "Byron", dob: "1990-12-10", postalCode: "94105" }, { tag: "delete" });
    const grace = await makePerson(services, { firstName: "Grace", lastName: "Brewster", dob: "1986-12-09", postalCode: "10001" }, { tag: "delete" });
    const alan = await makePerson(services, { firstName: "Alan", lastName: "Mathison", dob: "1980-06-23", postalCode: "02139" }, { tag: "delete" });
    const collectedAt = new Date(Math.floor((Date.now() - 3 * HOUR) / 60_000) * 60_000);
    const result = await upload(ada, await harborviewPdf({ firstName: "Ada", lastName: "Byron", dob: "1990-12-10", collectedAt }));
    await follow(grace, ada, true);
    await follow(ada, alan, false);
    const db = services.consumer.db;
    const consumerId = ada.profile.sF_ConsumerId;
    // Mails that name her: a decided dispute (consumer outbox) and a reset request (identity outbox).
    const typo = await upload(ada, await harborviewPdf({ firstName: "Adda", lastName: "Byron", dob: "1990-12-10", collectedAt: new Date(collectedAt.getTime() - HOUR) }));
    expect((await postJson("/testresult/dispute/", ada, { sF_TestResultId: typo, disputeComment: "The lab typed Adda." })).status).toBe(200);
    await mailAfter(
      services,
      ada.email,
      async () => expect((await postJson("/testresult/reviewdispute/", await reviewerUser(), { sF_TestResultId: typo, decision: "decline", responseComment: "No." })).status).toBe(200),
      "consumer",
    );
    const client = `Bearer ${await accessToken(services, { grant_type: "client_credentials", scope: "identity.api" })}`;
    await mailAfter(services, ada.email, () => contractFetch(`${services.identityUrl}/api/account/requestpasswordchange?${new URLSearchParams({ email: ada.email })}`, { headers: { authorization: client } }));
    const consumerRows = () => db.selectFrom("consumer_outbox").select(["kind", "status"]).where(sql<string>`lower(recipient)`, "=", ada.email.toLowerCase()).execute();
    const identityRows = () =>
      services.identity.db
        .selectFrom("identity_outbox")
        .select(["kind", "status"])
        .where((eb) => eb.or([eb(sql<string>`lower(recipient)`, "=", ada.email.toLowerCase()), eb(sql<string>`lower(coalesce(new_address, ''))`, "=", ada.email.toLowerCase())]))
        .execute();
    expect(await consumerRows()).toEqual([{ kind: "dispute_decided", status: "sent" }]);
    expect(await mailsNaming(services.consumerDataDir, ada.email)).toEqual(["Your SafeWindow dispute has been reviewed"]);
    expect((await identityRows()).length).toBeGreaterThanOrEqual(2);
    expect((await mailsNaming(services.identityDataDir, ada.email)).length).toBeGreaterThanOrEqual(1);
    const othersMails = (await mailsNaming(services.identityDataDir, grace.email)).length + (await mailsNaming(services.identityDataDir, REVIEWER)).length;

    // A wrong password deletes nothing at the authority.
    const deleteAccount = (password: string) =>
      contractFetch(`${services.identityUrl}/api/account/delete`, { method: "POST", headers: { authorization: `Bearer ${ada.token}`, "content-type": "application/json" }, body: JSON.stringify({ password }) });
    expect(await (await deleteAccount("Wrong!password1")).json()).toBe(false);
    expect(await accessToken(services, { grant_type: "password", username: ada.email, password: ada.password })).toEqual(expect.any(String));

    // The consumer API forgets the profile and everything hanging from it.
    const deleted = await api("/consumer/deleteprofile", ada, { method: "POST" });
    expect(deleted.status).toBe(200);
    expect(await json(deleted)).toEqual({ success: true });
    expect(await db.selectFrom("consumer_profiles").select("id").where("id", "=", consumerId).execute()).toEqual([]);
    for (const table of ["consumer_test_results"] as const) expect(await db.selectFrom(table).select("id").where("consumer_id", "=", consumerId).execute()).toEqual([]);
    for (const table of ["consumer_test_result_images", "consumer_test_result_files", "consumer_test_result_property_values"] as const) {
      expect(await db.selectFrom(table).select("result_id").where("result_id", "=", result).execute(), table).toEqual([]);
    }
    expect(await db.selectFrom("consumer_subscriptions").select("id").where((eb) => eb.or([eb("follower_id", "=", consumerId), eb("followed_id", "=", consumerId)])).execute()).toEqual([]);
    expect(await db.selectFrom("consumer_identity_emails").select("email").where("identity_user_id", "=", ada.sub).execute()).toEqual([]);
    // The other side's lists no longer show her, and no search finds her.
    expect((await json(await api("/consumersubscription/publishers/", grace))).subscriptions).toEqual([]);
    expect((await json(await api("/consumersubscription/subscribers/", alan))).subscriptions).toEqual([]);
    for (const search of ["Ada Byron", ada.email, ada.profile.safeWindowId]) {
      expect((await json(await api(`/consumersubscription/searchpublishers/?searchString=${encodeURIComponent(search)}`, grace))).consumers, search).toEqual([]);
    }
    // Her decided dispute's row and mail file are gone too.
    expect(await consumerRows()).toEqual([]);
    expect(await mailsNaming(services.consumerDataDir, ada.email)).toEqual([]);
    // Deleting twice is harmless.
    expect((await api("/consumer/deleteprofile", ada, { method: "POST" })).status).toBe(200);

    // Then the identity account, with the current password: no sign-in afterwards, a confirmation mail.
    const mail = await mailAfter(services, ada.email, async () => expect(await (await deleteAccount(ada.password)).json()).toBe(true));
    expect(mail.subject).toBe("Your SafeWindow account was deleted");
    expect(mail.text).toContain("This cannot be undone.");
    const grant = await requestToken(services, { grant_type: "password", username: ada.email, password: ada.password });
    expect(grant.status).toBe(400);
    expect((await contractFetch(`${services.identityUrl}/api/users/`, { headers: { authorization: `Bearer ${ada.token}` } })).status).toBe(401);
    // No outbox row names her once the notice is sent, and of the mail files only the notice does;
    // the others' mails stay.
    for (let tries = 0; (await identityRows()).length > 0 && tries < 100; tries++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await identityRows()).toEqual([]);
    expect(await mailsNaming(services.identityDataDir, ada.email)).toEqual(["Your SafeWindow account was deleted"]);
    expect((await mailsNaming(services.identityDataDir, grace.email)).length + (await mailsNaming(services.identityDataDir, REVIEWER)).length).toBe(othersMails);
    // The address is free again.
    await makeUser(services, { email: ada.email });
  });
});
