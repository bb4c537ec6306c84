/**
 * The zone to show times in (docs/architecture.md §4): the browser's, sent in the `tz` cookie by a small
 * script when JavaScript runs, else DEFAULT_TIME_ZONE.
 */
import { isTimeZone } from "~/dates";
import { getConfig } from "./config.server";

/** The cookie the boot script in root.tsx writes the browser's zone to (not HttpOnly: the script writes it). */
export const timeZoneCookieName = "tz";
const timeZoneCookiePattern = new RegExp(`(?:^|;\\s*)${timeZoneCookieName}=([^;]+)`);

/** The IANA time zone for this request. */
export function timeZoneOf(request: Request): string {
  const cookie = request.headers.get("Cookie") ?? "";
  const match = timeZoneCookiePattern.exec(cookie);
  const zone = match?.[1] ? decodeURIComponent(match[1]) : undefined;
  return isTimeZone(zone) ? zone : getConfig().DEFAULT_TIME_ZONE;
}
