// SMART Health Cards (services/consumer/results/proof/shc.ts): decoding and verification, every
// refusal (tampered payload, wrong key, unknown issuer, revoked rid, oversized inflate, expired), and the
// LOINC and SNOMED CT code mapping. Cards are signed with test keys made here (tests/fixtures/shc.ts).
import { deflateRawSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { LOINC_METHODS, MAX_SHC_PAYLOAD_BYTES, SHC_CLOCK_SKEW_S, SNOMED_OUTCOMES, ShcRefusedError, shcToJws, verifyShc } from "../../services/consumer/results/proof/shc.ts";
import type { ShcTrust } from "../../services/consumer/results/proof/shc.ts";
import { checkProof } from "../../services/consumer/results/proof/check.ts";
import { cardPayload, directoryEntry, jwsToShc, shcText, signCard, testShcIssuer } from "../fixtures/shc.ts";
import type { CardContent, TestShcIssuer } from "../fixtures/shc.ts";

let lab: TestShcIssuer;
let other: TestShcIssuer;
let trust: ShcTrust;
const now = new Date("2026-11-26T12:00:00Z");
const ada: CardContent = { givenNames: ["Ada", "Augusta"], lastName: "Lovelace", dob: "1990-12-10", collectedAt: new Date("2026-11-26T08:15:00Z") };

beforeAll(async () => {
  lab = await testShcIssuer();
  other = await testShcIssuer("https://forger.example/shc", "Forger");
  trust = { issuers: [directoryEntry(lab, [{ kid: lab.kid, rids: ["revoked-rid", "later-rid.1795000000"] }])] };
});

async function refusal(text: string, at = now): Promise<string> {
  try {
    await verifyShc(text, trust, at);
  } catch (err) {
    if (err instanceof ShcRefusedError) return err.reason;
    throw err;
  }
  return "accepted";
}

describe("verifyShc", () => {
  it("reads a trusted issuer's lab card: names, birth date, method, result, collection time", async () => {
    const card = await verifyShc(await shcText(lab, ada), trust, now);
    expect(card).toEqual({
      trusted: true,
      issuer: { iss: lab.iss, name: lab.name },
      result: {
        givenNames: "Ada Augusta",
        lastName: "Lovelace",
        dob: "1990-12-10",
        method: "NAAT",
        outcome: "Negative",
        resultCode: "260415000",
        collectedAt: ada.collectedAt,
        collectedDate: "2026-11-26",
      },
    });
  });

  it("a card of an issuer outside the directory is not refused, and not verified", async () => {
    expect(await verifyShc(await shcText(other, ada), trust, now)).toEqual({ trusted: false, iss: other.iss, signed: true });
  });

  it("refuses a card issued in the future (nbf ahead of the clock), and a card whose exp or nbf is not a number", async () => {
    const seconds = Math.floor(now.getTime() / 1000);
    expect(await refusal(await shcText(lab, { ...ada, nbf: seconds + 3600 }))).toBe("not_yet_valid");
    expect(await refusal(await shcText(lab, { ...ada, nbf: seconds + SHC_CLOCK_SKEW_S + 1 }))).toBe("not_yet_valid");
    // Within the clock skew allowed between the issuer and us, it stands.
    expect(await refusal(await shcText(lab, { ...ada, nbf: seconds + 60 }))).toBe("accepted");
    for (const exp of ["2099-01-01", null, { $gt: 0 }, "9999999999"]) {
      expect(await refusal(jwsToShc(await signCard(lab, { ...cardPayload(lab.iss, ada), exp })))).toBe("payload");
    }
    expect(await refusal(jwsToShc(await signCard(lab, { ...cardPayload(lab.iss, ada), nbf: "soon" })))).toBe("payload");
  });

  it("refuses a tampered payload, another key, a revoked rid, an expired card", async () => {
    const jws = await signCard(lab, cardPayload(lab.iss, ada));
    const [header, , signature] = jws.split(".");
    const forgedPayload = Buffer.from(deflateRawSync(Buffer.from(JSON.stringify(cardPayload(lab.iss, { ...ada, snomed: "260373001", lastName: "Hopper" }))))).toString("base64url");
    expect(await refusal(jwsToShc(`${header}.${forgedPayload}.${signature}`))).toBe("bad_signature");
    // The forger signs a card naming the lab as issuer, with the lab's kid, with its own key.
    expect(await refusal(jwsToShc(await signCard({ kid: lab.kid, privateKey: other.privateKey }, cardPayload(lab.iss, ada))))).toBe("bad_signature");
    expect(await refusal(jwsToShc(await signCard({ kid: "unknown-kid", privateKey: lab.privateKey }, cardPayload(lab.iss, ada))))).toBe("bad_signature");
    expect(await refusal(await shcText(lab, { ...ada, rid: "revoked-rid" }))).toBe("revoked");
    // `rid.<seconds>`: cards issued before that time are revoked, later ones stand.
    expect(await refusal(await shcText(lab, { ...ada, rid: "later-rid", nbf: 1794000000 }))).toBe("revoked");
    expect(await refusal(await shcText(lab, { ...ada, rid: "later-rid", nbf: 1796000000 }), new Date(1796000000 * 1000))).toBe("accepted");
    expect(await refusal(await shcText(lab, { ...ada, exp: Math.floor(now.getTime() / 1000) - 1 }))).toBe("expired");
    expect(await refusal(await shcText(lab, { ...ada, exp: Math.floor(now.getTime() / 1000) + 60 }))).toBe("accepted");
  });

  it("refuses a payload that inflates past the cap, before and after the signature", async () => {
    const bomb = { ...cardPayload(lab.iss, ada), padding: "0".repeat(MAX_SHC_PAYLOAD_BYTES) };
    expect(await refusal(jwsToShc(await signCard(lab, bomb)))).toBe("payload");
    expect(await refusal(jwsToShc(await signCard(other, { ...bomb, iss: other.iss })))).toBe("payload");
  });

  it("refuses malformed codes and cards without a COVID-19 test; a lab result is known by its contents, not its type", async () => {
    expect(await refusal("shc:/123")).toBe("malformed");
    expect(await refusal("shc:/1/2/5676")).toBe("malformed");
    expect(await refusal("HC1:NCFOXN")).toBe("malformed");
    expect(await refusal("shc:/99")).toBe("malformed");
    expect(await refusal(await shcText(lab, { ...ada, loinc: "2345-7" }))).toBe("not_lab_result");
    expect(await refusal(await shcText(lab, { ...ada, loinc: "constructor" }))).toBe("not_lab_result");
    // The `#laboratory` type is deprecated: a COVID-19 test Observation makes it a lab result.
    expect(await refusal(await shcText(lab, { ...ada, types: ["https://smarthealth.cards#health-card"] }))).toBe("accepted");
  });

  it("keeps what it cannot read as such: an unknown result code, a collection date without a time", async () => {
    const unknown = await verifyShc(await shcText(lab, { ...ada, snomed: "toString" }), trust, now);
    expect(unknown.trusted && unknown.result).toMatchObject({ outcome: null, resultCode: "toString" });
    const payload = cardPayload(lab.iss, ada) as { vc: { credentialSubject: { fhirBundle: { entry: { resource: Record<string, unknown> }[] } } } };
    payload.vc.credentialSubject.fhirBundle.entry[1]!.resource.effectiveDateTime = "2026-11-26";
    const dated = await verifyShc(jwsToShc(await signCard(lab, payload)), trust, now);
    expect(dated.trusted && dated.result).toMatchObject({ collectedAt: null, collectedDate: "2026-11-26" });
  });
});

describe("checkProof", () => {
  const report = {
    givenNames: "ADA AUGUSTA",
    lastName: "LOVELACE",
    dob: "1990-12-10",
    collectedAt: ada.collectedAt,
    collectedText: "",
    testName: "",
    method: "NAAT" as const,
    methodDescription: "",
    outcome: "Negative" as const,
    resultText: "",
  };
  const nobody = { shc: { issuers: [] }, dcc: { signers: [] } };

  it("compares every verified code with the text: an agreeing one does not hide one that disagrees", async () => {
    const t = { shc: trust, dcc: { signers: [] } };
    const agreeing = await shcText(lab, ada);
    const positive = await shcText(lab, { ...ada, snomed: "260373001" });
    for (const codes of [[agreeing, positive], [positive, agreeing]]) {
      const proof = await checkProof(codes, report, t, now);
      expect(proof).toMatchObject({ kind: "shc", issuer: lab.name, disagreement: [{ field: "Result", qr: "Positive", pdf: "Negative" }] });
    }
    expect((await checkProof([agreeing], report, t, now)).disagreement).toBeNull();
  });

  it("an unknown result code, or a collection date a day away, disagrees; a bad code refuses; no code falls back", async () => {
    const t = { shc: trust, dcc: { signers: [] } };
    expect((await checkProof([await shcText(lab, { ...ada, snomed: "1234" })], report, t, now)).disagreement).toEqual([{ field: "Result", qr: { unknownCode: "1234" }, pdf: "Negative" }]);
    const payload = cardPayload(lab.iss, ada) as { vc: { credentialSubject: { fhirBundle: { entry: { resource: Record<string, unknown> }[] } } } };
    payload.vc.credentialSubject.fhirBundle.entry[1]!.resource.effectiveDateTime = "2026-11-24";
    expect((await checkProof([jwsToShc(await signCard(lab, payload))], report, t, now)).disagreement).toEqual([{ field: "Collected", qr: "2026-11-24", pdf: "2026-11-26 08:15 UTC" }]);
    payload.vc.credentialSubject.fhirBundle.entry[1]!.resource.effectiveDateTime = "2026-11-26";
    expect((await checkProof([jwsToShc(await signCard(lab, payload))], report, t, now)).disagreement).toBeNull();
    await expect(checkProof(["shc:/5676"], report, t, now)).rejects.toMatchObject({ reason: "signature_invalid" });
    expect(await checkProof(["https://example.com"], report, nobody, now, "link")).toEqual({ kind: "link", issuer: null, unverified: null, disagreement: null });
  });

  it("an alg-none card from an unknown issuer carries no signature: nothing is said of one; a signed one is noted", async () => {
    const header = Buffer.from(JSON.stringify({ alg: "none", zip: "DEF" })).toString("base64url");
    const payload = Buffer.from(deflateRawSync(Buffer.from(JSON.stringify(cardPayload(other.iss, ada))))).toString("base64url");
    const unsigned = jwsToShc(`${header}.${payload}.`);
    expect(await verifyShc(unsigned, trust, now)).toEqual({ trusted: false, iss: other.iss, signed: false });
    const t = { shc: trust, dcc: { signers: [] } };
    expect(await checkProof([unsigned], report, t, now)).toEqual({ kind: "document", issuer: null, unverified: null, disagreement: null });
    expect((await checkProof([await shcText(other, ada)], report, t, now)).unverified).toBe("SMART Health Card");
    // Naming a trusted issuer, the same unsigned card is a forgery.
    const claimed = Buffer.from(deflateRawSync(Buffer.from(JSON.stringify(cardPayload(lab.iss, ada))))).toString("base64url");
    await expect(checkProof([jwsToShc(`${header}.${claimed}.`)], report, t, now)).rejects.toMatchObject({ reason: "signature_invalid" });
  });
});

describe("code mapping", () => {
  it("LOINC test codes to methods, SNOMED CT result codes to outcomes", async () => {
    expect(LOINC_METHODS["94500-6"]).toBe("NAAT");
    expect(LOINC_METHODS["94558-4"]).toBe("antigen");
    expect(SNOMED_OUTCOMES["260415000"]).toBe("Negative");
    expect(SNOMED_OUTCOMES["260373001"]).toBe("Positive");
    expect(SNOMED_OUTCOMES["419984006"]).toBe("Inconclusive");
    const antigen = await verifyShc(await shcText(lab, { ...ada, loinc: "94558-4", snomed: "260373001" }), trust, now);
    expect(antigen.trusted && antigen.result).toMatchObject({ method: "antigen", outcome: "Positive" });
  });

  it("numeric mode round-trips every character of a JWS", async () => {
    const jws = await signCard(lab, cardPayload(lab.iss, ada));
    expect(shcToJws(jwsToShc(jws))).toBe(jws);
  });
});
