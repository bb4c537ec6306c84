// docs/architecture/results-pipeline.md §5 step 4, extraction: the patient's name, date of birth, specimen collection time
// (with its zone), test method and result, read from page 1 by position so that every
// variation docs/product/labs.md §10 lists reads the same: labels and values split into several items or
// kerned, items in any content-stream order, extra text anywhere, any font and size.
//
// Page 1's items are grouped into lines (same baseline), each line into runs (text separated
// by a column-sized gap). A label matches at the start of a run (case and spaces ignored); its
// value is the rest of that run or, when the label fills the run, the next run on the line.
// The first candidate, top to bottom, whose value reads in the lab's format wins.
import { daysInMonth, formatDate } from "../dates.ts";
import type { CalendarDate } from "../dates.ts";
import type { DateFormat, DateTimeFormat, LabFormat, Method, Outcome } from "../labs/types.ts";
import { UploadRejectedError } from "./errors.ts";
import { collapse } from "./text.ts";
import type { TextLine } from "./text.ts";
import type { TextItem } from "./worker.ts";

export type { TextLine } from "./text.ts";
export { collapse } from "./text.ts";

/** What a lab report says, after reading. */
export interface Extracted {
  /** Given names as printed (first name, then any middle names), white space collapsed. */
  givenNames: string;
  lastName: string;
  /** Date of birth, 'YYYY-MM-DD'. */
  dob: string;
  /** Specimen collection, as an instant. */
  collectedAt: Date;
  /** The collection time as printed. */
  collectedText: string;
  /** The test's name as the lab data spells it. */
  testName: string;
  method: Method;
  /** The method's wording for the safe window, e.g. "PCR (NAAT)". */
  methodDescription: string;
  outcome: Outcome;
  /** The result as the lab data spells it (e.g. "NOT DETECTED", "Void"). */
  resultText: string;
}

// Gaps between items, in ems of the smaller font: a word space is ~0.25-0.6 em, kerning is
// well under 0.15 em, a table column or a tab stop is over 1.2 em.
const SPACE_GAP_EM = 0.15;
const RUN_GAP_EM = 1.2;
// Items whose baselines differ by less than this share a line (sub/superscripts stay apart).
const BASELINE_TOLERANCE_EM = 0.3;


/**
 * Groups text items into lines top to bottom and each line into runs left to right, by
 * position only (content-stream order is ignored).
 */
export function textLines(items: readonly TextItem[]): TextLine[] {
  const sorted = items.filter((i) => i.str.trim() !== "").sort((a, b) => b.y - a.y || a.x - b.x);
  const lines: { y: number; size: number; items: TextItem[] }[] = [];
  for (const item of sorted) {
    const size = item.size > 0 ? item.size : 1;
    const line = lines[lines.length - 1];
    if (line && Math.abs(line.y - item.y) <= BASELINE_TOLERANCE_EM * Math.min(size, line.size)) line.items.push(item);
    else lines.push({ y: item.y, size, items: [item] });
  }
  return lines.map((line) => {
    const row = line.items.sort((a, b) => a.x - b.x);
    const runs: string[] = [];
    let current = "";
    let previous: TextItem | undefined;
    for (const item of row) {
      if (previous) {
        const em = Math.min(previous.size || 1, item.size || 1);
        const gap = item.x - (previous.x + previous.width);
        if (gap > RUN_GAP_EM * em) {
          runs.push(current);
          current = "";
        } else if (gap > SPACE_GAP_EM * em) {
          current += " ";
        }
      }
      current += item.str;
      previous = item;
    }
    runs.push(current);
    return { y: line.y, runs: runs.map(collapse).filter((r) => r !== "") };
  });
}

/** All of page 1's text, one line per line, runs separated by a tab. */
export function pageText(lines: readonly TextLine[]): string {
  return lines.map((l) => l.runs.join("\t")).join("\n");
}

/**
 * Where `label` ends when `run` starts with it, comparing case-insensitively and ignoring white
 * space on both sides (a kerned label may carry stray spaces); -1 otherwise. A label that does
 * not end in punctuation must be followed by a space or the end of the run ("Result" is not the
 * start of "Results").
 */
function labelEnd(run: string, label: string): number {
  const wanted = label.replace(/\s+/g, "").toLowerCase();
  let at = 0;
  for (const ch of wanted) {
    while (at < run.length && /\s/.test(run[at] ?? "")) at += 1;
    if ((run[at] ?? "").toLowerCase() !== ch) return -1;
    at += 1;
  }
  if (/[\p{L}\p{N})]$/u.test(wanted) && at < run.length && !/\s/.test(run[at] ?? "")) return -1;
  return at;
}

/** The values printed after `label`, top to bottom. */
export function valuesAfter(lines: readonly TextLine[], label: string): string[] {
  const found: string[] = [];
  for (const line of lines) {
    line.runs.forEach((run, i) => {
      const end = labelEnd(run, label);
      if (end === -1) return;
      const rest = collapse(run.slice(end));
      const value = rest !== "" ? rest : line.runs[i + 1];
      if (value) found.push(value);
    });
  }
  return found;
}

// ---------------------------------------------------------------- value formats

const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];

function calendarDate(year: number, month: number, day: number): CalendarDate | null {
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || year < 1800) return null;
  return { year, month, day };
}

/** Reads a date of birth printed in `format`; null when it does not read. */
export function readDate(value: string, format: DateFormat): CalendarDate | null {
  const text = collapse(value);
  if (format === "Month D, YYYY") {
    const m = /^(\p{L}+)\.? ?(\d{1,2}) ?, ?(\d{4})$/u.exec(text);
    if (!m) return null;
    const month = MONTHS.indexOf((m[1] ?? "").toLowerCase()) + 1;
    return month === 0 ? null : calendarDate(Number(m[3]), month, Number(m[2]));
  }
  const m = /^(\d{1,2}) ?\/ ?(\d{1,2}) ?\/ ?(\d{4})$/.exec(text);
  if (!m) return null;
  const [first, second, year] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return format === "MM/DD/YYYY" ? calendarDate(year, first, second) : calendarDate(year, second, first);
}

const zoneFormats = new Map<string, Intl.DateTimeFormat>();

/** The UTC offset of `timeZone` at `instant`, in milliseconds (east positive). */
function zoneOffsetMs(timeZone: string, instant: number): number {
  let format = zoneFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    zoneFormats.set(timeZone, format);
  }
  const parts: Record<string, number> = {};
  for (const p of format.formatToParts(new Date(instant))) if (p.type !== "literal") parts[p.type] = Number(p.value);
  const wall = Date.UTC(parts.year ?? 0, (parts.month ?? 1) - 1, parts.day ?? 1, parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0);
  return wall - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant at which the wall clock of `timeZone` shows the given local time (daylight saving
 * applied). When the clocks go back and the time occurs twice, the earlier instant; when they
 * go forward and it does not occur, the earlier of the two readings. Either way the window that
 * follows is the shorter one.
 * @param wallAsUtc the local date and time written as if it were UTC (Date.UTC of its fields).
 */
export function zonedTimeToInstant(wallAsUtc: number, timeZone: string): Date {
  const day = 24 * 60 * 60 * 1000;
  const offsets = new Set([zoneOffsetMs(timeZone, wallAsUtc - day), zoneOffsetMs(timeZone, wallAsUtc + day)]);
  const readings = [...offsets].map((offset) => wallAsUtc - offset);
  const exact = readings.filter((t) => zoneOffsetMs(timeZone, t) === wallAsUtc - t);
  return new Date(Math.min(...(exact.length > 0 ? exact : readings)));
}

function validTime(hours: number, minutes: number, seconds = 0): boolean {
  return hours >= 0 && hours <= 23 && minutes >= 0 && minutes <= 59 && seconds >= 0 && seconds <= 59;
}

function offsetMinutes(sign: string, hh: string, mm: string): number | null {
  const h = Number(hh);
  const m = Number(mm);
  if (h > 14 || m > 59) return null;
  return (sign === "-" || sign === "\u2212" ? -1 : 1) * (h * 60 + m);
}

/**
 * Reads a collection time printed in `format`; null when it does not read.
 * @param zones the lab's zone abbreviations (IANA zones) for formats that carry one.
 */
export function readDateTime(value: string, format: DateTimeFormat, zones: Record<string, string> = {}): Date | null {
  const text = collapse(value);
  if (format === "MM/DD/YYYY hh:mm AM ZONE") {
    const m = /^(\d{1,2}) ?\/ ?(\d{1,2}) ?\/ ?(\d{4}) (\d{1,2}) ?: ?(\d{2}) ?([AP])\.? ?M\.? ([A-Z]{1,5})$/i.exec(text);
    if (!m) return null;
    const date = calendarDate(Number(m[3]), Number(m[1]), Number(m[2]));
    const hour12 = Number(m[4]);
    const minutes = Number(m[5]);
    const zoneKey = Object.keys(zones).find((z) => z.toUpperCase() === (m[7] ?? "").toUpperCase());
    if (!date || hour12 < 1 || hour12 > 12 || minutes > 59 || !zoneKey) return null;
    const hours = (hour12 % 12) + ((m[6] ?? "").toUpperCase() === "P" ? 12 : 0);
    return zonedTimeToInstant(Date.UTC(date.year, date.month - 1, date.day, hours, minutes), zones[zoneKey] as string);
  }
  if (format === "YYYY-MM-DD HH:MM (+HH:MM)") {
    const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}) ?: ?(\d{2}) ?\( ?(?:UTC ?)?([+\-\u2212])(\d{2}) ?:? ?(\d{2}) ?\)$/i.exec(text);
    if (!m) return null;
    const date = calendarDate(Number(m[1]), Number(m[2]), Number(m[3]));
    const offset = offsetMinutes(m[6] ?? "+", m[7] ?? "", m[8] ?? "");
    if (!date || offset === null || !validTime(Number(m[4]), Number(m[5]))) return null;
    return new Date(Date.UTC(date.year, date.month - 1, date.day, Number(m[4]), Number(m[5])) - offset * 60_000);
  }
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:(Z)|([+\-\u2212])(\d{2}):?(\d{2}))$/i.exec(text.replace(/ /g, ""));
  if (!m) return null;
  const date = calendarDate(Number(m[1]), Number(m[2]), Number(m[3]));
  const offset = m[7] ? 0 : offsetMinutes(m[8] ?? "+", m[9] ?? "", m[10] ?? "");
  const seconds = Number(m[6] ?? 0);
  if (!date || offset === null || !validTime(Number(m[4]), Number(m[5]), seconds)) return null;
  return new Date(Date.UTC(date.year, date.month - 1, date.day, Number(m[4]), Number(m[5]), seconds) - offset * 60_000);
}

/** The entry of `table` whose key equals `value` (case-insensitive, white space collapsed). */
function lookUp<T>(table: Record<string, T>, value: string): [string, T] | undefined {
  const wanted = collapse(value).toLowerCase();
  return Object.entries(table).find(([key]) => collapse(key).toLowerCase() === wanted);
}

// ---------------------------------------------------------------- the step

/** Field names as the unreadable-field message says them. */
export const FIELD_WORDS = {
  name: "patient name",
  dob: "date of birth",
  collected: "specimen collection time",
  test: "test name",
  result: "result",
} as const;

/**
 * Reads the patient, the collection time, the test and its result from page 1 of a report of
 * `lab` (docs/architecture/results-pipeline.md §5 step 4).
 * @param items page 1's text items (worker.ts).
 * @throws UploadRejectedError "unreadable" naming the first field that is missing or does not
 *   read in the lab's format.
 */
export function extractReport(items: readonly TextItem[], lab: LabFormat): Extracted {
  return extractLines(textLines(items), lab);
}

/**
 * extractReport on lines already grouped: a PDF's (textLines) or a result page's (page.ts).
 * @throws UploadRejectedError "unreadable", as extractReport.
 */
export function extractLines(lines: readonly TextLine[], lab: LabFormat): Extracted {
  const unreadable = (field: keyof typeof FIELD_WORDS) =>
    new UploadRejectedError("unreadable", (w) => w.unreadable(lab.publicName, FIELD_WORDS[field]));
  const first = <T>(label: string, read: (value: string) => T | null | undefined): T | undefined => {
    for (const value of valuesAfter(lines, label)) {
      const read1 = read(value);
      if (read1 !== null && read1 !== undefined) return read1;
    }
    return undefined;
  };

  let givenNames: string | undefined;
  let lastName: string | undefined;
  if (lab.name.kind === "last-comma-given") {
    const parts = first(lab.name.label, (v) => {
      const comma = v.indexOf(",");
      if (comma === -1) return null;
      const last = collapse(v.slice(0, comma));
      const given = collapse(v.slice(comma + 1));
      return last && given ? { last, given } : null;
    });
    givenNames = parts?.given;
    lastName = parts?.last;
  } else {
    givenNames = first(lab.name.givenLabel, (v) => collapse(v) || null);
    lastName = first(lab.name.lastLabel, (v) => collapse(v) || null);
  }
  if (!givenNames || !lastName) throw unreadable("name");

  const dob = first(lab.dob.label, (v) => readDate(v, lab.dob.format));
  if (!dob) throw unreadable("dob");

  let collectedText = "";
  const collectedAt = first(lab.collected.label, (v) => {
    const at = readDateTime(v, lab.collected.format, lab.collected.zones);
    if (at) collectedText = collapse(v);
    return at;
  });
  if (!collectedAt) throw unreadable("collected");

  const test = first(lab.test.label, (v) => lookUp(lab.test.kinds, v));
  if (!test) throw unreadable("test");
  const result = first(lab.result.label, (v) => lookUp(lab.result.values, v));
  if (!result) throw unreadable("result");

  return {
    givenNames,
    lastName,
    dob: formatDate(dob),
    collectedAt,
    collectedText,
    testName: test[0],
    method: test[1].method,
    methodDescription: test[1].description,
    outcome: result[1],
    resultText: result[0],
  };
}
