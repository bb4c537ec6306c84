// Encrypted lab reports over real HTTP (docs/product/calls.md §7 addtestresultmultipart; docs/architecture/results-pipeline.md §5 steps 1-2;
// docs/product/labs.md §10.5): a real identity authority issues the tokens, the consumer API
// runs with its PDF worker pool and PGlite. Each lab's genuine report for the profile, encrypted
// with a password to open or with an owner password only, is refused as "encrypted" with the
// consumerMessage of its case, and nothing is stored; the same report unencrypted is validated.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rejectionMessages } from "../../services/consumer/results/errors.ts";
import { labPdf, ownerPasswordOnlyPdf, passwordProtectedPdf, rejectionCases } from "../fixtures/index.ts";
import type { LabId, ReportOptions } from "../fixtures/index.ts";
import { callApi, currentResults, json, makePerson, safeWindowOf, startServices } from "./support.ts";
import type { Services, TestUser } from "./support.ts";

const CLIENT = { clientId: "safewindow-web", clientSecret: "consumer-encrypted-secret-0123456789" };
const HOUR = 3600_000;
const ADA = { firstName: "Ada", lastName: "Lovelace", dob: "1990-12-10" };
const LABS: LabId[] = ["harborview", "meridian", "cascade"];

let services: Services;

beforeAll(async () => {
  services = await startServices({ client: CLIENT, tmpPrefix: "encrypted-" });
});

afterAll(async () => {
  await services?.close();
});

// ---------------------------------------------------------------- helpers

/** A new user with Ada's profile in 94105. */
const adaWithProfile = (): Promise<TestUser> => makePerson(services, { ...ADA, postalCode: "94105" }, { tag: "encrypted" });

const api = (p: string, user: TestUser, init?: RequestInit) => callApi(services, p, user, init);

async function upload(user: TestUser, bytes: Uint8Array, name: string): Promise<{ status: number; answer: any }> {
  const form = new FormData();
  form.append("multipartData", new Blob([bytes.slice()], { type: "application/pdf" }), name);
  const res = await api("/testresult/addtestresultmultipart/", user, { method: "POST", body: form });
  return { status: res.status, answer: await json(res) };
}

const results = (user: TestUser) => currentResults(services, user);
const safeWindow = (user: TestUser) => safeWindowOf(services, user);

/**
 * Uploads each lab's report for Ada, collected 6 hours ago and encrypted by `encrypt`, as
 * `<lab>-<fileTag>.pdf`; asserts every answer is 422 `{ success: false, reason: "encrypted",
 * consumerMessage }`. The answers, in LABS order.
 */
async function uploadEachLabRefused(
  user: TestUser,
  encrypt: (o: ReportOptions, lab: LabId) => Promise<Uint8Array>,
  fileTag: string,
  consumerMessage: string,
): Promise<any[]> {
  const answers = [];
  for (const lab of LABS) {
    const { status, answer } = await upload(user, await encrypt({ ...ADA, collectedAt: new Date(Date.now() - 6 * HOUR) }, lab), `${lab}-${fileTag}.pdf`);
    expect(status, `${lab}: ${JSON.stringify(answer)}`).toBe(422);
    expect(answer, lab).toEqual({ success: false, reason: "encrypted", consumerMessage });
    answers.push(answer);
  }
  return answers;
}

/** Asserts `user` has no stored result and no window. */
async function expectNothingStored(user: TestUser): Promise<void> {
  expect(await results(user)).toEqual([]);
  expect(await safeWindow(user)).toMatchObject({ strongSafetyDate: null, weakSafetyDate: null, safeWindowDescription: null });
}

// ---------------------------------------------------------------- tests

describe("encrypted reports", () => {
  it("a report that needs a password to open: 422 encrypted, 'protected with a password', nothing stored", async () => {
    const user = await adaWithProfile();
    await uploadEachLabRefused(user, passwordProtectedPdf, "password", rejectionMessages.encrypted());
    await expectNothingStored(user);
  });

  it("a report encrypted with an owner password only (opens without one): 422 encrypted, 'encrypted after your testing company issued it', nothing stored", async () => {
    const user = await adaWithProfile();
    const answers = await uploadEachLabRefused(user, ownerPasswordOnlyPdf, "locked", rejectionMessages.locked());
    for (const answer of answers) expect(answer.consumerMessage).toContain("Upload the original PDF exactly as you received it from your testing company.");
    await expectNothingStored(user);
  });
  it("the same report unencrypted is validated and opens the window (encryption was the only difference)", async () => {
    const user = await adaWithProfile();
    const o = { ...ADA, collectedAt: new Date(Math.floor((Date.now() - 6 * HOUR) / 60_000) * 60_000) };
    expect((await upload(user, await passwordProtectedPdf(o), "password.pdf")).status).toBe(422);
    expect((await upload(user, await ownerPasswordOnlyPdf(o), "locked.pdf")).status).toBe(422);
    const { status, answer } = await upload(user, await labPdf("harborview", o), "original.pdf");
    expect(status, JSON.stringify(answer)).toBe(200);
    expect(answer).toMatchObject({ success: true, consumerMessage: expect.stringContaining("validated") });
    expect(await results(user)).toEqual([expect.objectContaining({ valid: 1, result: "Negative", publicName: "Harborview Labs" })]);
    expect((await safeWindow(user)).strongSafetyDate).toBe(new Date(o.collectedAt.getTime() + 48 * HOUR).toISOString());
  });

  it("the catalogue's encrypted cases answer their status, reason and exact consumerMessage", async () => {
    const user = await adaWithProfile();
    const cases = rejectionCases(ADA, new Date()).filter((c) => c.reason === "encrypted");
    expect(cases.map((c) => c.name)).toEqual(["password-protected", "owner-password-only"]);
    for (const c of cases) {
      const { status, answer } = await upload(user, await c.build(), `${c.name}.pdf`);
      expect(status, c.name).toBe(c.status);
      expect(answer, c.name).toEqual({ success: false, reason: c.reason, consumerMessage: c.consumerMessage });
    }
    expect(await results(user)).toEqual([]);
  });
});
