// EU Digital COVID Certificates (services/consumer/results/proof/dcc.ts): decoding and
// verification, every refusal (tampered payload, wrong key, oversized inflate, expired, not a test), an
// unknown signer, and the value-set mapping. Certificates are signed by a test document signer made here.
import { deflateSync, inflateSync } from "node:zlib";
import { decode as decodeBase45, encode as encodeBase45 } from "base45";
import { decode as decodeCbor, encode as encodeCbor } from "cborg";
import { beforeAll, describe, expect, it } from "vitest";
import { KeyUsageFlags } from "@peculiar/x509";
import { DCC_EKU, DCC_RESULTS, DCC_TEST_TYPES, DccRefusedError, MAX_DCC_BYTES, verifyDcc } from "../../services/consumer/results/proof/dcc.ts";
import { checkProof } from "../../services/consumer/results/proof/check.ts";
import * as messages from "../../app/messages.ts";
import type { DccTrust } from "../../services/consumer/results/proof/dcc.ts";
import { coseSign1, dccText, signDcc, testClaims, testDccSigner } from "../fixtures/dcc.ts";
import type { TestDccSigner, TestEntry } from "../fixtures/dcc.ts";

let signer: TestDccSigner;
let stranger: TestDccSigner;
let trust: DccTrust;
const now = new Date("2026-11-26T12:00:00Z");
const ada: TestEntry = { givenNames: "Ada", lastName: "Lovelace", dob: "1990-12-10", collectedAt: new Date("2026-11-26T08:15:00Z") };
const cbor = {
  decoder: { decode: (bytes: Uint8Array): unknown => decodeCbor(bytes, { useMaps: true, tags: Object.assign([], { 18: (content: () => unknown) => content() }) }) },
  encoder: { encode: (value: unknown): Uint8Array => encodeCbor(value) },
};

beforeAll(async () => {
  signer = await testDccSigner("DE");
  stranger = await testDccSigner("XX");
  trust = { signers: [signer.entry] };
});

function refusal(text: string, at = now, t = trust): string {
  try {
    verifyDcc(text, t, at);
  } catch (err) {
    if (err instanceof DccRefusedError) return err.reason;
    throw err;
  }
  return "accepted";
}

describe("verifyDcc", () => {
  it("reads a trusted signer's test certificate", () => {
    expect(verifyDcc(dccText(signer, ada), trust, now)).toEqual({
      trusted: true,
      country: "DE",
      result: { givenNames: "Ada", lastName: "Lovelace", dob: "1990-12-10", method: "NAAT", outcome: "Negative", resultCode: "260415000", collectedAt: ada.collectedAt, collectedDate: "2026-11-26" },
    });
  });

  it("a signer outside the trust list is not refused, and not verified", () => {
    expect(verifyDcc(dccText(stranger, { ...ada, country: "XX" }), trust, now)).toEqual({ trusted: false, country: "XX", signed: true });
  });

  it("refuses a certificate signed by a trusted signer whose own certificate has expired or is not valid yet", async () => {
    const expired = await testDccSigner("DE", { notBefore: new Date("2024-01-01T00:00:00Z"), notAfter: new Date("2026-11-26T11:59:00Z") });
    const early = await testDccSigner("DE", { notBefore: new Date("2026-11-26T12:01:00Z"), notAfter: new Date("2030-01-01T00:00:00Z") });
    const t = { signers: [expired.entry, early.entry] };
    expect(refusal(dccText(expired, ada), now, t)).toBe("signer_not_allowed");
    expect(refusal(dccText(early, ada), now, t)).toBe("signer_not_allowed");
    // The same signers within their validity sign as any other.
    expect(refusal(dccText(expired, ada), new Date("2026-11-26T11:58:00Z"), t)).toBe("accepted");
    expect(refusal(dccText(early, ada), new Date("2026-11-26T12:02:00Z"), t)).toBe("accepted");
  });

  it("refuses a test signed by a signer whose extended key usage is for vaccinations or recoveries only, or whose key usage excludes signatures", async () => {
    const vaccinations = await testDccSigner("DE", { extendedKeyUsage: [DCC_EKU.vaccination[0]] });
    const recoveries = await testDccSigner("DE", { extendedKeyUsage: [DCC_EKU.recovery[1], DCC_EKU.vaccination[1]] });
    const encipherOnly = await testDccSigner("DE", { keyUsage: KeyUsageFlags.keyEncipherment });
    const t = { signers: [vaccinations.entry, recoveries.entry, encipherOnly.entry] };
    expect(refusal(dccText(vaccinations, ada), now, t)).toBe("signer_not_allowed");
    expect(refusal(dccText(recoveries, ada), now, t)).toBe("signer_not_allowed");
    expect(refusal(dccText(encipherOnly, ada), now, t)).toBe("signer_not_allowed");
    // A vaccination certificate of a vaccination signer is no test: skipped, not refused as a forgery.
    const vaccination = new Map<number, unknown>(testClaims(ada));
    vaccination.set(-260, new Map([[1, new Map<string, unknown>([["v", [new Map()]], ["nam", new Map([["fn", "Lovelace"], ["gn", "Ada"]])], ["dob", "1990-12-10"]])]]));
    expect(refusal(signDcc(vaccinations, vaccination), now, t)).toBe("not_test");
  });

  it("accepts a test from a signer whose usages allow it: the test EKU in either spelling, other EKUs only, digitalSignature", async () => {
    const signers = await Promise.all([
      testDccSigner("DE", { extendedKeyUsage: [DCC_EKU.test[0]] }),
      testDccSigner("DE", { extendedKeyUsage: [DCC_EKU.vaccination[1], DCC_EKU.test[1]] }),
      testDccSigner("DE", { extendedKeyUsage: ["1.3.6.1.5.5.7.3.4"] }),
      testDccSigner("DE", { keyUsage: KeyUsageFlags.digitalSignature | KeyUsageFlags.nonRepudiation }),
    ]);
    const t = { signers: signers.map((s) => s.entry) };
    for (const s of signers) expect(refusal(dccText(s, ada), now, t)).toBe("accepted");
  });

  it("refuses an exp that is not a number", () => {
    const claims = testClaims(ada);
    claims.set(4, "2099-01-01");
    expect(refusal(signDcc(signer, claims))).toBe("malformed");
  });

  it("says nothing of a certificate that carries no signature; says an EU DCC of a signed one from an unknown signer", async () => {
    const message = cbor.decoder.decode(inflateSync(decodeBase45(dccText(stranger, ada).slice(4)))) as unknown[];
    const [protectedBytes, unprotected, payload] = message;
    const unsigned = `HC1:${encodeBase45(deflateSync(coseSign1([protectedBytes, unprotected, payload, new Uint8Array(0)])))}`;
    expect(verifyDcc(unsigned, trust, now)).toMatchObject({ trusted: false, signed: false });
    const report = { givenNames: "ADA", lastName: "LOVELACE", dob: "1990-12-10", collectedAt: ada.collectedAt, collectedText: "", testName: "", method: "NAAT" as const, methodDescription: "", outcome: "Negative" as const, resultText: "" };
    const proofTrust = { shc: { issuers: [] }, dcc: trust };
    expect((await checkProof([unsigned], report, proofTrust, now)).unverified).toBeNull();
    const unknown = await checkProof([dccText(stranger, ada)], report, proofTrust, now);
    expect(unknown.unverified).toBe("EU DCC");
    expect(messages.unverifiedSignature(unknown.unverified!)).toMatch(/^Its QR code carries an EU DCC signature /);
    expect(messages.unverifiedSignature("SMART Health Card")).toMatch(/^Its QR code carries a SMART Health Card signature /);
  });

  it("refuses a tampered payload, another key under the signer's kid, an expired certificate", () => {
    // Tampered: the COSE payload swapped for a positive result's, the signature kept.
    const message = cbor.decoder.decode(inflateSync(decodeBase45(dccText(signer, ada).slice(4)))) as unknown[];
    const [protectedBytes, unprotected, , signature] = message;
    const forged = cbor.encoder.encode(testClaims({ ...ada, tr: "260373001" }));
    const tampered = `HC1:${encodeBase45(deflateSync(coseSign1([protectedBytes, unprotected, forged, signature])))}`;
    expect(refusal(tampered)).toBe("bad_signature");
    expect(refusal(signDcc({ privateKeyPem: stranger.privateKeyPem, kid: signer.kid }, testClaims(ada)))).toBe("bad_signature");
    expect(refusal(dccText(signer, { ...ada, exp: Math.floor(now.getTime() / 1000) - 1 }))).toBe("expired");
    expect(refusal(dccText(signer, { ...ada, exp: Math.floor(now.getTime() / 1000) + 60 }))).toBe("accepted");
  });

  it("refuses an oversized inflate, malformed text, and certificates that are not one COVID-19 test", () => {
    const bomb = `HC1:${encodeBase45(deflateSync(Buffer.alloc(MAX_DCC_BYTES + 1)))}`;
    expect(refusal(bomb)).toBe("payload");
    expect(refusal("HC1:not base45 at all!")).toBe("malformed");
    expect(refusal("shc:/5676")).toBe("malformed");
    expect(refusal(`HC1:${encodeBase45(deflateSync(cbor.encoder.encode([1, 2, 3])))}`)).toBe("malformed");
    expect(refusal(dccText(signer, { ...ada, tt: "LP1234-5" }))).toBe("not_test");
    expect(refusal(dccText(signer, { ...ada, tr: "419984006" }))).toBe("not_test");
    expect(refusal(dccText(signer, { ...ada, dob: "1990" }))).toBe("not_test");
  });
});

describe("value sets", () => {
  it("maps test types and results", () => {
    expect(DCC_TEST_TYPES["LP6464-4"]).toBe("NAAT");
    expect(DCC_TEST_TYPES["LP217198-3"]).toBe("antigen");
    expect(DCC_RESULTS["260415000"]).toBe("Negative");
    expect(DCC_RESULTS["260373001"]).toBe("Positive");
    const antigen = verifyDcc(dccText(signer, { ...ada, tt: "LP217198-3", tr: "260373001" }), trust, now);
    expect(antigen.trusted && antigen.result).toMatchObject({ method: "antigen", outcome: "Positive" });
  });
});
