// Signed results published by others (tests/fixtures/public/README.md records their sources and
// licences): a real EU DCC test certificate verified with its published document signer at the clock it
// was valid, and refused as expired today; a SMART Health Card lab result of the SMART specification's
// example issuer, verified and read (its collection date has no time).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DccRefusedError, verifyDcc } from "../../services/consumer/results/proof/dcc.ts";
import { ShcRefusedError, verifyShc } from "../../services/consumer/results/proof/shc.ts";

const fixture = (name: string) => readFileSync(new URL(`../fixtures/public/${name}`, import.meta.url), "utf8");

describe("EU DCC test data (dgc-testdata, FR test_pcr_ok)", () => {
  const sample = JSON.parse(fixture("dgc-testdata-FR-test_pcr_ok.json")) as { PREFIX: string; COSE: string; TESTCTX: { CERTIFICATE: string; VALIDATIONCLOCK: string } };
  // The kid is in the protected header: COSE `D2 84 4D A2 04 48 <8 bytes>`.
  const kid = Buffer.from(sample.COSE.slice(12, 28), "hex").toString("base64");
  const trust = { signers: [{ kid, country: "FR", certificate: sample.TESTCTX.CERTIFICATE }] };
  const validAt = new Date(sample.TESTCTX.VALIDATIONCLOCK);

  it("verifies with its document signer at the clock it was valid, and reads the test", () => {
    expect(verifyDcc(sample.PREFIX, trust, validAt)).toEqual({
      trusted: true,
      country: "FR",
      // The sample's JSON shows 12:34:56Z; what is signed (its CBOR) says 14:34:56Z, and the signed value counts.
      result: {
        givenNames: "Marie",
        lastName: "Dupond",
        dob: "1962-07-01",
        method: "NAAT",
        outcome: "Negative",
        resultCode: "260415000",
        collectedAt: new Date("2021-05-16T14:34:56Z"),
        collectedDate: "2021-05-16",
      },
    });
  });

  it("is expired today, untrusted without its signer, and refused with one character changed", () => {
    expect(() => verifyDcc(sample.PREFIX, trust, new Date("2026-11-26T12:00:00Z"))).toThrow(expect.objectContaining({ reason: "expired" }));
    expect(verifyDcc(sample.PREFIX, { signers: [] }, validAt)).toEqual({ trusted: false, country: "FR", signed: true });
    const changed = sample.PREFIX.slice(0, 200) + (sample.PREFIX[200] === "A" ? "B" : "A") + sample.PREFIX.slice(201);
    expect(() => verifyDcc(changed, trust, validAt)).toThrow(DccRefusedError);
  });
});

describe("SMART Health Card of the specification's example issuer (HL7 SHC vaccination IG, Scenario 3)", () => {
  const text = fixture("hl7-shc-vaccination-ig-Scenario3-qr.txt").trim();
  const trust = {
    issuers: [
      {
        iss: "https://spec.smarthealth.cards/examples/issuer",
        name: "SMART Health Cards example issuer",
        keys: [{ kty: "EC", kid: "3Kfdg-XwP-7gXyywtUfUADwBumDOPKMQx-iELL11W9s", use: "sig", alg: "ES256", crv: "P-256", x: "11XvRWy1I2S0EyJlyf_bWfw_TQ5CJJNLw78bHXNxcgw", y: "eZXwxvO1hvCY0KucrPfKo7yAyMT6Ajc3N7OkAB6VYy8" }],
      },
    ],
  };
  const now = new Date("2026-11-26T12:00:00Z");

  it("verifies, and reads its lab result: antigen, detected, a collection date without a time", async () => {
    expect(await verifyShc(text, trust, now)).toEqual({
      trusted: true,
      issuer: { iss: "https://spec.smarthealth.cards/examples/issuer", name: "SMART Health Cards example issuer" },
      result: { givenNames: "James T.", lastName: "Anyperson", dob: "1951-01-20", method: "antigen", outcome: "Positive", resultCode: "260373001", collectedAt: null, collectedDate: "2021-02-17" },
    });
    expect(await verifyShc(text, { issuers: [] }, now)).toEqual({ trusted: false, iss: "https://spec.smarthealth.cards/examples/issuer", signed: true });
  });

  it("a changed digit breaks the signature", async () => {
    const at = text.length - 20;
    const changed = text.slice(0, at) + (text[at] === "1" ? "2" : "1") + text.slice(at + 1);
    await expect(verifyShc(changed, trust, now)).rejects.toBeInstanceOf(ShcRefusedError);
    await expect(verifyShc(changed, trust, now)).rejects.toMatchObject({ reason: expect.stringMatching(/bad_signature|payload|malformed/) });
  });
});
