/**
 * What the consumer API answers as data about a result, worded in the reader's language
 * (docs/architecture/behaviour.md §4 "Language"; docs/product/calls.md §7.4 "What the upstream
 * writes"): an outcome, a proof, a checked field's name and what differed. The consumer API answers
 * them in one fixed English grammar, whatever the request's language (docs/product/data.md §3
 * property values, docs/product/labs.md §10.9 proofs); the app rewords each shape it knows, from the
 * reader's catalogue, and leaves what it does not know as written, so that any upstream's own words
 * still show. Only data stays as the lab wrote it: names, dates, lab and test names, methods.
 * Pure functions of a catalogue: loaders call them, and components may.
 */
import type { Messages } from "./messages/catalogues";

/** The catalogue entries these words come from. */
type Words = Pick<
  Messages,
  | "resultOutcomeWords"
  | "proofWords"
  | "proofSigned"
  | "checkedFieldNames"
  | "fieldDifference"
  | "acceptedOnReview"
  | "acceptedOnReviewAt"
  | "signedCodeFields"
  | "signedCodeDifference"
  | "unknownResultCode"
>;

/** `key` when it is one of `table`'s own keys (never an inherited one such as "toString"). */
function own<T extends object>(table: T, key: string): key is Extract<keyof T, string> {
  return Object.hasOwn(table, key);
}

/** A result's outcome (`Negative`, `Positive`, `Inconclusive`) in words; anything else as written, none as "". */
export function outcomeWord(m: Pick<Words, "resultOutcomeWords">, outcome: string | null | undefined): string {
  if (!outcome) return "";
  return own(m.resultOutcomeWords, outcome) ? m.resultOutcomeWords[outcome] : outcome;
}

/**
 * A proof label (`signed (SMART Health Card, <issuer>)`, `signed (EU DCC, <country>)`, `fetched from
 * the lab`, `document checks`) in words; the scheme's and the issuer's names stay as written.
 */
export function proofWordsOf(m: Words, label: string): string {
  if (label === "document checks") return m.proofWords.document;
  if (label === "fetched from the lab") return m.proofWords.link;
  const signed = /^signed \((SMART Health Card|EU DCC), (.+)\)$/.exec(label);
  if (!signed) return label;
  const issuer = signed[2] === "unknown issuer" ? m.proofWords.unknownIssuer : signed[2] === "unknown country" ? m.proofWords.unknownCountry : signed[2]!;
  return m.proofSigned(signed[1]!, issuer);
}

/** A checked field's name (`First Name`, `Last Name`, `Date of Birth`, `Signed QR Code`, `Manual Review`) in words. */
export function checkedFieldName(m: Words, name: string): string {
  return own(m.checkedFieldNames, name) ? m.checkedFieldNames[name] : name;
}

/**
 * What differed on a checked field, in words: `PDF: <as printed>; profile: <as stored>`; an accepted
 * dispute's `Accepted on review by a reviewer at <UTC time>`; a signed code's disagreements
 * (`Result (QR: Positive; PDF: Negative), Name (QR: …; PDF: …)`). The values inside stay as written
 * (an outcome inside a Result disagreement is worded too); instants stay in UTC text, for the page to
 * show in the reader's zone (app/dates.ts localizeTimes).
 */
export function checkedFieldInfo(m: Words, name: string, info: string): string {
  if (name === "Manual Review") {
    const accepted = /^Accepted on review by a reviewer(?: at (.+))?$/.exec(info);
    if (accepted) return accepted[1] ? m.acceptedOnReviewAt(accepted[1]) : m.acceptedOnReview;
  }
  const difference = /^PDF: ([\s\S]*); profile: ([\s\S]*)$/.exec(info);
  if (difference) return m.fieldDifference(difference[1]!, difference[2]!);
  return info.replace(/\b(Name|Date of Birth|Collected|Test|Result) \(QR: ([^;()]*); PDF: ([^;()]*)\)/g, (_whole, field: string, qr: string, pdf: string) => {
    const value = (text: string) => {
      if (field !== "Result") return text;
      const unknown = /^unknown code (.+)$/.exec(text);
      return unknown ? m.unknownResultCode(unknown[1]!) : outcomeWord(m, text);
    };
    return m.signedCodeDifference(own(m.signedCodeFields, field) ? m.signedCodeFields[field] : field, value(qr), value(pdf));
  });
}
