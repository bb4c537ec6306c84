// SMART Health Cards printed on a lab report as a QR code (docs/product/labs.md §10.9 "Signed results"): the
// `shc:/` numeric text, its JWS (ES256, payload raw-DEFLATE compressed), the issuer's key by `kid` from
// a trusted directory, the issuer's revocation lists (`rid`), and the lab result the FHIR bundle
// carries: patient name and birth date, the test by its LOINC code, the result by its SNOMED CT code,
// the collection time. Signatures are verified with jose; the payload is inflated by node:zlib with an
// output cap, so a small code cannot expand into a memory bomb.
import { inflateRawSync } from "node:zlib";
import { compactVerify, decodeProtectedHeader, importJWK } from "jose";
import type { JWK } from "jose";
import type { Method, Outcome } from "../../labs/types.ts";

/** The largest inflated payload accepted, bytes (a lab card is 1-3 KB). */
export const MAX_SHC_PAYLOAD_BYTES = 64 * 1024;

/** An issuer of SMART Health Cards as a trusted directory lists it. */
export interface ShcIssuer {
  /** The `iss` of its cards: an https URL, without a trailing slash. */
  iss: string;
  name: string;
  /** Its public keys (EC P-256 JWKs with `kid`), each with the version of its revocation list, if any. */
  keys: (JWK & { kid: string; crlVersion?: number })[];
  /** Revoked cards by key: the `rid`s listed, each optionally `rid.<seconds>` (cards issued before that time). */
  crls?: { kid: string; rids: string[] }[];
}

/** The issuers SmartHealth Cards are trusted from (a directory snapshot, trust.ts). */
export interface ShcTrust {
  issuers: readonly ShcIssuer[];
}

/** What a verified lab-result card says. */
export interface SignedLabResult {
  /** Given names, space-separated, as the card carries them. */
  givenNames: string;
  lastName: string;
  /** 'YYYY-MM-DD'. */
  dob: string;
  method: Method;
  /** The result; null for a result code this product does not know (resultCode says which): such a card proves nothing either way. */
  outcome: Outcome | null;
  resultCode: string;
  /** Specimen collection; a card may carry its date only ('YYYY-MM-DD' in collectedDate, collectedAt null). */
  collectedAt: Date | null;
  collectedDate: string;
}

/** Why a SMART Health Card was refused: docs/product/labs.md §10.9. */
export type ShcRefusal =
  /** Not `shc:/` followed by pairs of digits, or chunked, or no JWS inside. */
  | "malformed"
  /** The signature does not verify with the issuer's key: a forged or tampered card. */
  | "bad_signature"
  /** The key or the card's `rid` is revoked by its issuer. */
  | "revoked"
  /** The payload inflates past MAX_SHC_PAYLOAD_BYTES, or is not DEFLATE or JSON. */
  | "payload"
  /** The card's `exp` is past. */
  | "expired"
  /** The card's `nbf` (its issue time) is later than the clock, beyond SHC_CLOCK_SKEW_S. */
  | "not_yet_valid"
  /** A valid card that is not a COVID-19 lab result this product reads. */
  | "not_lab_result";

/** A card refused: the reason says why. */
export class ShcRefusedError extends Error {
  readonly reason: ShcRefusal;
  constructor(reason: ShcRefusal, detail: string) {
    super(`SMART Health Card refused (${reason}): ${detail}`);
    this.name = "ShcRefusedError";
    this.reason = reason;
  }
}

/** A card whose issuer is outside the trusted directory: its signature cannot be tied to anyone known. */
export interface UntrustedCard {
  trusted: false;
  iss: string;
  /** False for a card that carries no signature at all (`alg: none`, or an empty signature): nothing to tie to anyone. */
  signed: boolean;
}

/** How far a card's `nbf` may lie ahead of the clock, seconds (the issuer's clock and ours differ a little). */
export const SHC_CLOCK_SKEW_S = 300;

/** A card verified with a trusted issuer's key. */
export interface VerifiedCard {
  trusted: true;
  issuer: { iss: string; name: string };
  result: SignedLabResult;
}

/** SHC numeric mode: `shc:/` then two digits per character, each the character's code minus 45. */
export function shcToJws(text: string): string {
  const m = /^shc:\/(\d+)$/.exec(text.trim());
  const digits = m?.[1];
  if (!digits || digits.length % 2 !== 0) throw new ShcRefusedError("malformed", "not a single-chunk shc:/ numeric code");
  let jws = "";
  for (let i = 0; i < digits.length; i += 2) {
    const n = Number(digits.slice(i, i + 2));
    if (n > 77) throw new ShcRefusedError("malformed", "a digit pair out of range");
    jws += String.fromCharCode(n + 45);
  }
  if (jws.split(".").length !== 3) throw new ShcRefusedError("malformed", "no compact JWS inside");
  return jws;
}

/** Inflates a raw-DEFLATE payload, at most MAX_SHC_PAYLOAD_BYTES, and parses it as JSON. */
function inflatePayload(bytes: Uint8Array): Record<string, unknown> {
  let text: string;
  try {
    text = inflateRawSync(bytes, { maxOutputLength: MAX_SHC_PAYLOAD_BYTES }).toString("utf8");
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    throw new ShcRefusedError("payload", code === "ERR_BUFFER_TOO_LARGE" ? `inflates past ${MAX_SHC_PAYLOAD_BYTES} bytes` : "not raw DEFLATE");
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // falls through
  }
  throw new ShcRefusedError("payload", "not a JSON object");
}

/** The unverified payload of a JWS (to read `iss` before the key is known). */
function unverifiedPayload(jws: string): Record<string, unknown> {
  const part = jws.split(".")[1] ?? "";
  return inflatePayload(new Uint8Array(Buffer.from(part, "base64url")));
}

/**
 * Verifies a SMART Health Card's QR text and reads the lab result it carries.
 * @param text the QR code's text (`shc:/…`).
 * @param trust the trusted issuers.
 * @param now the clock, for `exp` and `nbf` (tests pass their own).
 * @returns UntrustedCard when `iss` is not in `trust` (nothing is verified: docs/product/labs.md §10.9 falls
 *   back to the document checks), else the verified card and its lab result.
 * @throws ShcRefusedError with its reason: malformed, payload (also an `exp` or `nbf` that is not a
 *   number of seconds), bad_signature (also an unknown `kid` of a trusted issuer, or an algorithm other
 *   than ES256), revoked, expired, not_yet_valid (`nbf` more than SHC_CLOCK_SKEW_S ahead of `now`), not_lab_result.
 */
export async function verifyShc(text: string, trust: ShcTrust, now: Date): Promise<UntrustedCard | VerifiedCard> {
  const jws = shcToJws(text);
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(jws);
  } catch {
    throw new ShcRefusedError("malformed", "the JWS header does not read");
  }
  const claimed = unverifiedPayload(jws);
  const iss = typeof claimed.iss === "string" ? claimed.iss.replace(/\/+$/, "") : "";
  const issuer = trust.issuers.find((i) => i.iss === iss);
  if (!issuer) {
    const signed = typeof header.alg === "string" && header.alg.toLowerCase() !== "none" && (jws.split(".")[2] ?? "") !== "";
    return { trusted: false, iss, signed };
  }
  if (header.alg !== "ES256" || header.zip !== "DEF") throw new ShcRefusedError("bad_signature", "not an ES256, DEFLATE card");
  const jwk = issuer.keys.find((k) => k.kid === header.kid);
  if (!jwk) throw new ShcRefusedError("bad_signature", "no key of the issuer has this kid");
  let verifiedBytes: Uint8Array;
  try {
    const key = await importJWK({ ...jwk, alg: "ES256" }, "ES256");
    verifiedBytes = (await compactVerify(jws, key, { algorithms: ["ES256"] })).payload;
  } catch {
    throw new ShcRefusedError("bad_signature", "the signature does not verify");
  }
  const payload = inflatePayload(verifiedBytes);
  const exp = secondsClaim(payload, "exp");
  const nbf = secondsClaim(payload, "nbf");
  if (exp !== undefined && exp * 1000 <= now.getTime()) throw new ShcRefusedError("expired", "past its exp");
  if (nbf !== undefined && (nbf - SHC_CLOCK_SKEW_S) * 1000 > now.getTime()) throw new ShcRefusedError("not_yet_valid", "its nbf is in the future");
  const vc = (payload.vc ?? {}) as { type?: unknown; rid?: unknown; credentialSubject?: { fhirBundle?: unknown } };
  if (isRevoked(issuer, jwk.kid, typeof vc.rid === "string" ? vc.rid : undefined, nbf)) {
    throw new ShcRefusedError("revoked", "its issuer revoked it");
  }
  // A lab result by its contents, as the framework asks (its `#laboratory` type is deprecated): a COVID-19 test Observation.
  return { trusted: true, issuer: { iss: issuer.iss, name: issuer.name }, result: labResultOf(vc.credentialSubject?.fhirBundle) };
}

/**
 * A NumericDate claim of the payload (`exp`, `nbf`): seconds since the epoch, or undefined when absent.
 * @throws ShcRefusedError payload when present but not a finite number (a string, null, an object).
 */
function secondsClaim(payload: Record<string, unknown>, name: "exp" | "nbf"): number | undefined {
  if (!Object.hasOwn(payload, name)) return undefined;
  const value = payload[name];
  if (typeof value !== "number" || !Number.isFinite(value)) throw new ShcRefusedError("payload", `its ${name} is not a number`);
  return value;
}

/** Whether the issuer's revocation list for `kid` names the card's `rid` (a `rid.<seconds>` entry revokes cards issued before that time). */
function isRevoked(issuer: ShcIssuer, kid: string, rid: string | undefined, nbf: number | undefined): boolean {
  if (!rid) return false;
  const list = issuer.crls?.find((c) => c.kid === kid);
  return (list?.rids ?? []).some((entry) => {
    const [listed, until] = entry.split(".");
    if (listed !== rid) return false;
    return until === undefined || nbf === undefined || nbf < Number(until);
  });
}

// ---------------------------------------------------------------- the FHIR bundle

/** LOINC codes of SARS-CoV-2 tests (docs/product/labs.md §10.9): nucleic acid amplification, antigen. */
export const LOINC_METHODS: Readonly<Record<string, Method>> = {
  "94500-6": "NAAT",
  "94309-2": "NAAT",
  "94759-8": "NAAT",
  "94533-7": "NAAT",
  "94534-5": "NAAT",
  "94845-5": "NAAT",
  "94558-4": "antigen",
  "96119-3": "antigen",
  "97097-0": "antigen",
};

/** SNOMED CT result codes: detected / positive, not detected / negative, inconclusive (with the UK extension's SARS-CoV-2 ones). */
export const SNOMED_OUTCOMES: Readonly<Record<string, Outcome>> = {
  "260373001": "Positive",
  "10828004": "Positive",
  "1240581000000104": "Positive",
  "260415000": "Negative",
  "260385009": "Negative",
  "1240591000000102": "Negative",
  "419984006": "Inconclusive",
};

/** `table[key]` for a key the table itself holds (never an inherited property such as `constructor`). */
export function own<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

interface Coding {
  system?: string;
  code?: string;
}

function codingOf(value: unknown, system: string): string | undefined {
  const codings = (value as { coding?: Coding[] } | undefined)?.coding;
  return Array.isArray(codings) ? codings.find((c) => c?.system === system && typeof c.code === "string")?.code : undefined;
}

/**
 * The lab result of a SMART Health Card's FHIR bundle: its Patient and its one COVID-19 Observation.
 * A result code outside SNOMED_OUTCOMES, or a collection date without a time, is kept as it is: the
 * proof step treats what it cannot read as a disagreement, never as no proof (docs/product/labs.md §10.9).
 * @throws ShcRefusedError not_lab_result without a patient name and birth date, or without exactly one
 *   COVID-19 test Observation (a vaccination card), or without a collection date.
 */
export function labResultOf(bundle: unknown): SignedLabResult {
  const entries = (bundle as { entry?: { resource?: Record<string, unknown> }[] } | undefined)?.entry;
  const resources = Array.isArray(entries) ? entries.map((e) => e?.resource).filter((r): r is Record<string, unknown> => !!r && typeof r === "object") : [];
  const patient = resources.find((r) => r.resourceType === "Patient");
  const name = (Array.isArray(patient?.name) ? patient.name[0] : undefined) as { given?: unknown; family?: unknown } | undefined;
  const given = Array.isArray(name?.given) ? name.given.filter((g): g is string => typeof g === "string").join(" ") : "";
  const family = typeof name?.family === "string" ? name.family : "";
  const dob = typeof patient?.birthDate === "string" && /^\d{4}-\d{2}-\d{2}$/.test(patient.birthDate) ? patient.birthDate : "";
  if (!given || !family || !dob) throw new ShcRefusedError("not_lab_result", "no patient name and full birth date");
  const observations = resources.filter((r) => r.resourceType === "Observation" && codingOf(r.code, "http://loinc.org") !== undefined);
  const covid = observations.filter((r) => own(LOINC_METHODS, codingOf(r.code, "http://loinc.org") as string) !== undefined);
  if (covid.length !== 1) throw new ShcRefusedError("not_lab_result", covid.length === 0 ? "no COVID-19 test observation" : "more than one COVID-19 test");
  const observation = covid[0] as Record<string, unknown>;
  const method = own(LOINC_METHODS, codingOf(observation.code, "http://loinc.org") as string) as Method;
  const resultCode = codingOf(observation.valueCodeableConcept, "http://snomed.info/sct") ?? "";
  const outcome = own(SNOMED_OUTCOMES, resultCode) ?? null;
  const effective = typeof observation.effectiveDateTime === "string" ? observation.effectiveDateTime : "";
  // A time of day needs its zone to be an instant; a date alone is kept as a date.
  const instant = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}.*(Z|[+-]\d{2}:\d{2})$/.test(effective) ? new Date(effective) : null;
  const collectedAt = instant && !Number.isNaN(instant.getTime()) ? instant : null;
  const collectedDate = /^\d{4}-\d{2}-\d{2}/.exec(effective)?.[0] ?? "";
  if (!collectedAt && !collectedDate) throw new ShcRefusedError("not_lab_result", "no collection date");
  return { givenNames: given, lastName: family, dob, method, outcome, resultCode, collectedAt, collectedDate };
}
