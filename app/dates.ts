/**
 * Showing instants to people (docs/architecture/behaviour.md §4 dates): windows are computed in UTC on the server
 * and shown in the user's time zone with the zone named, written for the page's language (app/i18n.ts `intlLocales`).
 */
import { intlLocales, type Language } from "./i18n";

/**
 * At most this many formatters (and zone answers) are kept: a page formats a handful of instants in
 * one zone and language, and making an `Intl.DateTimeFormat` costs far more than formatting with one
 * (bench/cpu.results.md). A zone is whatever a cookie names, spelled any way the runtime
 * accepts (`america/phoenix`), so the keep is bounded and starts afresh when full.
 */
const keptMax = 500;

/** `make(key)`, kept under `key` in `kept` (emptied when it reaches `keptMax`). */
function keptOr<T>(kept: Map<string, T>, key: string, make: () => T): T {
  const found = kept.get(key);
  if (found !== undefined) return found;
  const made = make();
  if (kept.size >= keptMax) kept.clear();
  kept.set(key, made);
  return made;
}

const zoneAnswers = new Map<string, boolean>();

/** True when `timeZone` is an IANA zone this runtime knows (any spelling `Intl` accepts). */
export function isTimeZone(timeZone: string | undefined): timeZone is string {
  if (!timeZone || timeZone.length > 64) return false;
  return keptOr(zoneAnswers, timeZone, () => {
    try {
      new Intl.DateTimeFormat("en-US", { timeZone });
      return true;
    } catch {
      return false;
    }
  });
}

const instantFormats = new Map<string, Intl.DateTimeFormat>();

/** e.g. "Sat, Nov 21, 2026, 3:15 PM EST" for an ISO instant in `timeZone` ("sáb, 21 de nov de 2026, 3:15 p.m. EST" in Spanish). */
export function formatInstant(iso: string, timeZone: string, language: Language = "en"): string {
  const format = keptOr(
    instantFormats,
    `${language} ${timeZone}`,
    () =>
      new Intl.DateTimeFormat(intlLocales[language], {
        timeZone,
        weekday: "short",
        year: "numeric",
        month: "short",
        day: "numeric",
        hour: "numeric",
        minute: "2-digit",
        timeZoneName: "short",
      }),
  );
  return keptOr(formattedInstants, `${language} ${timeZone} ${iso}`, () => format.format(new Date(iso)));
}

/**
 * Instants already written, by language, zone and ISO text: a window's two dates are the same on
 * every page view until the window changes, and writing one with its zone's name costs ICU a zone
 * lookup each time (bench/README.md "CPU per request").
 */
const formattedInstants = new Map<string, string>();

/** How the upstream writes an instant inside its texts: `2026-11-20 16:15 UTC` (docs/architecture/behaviour.md §4 "One clock"). */
const utcTextPattern = /\b(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}) UTC\b/g;

/**
 * An upstream text (a consumerMessage, a safeWindowDescription) with each `YYYY-MM-DD HH:MM UTC` in it
 * written in `timeZone` as `formatInstant` writes it; the rest unchanged.
 */
export function localizeTimes(text: string, timeZone: string, language: Language = "en"): string {
  return text.replace(utcTextPattern, (written, date: string, time: string) => {
    const instant = `${date}T${time}:00Z`;
    return Number.isNaN(Date.parse(instant)) ? written : formatInstant(instant, timeZone, language);
  });
}

/** YYYY-MM-DD (or an ISO datetime) → MM/DD/YYYY for display and inputs (docs/product/data.md §5 mm/dd/yyyy). */
export function toUsDate(isoDate: string): string {
  const [year, month, day] = isoDate.slice(0, 10).split("-");
  return `${month}/${day}/${year}`;
}

const monthDayFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * A birthday without its year, as a pass carries it (`MM-DD`, docs/product/pass.md), written for the
 * page's language: "December 10" ("10 de diciembre"). Undefined for text that is not a month and day.
 */
export function formatMonthDay(monthDay: string, language: Language = "en"): string | undefined {
  const match = /^(\d{2})-(\d{2})$/.exec(monthDay);
  if (!match) return undefined;
  // A leap year, so that 02-29 is a day.
  const day = new Date(Date.UTC(2000, Number(match[1]) - 1, Number(match[2])));
  if (day.getUTCMonth() !== Number(match[1]) - 1) return undefined;
  return keptOr(monthDayFormats, language, () => new Intl.DateTimeFormat(intlLocales[language], { timeZone: "UTC", month: "long", day: "numeric" })).format(day);
}
