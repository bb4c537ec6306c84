// The trust anchors of signed results (services/consumer/results/proof/trust.ts): the VCI
// directory snapshot is loaded only when its pinned certificate's signature verifies; the files of
// extra issuers and DCC signers are read and checked; a real issuer's key from the snapshot verifies
// what the snapshot says it should.
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sign } from "node:crypto";
import selfsigned from "selfsigned";
import { describe, expect, it } from "vitest";
import { VCI_DIR, loadVciSnapshot, proofTrust, readDccTrustList, readExtraIssuers } from "../../services/consumer/results/proof/trust.ts";

function copyOfSnapshot(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "vci-"));
  for (const f of ["vci_snapshot.json", "vci_snapshot.sig", "vci_snapshot.crt"]) copyFileSync(path.join(VCI_DIR, f), path.join(dir, f));
  return dir;
}

describe("loadVciSnapshot", () => {
  it("loads the pinned, signed snapshot: hundreds of issuers with P-256 keys", () => {
    const issuers = loadVciSnapshot();
    expect(issuers.length).toBeGreaterThan(600);
    const california = issuers.find((i) => i.iss === "https://myvaccinerecord.cdph.ca.gov/creds");
    expect(california?.name).toBe("State of California");
    expect(california?.keys.every((k) => k.kty === "EC" && k.crv === "P-256" && typeof k.kid === "string")).toBe(true);
    expect(issuers.every((i) => i.iss.startsWith("https://") && !i.iss.endsWith("/"))).toBe(true);
    expect(issuers.some((i) => (i.crls ?? []).length > 0)).toBe(true);
  });

  it("refuses a snapshot changed by one byte, another certificate, and missing files", async () => {
    const edited = copyOfSnapshot();
    const json = readFileSync(path.join(edited, "vci_snapshot.json"), "utf8");
    writeFileSync(path.join(edited, "vci_snapshot.json"), json.replace("State of California", "State of Californiq"));
    expect(() => loadVciSnapshot(edited)).toThrow(/signature does not verify/);

    // Someone else's certificate, even with a snapshot they signed themselves, is not the pinned one.
    const otherCert = copyOfSnapshot();
    const other = await selfsigned.generate([{ name: "commonName", value: "vci.org" }], { keyType: "ec", curve: "P-521", algorithm: "sha512" });
    writeFileSync(path.join(otherCert, "vci_snapshot.crt"), other.cert);
    writeFileSync(path.join(otherCert, "vci_snapshot.sig"), sign("sha512", readFileSync(path.join(otherCert, "vci_snapshot.json")), other.private));
    expect(() => loadVciSnapshot(otherCert)).toThrow(/not the pinned one/);

    const missing = mkdtempSync(path.join(tmpdir(), "vci-none-"));
    expect(() => loadVciSnapshot(missing)).toThrow(/cannot be read/);
  });
});

describe("extra issuers and DCC signers", () => {
  it("reads the files, and an extra issuer replaces the snapshot's entry of the same iss", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "trust-"));
    const issuersFile = path.join(dir, "issuers.json");
    writeFileSync(issuersFile, JSON.stringify({ issuers: [{ iss: "https://myvaccinerecord.cdph.ca.gov/creds/", name: "Replaced", keys: [] }] }));
    const extra = readExtraIssuers(issuersFile);
    expect(extra[0]?.iss).toBe("https://myvaccinerecord.cdph.ca.gov/creds");
    const trust = proofTrust({ shcIssuers: extra });
    expect(trust.shc.issuers.filter((i) => i.iss === "https://myvaccinerecord.cdph.ca.gov/creds").map((i) => i.name)).toEqual(["Replaced"]);

    const signersFile = path.join(dir, "signers.json");
    writeFileSync(signersFile, JSON.stringify({ signers: [{ kid: "AAAAAAAAAAA=", country: "DE", certificate: "MIIB" }] }));
    expect(readDccTrustList(signersFile)).toEqual([{ kid: "AAAAAAAAAAA=", country: "DE", certificate: "MIIB" }]);
    writeFileSync(signersFile, JSON.stringify({ signers: [{ kid: "x" }] }));
    expect(() => readDccTrustList(signersFile)).toThrow(/needs kid, country and certificate/);
    writeFileSync(issuersFile, JSON.stringify({ nothing: [] }));
    expect(() => readExtraIssuers(issuersFile)).toThrow(/no "issuers" list/);
  });
});
