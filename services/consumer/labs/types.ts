// The shape of a lab definition (docs/product/labs.md §10): what the pipeline knows about one testing
// company, as data. Adding a lab is adding one file of this shape to labs/index.ts; the
// formats named here are read by results/extract.ts.
import type { TestOutcome } from "../../../contracts/consumer.ts";

/** Test method families of the rules table of docs/product/labs.md §10.7. */
export type Method = "NAAT" | "antigen";

/** A result as the API answers it, the contract's TestOutcome (Void and Invalid are answered as Inconclusive). */
export type Outcome = TestOutcome;

/** How a date of birth is printed. */
export type DateFormat =
  /** `03/04/1990`: month first. */
  | "MM/DD/YYYY"
  /** `04/03/1990`: day first. */
  | "DD/MM/YYYY"
  /** `March 4, 1990`: English month name. */
  | "Month D, YYYY";

/** How the specimen collection time is printed, with its zone or offset. */
export type DateTimeFormat =
  /** `03/20/2026 08:15 AM ET`: 12-hour clock and a zone abbreviation from `zones`. */
  | "MM/DD/YYYY hh:mm AM ZONE"
  /** `2026-11-20 08:15 (+00:00)`: 24-hour clock, UTC offset in brackets. */
  | "YYYY-MM-DD HH:MM (+HH:MM)"
  /** `2026-11-20T08:15:00-08:00`: ISO 8601 with a UTC offset (or Z). */
  | "ISO 8601";

/** How the patient's name is printed. */
export type NameLayout =
  /** One field `LAST, GIVEN NAMES` (given names: first name, then any middle names). */
  | { kind: "last-comma-given"; label: string }
  /** Two fields: given names (first, then any middle names) and last name. */
  | { kind: "separate"; givenLabel: string; lastLabel: string };

/** A test the lab performs, by the name it prints. */
export interface TestKind {
  method: Method;
  /** Shown as the safe window's description, e.g. "PCR (NAAT)". */
  description: string;
}

/**
 * One testing company. Labels are matched at the start of a run of text on page 1 (case and
 * white space ignored); the value is the rest of that run, or the next run to its right on the
 * same baseline (a table column).
 */
export interface LabFormat {
  /** Stable id stored with each result. */
  id: string;
  /** docs/product/data.md §3 testingCompanyName. */
  testingCompanyName: string;
  /** docs/product/data.md §3 publicName. */
  publicName: string;
  /** Texts that all appear on page 1 of this lab's reports (case and white space ignored). */
  recognisedBy: string[];
  /** The lab's own software: the PDF Producer starts with one of these. */
  producerPrefixes: string[];
  /** When set, the PDF Creator starts with one of these. */
  creatorPrefixes?: string[];
  name: NameLayout;
  dob: { label: string; format: DateFormat };
  collected: {
    label: string;
    format: DateTimeFormat;
    /** Zone abbreviations the format may carry, as IANA zones (daylight saving applies). */
    zones?: Record<string, string>;
  };
  /** Printed test names (compared case-insensitively, white space collapsed). */
  test: { label: string; kinds: Record<string, TestKind> };
  /** Printed results (compared case-insensitively, white space collapsed). */
  result: { label: string; values: Record<string, Outcome> };
  /** Where the lab serves results by link (docs/product/labs.md §10.8); absent: uploads only. */
  links?: ResultLinks;
}

/**
 * A lab's result links (docs/product/labs.md §10.8): the hosts its links point to and what a link serves.
 * Links are fetched over https on port 443 only (results/link.ts).
 */
export interface ResultLinks {
  /** Host names, lower case, without a port or a trailing dot. */
  hosts: readonly string[];
  /**
   * "pdf": a link serves the report PDF itself (application/pdf), checked like an upload.
   * "page": a link serves an HTML result page (text/html) whose table rows carry the same labels and
   * value formats as the lab's PDF (results/page.ts reads it).
   */
  serves: "pdf" | "page";
}
