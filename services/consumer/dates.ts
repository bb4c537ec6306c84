// Calendar dates (no time, no zone) for dates of birth: parsing the forms docs/product/data.md §5 and §7 send,
// and writing them back. Ages are the age rule's, counted on calendar fields (contracts/rules.ts).
import { daysInMonth } from "../../contracts/rules.ts";
import type { CalendarDate } from "../../contracts/rules.ts";

// The calendar date and the month lengths are the age rule's (contracts/rules.ts), shared with the app.
export { daysInMonth };
export type { CalendarDate };

/** Why a date text was refused: not one of the accepted forms, or not a real calendar date. */
export type DateProblem = "format" | "calendar";

// 'YYYY-MM-DD', optionally followed by an ISO time and zone ("database date" of docs/product/calls.md §7, e.g.
// '1990-05-01T00:00:00' or '1990-05-01T00:00:00.000Z'): the date part is taken as written.
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/;
// docs/product/data.md §5 / §9: MM/DD/YYYY, two digits for month and day.
const US_DATE = /^(\d{2})\/(\d{2})\/(\d{4})$/;

/**
 * Reads a date given as 'YYYY-MM-DD', an ISO 8601 date-time (its date part as written, the
 * time and zone ignored) or 'MM/DD/YYYY'. Surrounding white space is ignored.
 * @returns the date, or the problem: "format" (none of these forms) or "calendar" (e.g.
 *   02/30/2000, 13/01/2000).
 */
export function parseCalendarDate(text: string): { date: CalendarDate } | { problem: DateProblem } {
  const trimmed = text.trim();
  let year: number;
  let month: number;
  let day: number;
  const iso = ISO_DATE.exec(trimmed);
  const us = iso ? null : US_DATE.exec(trimmed);
  if (iso) [year, month, day] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else if (us) [month, day, year] = [Number(us[1]), Number(us[2]), Number(us[3])];
  else return { problem: "format" };
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return { problem: "calendar" };
  return { date: { year, month, day } };
}

/** 'YYYY-MM-DD' (the `date` column's text form). */
export function formatDate(date: CalendarDate): string {
  return `${String(date.year).padStart(4, "0")}-${String(date.month).padStart(2, "0")}-${String(date.day).padStart(2, "0")}`;
}
