/**
 * The zone every time is shown in (docs/architecture/behaviour.md §4 "One clock"), first found of:
 * 1. the zone chosen in My Settings on this device (the `sw_time_zone` cookie, one year; Wipe forgets it);
 * 2. the browser's own zone, in the `tz` cookie: the boot script in root.tsx posts the zone to
 *    /timezone when JavaScript runs and it differs from the one the page was rendered with, and the
 *    route answers with the cookie (made like every other, docs/security/accounts.md "Cookies");
 * 3. the zone of the profile's postal code (US ZIP codes and Canadian postal codes), kept in the session
 *    when the profile is read or saved;
 * 4. DEFAULT_TIME_ZONE.
 */
import type { RouterContextProvider } from "react-router";
import { isTimeZone } from "~/dates";
import { getConfig } from "./config.server";
import { appCookie } from "./cookies.server";
import postalTimeZones from "./data/postal-time-zones.json";
import { sessionOf } from "./session.server";

const yearS = 365 * 24 * 60 * 60;
// The browser's zone: set by /timezone from what the boot script posts. Not signed, like the chosen
// zone (any zone is the browser's to report); what is read back is checked.
const browserZoneCookie = () => appCookie("tz", { maxAge: yearS });

/** The browser-zone cookie's name as browsers send it (`tz`, or with its `__Host-` or `__Secure-` prefix over https). */
export function browserTimeZoneCookieName(): string {
  return browserZoneCookie().name;
}

/** Set-Cookie value that keeps `zone` (checked with isTimeZone first) as the browser's zone, for a year. */
export function rememberBrowserTimeZone(zone: string): Promise<string> {
  return browserZoneCookie().serialize(zone);
}

/**
 * The Set-Cookie value that removes the `tz` cookie the boot script itself wrote before the server
 * set it (path `BASE_PATH` with its slash, no flags), or null where the server's cookie is that same
 * cookie (plain http at the root) and must not be removed.
 */
export function forgetScriptTimeZoneCookie(): string | null {
  const { BASE_PATH, basePrefix } = getConfig();
  const scriptPath = `${basePrefix}/`;
  if (browserTimeZoneCookieName() === "tz" && scriptPath === BASE_PATH) return null;
  return `tz=; Path=${scriptPath}; Max-Age=0; SameSite=Lax`;
}
// The chosen zone is no secret and grants nothing, so it is not signed; what is read back is checked.
const chosenZoneCookie = () => appCookie("sw_time_zone", { maxAge: yearS });

/** The chosen-zone cookie's name as browsers send it (with its `__Host-` or `__Secure-` prefix over https). */
export function chosenTimeZoneCookieName(): string {
  return chosenZoneCookie().name;
}

/** Where the zone of a request came from, in the order they are tried. */
export type TimeZoneSource = "setting" | "browser" | "postalCode" | "default";

/** The zone of a request and where it came from. */
export interface Clock {
  /** An IANA zone name, e.g. `America/Phoenix`. */
  timeZone: string;
  source: TimeZoneSource;
}

/** The zones a person can choose in My Settings: the runtime's canonical IANA zones, plus UTC. */
export const selectableTimeZones: readonly string[] = [...Intl.supportedValuesOf("timeZone"), "UTC"];
const selectable = new Set(selectableTimeZones);

/** True when `zone` is one of the zones a person can choose. */
export function isSelectableTimeZone(zone: unknown): zone is string {
  return typeof zone === "string" && selectable.has(zone);
}

/** The zone chosen in My Settings on this device, or null for Automatic. */
export async function chosenTimeZone(request: Request): Promise<string | null> {
  const value = await chosenZoneCookie().parse(request.headers.get("Cookie"));
  return isSelectableTimeZone(value) ? value : null;
}

/** Set-Cookie value that keeps `zone` as this device's choice, or (null) goes back to Automatic. */
export function rememberTimeZone(zone: string | null): Promise<string> {
  return zone === null ? chosenZoneCookie().serialize("", { maxAge: 0 }) : chosenZoneCookie().serialize(zone);
}

/**
 * The zone the browser reported (the `tz` cookie /timezone set), or null without JavaScript, before
 * the cookie arrived, or for a value that is not a zone the runtime knows (a forged cookie).
 */
export async function browserTimeZone(request: Request): Promise<string | null> {
  const value: unknown = await browserZoneCookie().parse(request.headers.get("Cookie"));
  return typeof value === "string" && isTimeZone(value) ? value : null;
}

/**
 * The zone of a request (the order in the module comment). `context` without a session (an
 * anonymous page) skips the postal code.
 */
export async function clockOf(request: Request, context: Readonly<RouterContextProvider>): Promise<Clock> {
  const chosen = await chosenTimeZone(request);
  if (chosen) return { timeZone: chosen, source: "setting" };
  const browser = await browserTimeZone(request);
  if (browser) return { timeZone: browser, source: "browser" };
  const postal = sessionOf(context).get("postalTimeZone");
  if (isTimeZone(postal)) return { timeZone: postal, source: "postalCode" };
  return { timeZone: getConfig().DEFAULT_TIME_ZONE, source: "default" };
}

/** The IANA zone to show this request's times in (`clockOf` without its source). */
export async function timeZoneOf(request: Request, context: Readonly<RouterContextProvider>): Promise<string> {
  return (await clockOf(request, context)).timeZone;
}

type Ranges = ReadonlyArray<readonly [string, number]>;

/** The zone index of the last range starting at or before `code` (ranges sorted by their first code), or -1. */
function rangeZone(ranges: Ranges, code: string): number {
  let low = 0;
  let high = ranges.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const range = ranges[middle] as readonly [string, number];
    if (range[0] <= code) {
      found = range[1];
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found;
}

/**
 * The time zone of a postal code: a US ZIP code (`85001`, `85001-1234`) or a Canadian postal code
 * (`T2P 1J9`, by its first three characters), else null. From app/server/data/postal-time-zones.json,
 * written by scripts/postal-time-zones.ts from the `zipcodes` positions and `@photostructure/tz-lookup`.
 */
export function postalCodeTimeZone(postalCode: string): string | null {
  const code = postalCode.trim().toUpperCase().replace(/\s+/g, "");
  let index = -1;
  if (/^\d{5}(?:-?\d{4})?$/.test(code)) index = rangeZone(postalTimeZones.us as unknown as Ranges, code.slice(0, 5));
  else if (/^[A-Z]\d[A-Z]\d[A-Z]\d$/.test(code)) index = rangeZone(postalTimeZones.ca as unknown as Ranges, code.slice(0, 3));
  const zone = index >= 0 ? postalTimeZones.zones[index] : undefined;
  return isTimeZone(zone) ? zone : null;
}

/** Keeps the zone of the profile's postal code in the session (read when no other source gives one). */
export function rememberPostalTimeZone(context: Readonly<RouterContextProvider>, postalCode: string): void {
  const session = sessionOf(context);
  const zone = postalCodeTimeZone(postalCode);
  if (zone === null) {
    if (session.has("postalTimeZone")) session.unset("postalTimeZone");
  } else if (session.get("postalTimeZone") !== zone) {
    session.set("postalTimeZone", zone);
  }
}
