// Signed results over real HTTP (docs/product/labs.md §10.9): lab PDFs that carry a signed QR code
// (SMART Health Card or EU DCC, signed with test keys this file makes and the consumer API is told to
// trust) are uploaded to the real consumer API; the QR codes are decoded in its worker pool and verified.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cascadePdf, harborviewPdf, meridianPdf } from "../fixtures/index.ts";
import { dccText, testDccSigner } from "../fixtures/dcc.ts";
import type { TestDccSigner } from "../fixtures/dcc.ts";
import { directoryEntry, shcText, signCard, cardPayload, jwsToShc, testShcIssuer } from "../fixtures/shc.ts";
import type { TestShcIssuer } from "../fixtures/shc.ts";
import { callApi, currentResults, json, makePerson, safeWindowOf, startServices } from "./support.ts";
import type { Services, TestUser } from "./support.ts";

const CLIENT = { clientId: "safewindow-web", clientSecret: "consumer-signed-secret-0123456789" };
const HOUR = 3600_000;

let services: Services;
let lab: TestShcIssuer;
let stranger: TestShcIssuer;
let signer: TestDccSigner;

beforeAll(async () => {
  lab = await testShcIssuer("https://results.harborview-labs.example/shc", "Harborview Labs");
  stranger = await testShcIssuer("https://issuer.example.org", "Not in any directory");
  signer = await testDccSigner("DE");
  services = await startServices({
    client: CLIENT,
    tmpPrefix: "signed-",
    proof: { shcIssuers: [directoryEntry(lab, [{ kid: lab.kid, rids: ["revoked-card"] }])], dccSigners: [signer.entry] },
  });
});

afterAll(async () => {
  await services?.close();
});

let n = 0;
/** A person with a unique last name, and their profile. */
async function person(): Promise<{ user: TestUser; firstName: string; lastName: string; dob: string }> {
  n += 1;
  const who = { firstName: "Ada", lastName: `Signed${n}${Math.random().toString(36).slice(2, 6)}`, dob: "1990-12-10" };
  const user = await makePerson(services, { ...who, postalCode: "94105" }, { tag: "signed" });
  return { user, ...who };
}

const collectedAt = () => new Date(Math.floor((Date.now() - 2 * HOUR) / 60_000) * 60_000);

async function upload(user: TestUser, bytes: Uint8Array): Promise<Response> {
  const form = new FormData();
  form.append("multipartData", new Blob([bytes.slice()], { type: "application/pdf" }), "result.pdf");
  return callApi(services, "/testresult/addtestresultmultipart/", user, { method: "POST", body: form });
}

async function propertyValues(user: TestUser, id: string): Promise<{ name: string; matchInfo: string | null }[]> {
  return json(await callApi(services, `/testresult/testresultpropertyvalues/?sfTestResultId=${id}`, user));
}

describe("a verified signed code", () => {
  it("SMART Health Card: the result is stored valid, marked signed by its issuer, and the window says so", async () => {
    const p = await person();
    const at = collectedAt();
    const qr = await shcText(lab, { givenNames: [p.firstName], lastName: p.lastName, dob: p.dob, collectedAt: at });
    const res = await upload(p.user, await harborviewPdf({ ...p, collectedAt: at, variation: { qr: [{ text: qr }] } }));
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).toBe(200);
    const [stored] = await currentResults(services, p.user);
    expect(stored).toMatchObject({ valid: 1, proof: { kind: "shc", label: "signed (SMART Health Card, Harborview Labs)", unverifiedSignature: null } });
    expect(await propertyValues(p.user, stored.sF_TestResultId)).toContainEqual(expect.objectContaining({ name: "Signed QR Code", matchInfo: null }));
    expect((await safeWindowOf(services, p.user)).safeWindowProof).toBe("signed (SMART Health Card, Harborview Labs)");
  });

  it("EU DCC on page 2: marked signed with the signer's country", async () => {
    const p = await person();
    const at = collectedAt();
    const qr = dccText(signer, { givenNames: p.firstName, lastName: p.lastName, dob: p.dob, collectedAt: at, tt: "LP217198-3" });
    const res = await upload(p.user, await cascadePdf({ ...p, collectedAt: at, method: "antigen", variation: { secondPage: true, qr: [{ text: qr, page: 2 }] } }));
    expect(res.status, JSON.stringify(await res.clone().json())).toBe(200);
    expect((await currentResults(services, p.user))[0]).toMatchObject({ valid: 1, proof: { kind: "dcc", label: "signed (EU DCC, DE)" } });
  });

  it("a PDF whose visible text was made for someone else is invalid, the disagreement named, and stays so after a profile change", async () => {
    const p = await person();
    const at = collectedAt();
    // The code is the real patient's; the text was regenerated with the uploader's name.
    const qr = await shcText(lab, { givenNames: ["Grace"], lastName: "Hopper", dob: "1985-06-01", collectedAt: at });
    const res = await upload(p.user, await harborviewPdf({ ...p, collectedAt: at, variation: { qr: [{ text: qr }] } }));
    const body = await json(res);
    expect(res.status).toBe(200);
    expect(body.consumerMessage).toContain("does not agree with its text");
    expect(body.consumerMessage).toContain(`Name (QR: Grace Hopper; PDF: ADA ${p.lastName.toUpperCase()})`);
    const [stored] = await currentResults(services, p.user);
    expect(stored.valid).toBe(0);
    expect(stored.proof).toMatchObject({ kind: "shc", disagreement: expect.stringContaining("Name (QR: Grace Hopper") });
    const signed = (await propertyValues(p.user, stored.sF_TestResultId)).find((v) => v.name === "Signed QR Code");
    expect(signed?.matchInfo).toBe(`Name (QR: Grace Hopper; PDF: ADA ${p.lastName.toUpperCase()}), Date of Birth (QR: 1985-06-01; PDF: 1990-12-10)`);
    expect((await safeWindowOf(services, p.user)).strongSafetyDate).toBeNull();
    // A profile saved again (same values in another spelling) re-runs matching; the disagreement holds.
    const saved = await callApi(services, "/consumer/modifycore", p.user, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ identityUserId: p.user.sub, firstName: "ADA", middleName: "", lastName: p.lastName, dob: p.dob, postalCode: "94110" }).toString(),
    });
    expect(saved.status).toBe(200);
    expect((await currentResults(services, p.user))[0].valid).toBe(0);
  });

  it("a result the code says is positive and the text says is negative is invalid, and opens no window", async () => {
    const p = await person();
    const at = collectedAt();
    const qr = await shcText(lab, { givenNames: [p.firstName], lastName: p.lastName, dob: p.dob, collectedAt: at, snomed: "260373001" });
    const body = await json(await upload(p.user, await harborviewPdf({ ...p, collectedAt: at, variation: { qr: [{ text: qr }] } })));
    expect(body.consumerMessage).toContain("Result (QR: Positive; PDF: Negative)");
    expect((await safeWindowOf(services, p.user)).strongSafetyDate).toBeNull();
  });
});

describe("a code that fails verification refuses the PDF, whatever its text says", () => {
  it("forged, tampered, revoked: each its own message, nothing stored", async () => {
    const p = await person();
    const at = collectedAt();
    const content = { givenNames: [p.firstName], lastName: p.lastName, dob: p.dob, collectedAt: at };
    const forged = jwsToShc(await signCard({ kid: lab.kid, privateKey: stranger.privateKey }, cardPayload(lab.iss, content)));
    const revoked = await shcText(lab, { ...content, rid: "revoked-card" });
    const dccForged = dccText({ ...(await testDccSigner("DE")), kid: signer.kid }, { givenNames: p.firstName, lastName: p.lastName, dob: p.dob, collectedAt: at });
    for (const [qr, reason, words] of [
      [forged, "signature_invalid", "does not verify"],
      [revoked, "signature_revoked", "has revoked it"],
      [dccForged, "signature_invalid", "does not verify"],
    ] as const) {
      const res = await upload(p.user, await meridianPdf({ ...p, collectedAt: at, variation: { qr: [{ text: qr }] } }));
      const body = await json(res);
      expect([res.status, body.reason], qr.slice(0, 8)).toEqual([422, reason]);
      expect(body.consumerMessage).toContain(words);
    }
    expect(await currentResults(services, p.user)).toEqual([]);
  });
});

describe("no signed proof", () => {
  it("a signature from an issuer outside the trust lists falls back to the document checks, and says so", async () => {
    const p = await person();
    const at = collectedAt();
    const qr = await shcText(stranger, { givenNames: [p.firstName], lastName: p.lastName, dob: p.dob, collectedAt: at });
    const res = await upload(p.user, await harborviewPdf({ ...p, collectedAt: at, variation: { qr: [{ text: qr }] } }));
    expect(res.status).toBe(200);
    const [stored] = await currentResults(services, p.user);
    expect(stored).toMatchObject({ valid: 1, proof: { kind: "document", label: "document checks", unverifiedSignature: "SMART Health Card" } });
    expect((await propertyValues(p.user, stored.sF_TestResultId)).map((v) => v.name)).toEqual(["First Name", "Last Name", "Date of Birth"]);
  });

  it("a report with no code, or only a web address, is proven by the document checks alone", async () => {
    const p = await person();
    await upload(p.user, await cascadePdf({ ...p, collectedAt: collectedAt(), variation: { qr: [{ text: "https://cascade-rapid.example/verify?id=123" }] } }));
    expect((await currentResults(services, p.user))[0]).toMatchObject({ valid: 1, proof: { kind: "document", unverifiedSignature: null } });
    expect((await safeWindowOf(services, p.user)).safeWindowProof).toBe("document checks");
  });
});
