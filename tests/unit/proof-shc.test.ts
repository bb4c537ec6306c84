// SMART Health Cards (issue 17; services/consumer/results/proof/shc.ts): decoding and verification, every
// refusal (tampered payload, wrong key, unknown issuer, revoked rid, oversized inflate, expired), and the
// LOINC and SNOMED CT code mapping. Cards are signed with test keys made here (tests/fixtures/shc.ts).
import { deflateRawSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { LOINC_METHODS, MAX_SHC_PAYLOAD_BYTES, SNOMED_OUTCOMES, ShcRefusedError, shcToJws, verifyShc } from "../../services/consumer/results/proof/shc.ts";
import type { ShcTrust } from "../../services/consumer/results/proof/shc.ts";
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
      result: { givenNames: "Ada Augusta", lastName: "Lovelace", dob: "1990-12-10", method: "NAAT", outcome: "Negative", collectedAt: ada.collectedAt },
    });
  });

  it("a card of an issuer outside the directory is not refused, and not verified", async () => {
    expect(await verifyShc(await shcText(other, ada), trust, now)).toEqual({ trusted: false, iss: other.iss });
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
    expect(await refusal(await shcText(lab, { ...ada, rid: "later-rid", nbf: 1796000000 }))).toBe("accepted");
    expect(await refusal(await shcText(lab, { ...ada, exp: Math.floor(now.getTime() / 1000) - 1 }))).toBe("expired");
    expect(await refusal(await shcText(lab, { ...ada, exp: Math.floor(now.getTime() / 1000) + 60 }))).toBe("accepted");
  });

  it("refuses a payload that inflates past the cap, before and after the signature", async () => {
    const bomb = { ...cardPayload(lab.iss, ada), padding: "0".repeat(MAX_SHC_PAYLOAD_BYTES) };
    expect(await refusal(jwsToShc(await signCard(lab, bomb)))).toBe("payload");
    expect(await refusal(jwsToShc(await signCard(other, { ...bomb, iss: other.iss })))).toBe("payload");
  });

  it("refuses malformed codes and cards that are not COVID-19 lab results", async () => {
    expect(await refusal("shc:/123")).toBe("malformed");
    expect(await refusal("shc:/1/2/5676")).toBe("malformed");
    expect(await refusal("HC1:NCFOXN")).toBe("malformed");
    expect(await refusal("shc:/99")).toBe("malformed");
    expect(await refusal(await shcText(lab, { ...ada, types: ["https://smarthealth.cards#health-card", "https://smarthealth.cards#immunization"] }))).toBe("not_lab_result");
    expect(await refusal(await shcText(lab, { ...ada, loinc: "2345-7" }))).toBe("not_lab_result");
    expect(await refusal(await shcText(lab, { ...ada, snomed: "123" }))).toBe("not_lab_result");
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
