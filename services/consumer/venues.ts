// What the consumer API asks the business API (docs/venues.md "Finding venues", "Check-in"): the
// venues near a point, for GET /search/, and whether the caller administers a location, before a
// check-in. The business API keeps the venues and the roles; the consumer API keeps people, their
// windows and their visits. Each request carries the caller's own bearer token (the app's tokens
// name both APIs), so the business API answers for the same person and applies its own rules.
// Answers are checked against contracts/business.ts.
import type { z } from "zod";
import { businessCalls, decimalText } from "../../contracts/business.ts";
import type { LocationAdministrator, LocationHit } from "../../contracts/business.ts";
import { zipCentre } from "../shared/places.ts";
import type { Position } from "../shared/places.ts";
import { BusinessUnavailableError, VenueError } from "./errors.ts";

/** Longest wait for the business API, ms. */
const BUSINESS_TIMEOUT_MS = 5_000;

export interface BusinessClient {
  /**
   * Venues within `miles` of `centre`, nearest first.
   * @throws BusinessUnavailableError; VenueError 403 when the business API refuses the token
   */
  searchLocations(authorization: string, centre: Position, miles: number): Promise<LocationHit[]>;
  /**
   * The caller's administrator check for one location (contracts/business.ts isUserLocationAdministrator).
   * @throws BusinessUnavailableError; VenueError 403 when the business API refuses the token
   */
  locationAdministrator(authorization: string, locationId: string): Promise<LocationAdministrator>;
}

/**
 * A client of the business API at `businessUrl` (no trailing slash); undefined `businessUrl` gives a
 * client whose every call is refused with 404 `no_venues` (a consumer API run without venues).
 */
export function createBusinessClient(businessUrl: string | undefined): BusinessClient {
  async function get<N extends "searchLocations" | "isUserLocationAdministrator">(name: N, authorization: string, query: Record<string, string>) {
    if (!businessUrl) throw new VenueError(404, "no_venues", "This service has no venues: it runs without a business API.");
    const call = businessCalls[name];
    let res: Response;
    try {
      res = await fetch(`${businessUrl}${call.path}?${new URLSearchParams(query)}`, {
        headers: { authorization, accept: "application/json" },
        redirect: "error",
        signal: AbortSignal.timeout(BUSINESS_TIMEOUT_MS),
      });
    } catch (err) {
      throw new BusinessUnavailableError("The business API did not answer.", { cause: err });
    }
    if (res.status === 401 || res.status === 403) throw new VenueError(403, "insufficient_scope", "The business API refused this token: it needs the business.api scope.");
    if (!res.ok) throw new BusinessUnavailableError(`The business API answered ${res.status}.`);
    const parsed = call.answer.safeParse(await res.json().catch(() => undefined));
    if (!parsed.success) throw new BusinessUnavailableError("The business API's answer does not fit its contract.");
    return parsed.data as z.output<(typeof businessCalls)[N]["answer"]>;
  }
  return {
    async searchLocations(authorization, centre, miles) {
      return get("searchLocations", authorization, { latitude: String(centre.latitude), longitude: String(centre.longitude), miles: String(miles) });
    },
    async locationAdministrator(authorization, locationId) {
      return get("isUserLocationAdministrator", authorization, { locationId });
    },
  };
}

/** A number given as query text, or undefined when it is not one. */
function numberOf(text: string | undefined): number | undefined {
  if (text === undefined || !decimalText.test(text.trim())) return undefined;
  return Number(text.trim());
}

/**
 * The point and radius of GET /search/ (docs/venues.md "Finding venues"): `miles` 1 to 100; the
 * centre of `zip` when it is given, else `latitude` and `longitude`.
 * @throws VenueError 400 invalid_request (a bad or missing radius, no zip and no complete point) or unknown_postal_code
 */
export function searchCentre(query: { latitude?: string | undefined; longitude?: string | undefined; miles: string; zip?: string | undefined }): { centre: Position; miles: number } {
  const miles = numberOf(query.miles);
  if (miles === undefined || miles < 1 || miles > 100) throw new VenueError(400, "invalid_request", "miles must be a number from 1 to 100.");
  const zip = query.zip?.trim();
  if (zip) {
    if (!/^\d{5}$/.test(zip)) throw new VenueError(400, "invalid_request", "zip must be a 5-digit US ZIP code.");
    const centre = zipCentre(zip);
    if (!centre) throw new VenueError(400, "unknown_postal_code", `${zip} is not a known US ZIP code.`);
    return { centre, miles };
  }
  const latitude = numberOf(query.latitude);
  const longitude = numberOf(query.longitude);
  if (latitude === undefined || longitude === undefined || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) {
    throw new VenueError(400, "invalid_request", "Give a 5-digit zip, or a latitude (-90 to 90) and a longitude (-180 to 180).");
  }
  return { centre: { latitude, longitude }, miles };
}
