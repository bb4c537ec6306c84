// docs/architecture/results-pipeline.md §5 step 8, matching against the profile (docs/product/labs.md §10.6):
// compare after Unicode NFC, trimming, collapsing inner white space and ignoring case; nothing
// else is folded (`Jose` is not `José`). One property value per checked field, with its finding
// null when it matches, else what the PDF says against what the profile says, as values
// (contracts/result-words.ts; the API words them when it answers).
import type { Finding } from "../../../contracts/result-words.ts";
import { collapse } from "./extract.ts";

/** docs/product/data.md §3 test result property value names, in the order they are answered. */
export const PROPERTY_NAMES = ["First Name", "Last Name", "Date of Birth"] as const;
export type PropertyName = (typeof PROPERTY_NAMES)[number];

export interface PropertyValue {
  name: PropertyName;
  /** null when the field matches; else a `difference`: the PDF's value as printed, the profile's as stored. */
  finding: Finding | null;
}

/** The patient as the report names them (results/extract.ts). */
export interface ReportPatient {
  givenNames: string;
  lastName: string;
  /** 'YYYY-MM-DD'. */
  dob: string;
}

/** The profile fields matching uses (docs/product/data.md §3 Consumer). */
export interface ProfilePerson {
  firstName: string;
  lastName: string;
  /** 'YYYY-MM-DD'. */
  dob: string;
}

export interface MatchOutcome {
  /** docs/product/data.md §3 valid: every property matches. */
  valid: boolean;
  properties: PropertyValue[];
}

/**
 * Equal ignoring case: lower-case forms equal, or upper-case forms equal (so that a lab's
 * `GROSS` still equals a profile's `Groß`, whose upper case is `GROSS`).
 */
function sameIgnoringCase(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase() || a.toUpperCase() === b.toUpperCase();
}

/**
 * The first-name rule: the report's given names equal the profile's first name, or begin with
 * it followed by a space (middle names the profile does not hold).
 */
export function firstNameMatches(givenNames: string, firstName: string): boolean {
  const given = collapse(givenNames);
  const first = collapse(firstName);
  if (first === "") return false;
  if (sameIgnoringCase(given, first)) return true;
  const words = given.split(" ");
  // Compare word-aligned prefixes, so that case mapping cannot shift the boundary.
  for (let n = 1; n < words.length; n += 1) {
    if (sameIgnoringCase(words.slice(0, n).join(" "), first)) return true;
  }
  return false;
}

/** The last-name rule: equal. */
export function lastNameMatches(reported: string, lastName: string): boolean {
  const a = collapse(reported);
  return a !== "" && sameIgnoringCase(a, collapse(lastName));
}

/** 'YYYY-MM-DD' as docs/product/messages.md §9's MM/DD/YYYY. */
function usDate(iso: string): string {
  const [y, m, d] = iso.split("-");
  return `${m}/${d}/${y}`;
}

function info(matches: boolean, reported: string, profile: string): Finding | null {
  return matches ? null : { kind: "difference", pdf: reported, profile };
}

/**
 * Matches a report's patient against a profile (docs/architecture/results-pipeline.md §5 step 8).
 * @returns valid and the three property values (First Name, Last Name, Date of Birth); dates in
 *   findings are written MM/DD/YYYY.
 */
export function matchProfile(patient: ReportPatient, profile: ProfilePerson): MatchOutcome {
  const properties: PropertyValue[] = [
    { name: "First Name", finding: info(firstNameMatches(patient.givenNames, profile.firstName), collapse(patient.givenNames), collapse(profile.firstName)) },
    { name: "Last Name", finding: info(lastNameMatches(patient.lastName, profile.lastName), collapse(patient.lastName), collapse(profile.lastName)) },
    { name: "Date of Birth", finding: info(patient.dob === profile.dob, usDate(patient.dob), usDate(profile.dob)) },
  ];
  return { valid: properties.every((p) => p.finding === null), properties };
}
