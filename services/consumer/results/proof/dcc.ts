// EU Digital COVID Certificates printed on a lab report as a QR code (docs/product/labs.md §10.9 "Signed results"):
// `HC1:` then base45 (base45), zlib (node:zlib, output capped), CBOR (cborg), a COSE_Sign1 message whose
// signature is checked with the document signer's key found by its `kid` in the configured trust list
// (node:crypto: ES256 with an IEEE P1363 signature, or PS256), and the certificate's test entry: its type
// (LP6464-4 NAAT, LP217198-3 rapid antigen), result, sample time, and the holder's name and birth date.
// A signer given by its X.509 certificate signs only within the certificate's validity and its key usage
// (@peculiar/x509 reads the extensions).
import { X509Certificate, createPublicKey, verify } from "node:crypto";
import type { KeyObject } from "node:crypto";
import { inflateSync } from "node:zlib";
import { ExtendedKeyUsageExtension, KeyUsageFlags, KeyUsagesExtension, X509Certificate as ParsedCertificate } from "@peculiar/x509";
import { decode as decodeBase45 } from "base45";
import { decode as decodeCbor, encode as encodeCbor } from "cborg";
import type { DecodeOptions } from "cborg";
import type { Method, Outcome } from "../../labs/types.ts";
import { own } from "./shc.ts";
import type { SignedLabResult } from "./shc.ts";

/** The largest inflated certificate accepted, bytes (a test certificate is under 1 KB). */
export const MAX_DCC_BYTES = 64 * 1024;

/** One document signer certificate of the trust list: its `kid` (base64, the first 8 bytes of the certificate's SHA-256), country and key. */
export interface DccSigner {
  kid: string;
  country: string;
  /** The signer's X.509 certificate (base64 DER or PEM), or its SubjectPublicKeyInfo (PEM). */
  certificate: string;
}

/** The document signers trusted (a configurable trust list file, trust.ts). */
export interface DccTrust {
  signers: readonly DccSigner[];
}

/** Why a certificate was refused: docs/product/labs.md §10.9. */
export type DccRefusal =
  | "malformed"
  | "bad_signature"
  | "payload"
  | "expired"
  | "not_test"
  /** The document signer's certificate is outside its validity at the clock, or its key usage does not allow signing test certificates. */
  | "signer_not_allowed";

/** A certificate refused: the reason says why. */
export class DccRefusedError extends Error {
  readonly reason: DccRefusal;
  constructor(reason: DccRefusal, detail: string) {
    super(`EU DCC refused (${reason}): ${detail}`);
    this.name = "DccRefusedError";
    this.reason = reason;
  }
}

/** A certificate whose signer is not in the trust list: nothing could be verified. */
export interface UntrustedCertificate {
  trusted: false;
  /** The issuing country the certificate claims (CWT `iss`), unverified. */
  country: string | null;
  /** False for a certificate that carries no signature at all (no algorithm, or an empty signature). */
  signed: boolean;
}

/** A certificate verified with a trusted document signer's key. */
export interface VerifiedCertificate {
  trusted: true;
  /** The signer's country (the trust list's, ISO 3166 alpha-2). */
  country: string;
  result: SignedLabResult;
}

/** The test types of the EU DCC value set. */
export const DCC_TEST_TYPES: Readonly<Record<string, Method>> = { "LP6464-4": "NAAT", "LP217198-3": "antigen" };
/** The results of the EU DCC value set (SNOMED CT). */
export const DCC_RESULTS: Readonly<Record<string, Outcome>> = { "260415000": "Negative", "260373001": "Positive" };

/** Maps as Maps (COSE and CWT keys are integers); tag 18 (COSE_Sign1) and 61 (CWT) unwrapped; no other tag. */
const cborOptions: DecodeOptions = { useMaps: true, tags: Object.assign([], { 18: (content: () => unknown) => content(), 61: (content: () => unknown) => content() }) };
const cbor = { decode: (bytes: Uint8Array): unknown => decodeCbor(bytes, cborOptions) };

/** COSE header labels and algorithms (RFC 9052, 9053). */
const ALG = 1;
const KID = 4;
const ES256 = -7;
const PS256 = -37;
/** CWT claims (RFC 8392) and the health certificate claim of the EU DCC. */
const CWT_ISS = 1;
const CWT_EXP = 4;
const CWT_HCERT = -260;

function asMap(value: unknown): Map<unknown, unknown> {
  return value instanceof Map ? value : new Map();
}

function asBytes(value: unknown): Uint8Array | null {
  return value instanceof Uint8Array ? value : null;
}

/** `HC1:` text to the COSE_Sign1 array [protected, unprotected, payload, signature]. */
function coseOf(text: string): [Uint8Array, Map<unknown, unknown>, Uint8Array, Uint8Array] {
  const m = /^HC1:([0-9A-Z $%*+\-./:]+)$/.exec(text.trim());
  if (!m) throw new DccRefusedError("malformed", "not HC1: base45 text");
  let bytes: Buffer;
  try {
    bytes = decodeBase45(m[1] as string);
  } catch {
    throw new DccRefusedError("malformed", "not base45");
  }
  if (bytes[0] === 0x78) {
    try {
      bytes = inflateSync(bytes, { maxOutputLength: MAX_DCC_BYTES });
    } catch (err) {
      throw new DccRefusedError("payload", (err as { code?: unknown }).code === "ERR_BUFFER_TOO_LARGE" ? `inflates past ${MAX_DCC_BYTES} bytes` : "not zlib");
    }
  }
  let decoded: unknown;
  try {
    decoded = cbor.decode(bytes);
  } catch {
    throw new DccRefusedError("malformed", "not CBOR");
  }
  const message = decoded;
  if (!Array.isArray(message) || message.length !== 4) throw new DccRefusedError("malformed", "not a COSE_Sign1 message");
  const [protectedBytes, unprotected, payload, signature] = message as unknown[];
  const p = asBytes(protectedBytes);
  const body = asBytes(payload);
  const sig = asBytes(signature);
  if (!p || !body || !sig) throw new DccRefusedError("malformed", "not a COSE_Sign1 message");
  return [p, asMap(unprotected), body, sig];
}

/** The signer's public key from the trust list entry. */
function keyOf(signer: DccSigner): KeyObject {
  const text = signer.certificate.trim();
  if (text.includes("PUBLIC KEY")) return createPublicKey(text);
  const der = text.includes("BEGIN CERTIFICATE") ? text : Buffer.from(text, "base64");
  return new X509Certificate(der).publicKey;
}

/**
 * The extended key usages of the EU DCC (eHealth Network, EU DCC technical specifications volume 1,
 * "Document Signer" certificates), each in its two registered spellings: a document signer whose
 * certificate lists any of them signs only the kinds of certificate listed; one that lists none signs all.
 */
export const DCC_EKU = {
  test: ["1.3.6.1.4.1.1847.2021.1.1", "1.3.6.1.4.1.0.1847.2021.1.1"],
  vaccination: ["1.3.6.1.4.1.1847.2021.1.2", "1.3.6.1.4.1.0.1847.2021.1.2"],
  recovery: ["1.3.6.1.4.1.1847.2021.1.3", "1.3.6.1.4.1.0.1847.2021.1.3"],
} as const;
const dccEkus = new Set<string>(Object.values(DCC_EKU).flat());

/**
 * Refuses a signer whose X.509 certificate does not allow it to sign at `now`: outside
 * notBefore..notAfter, or a keyUsage without digitalSignature. A signer given by its public key alone
 * carries none of these and passes.
 * @returns whether it may sign test certificates: false when its DCC extended key usages (DCC_EKU) leave tests out
 * @throws DccRefusedError signer_not_allowed; malformed when the certificate does not read.
 */
function checkSignerCertificate(signer: DccSigner, now: Date): boolean {
  const text = signer.certificate.trim();
  if (text.includes("PUBLIC KEY")) return true;
  let certificate: ParsedCertificate;
  try {
    certificate = new ParsedCertificate(text.includes("BEGIN CERTIFICATE") ? text : new Uint8Array(Buffer.from(text, "base64")));
  } catch {
    throw new DccRefusedError("malformed", "the signer's certificate does not read");
  }
  if (now < certificate.notBefore) throw new DccRefusedError("signer_not_allowed", "the signer's certificate is not valid yet");
  if (now > certificate.notAfter) throw new DccRefusedError("signer_not_allowed", "the signer's certificate has expired");
  const keyUsage = certificate.getExtension(KeyUsagesExtension);
  if (keyUsage && (keyUsage.usages & KeyUsageFlags.digitalSignature) === 0) throw new DccRefusedError("signer_not_allowed", "the signer's key usage excludes signatures");
  const listed = (certificate.getExtension(ExtendedKeyUsageExtension)?.usages ?? []).map(String).filter((oid) => dccEkus.has(oid));
  return listed.length === 0 || listed.some((oid) => (DCC_EKU.test as readonly string[]).includes(oid));
}

/**
 * Verifies an EU DCC's QR text and reads its test entry.
 * @param text the QR code's text (`HC1:…`).
 * @param trust the trusted document signers.
 * @param now the clock, for the CWT `exp` (tests pass their own).
 * @returns UntrustedCertificate when no trusted signer has its `kid` (docs/product/labs.md §10.9: the
 *   document checks apply, and the detail says the signature could not be tied to a known issuer);
 *   else the verified certificate.
 * @throws DccRefusedError with its reason: malformed (also an `exp` that is not a number), payload,
 *   bad_signature, expired, not_test, signer_not_allowed (the signer's certificate at `now`, or a test
 *   entry from a signer whose extended key usages leave tests out: checkSignerCertificate).
 */
export function verifyDcc(text: string, trust: DccTrust, now: Date): UntrustedCertificate | VerifiedCertificate {
  const [protectedBytes, unprotected, payload, signature] = coseOf(text);
  let header: Map<unknown, unknown>;
  let claims: Map<unknown, unknown>;
  try {
    header = protectedBytes.byteLength === 0 ? new Map() : asMap(cbor.decode(protectedBytes));
    claims = asMap(cbor.decode(payload));
  } catch {
    throw new DccRefusedError("malformed", "the headers or the claims do not read");
  }
  const kidBytes = asBytes(header.get(KID)) ?? asBytes(unprotected.get(KID));
  const kid = kidBytes ? Buffer.from(kidBytes).toString("base64") : "";
  const signer = trust.signers.find((s) => s.kid === kid);
  const claimedCountry = typeof claims.get(CWT_ISS) === "string" ? (claims.get(CWT_ISS) as string) : null;
  const alg = header.get(ALG);
  if (!signer) return { trusted: false, country: claimedCountry, signed: typeof alg === "number" && signature.byteLength > 0 };
  const toBeSigned = encodeCbor(["Signature1", protectedBytes, new Uint8Array(0), payload]);
  let valid = false;
  try {
    // The algorithm must be the key's: ES256 with an EC P-256 key, PS256 with an RSA key.
    const key = keyOf(signer);
    if (alg === ES256 && key.asymmetricKeyType === "ec" && key.asymmetricKeyDetails?.namedCurve === "prime256v1") {
      valid = verify("sha256", toBeSigned, { key, dsaEncoding: "ieee-p1363" }, signature);
    } else if (alg === PS256 && (key.asymmetricKeyType === "rsa" || key.asymmetricKeyType === "rsa-pss")) {
      valid = verify("sha256", toBeSigned, { key, padding: 6 /* RSA_PKCS1_PSS_PADDING */, saltLength: 32 }, signature);
    }
  } catch {
    valid = false;
  }
  if (!valid) throw new DccRefusedError("bad_signature", "the signature does not verify with the signer's key");
  // The certificate's own exp first: a certificate past it is expired, whatever its signer's state.
  const exp = claims.get(CWT_EXP);
  const expSeconds = typeof exp === "bigint" ? Number(exp) : exp;
  if (expSeconds !== undefined && (typeof expSeconds !== "number" || !Number.isFinite(expSeconds))) throw new DccRefusedError("malformed", "an exp that is not a number");
  if (typeof expSeconds === "number" && expSeconds * 1000 <= now.getTime()) throw new DccRefusedError("expired", "past its exp");
  const signerMaySignTests = checkSignerCertificate(signer, now);
  const hcert = asMap(asMap(claims.get(CWT_HCERT)).get(1));
  const result = testResultOf(hcert);
  if (!signerMaySignTests) throw new DccRefusedError("signer_not_allowed", "the signer may not sign test certificates");
  return { trusted: true, country: signer.country, result };
}

function text(map: Map<unknown, unknown>, key: string): string {
  const value = map.get(key);
  return typeof value === "string" ? value : "";
}

/**
 * The test entry of a health certificate: one `t` entry, its type and result from the value sets,
 * its sample time, and the holder's name (`nam.gn`, `nam.fn`) and full birth date.
 * @throws DccRefusedError not_test.
 */
export function testResultOf(hcert: Map<unknown, unknown>): SignedLabResult {
  const tests = hcert.get("t");
  if (!Array.isArray(tests) || tests.length !== 1) throw new DccRefusedError("not_test", "not a certificate of one test");
  const entry = asMap(tests[0]);
  const method = own(DCC_TEST_TYPES, text(entry, "tt"));
  const outcome = own(DCC_RESULTS, text(entry, "tr"));
  if (text(entry, "tg") !== "840539006" || !method || !outcome) throw new DccRefusedError("not_test", "not a COVID-19 test of the value sets");
  // A sample time with its zone (never read in the server's own zone).
  const sampled = text(entry, "sc");
  const collectedAt = new Date(sampled);
  if (Number.isNaN(collectedAt.getTime()) || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}.*(Z|[+-]\d{2}:?\d{2})$/.test(sampled)) throw new DccRefusedError("not_test", "no sample time with its zone");
  const name = asMap(hcert.get("nam"));
  const givenNames = text(name, "gn");
  const lastName = text(name, "fn");
  const dob = text(hcert, "dob");
  if (!givenNames || !lastName || !/^\d{4}-\d{2}-\d{2}$/.test(dob)) throw new DccRefusedError("not_test", "no holder name and full birth date");
  return { givenNames, lastName, dob, method, outcome, resultCode: text(entry, "tr"), collectedAt, collectedDate: sampled.slice(0, 10) };
}
