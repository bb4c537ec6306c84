// Forged originals over real HTTP (POST /testresult/addtestresultmultipart/ and
// intake in services/consumer/README.md; docs/decisions/0010-forged-originals.md), written as
// the attack: a real identity authority
// issues the tokens, the consumer API runs with its PDF worker pool and PGlite. Every forged
// original that was stored as a valid result before (a lab report with JavaScript, an action, a
// Launch action or an embedded file added, a ZIP appended, wrapped around it or in front of it)
// is refused with its reason and exact consumerMessage and stores nothing; the plain reports of
// all three labs still validate; the same report in other bytes (saved again, a byte appended)
// is "already uploaded", also when both copies are uploaded at once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rejectionMessages } from "../../services/consumer/results/errors.ts";
import { labById } from "../../services/consumer/labs/index.ts";
import { UploadRejectedError } from "../../services/consumer/results/errors.ts";
import { storeResult } from "../../services/consumer/results/store.ts";
import {
  additionalActionPdf,
  byteAppended,
  duplicateCases,
  embeddedFilePdf,
  fileAttachmentAnnotationPdf,
  labPdf,
  launchActionPdf,
  openActionJavaScriptPdf,
  rejectionCases,
  resavedPdf,
  zipAppendedPdf,
  zipWrappedPdf,
} from "../fixtures/index.ts";
import type { LabId, ReportOptions } from "../fixtures/index.ts";
import { callApi, currentResults, json, makePerson, safeWindowOf, startServices } from "./support.ts";
import type { Services, TestUser } from "./support.ts";

const CLIENT = { clientId: "safewindow-web", clientSecret: "consumer-forged-secret-0123456789" };
const HOUR = 3600_000;
const ADA = { firstName: "Ada", lastName: "Lovelace", dob: "1990-12-10" };
const LABS: LabId[] = ["harborview", "meridian", "cascade"];
/** The reasons of intake's forged-original rules (docs/decisions/0010-forged-originals.md); the catalogue's cases with these are the forged originals. */
const FORGED_REASONS = new Set(["javascript", "actions", "launch", "embedded_file", "appended", "archive", "wrapped"]);

let services: Services;

beforeAll(async () => {
  services = await startServices({ client: CLIENT, tmpPrefix: "forged-" });
});

afterAll(async () => {
  await services?.close();
});

// ---------------------------------------------------------------- helpers

const adaWithProfile = (): Promise<TestUser> => makePerson(services, { ...ADA, postalCode: "94105" }, { tag: "forged" });

async function upload(user: TestUser, bytes: Uint8Array, name = "result.pdf"): Promise<{ status: number; answer: any }> {
  const form = new FormData();
  form.append("multipartData", new Blob([bytes.slice()], { type: "application/pdf" }), name);
  const res = await callApi(services, "/testresult/addtestresultmultipart/", user, { method: "POST", body: form });
  return { status: res.status, answer: await json(res) };
}

const results = (user: TestUser) => currentResults(services, user);
const hoursAgo = (n: number) => new Date(Date.now() - n * HOUR);
const report = (hours: number): ReportOptions => ({ ...ADA, collectedAt: hoursAgo(hours) });

function expectRefused(got: { status: number; answer: any }, reason: string, consumerMessage: string, what: string): void {
  expect(got.status, `${what}: ${JSON.stringify(got.answer)}`).toBe(422);
  expect(got.answer, what).toEqual({ success: false, reason, consumerMessage });
}

function expectValidated(got: { status: number; answer: any }, what: string): void {
  expect(got.status, `${what}: ${JSON.stringify(got.answer)}`).toBe(200);
  expect(got.answer, what).toMatchObject({ success: true, consumerMessage: expect.stringMatching(/^Your test result was validated\./) });
}

// ---------------------------------------------------------------- forged originals

describe("forged originals", () => {
  it("each forged original of the catalogue is refused with its reason and exact consumerMessage, and nothing is stored", async () => {
    const user = await adaWithProfile();
    const forged = rejectionCases(ADA, new Date()).filter((c) => FORGED_REASONS.has(c.reason ?? ""));
    expect(forged.map((c) => c.name)).toEqual([
      "open-action-javascript",
      "additional-action",
      "launch-action",
      "embedded-file",
      "file-attachment-annotation",
      "zip-appended",
      "letter-appended",
      "zip-wrapped",
      "behind-other-header",
    ]);
    for (const c of forged) expectRefused(await upload(user, await c.build(), `${c.name}.pdf`), c.reason!, c.consumerMessage!, c.name);
    expect(await results(user)).toEqual([]);
    expect(await safeWindowOf(services, user)).toMatchObject({ strongSafetyDate: null, weakSafetyDate: null });
  });

  it("each lab's report with JavaScript, an action, a Launch action or an embedded file added inside object streams is refused", async () => {
    const user = await adaWithProfile();
    for (const [i, lab] of LABS.entries()) {
      const o = report(3 + i);
      const cases: [string, Uint8Array, keyof typeof rejectionMessages][] = [
        ["javascript", await openActionJavaScriptPdf(o, lab, "object-streams"), "javascript"],
        ["additional action", await additionalActionPdf(o, lab, "object-streams"), "actions"],
        ["launch", await launchActionPdf(o, lab, "object-streams"), "launch"],
        ["embedded file", await embeddedFilePdf(o, lab, "object-streams"), "embedded_file"],
        ["file attachment", await fileAttachmentAnnotationPdf(o, lab, "object-streams"), "embedded_file"],
        ["zip appended", await zipAppendedPdf(o, lab), "appended"],
        ["zip wrapped", await zipWrappedPdf(o, lab), "archive"],
      ];
      for (const [what, bytes, reason] of cases) {
        expectRefused(await upload(user, bytes), reason, (rejectionMessages[reason] as () => string)(), `${lab} ${what}`);
      }
    }
    expect(await results(user)).toEqual([]);
  });

  it("the plain reports of all three labs still validate, as first saved and saved again with object streams", async () => {
    const user = await adaWithProfile();
    for (const [i, lab] of LABS.entries()) {
      expectValidated(await upload(user, await labPdf(lab, { ...report(10 + i), variation: { extraText: true, secondPage: true } })), lab);
      // Saved again (another report, so not a duplicate): object streams are no forgery by themselves.
      expectValidated(await upload(user, await resavedPdf(await labPdf(lab, report(20 + i)))), `${lab} saved again`);
      // A newline after %%EOF is white space.
      expectValidated(await upload(user, byteAppended(await labPdf(lab, report(30 + i)), "\n")), `${lab} newline appended`);
    }
    expect((await results(user)).map((r) => r.valid)).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1]);
  });
});

// ---------------------------------------------------------------- the same report twice

describe("the same report twice is already uploaded", () => {
  it("saved again, or with a byte appended, after the original or before it", async () => {
    for (const c of duplicateCases(ADA, new Date())) {
      const { first, again } = await c.build();
      const user = await adaWithProfile();
      expectValidated(await upload(user, first), c.name);
      expectRefused(await upload(user, again), c.reason, c.consumerMessage, c.name);
      // The other order: the copy first, then the original.
      const other = await adaWithProfile();
      expectValidated(await upload(other, again), `${c.name}, copy first`);
      expectRefused(await upload(other, first), c.reason, c.consumerMessage, `${c.name}, original second`);
      expect(await results(user)).toHaveLength(1);
      expect(await results(other)).toHaveLength(1);
    }
    expect(rejectionMessages.duplicate()).toContain("already uploaded");
  });

  it("also when the copies are uploaded at once: one is stored", async () => {
    for (const c of duplicateCases(ADA, new Date())) {
      const { first, again } = await c.build();
      const user = await adaWithProfile();
      const answers = await Promise.all([upload(user, first), upload(user, again), upload(user, first)]);
      expect(answers.map((a) => a.status).sort(), c.name).toEqual([200, 422, 422]);
      for (const a of answers.filter((a) => a.status === 422)) expect(a.answer, c.name).toEqual({ success: false, reason: "duplicate", consumerMessage: c.consumerMessage });
      expect(await results(user), c.name).toHaveLength(1);
    }
    // Three copies of one report in three different files, at once.
    const original = await labPdf("cascade", report(9));
    const user = await adaWithProfile();
    const answers = await Promise.all([upload(user, original), upload(user, await resavedPdf(original)), upload(user, byteAppended(original, " "))]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 422, 422]);
    expect(await results(user)).toHaveLength(1);
  });

  it("the database holds it, not only the check before: a second row for the same report is refused at insert", async () => {
    // store.ts is called directly, past the pipeline's early check, as a racing upload would reach it.
    const user = await adaWithProfile();
    const first = await labPdf("meridian", report(4));
    expectValidated(await upload(user, first), "first");
    const [stored] = await results(user);
    const db = services.consumer.db;
    const row = await db.selectFrom("consumer_test_results").selectAll().where("id", "=", stored.sF_TestResultId).executeTakeFirstOrThrow();
    expect(row.report_key).toMatch(/^[0-9a-f]{64}$/);
    const profile = await db.selectFrom("consumer_profiles").select(["id", "first_name", "last_name", "dob"]).where("id", "=", row.consumer_id).executeTakeFirstOrThrow();
    const lab = labById(row.lab_id)!;
    const again = storeResult(
      db,
      { consumerId: profile.id, firstName: profile.first_name, lastName: profile.last_name, dob: profile.dob },
      {
        sha256: "f".repeat(64),
        size: 1,
        pdf: new Uint8Array([0x25]),
        pageCount: 1,
        fetchedFrom: null,
        proof: { kind: "document", issuer: null, unverified: null, disagreement: null },
        lab,
        report: {
          givenNames: row.patient_given_names,
          lastName: row.patient_last_name,
          dob: row.patient_dob,
          collectedAt: row.collected_at,
          collectedText: row.collected_text,
          testName: row.test_name,
          method: row.method,
          methodDescription: "PCR (NAAT)",
          outcome: row.result,
          resultText: row.result_text,
        },
        match: { valid: true, properties: (["First Name", "Last Name", "Date of Birth"] as const).map((name) => ({ name, finding: null })) },
        window: { strongSafetyDate: null, weakSafetyDate: null },
        image: { jpeg: new Uint8Array([0xff, 0xd8]), width: 1, height: 1 },
      },
      new Date(),
    );
    await expect(again).rejects.toBeInstanceOf(UploadRejectedError);
    await expect(again).rejects.toMatchObject({ reason: "duplicate" });
    expect(await results(user)).toHaveLength(1);
  });

  it("another report of the same person is not a duplicate, and another user may upload the same report", async () => {
    const user = await adaWithProfile();
    const o = report(5);
    const harborview = await labPdf("harborview", o);
    expectValidated(await upload(user, harborview), "harborview");
    // The same specimen time at another lab, another test at the same lab, another time.
    expectValidated(await upload(user, await labPdf("meridian", o)), "meridian");
    expectValidated(await upload(user, await labPdf("harborview", { ...o, method: "antigen" })), "antigen");
    expectValidated(await upload(user, await labPdf("harborview", { ...o, collectedAt: new Date(o.collectedAt.getTime() - 60_000) })), "a minute earlier");
    const other = await adaWithProfile();
    expectValidated(await upload(other, await resavedPdf(harborview)), "another user");
    expect(await results(user)).toHaveLength(4);
  });
});
