// Disputes that get answered (contracts/consumer.ts disputeQueue, disputeImage, reviewDispute,
// disputeReviews, extensions of docs/product/calls.md §7; services/consumer/results/reviews.ts): a configured
// reviewer reads the open disputes and accepts or declines each with a response; every decision is in
// the audit trail. Real identity authority, consumer API, worker pool and PGlite; generated lab PDFs.
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase } from "../../lib/db/database.ts";
import { migrateToLatest } from "../../lib/db/migrate.ts";
import { CONSUMER_MIGRATION_TABLE, consumerMigrations } from "../../services/consumer/schema/migrations.ts";
import { harborviewPdf } from "../fixtures/index.ts";
import { decodeJwt } from "jose";
import { accessToken, callApi, confirmAddress, currentResults, json, lineSink, mailAfter, makePerson, makeUser, modifyCore, safeWindowOf, startServices } from "./support.ts";
import type { Bearer, Person, Services, TestUser } from "./support.ts";

const HOUR = 3600_000;
const REVIEWER = `reviewer-${Math.random().toString(36).slice(2, 8)}@example.com`;
/** Listed too, but registered without confirming the address (the token says email_verified: false). */
const UNCONFIRMED_REVIEWER = `reviewer-unconfirmed-${Math.random().toString(36).slice(2, 8)}@example.com`;
/** Listed too, with a profile of their own: the reviewer who disputes a result of their own. */
const SELF_REVIEWER = `reviewer-self-${Math.random().toString(36).slice(2, 8)}@example.com`;
let services: Services;
let reviewer: TestUser;
/** The consumer API's log lines (JSON). */
const logLines: string[] = [];

beforeAll(async () => {
  services = await startServices({
    client: { clientId: "safewindow-web", clientSecret: "dispute-reviews-secret-0123456789" },
    tmpPrefix: "reviews-",
    reviewers: [REVIEWER.toUpperCase(), UNCONFIRMED_REVIEWER, SELF_REVIEWER],
    consumerLogger: pino({ level: "info" }, lineSink(logLines)),
  });
  reviewer = await makeUser(services, { email: REVIEWER, confirmed: true });
});

afterAll(async () => {
  await services?.close();
});

const ADA = { firstName: "Ada", lastName: "Lovelace", dob: "1990-12-10" };
const api = (p: string, who: Bearer, init?: RequestInit) => callApi(services, p, who, init);
const postJson = (p: string, who: TestUser, body: unknown) => api(p, who, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

let uploads = 0;
/** The minute three hours before the file started: each upload's collection time is a minute before the last one's. */
const firstCollectedMinute = Math.floor((Date.now() - 3 * HOUR) / 60_000);
/** `who` uploads a Harborview report made out to `person` (stored invalid unless it is their own) and disputes it. */
async function uploadAndDispute(who: TestUser, person: typeof ADA, comment: string): Promise<string> {
  // A distinct collection time each: a distinct report. Counted from a fixed minute, not from the
  // clock, so that a minute passing between two uploads cannot give the second the first's time.
  uploads += 1;
  const body = new FormData();
  body.append("multipartData", new Blob([(await harborviewPdf({ ...person, collectedAt: new Date((firstCollectedMinute - uploads) * 60_000) })).slice()], { type: "application/pdf" }), "r.pdf");
  const uploaded = await api("/testresult/addtestresultmultipart/", who, { method: "POST", body });
  expect(uploaded.status).toBe(200);
  const id = (await json(uploaded)).sF_TestResultId as string;
  expect((await postJson("/testresult/dispute/", who, { sF_TestResultId: id, disputeComment: comment })).status).toBe(200);
  return id;
}

let selfReviewer: Person | undefined;
/** The listed reviewer SELF_REVIEWER, confirmed, with a profile of their own (Rita Reviewer). */
async function reviewerWithProfile(): Promise<Person> {
  selfReviewer ??= await makePerson(services, { firstName: "Rita", lastName: "Reviewer", dob: "1984-04-04", postalCode: "94105" }, { email: SELF_REVIEWER, confirmed: true });
  return selfReviewer;
}

/** Ada with a result that printed her first name with a typo ("Adda"), stored invalid and disputed. */
async function disputedTypo(comment = "The lab typed my first name with two d's."): Promise<{ user: TestUser; id: string; collectedAt: Date }> {
  const user = await makePerson(services, { ...ADA, postalCode: "94105" }, { tag: "reviews" });
  const collectedAt = new Date(Math.floor((Date.now() - 3 * HOUR) / 60_000) * 60_000);
  const body = new FormData();
  body.append("multipartData", new Blob([(await harborviewPdf({ ...ADA, firstName: "Adda", collectedAt })).slice()], { type: "application/pdf" }), "r.pdf");
  const uploaded = await api("/testresult/addtestresultmultipart/", user, { method: "POST", body });
  expect(uploaded.status).toBe(200);
  const id = (await json(uploaded)).sF_TestResultId as string;
  expect((await postJson("/testresult/dispute/", user, { sF_TestResultId: id, disputeComment: comment })).status).toBe(200);
  return { user, id, collectedAt };
}

describe("dispute reviews", () => {
  it("refuses every review call to a consumer who is not a reviewer, and reads nothing for them", async () => {
    const { user, id } = await disputedTypo();
    for (const res of [
      await api("/testresult/disputequeue/", user),
      await api(`/testresult/disputeimage/?testResultId=${id}`, user),
      await postJson("/testresult/reviewdispute/", user, { sF_TestResultId: id, decision: "accept", responseComment: "Approving my own." }),
      await api("/testresult/disputereviews/", user),
    ]) {
      expect(res.status).toBe(403);
      expect(await json(res)).toMatchObject({ error: "forbidden" });
    }
    expect((await currentResults(services, user))[0]).toMatchObject({ valid: 0, disputeStatus: 1, disputeResponseComment: null });
  });

  it("refuses an account registered under a reviewer's address until that address is confirmed", async () => {
    const pretender = await makeUser(services, { email: UNCONFIRMED_REVIEWER });
    expect(decodeJwt(pretender.token)).toMatchObject({ email: UNCONFIRMED_REVIEWER, email_verified: false });
    const refused = await api("/testresult/disputequeue/", pretender);
    expect(refused.status).toBe(403);
    expect(await json(refused)).toMatchObject({ error: "forbidden" });
    expect(await json(await api("/consumer/getpermissions", pretender))).toEqual({ enabledScreens: ["Settings"] });
    // Once the owner of the address confirms it, a new sign-in carries email_verified and the role.
    await confirmAddress(services, UNCONFIRMED_REVIEWER);
    const token = await accessToken(services, { grant_type: "password", username: UNCONFIRMED_REVIEWER, password: pretender.password });
    expect(decodeJwt(token)).toMatchObject({ email_verified: true });
    expect((await api("/testresult/disputequeue/", { token })).status).toBe(200);
    // The reviewers' screen rides on the permissions (an extension screen name), profile or not.
    expect(await json(await api("/consumer/getpermissions", { token }))).toEqual({ enabledScreens: ["Settings", "DisputeReviews"] });
  });

  it("lists open disputes oldest first with the checks and the comment; accepting makes the result valid and opens the window", async () => {
    const first = await disputedTypo("First one.");
    const second = await disputedTypo("Second one.");
    const queue = await json<any[]>(await api("/testresult/disputequeue/", reviewer));
    const mine = queue.filter((d) => d.sF_TestResultId === first.id || d.sF_TestResultId === second.id);
    expect(mine.map((d) => d.sF_TestResultId)).toEqual([first.id, second.id]);
    expect(mine[0]).toMatchObject({
      firstName: "Ada",
      lastName: "Lovelace",
      publicName: "Harborview Labs",
      result: "Negative",
      disputeComment: "First one.",
      disputedAt: expect.any(String),
      pageCount: 1,
      propertyValues: [
        { name: "First Name", matchInfo: "PDF: ADDA; profile: Ada" },
        { name: "Last Name", matchInfo: null },
        { name: "Date of Birth", matchInfo: null },
      ],
    });
    // One dispute by its result id; none for a result that is not under dispute or no id at all.
    expect((await json<any[]>(await api(`/testresult/disputequeue/?testResultId=${second.id}`, reviewer))).map((d) => d.sF_TestResultId)).toEqual([second.id]);
    expect(await json(await api("/testresult/disputequeue/?testResultId=not-a-result", reviewer))).toEqual([]);
    expect(await json(await api(`/consumer/getpermissions`, first.user))).toEqual({ enabledScreens: ["SafeWindow", "MyTests", "MyFun", "Locations", "Friends", "Settings"] });
    const image = await api(`/testresult/disputeimage/?testResultId=${first.id}`, reviewer);
    expect(image.status).toBe(200);
    expect([...Buffer.from(await json<string>(image), "base64").subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);

    // The decision answers at once; the owner's mail follows from the consumer API's outbox.
    const mail = await mailAfter(
      services,
      first.user.email,
      async () => {
        const accepted = await postJson("/testresult/reviewdispute/", reviewer, { sF_TestResultId: first.id, decision: "accept", responseComment: "  We confirmed the typo with the lab.  " });
        expect(accepted.status).toBe(200);
      },
      "consumer",
    );
    expect(mail.subject).toBe("Your SafeWindow dispute has been reviewed");
    expect(mail.text).not.toContain(REVIEWER);
    expect(mail.text).toContain("about your Harborview Labs result of");
    expect(mail.text).toContain("accepted it: the result is now valid");
    expect(mail.text).toContain("Our response: We confirmed the typo with the lab.");
    expect(mail.link?.href).toBe(`http://localhost:3000/testdetail?id=${first.id}&tab=dispute`);
    const [result] = await currentResults(services, first.user);
    expect(result).toMatchObject({ valid: 1, disputeStatus: 1, disputeResponseComment: "We confirmed the typo with the lab.", strongSafetyDate: new Date(first.collectedAt.getTime() + 48 * HOUR).toISOString() });
    expect(await safeWindowOf(services, first.user)).toMatchObject({ strongSafetyDate: result.strongSafetyDate });
    const checks = await json<any[]>(await api(`/testresult/testresultpropertyvalues/?sfTestResultId=${first.id}`, first.user));
    // The owner reads that a reviewer accepted it, and when; not which reviewer (nor their address).
    expect(checks.at(-1)).toMatchObject({ name: "Manual Review", matchInfo: expect.stringMatching(/^Accepted on review by a reviewer at \d{4}-\d\d-\d\d \d\d:\d\d UTC$/) });
    expect(JSON.stringify(checks).toLowerCase()).not.toContain(REVIEWER);
    expect(JSON.stringify(await currentResults(services, first.user)).toLowerCase()).not.toContain(REVIEWER);
    // Who decided is kept in the audit trail's row, and in a log line by identity user id (no address).
    expect(await services.consumer.db.selectFrom("consumer_dispute_reviews").select(["reviewer_identity_user_id", "reviewer_email", "decision", "created_at"]).where("result_id", "=", first.id).execute()).toEqual([
      { reviewer_identity_user_id: reviewer.sub, reviewer_email: REVIEWER, decision: "accept", created_at: expect.any(Date) },
    ]);
    const logged = logLines.map((l) => JSON.parse(l)).find((l) => l.msg === "dispute decided" && l.resultId === first.id);
    expect(logged).toMatchObject({ reviewerIdentityUserId: reviewer.sub, decision: "accept", validAfter: true });
    expect(JSON.stringify(logged).toLowerCase()).not.toContain(REVIEWER);
    // Decided: out of the queue, and not decided twice.
    expect((await json<any[]>(await api("/testresult/disputequeue/", reviewer))).map((d) => d.sF_TestResultId)).not.toContain(first.id);
    const again = await postJson("/testresult/reviewdispute/", reviewer, { sF_TestResultId: first.id, decision: "decline", responseComment: "No." });
    expect(again.status).toBe(400);
    expect(await json(again)).toMatchObject({ reason: "already_reviewed", consumerMessage: "This dispute has already been reviewed." });
    const inSpanish = await api("/testresult/reviewdispute/", reviewer, {
      method: "POST",
      headers: { "content-type": "application/json", "accept-language": "es" },
      body: JSON.stringify({ sF_TestResultId: first.id, decision: "decline", responseComment: "No." }),
    });
    expect(await json(inSpanish)).toMatchObject({ reason: "already_reviewed", consumerMessage: "Esta reclamación ya se revisó." });
  });

  it("declining keeps the result invalid with the response; the audit trail says who, when and what changed", async () => {
    const { user, id } = await disputedTypo();
    for (const [body, reason] of [
      [{ sF_TestResultId: id, decision: "decline", responseComment: "   " }, "response_required"],
      [{ sF_TestResultId: id, decision: "decline", responseComment: "x".repeat(1001) }, "response_too_long"],
    ] as const) {
      const res = await postJson("/testresult/reviewdispute/", reviewer, body);
      expect(res.status).toBe(400);
      expect(await json(res)).toMatchObject({ reason });
    }
    expect((await postJson("/testresult/reviewdispute/", reviewer, { sF_TestResultId: id, decision: "maybe", responseComment: "?" })).status).toBe(400);
    const mail = await mailAfter(
      services,
      user.email,
      async () => {
        const declined = await postJson("/testresult/reviewdispute/", reviewer, { sF_TestResultId: id, decision: "decline", responseComment: "The PDF names another person." });
        expect(declined.status).toBe(200);
      },
      "consumer",
    );
    expect(mail.text).toContain("We could not accept it: the result stays as it was.");
    expect(mail.text).toContain("Our response: The PDF names another person.");
    expect(mail.text).toContain("support@safewindow.local");
    expect((await currentResults(services, user))[0]).toMatchObject({ valid: 0, disputeResponseComment: "The PDF names another person.", strongSafetyDate: null });
    const trail = await json<any[]>(await api("/testresult/disputereviews/", reviewer));
    expect(trail.find((r) => r.sF_TestResultId === id)).toEqual({
      sF_DisputeReviewId: expect.any(String),
      sF_TestResultId: id,
      reviewerEmail: REVIEWER,
      decision: "decline",
      responseComment: "The PDF names another person.",
      validBefore: 0,
      validAfter: 0,
      reviewedAt: expect.any(String),
    });
  });

  it("a reviewer reads only results under dispute: another result, an unknown id or a bad one is not found", async () => {
    const owner = await makePerson(services, { ...ADA, postalCode: "94105" }, { tag: "reviews" });
    const body = new FormData();
    body.append("multipartData", new Blob([(await harborviewPdf({ ...ADA, collectedAt: new Date(Date.now() - 2 * HOUR) })).slice()], { type: "application/pdf" }), "r.pdf");
    const id = (await json(await api("/testresult/addtestresultmultipart/", owner, { method: "POST", body }))).sF_TestResultId as string;
    for (const other of [id, "00000000-0000-4000-8000-000000000000", "not-an-id"]) {
      const image = await api(`/testresult/disputeimage/?testResultId=${encodeURIComponent(other)}`, reviewer);
      expect(image.status, other).toBe(404);
      const review = await postJson("/testresult/reviewdispute/", reviewer, { sF_TestResultId: other, decision: "accept", responseComment: "ok" });
      expect(review.status, other).toBe(404);
    }
    // The reviewer's own consumer calls see only their own (none).
    expect((await api(`/testresult/getimage/?testResultId=${id}`, reviewer)).status).toBe(404);
    expect((await currentResults(services, owner))[0]).toMatchObject({ valid: 1, disputeStatus: 0 });
  });

  it("an accepted result stays valid while the profile is what it was accepted against", async () => {
    const { user, id } = await disputedTypo();
    expect((await postJson("/testresult/reviewdispute/", reviewer, { sF_TestResultId: id, decision: "accept", responseComment: "Typo confirmed." })).status).toBe(200);
    const modify = (firstName: string) => modifyCore(services, user, { identityUserId: user.sub, firstName, middleName: "", lastName: ADA.lastName, dob: ADA.dob, postalCode: "94105" });
    expect((await modify("Augusta")).status).toBe(200);
    expect((await currentResults(services, user))[0]).toMatchObject({ valid: 0 });
    expect((await modify("Ada")).status).toBe(200);
    expect((await currentResults(services, user))[0]).toMatchObject({ valid: 1 });
  });

  it("two reviewers deciding one dispute at once: one decision is kept", async () => {
    const { id } = await disputedTypo();
    const answers = await Promise.all([
      postJson("/testresult/reviewdispute/", reviewer, { sF_TestResultId: id, decision: "accept", responseComment: "Yes." }),
      postJson("/testresult/reviewdispute/", reviewer, { sF_TestResultId: id, decision: "decline", responseComment: "No." }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
    const trail = (await json<any[]>(await api("/testresult/disputereviews/", reviewer))).filter((r) => r.sF_TestResultId === id);
    expect(trail).toHaveLength(1);
    // One decision, one mail, and it tells that decision.
    const mails = await services.consumer.db.selectFrom("consumer_outbox").select(["decision"]).where("result_id", "=", id).execute();
    expect(mails).toEqual([{ decision: trail[0].decision }]);
  });

  it("a reviewer who uploads someone else's report and disputes it cannot accept it: 403, and their queue does not list it", async () => {
    const rita = await reviewerWithProfile();
    const id = await uploadAndDispute(rita, ADA, "This is me, the lab got my name wrong.");
    expect((await currentResults(services, rita)).find((r) => r.sF_TestResultId === id)).toMatchObject({ valid: 0, disputeStatus: 1 });

    // The attack: the reviewer decides their own dispute. Refused however it is asked, and logged.
    for (const decision of ["accept", "decline"]) {
      const decided = await postJson("/testresult/reviewdispute/", rita, { sF_TestResultId: id, decision, responseComment: "Looks fine to me." });
      expect(decided.status, decision).toBe(403);
      expect(await json(decided)).toMatchObject({ error: "forbidden" });
    }
    const named = await api(`/testresult/disputequeue/?testResultId=${id}`, rita);
    expect(named.status).toBe(403);
    expect(await json(named)).toMatchObject({ error: "forbidden" });
    expect((await json<any[]>(await api("/testresult/disputequeue/", rita))).map((d) => d.sF_TestResultId)).not.toContain(id);
    expect(logLines.map((l) => JSON.parse(l)).filter((l) => l.msg === "reviewer refused: a dispute of their own result" && l.resultId === id)).toHaveLength(3);
    expect((await currentResults(services, rita)).find((r) => r.sF_TestResultId === id)).toMatchObject({ valid: 0, disputeStatus: 1, disputeResponseComment: null, strongSafetyDate: null });
    expect(await services.consumer.db.selectFrom("consumer_dispute_reviews").select("id").where("result_id", "=", id).execute()).toEqual([]);

    // Another reviewer sees it in the queue and decides it (the dispute is not lost, only not theirs).
    expect((await json<any[]>(await api("/testresult/disputequeue/", reviewer))).map((d) => d.sF_TestResultId)).toContain(id);
    expect((await postJson("/testresult/reviewdispute/", reviewer, { sF_TestResultId: id, decision: "decline", responseComment: "The report names someone else." })).status).toBe(200);
    expect((await currentResults(services, rita)).find((r) => r.sF_TestResultId === id)).toMatchObject({ valid: 0, disputeResponseComment: "The report names someone else." });
    expect((await api(`/testresult/disputequeue/?testResultId=${id}`, rita)).status).toBe(403);
  });

  it("a reviewer with disputes of their own still reviews everyone else's", async () => {
    const rita = await reviewerWithProfile();
    const own = await uploadAndDispute(rita, ADA, "Mine again.");
    const { id } = await disputedTypo("Someone else's.");
    const queue = (await json<any[]>(await api("/testresult/disputequeue/", rita))).map((d) => d.sF_TestResultId);
    expect(queue).toContain(id);
    expect(queue).not.toContain(own);
    expect((await json<any[]>(await api(`/testresult/disputequeue/?testResultId=${id}`, rita))).map((d) => d.sF_TestResultId)).toEqual([id]);
    expect((await postJson("/testresult/reviewdispute/", rita, { sF_TestResultId: id, decision: "accept", responseComment: "Typo confirmed." })).status).toBe(200);
    expect(await services.consumer.db.selectFrom("consumer_dispute_reviews").select(["reviewer_identity_user_id", "reviewer_email"]).where("result_id", "=", id).execute()).toEqual([
      { reviewer_identity_user_id: rita.sub, reviewer_email: SELF_REVIEWER },
    ]);
  });
});

describe("migration 0011_manual_review_unnamed", () => {
  it("rewrites the Manual Review values that named the reviewer's address, keeping the time", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "reviews-migration-"));
    const db = await createDatabase<any>({ dataDir, name: "consumer" });
    try {
      await migrateToLatest(db, Object.fromEntries(Object.entries(consumerMigrations).filter(([name]) => name < "0011")), CONSUMER_MIGRATION_TABLE);
      const now = new Date();
      const consumerId = randomUUID();
      await db
        .insertInto("consumer_profiles")
        .values({ id: consumerId, identity_user_id: randomUUID(), first_name: "Ada", last_name: "Lovelace", dob: "1990-12-10", postal_code: "94105", safe_window_id: "0ADA0ADA", created_at: now, updated_at: now })
        .execute();
      // Three accepted results with their values as reviews.ts wrote them before: the reviewer's
      // address (one with " at " in it too), and one of an unknown shape.
      const manualReviews = [
        "Accepted on review by rita@reviewers.example.com at 2025-03-04 05:06 UTC",
        'Accepted on review by "rita at home"@example.com at 2025-03-05 07:08 UTC',
        "Accepted by rita@reviewers.example.com",
      ];
      for (const [n, manualReview] of manualReviews.entries()) {
        const resultId = randomUUID();
        await db
          .insertInto("consumer_test_results")
          .values({
            id: resultId, consumer_id: consumerId, file_sha256: String(n).repeat(64), file_size: 1000, lab_id: "harborview",
            testing_company_name: "Harborview Clinical Laboratories, LLC", public_name: "Harborview Labs", disease_name: "COVID-19",
            test_name: "SARS-CoV-2 RNA, Qualitative NAAT", method: "NAAT", result: "Negative", result_text: "NOT DETECTED",
            collected_at: new Date(now.getTime() - n * HOUR), collected_text: "collected", patient_given_names: "ADDA", patient_last_name: "LOVELACE", patient_dob: "1990-12-10",
            valid: true, window_description: "PCR (NAAT)", created_at: now, updated_at: now,
          })
          .execute();
        await db
          .insertInto("consumer_test_result_property_values")
          .values([
            { id: randomUUID(), result_id: resultId, position: 0, name: "First Name", match_info: "PDF: ADDA; profile: Ada" },
            { id: randomUUID(), result_id: resultId, position: 1, name: "Manual Review", match_info: manualReview },
          ])
          .execute();
      }

      // 0011 and the migrations after it that still keep sentences (the database stood at 0010; 0014 stores values, tested in consumer-result-findings.test.ts).
      const upTo0013 = Object.fromEntries(Object.entries(consumerMigrations).filter(([name]) => name < "0014"));
      const later = Object.keys(upTo0013).filter((name) => name > "0010_result_proof");
      expect(later[0]).toBe("0011_manual_review_unnamed");
      expect(await migrateToLatest(db, upTo0013, CONSUMER_MIGRATION_TABLE)).toEqual(later);
      const after = await db.selectFrom("consumer_test_result_property_values").select(["name", "match_info"]).orderBy("match_info").execute();
      expect(after.filter((v) => v.name === "Manual Review").map((v) => v.match_info)).toEqual([
        "Accepted on review by a reviewer",
        "Accepted on review by a reviewer at 2025-03-04 05:06 UTC",
        "Accepted on review by a reviewer at 2025-03-05 07:08 UTC",
      ]);
      expect(after.filter((v) => v.name === "First Name").map((v) => v.match_info)).toEqual(Array(3).fill("PDF: ADDA; profile: Ada"));
      expect(JSON.stringify(after)).not.toContain("rita");
    } finally {
      await db.destroy();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
