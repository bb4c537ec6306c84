/**
 * What the consumer API says about a result beyond the lab's own data, as values, and the words
 * they read in (docs/product/data.md §3 property values; docs/product/labs.md §10.6 matching, §10.9
 * proofs; docs/product/calls.md §7.4 "What the upstream writes"):
 * - a result's outcome (`Negative`, `Positive`, `Inconclusive`);
 * - its proof (a document, fetched from the lab, or a signed code and its issuer);
 * - each checked field (First Name, Last Name, Date of Birth, Signed QR Code, Manual Review) and,
 *   when it did not pass, its finding: what the PDF and the profile say, when a reviewer accepted
 *   the result, or where the signed code and the PDF disagree.
 *
 * The reference consumer API stores findings as values (`Finding`, JSON) and writes them on the wire
 * in one fixed English grammar, `resultWords.en`, whatever the request's language; the app reads that
 * grammar back (`readFinding`, `readProof`) and words it in the reader's language; the API's own
 * Spanish upload message uses `spanishResultWords` (contracts/result-words-es.ts), so both say it in the same words. The values inside
 * (names, dates, a lab's test name, an issuer) stay as written. Imports nothing: the browser bundle
 * and Node's type stripping read it (explicit `.ts` extensions only).
 */

/** docs/product/data.md §3 result: the outcomes a lab's result is read as. */
export const outcomes = ["Negative", "Positive", "Inconclusive"] as const;
export type Outcome = (typeof outcomes)[number];

/** docs/product/data.md §3 property value names, in answer order; Signed QR Code and Manual Review are ours (extensions). */
export const checkedFields = ["First Name", "Last Name", "Date of Birth", "Signed QR Code", "Manual Review"] as const;
export type CheckedField = (typeof checkedFields)[number];

/** The fields a signed code is compared on with the PDF's text (docs/product/labs.md §10.9). */
export const signedCodeFields = ["Name", "Date of Birth", "Collected", "Test", "Result"] as const;
export type SignedCodeField = (typeof signedCodeFields)[number];

/** How a result was proven (docs/product/labs.md §10.9): a signed code (SMART Health Card, EU DCC), fetched from the lab, or the document's own checks. */
export type ProofKind = "shc" | "dcc" | "link" | "document";

/** One field on which a signed code and the PDF disagree: the code's value (or a result code no scheme defines) and the PDF's. */
export interface SignedCodeDisagreement {
  field: SignedCodeField;
  qr: string | { unknownCode: string };
  pdf: string;
}

/**
 * What a checked field found when it did not pass, as values:
 * - `difference`: First Name, Last Name, Date of Birth: the PDF's value as printed (a date as
 *   MM/DD/YYYY) against the profile's;
 * - `disagreement`: Signed QR Code: each field where the code and the PDF differ;
 * - `accepted`: Manual Review: a reviewer accepted the disputed result, at an ISO instant (null on
 *   values recorded before the time was kept); never which reviewer.
 */
export type Finding =
  | { kind: "difference"; pdf: string; profile: string }
  | { kind: "disagreement"; items: SignedCodeDisagreement[] }
  | { kind: "accepted"; at: string | null };

/** The words of outcomes, proofs and findings in one language. */
export interface ResultWords {
  outcomes: Record<Outcome, string>;
  proof: { document: string; link: string; unknownIssuer: string; unknownCountry: string; signed: (scheme: string, issuer: string) => string };
  fields: Record<CheckedField, string>;
  signedCodeFields: Record<SignedCodeField, string>;
  difference: (pdf: string, profile: string) => string;
  acceptedOnReview: string;
  /** `at` as UTC text, `YYYY-MM-DD HH:MM UTC` (the app shows it in the reader's zone). */
  acceptedOnReviewAt: (at: string) => string;
  signedCodeDifference: (field: string, qr: string, pdf: string) => string;
  unknownResultCode: (code: string) => string;
}

/**
 * English: the consumer API's wire grammar, word for word. The Spanish is contracts/result-words-es.ts, a
 * module of its own so that an English page's script does not carry it.
 */
export const englishResultWords: ResultWords = {
  outcomes: { Negative: "Negative", Positive: "Positive", Inconclusive: "Inconclusive" },
  proof: { document: "document checks", link: "fetched from the lab", unknownIssuer: "unknown issuer", unknownCountry: "unknown country", signed: (scheme, issuer) => `signed (${scheme}, ${issuer})` },
  fields: { "First Name": "First Name", "Last Name": "Last Name", "Date of Birth": "Date of Birth", "Signed QR Code": "Signed QR Code", "Manual Review": "Manual Review" },
  signedCodeFields: { Name: "Name", "Date of Birth": "Date of Birth", Collected: "Collected", Test: "Test", Result: "Result" },
  difference: (pdf, profile) => `PDF: ${pdf}; profile: ${profile}`,
  acceptedOnReview: "Accepted on review by a reviewer",
  acceptedOnReviewAt: (at) => `Accepted on review by a reviewer at ${at}`,
  signedCodeDifference: (field, qr, pdf) => `${field} (QR: ${qr}; PDF: ${pdf})`,
  unknownResultCode: (code) => `unknown code ${code}`,
};

/** The words by language, where the consumer API picks them (its wire grammar is `resultWords.en`). */
export const resultWords: { en: ResultWords } = { en: englishResultWords };

/** `key` when it is one of `table`'s own keys (never an inherited one such as "toString"). */
function own<T extends object>(table: T, key: string): key is Extract<keyof T, string> {
  return Object.hasOwn(table, key);
}

/** An ISO instant as UTC text to the minute, `YYYY-MM-DD HH:MM UTC` (the form the app localizes). */
export function utcMinute(at: Date | string): string {
  return `${new Date(at).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** An outcome in `words`; another value as written, none as "". */
export function outcomeIn(words: Pick<ResultWords, "outcomes">, outcome: string | null | undefined): string {
  if (!outcome) return "";
  return own(words.outcomes, outcome) ? words.outcomes[outcome] : outcome;
}

/** A checked field's name in `words`; another name as written. */
export function fieldIn(words: ResultWords, name: string): string {
  return own(words.fields, name) ? words.fields[name] : name;
}

/** A proof in `words`; the scheme's and the issuer's names stay as written. With `resultWords.en`, the consumer API's `proof.label`. */
export function proofIn(words: ResultWords, kind: ProofKind, issuer: string | null): string {
  switch (kind) {
    case "shc":
      return words.proof.signed("SMART Health Card", issuer ?? words.proof.unknownIssuer);
    case "dcc":
      return words.proof.signed("EU DCC", issuer ?? words.proof.unknownCountry);
    case "link":
      return words.proof.link;
    default:
      return words.proof.document;
  }
}

/** A finding in `words`. With `resultWords.en`, the consumer API's matchInfo. */
export function findingIn(words: ResultWords, finding: Finding): string {
  switch (finding.kind) {
    case "difference":
      return words.difference(finding.pdf, finding.profile);
    case "accepted":
      return finding.at === null ? words.acceptedOnReview : words.acceptedOnReviewAt(utcMinute(finding.at));
    case "disagreement":
      return finding.items
        .map(({ field, qr, pdf }) => {
          const value = (text: string) => (field === "Result" ? outcomeIn(words, text) : text);
          const qrText = typeof qr === "string" ? value(qr) : words.unknownResultCode(qr.unknownCode);
          return words.signedCodeDifference(words.signedCodeFields[field], qrText, value(pdf));
        })
        .join(", ");
  }
}

/** `YYYY-MM-DD HH:MM UTC` as an ISO instant, or null. */
function instantOf(text: string): string | null {
  const match = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}) UTC$/.exec(text);
  if (!match) return null;
  const at = new Date(`${match[1]}T${match[2]}:00Z`);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}

const ACCEPTED = /^Accepted on review by a reviewer(?: at (.+))?$/;
const DIFFERENCE = /^PDF: ([\s\S]*); profile: ([\s\S]*)$/;
const DISAGREEMENT = /(Name|Date of Birth|Collected|Test|Result) \(QR: ([^;()]*); PDF: ([^;()]*)\)/y;

/** A Signed QR Code matchInfo's items (`Result (QR: Positive; PDF: Negative), Name (…)`), or null when the text is not that list. */
function readDisagreement(text: string): SignedCodeDisagreement[] | null {
  const items: SignedCodeDisagreement[] = [];
  let at = 0;
  while (at < text.length) {
    if (items.length > 0) {
      // Items are joined by ", "; texts of several codes were once joined by "; ".
      const separator = /^(, |; )/.exec(text.slice(at));
      if (!separator) return null;
      at += separator[0].length;
    }
    DISAGREEMENT.lastIndex = at;
    const match = DISAGREEMENT.exec(text);
    if (!match) return null;
    const field = match[1] as SignedCodeField;
    const unknown = field === "Result" ? /^unknown code (.+)$/.exec(match[2]!) : null;
    items.push({ field, qr: unknown ? { unknownCode: unknown[1]! } : match[2]!, pdf: match[3]! });
    at = DISAGREEMENT.lastIndex;
  }
  return items.length > 0 ? items : null;
}

/**
 * A checked field's matchInfo as the consumer API writes it (`findingIn(resultWords.en, …)`), read
 * back as values; null when `text` is not in that grammar for `name` (another upstream's own words,
 * which are then shown as written).
 */
export function readFinding(name: string, text: string): Finding | null {
  if (name === "Manual Review") {
    const accepted = ACCEPTED.exec(text);
    if (!accepted) return null;
    if (accepted[1] === undefined) return { kind: "accepted", at: null };
    const at = instantOf(accepted[1]);
    return at === null ? null : { kind: "accepted", at };
  }
  if (name === "Signed QR Code") {
    const items = readDisagreement(text);
    return items && { kind: "disagreement", items };
  }
  const difference = DIFFERENCE.exec(text);
  return difference ? { kind: "difference", pdf: difference[1]!, profile: difference[2]! } : null;
}

/** A proof label as the consumer API writes it (`proofIn(resultWords.en, …)`), read back; null when it is not one. */
export function readProof(label: string): { kind: ProofKind; issuer: string | null } | null {
  if (label === resultWords.en.proof.document) return { kind: "document", issuer: null };
  if (label === resultWords.en.proof.link) return { kind: "link", issuer: null };
  const signed = /^signed \((SMART Health Card|EU DCC), (.+)\)$/.exec(label);
  if (!signed) return null;
  const kind = signed[1] === "EU DCC" ? "dcc" : "shc";
  const unknown = kind === "shc" ? resultWords.en.proof.unknownIssuer : resultWords.en.proof.unknownCountry;
  return { kind, issuer: signed[2] === unknown ? null : signed[2]! };
}
