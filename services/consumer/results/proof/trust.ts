// The trust anchors of signed results (docs/product/labs.md §10.9): who may sign a SMART Health Card or an EU
// DCC that SafeWindow accepts as proof. Data, not code:
// - the VCI directory snapshot (services/consumer/trust/vci/, CC BY 4.0, source and refresh in its
//   SOURCE.md), pinned: its signing certificate's SHA-256 fingerprint is fixed here, and the snapshot's
//   own signature (ECDSA P-521, SHA-512) is verified every time it is loaded, so an edited or swapped
//   snapshot stops the start;
// - issuers added by the operator (SHC_EXTRA_ISSUERS, a JSON file), for a lab that signs outside the
//   directory; the tests give their test keys this way;
// - the EU DCC document signers (DCC_TRUST_LIST, a JSON file): there is no public EU trust list.
import { X509Certificate, verify } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { DccSigner, DccTrust } from "./dcc.ts";
import type { ShcIssuer, ShcTrust } from "./shc.ts";

/** What signed proof is checked against. */
export interface ProofTrust {
  shc: ShcTrust;
  dcc: DccTrust;
}

/** Where the VCI snapshot, its signature and its certificate are kept. */
export const VCI_DIR = fileURLToPath(new URL("../../trust/vci/", import.meta.url));
/** The SHA-256 fingerprint of the certificate that signs the VCI snapshot (CN=vci.org, valid to 2032-03-14). */
export const VCI_CERT_SHA256 = "C3:E4:4E:40:A2:0E:6D:54:A5:AD:24:7E:9D:DD:07:76:37:08:CE:C1:AA:9A:CD:47:A4:08:A3:CC:28:F3:20:FB";

/** A snapshot that does not verify: the start stops. */
export class TrustListError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TrustListError";
  }
}

interface SnapshotEntry {
  issuer?: { iss?: unknown; name?: unknown };
  keys?: unknown;
  crls?: { kid?: unknown; rids?: unknown }[];
}

/**
 * Loads the VCI directory snapshot of `dir` after checking its certificate against VCI_CERT_SHA256
 * and its signature over the snapshot's bytes.
 * @returns its issuers (iss without a trailing slash, name, EC keys, revocation lists).
 * @throws TrustListError when a file is missing, the certificate is not the pinned one, or the signature does not verify.
 */
export function loadVciSnapshot(dir = VCI_DIR): ShcIssuer[] {
  let bytes: Buffer;
  let signature: Buffer;
  let cert: X509Certificate;
  try {
    bytes = readFileSync(path.join(dir, "vci_snapshot.json"));
    signature = readFileSync(path.join(dir, "vci_snapshot.sig"));
    cert = new X509Certificate(readFileSync(path.join(dir, "vci_snapshot.crt")));
  } catch (err) {
    throw new TrustListError(`The VCI directory snapshot cannot be read: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (cert.fingerprint256 !== VCI_CERT_SHA256) throw new TrustListError("The VCI snapshot's certificate is not the pinned one.");
  if (!verify("sha512", bytes, cert.publicKey, signature)) throw new TrustListError("The VCI snapshot's signature does not verify: it was changed.");
  const snapshot = JSON.parse(bytes.toString("utf8")) as { issuerInfo?: SnapshotEntry[] };
  return (snapshot.issuerInfo ?? []).flatMap((entry): ShcIssuer[] => {
    const iss = typeof entry.issuer?.iss === "string" ? entry.issuer.iss.replace(/\/+$/, "") : "";
    if (!iss.startsWith("https://") || !Array.isArray(entry.keys)) return [];
    const keys = (entry.keys as ShcIssuer["keys"]).filter((k) => k && k.kty === "EC" && k.crv === "P-256" && typeof k.kid === "string");
    const crls = (entry.crls ?? []).flatMap((c) =>
      typeof c.kid === "string" && Array.isArray(c.rids) ? [{ kid: c.kid, rids: c.rids.filter((r): r is string => typeof r === "string") }] : [],
    );
    return [{ iss, name: typeof entry.issuer?.name === "string" ? entry.issuer.name : iss, keys, ...(crls.length > 0 ? { crls } : {}) }];
  });
}

/** Issuers of a SHC_EXTRA_ISSUERS file: `{"issuers": [{iss, name, keys: [JWK], crls?}]}`. */
export function readExtraIssuers(file: string): ShcIssuer[] {
  const parsed = JSON.parse(readFileSync(file, "utf8")) as { issuers?: unknown };
  if (!Array.isArray(parsed.issuers)) throw new TrustListError(`${file} has no "issuers" list.`);
  return (parsed.issuers as ShcIssuer[]).map((i) => {
    if (typeof i.iss !== "string" || typeof i.name !== "string" || !Array.isArray(i.keys)) throw new TrustListError(`${file}: an issuer needs iss, name and keys.`);
    return { ...i, iss: i.iss.replace(/\/+$/, "") };
  });
}

/** Signers of a DCC_TRUST_LIST file: `{"signers": [{kid (base64), country, certificate (base64 DER, or PEM)}]}`. */
export function readDccTrustList(file: string): DccSigner[] {
  const parsed = JSON.parse(readFileSync(file, "utf8")) as { signers?: unknown };
  if (!Array.isArray(parsed.signers)) throw new TrustListError(`${file} has no "signers" list.`);
  return (parsed.signers as DccSigner[]).map((s) => {
    if (typeof s.kid !== "string" || typeof s.country !== "string" || typeof s.certificate !== "string") throw new TrustListError(`${file}: a signer needs kid, country and certificate.`);
    return s;
  });
}

/**
 * The trust of a consumer API: the verified VCI snapshot, then `shcIssuers` (extra issuers, which win
 * over the snapshot's entry of the same iss), and the DCC signers.
 * @throws TrustListError as loadVciSnapshot.
 */
export function proofTrust(extra: { shcIssuers?: readonly ShcIssuer[]; dccSigners?: readonly DccSigner[] } = {}): ProofTrust {
  const added = extra.shcIssuers ?? [];
  const directory = loadVciSnapshot().filter((i) => !added.some((a) => a.iss === i.iss));
  return { shc: { issuers: [...added, ...directory] }, dcc: { signers: extra.dccSigners ?? [] } };
}
