// The proof step (docs/architecture/results-pipeline.md §5 step 7; docs/product/labs.md §10.9): the QR codes found on a report's
// first pages are read as signed results. A verified SMART Health Card or EU DCC is the strongest
// evidence: its fields are compared with what the PDF's text says, and a disagreement (name, date of
// birth, collection time, test, result) makes the result invalid with a property value naming it. A code
// that fails verification refuses the upload whatever the text says. A signature that cannot be tied to a
// trusted issuer changes nothing but what Test Detail says; a code that carries no signature at all
// (`alg: none`) from an unknown issuer is not mentioned. QR codes of other kinds (a lab's web address)
// are not proof and are ignored.
import { proofIn, resultWords, utcMinute } from "../../../../contracts/result-words.ts";
import type { Finding, ProofKind, SignedCodeDisagreement } from "../../../../contracts/result-words.ts";
import { UploadRejectedError } from "../errors.ts";
import type { Extracted } from "../extract.ts";
import { firstNameMatches, lastNameMatches } from "../match.ts";
import type { MatchOutcome } from "../match.ts";
import type { SignedLabResult } from "./shc.ts";
import type { ProofTrust } from "./trust.ts";

/** The schemes of a signed result, as Test Detail names them. */
export type SignedScheme = "SMART Health Card" | "EU DCC";

/** What a stored result's proof is (docs/product/labs.md §10.9). */
export type { ProofKind };

/** The proof step's outcome for one report. */
export interface Proof {
  kind: ProofKind;
  /** The issuer's name (SMART Health Card) or the signer's country (EU DCC); null otherwise. */
  issuer: string | null;
  /** A signature found that could not be tied to a known issuer: its scheme; null otherwise. */
  unverified: SignedScheme | null;
  /** Each field the signed code and the PDF's text disagree on, as values (contracts/result-words.ts); null when they agree. */
  disagreement: SignedCodeDisagreement[] | null;
}

/** The words of a proof on the wire: `signed (SMART Health Card, <issuer>)`, `fetched from the lab`, `document checks` (contracts/result-words.ts). */
export function proofLabel(kind: ProofKind, issuer: string | null): string {
  return proofIn(resultWords.en, kind, issuer);
}

/** The instant as a report prints it, to the minute, in UTC. */
const minute = utcMinute;

/**
 * Where a verified signed result and the PDF's text disagree, field by field; null when they agree.
 * Names compare as matching does (docs/product/labs.md §10.6), either side's given names may carry middle
 * names the other lacks; the collection time agrees within the minute the report prints.
 */
export function disagreementOf(signed: SignedLabResult, report: Extracted): SignedCodeDisagreement[] | null {
  const found: SignedCodeDisagreement[] = [];
  const namesAgree =
    lastNameMatches(report.lastName, signed.lastName) && (firstNameMatches(report.givenNames, signed.givenNames) || firstNameMatches(signed.givenNames, report.givenNames));
  if (!namesAgree) found.push({ field: "Name", qr: `${signed.givenNames} ${signed.lastName}`, pdf: `${report.givenNames} ${report.lastName}` });
  if (signed.dob !== report.dob) found.push({ field: "Date of Birth", qr: signed.dob, pdf: report.dob });
  if (signed.collectedAt) {
    if (Math.abs(signed.collectedAt.getTime() - report.collectedAt.getTime()) >= 60_000) {
      found.push({ field: "Collected", qr: minute(signed.collectedAt), pdf: minute(report.collectedAt) });
    }
  } else if (Math.abs(Date.parse(`${signed.collectedDate}T12:00:00Z`) - report.collectedAt.getTime()) > 36 * 3600_000) {
    // A date alone, in the lab's own zone: it agrees when within a day of the report's time.
    found.push({ field: "Collected", qr: signed.collectedDate, pdf: minute(report.collectedAt) });
  }
  if (signed.method !== report.method) found.push({ field: "Test", qr: signed.method, pdf: report.method });
  if (signed.outcome !== report.outcome) found.push({ field: "Result", qr: signed.outcome ?? { unknownCode: signed.resultCode || "none" }, pdf: report.outcome });
  return found.length > 0 ? found : null;
}

/**
 * Reads the QR codes of a report as proof.
 * @param codes the QR texts found (worker.ts), page order.
 * @param fallback the proof when no signed result is verified: "document", or "link" for a result by link.
 * @returns the first verified signed result's proof, with its disagreement; else `fallback`, noting an
 *   unverified signature.
 * @throws UploadRejectedError signature_invalid (malformed, tampered, forged, oversized),
 *   signature_revoked, signature_expired: any signed code that fails refuses the report.
 */
export async function checkProof(codes: readonly string[], report: Extracted, trust: ProofTrust, now: Date, fallback: "document" | "link" = "document"): Promise<Proof> {
  // Every verified code is compared with the text: one that agrees does not hide one that does not.
  const verified: { kind: "shc" | "dcc"; issuer: string; disagreement: SignedCodeDisagreement[] | null }[] = [];
  let unverified: SignedScheme | null = null;
  // The verifiers are loaded with the first code of their kind, not with the consumer API: the EU
  // DCC's X.509, CBOR and base45 readers hold about 5 MiB of heap that a data thread whose reports
  // carry no signed code never needs (docs/decisions/0013-bounded-v8-heap.md).
  let shc: typeof import("./shc.ts") | undefined;
  let dcc: typeof import("./dcc.ts") | undefined;
  for (const code of codes) {
    const text = code.trim();
    try {
      if (/^shc:\//i.test(text)) {
        shc ??= await import("./shc.ts");
        const card = await shc.verifyShc(text, trust.shc, now);
        // A card without a signature (alg none) is no signed result: nothing to say about it.
        if (!card.trusted) unverified ??= card.signed ? "SMART Health Card" : null;
        else verified.push({ kind: "shc", issuer: card.issuer.name, disagreement: disagreementOf(card.result, report) });
      } else if (/^HC1:/.test(text)) {
        dcc ??= await import("./dcc.ts");
        const certificate = dcc.verifyDcc(text, trust.dcc, now);
        if (!certificate.trusted) unverified ??= certificate.signed ? "EU DCC" : null;
        else verified.push({ kind: "dcc", issuer: certificate.country, disagreement: disagreementOf(certificate.result, report) });
      }
    } catch (err) {
      if ((shc && err instanceof shc.ShcRefusedError) || (dcc && err instanceof dcc.DccRefusedError)) {
        // A signed card of another kind (a vaccination, a recovery) printed beside the result is not proof of it.
        if (err.reason === "not_lab_result" || err.reason === "not_test") continue;
        if (err.reason === "revoked") throw new UploadRejectedError("signature_revoked", (w) => w.signature_revoked());
        if (err.reason === "expired") throw new UploadRejectedError("signature_expired", (w) => w.signature_expired());
        throw new UploadRejectedError("signature_invalid", (w) => w.signature_invalid());
      }
      throw err;
    }
  }
  const first = verified[0];
  if (!first) return { kind: fallback, issuer: null, unverified, disagreement: null };
  // Each field's disagreement once, whichever codes found it.
  const seen = new Set<string>();
  const disagreements = verified.flatMap((v) => v.disagreement ?? []).filter((d) => !seen.has(JSON.stringify(d)) && seen.add(JSON.stringify(d)));
  return { kind: first.kind, issuer: first.issuer, unverified: null, disagreement: disagreements.length > 0 ? disagreements : null };
}

/** A match with the proof's property value: `Signed QR Code` (checked, its finding the disagreement or null) for a verified signed result. */
export interface ProvenMatch {
  valid: boolean;
  properties: { name: MatchOutcome["properties"][number]["name"] | "Signed QR Code"; finding: Finding | null }[];
}

/**
 * Step 8 with the proof: a verified signed result adds the `Signed QR Code` property value; its
 * disagreement with the PDF makes the result invalid (docs/product/labs.md §10.9).
 */
export function withProof(match: MatchOutcome, proof: Proof): ProvenMatch {
  if (proof.kind !== "shc" && proof.kind !== "dcc") return match;
  return { valid: match.valid && proof.disagreement === null, properties: [...match.properties, { name: "Signed QR Code", finding: proof.disagreement && { kind: "disagreement", items: proof.disagreement } }] };
}
