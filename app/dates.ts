/**
 * Showing instants to people (docs/architecture.md §4 dates): windows are computed in UTC on the server
 * and shown in the user's time zone with the zone named.
 */

/** True when `timeZone` is an IANA zone this runtime knows. */
export function isTimeZone(timeZone: string | undefined): timeZone is string {
  if (!timeZone || timeZone.length > 64) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** e.g. "Sat, Nov 21, 2026, 3:15 PM EST" for an ISO instant in `timeZone`. */
export function formatInstant(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat("en-US", {
    timeZone,
    weekday: "short",
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZoneName: "short",
  }).format(new Date(iso));
}

/** YYYY-MM-DD (or an ISO datetime) → MM/DD/YYYY for display and inputs (docs/product.md §5 mm/dd/yyyy). */
export function toUsDate(isoDate: string): string {
  const [year, month, day] = isoDate.slice(0, 10).split("-");
  return `${month}/${day}/${year}`;
}
