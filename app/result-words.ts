/**
 * What the consumer API answers as data about a result, worded in the reader's language
 * (docs/architecture/behaviour.md §4 "Language"; docs/product/calls.md §7.4 "What the upstream
 * writes"): an outcome, a proof, a checked field's name and what it found. The consumer API answers
 * them in one fixed English grammar, whatever the request's language (contracts/result-words.ts,
 * docs/product/data.md §3 property values, docs/product/labs.md §10.9 proofs); the app reads each
 * shape back as values and words it from the reader's catalogue (`resultWords`), and leaves what it
 * does not know as written, so that any upstream's own words still show. Only data stays as the lab
 * wrote it: names, dates, lab and test names, methods. Pure functions of a catalogue: loaders call
 * them, and components may (outcomeWord needs only the outcomes, which travel as loader data).
 */
import { fieldIn, findingIn, outcomeIn, proofIn, readFinding, readProof } from "../contracts/result-words.ts";
import type { ResultWords } from "../contracts/result-words.ts";

/** The catalogue entry these words come from. */
interface Words {
  resultWords: ResultWords;
}

/** A result's outcome (`Negative`, `Positive`, `Inconclusive`) in words; anything else as written, none as "". */
export function outcomeWord(words: Pick<ResultWords, "outcomes">, outcome: string | null | undefined): string {
  return outcomeIn(words, outcome);
}

/** A proof label (`signed (SMART Health Card, <issuer>)`, `signed (EU DCC, <country>)`, `fetched from the lab`, `document checks`) in words. */
export function proofWordsOf(m: Words, label: string): string {
  const proof = readProof(label);
  return proof ? proofIn(m.resultWords, proof.kind, proof.issuer) : label;
}

/** A checked field's name (`First Name`, `Last Name`, `Date of Birth`, `Signed QR Code`, `Manual Review`) in words. */
export function checkedFieldName(m: Words, name: string): string {
  return fieldIn(m.resultWords, name);
}

/**
 * What a checked field found, in words: `PDF: <as printed>; profile: <as stored>`; an accepted
 * dispute's `Accepted on review by a reviewer at <UTC time>`; a signed code's disagreements
 * (`Result (QR: Positive; PDF: Negative), Name (QR: …; PDF: …)`). The values inside stay as written
 * (an outcome inside a Result disagreement is worded too); instants stay in UTC text, for the page to
 * show in the reader's zone (app/dates.ts localizeTimes).
 */
export function checkedFieldInfo(m: Words, name: string, info: string): string {
  const finding = readFinding(name, info);
  return finding ? findingIn(m.resultWords, finding) : info;
}
