// Positions (docs/venues.md "The business side"): where a US ZIP code is, the centre of each 5-digit ZIP code
// from the `zipcodes` package (BSD licence; US data from federalgovernmentzipcodes.us), loaded on
// first use (about 9 MB of heap), so a service that never needs a position never holds the table; and
// distances between positions, by geolib (MIT; the haversine distance on the WGS 84 mean radius).
// The business API places its locations with it, the consumer API searches near a ZIP code.
import { createRequire } from "node:module";
import { getBoundsOfDistance, getDistance } from "geolib";

interface ZipEntry {
  zip: string;
  latitude: number;
  longitude: number;
  city: string;
  state: string;
  country: string;
}

let table: { lookup(zip: string): ZipEntry | undefined } | undefined;

/** A position in degrees (WGS 84). */
export interface Position {
  latitude: number;
  longitude: number;
}

/**
 * The centre of a US ZIP code, e.g. "98101" → { latitude: 47.6114, longitude: -122.3305 };
 * undefined for a code the table does not know (or a Canadian one).
 */
export function zipCentre(zip: string): Position | undefined {
  if (!/^\d{5}$/.test(zip)) return undefined;
  table ??= createRequire(import.meta.url)("zipcodes") as { lookup(zip: string): ZipEntry | undefined };
  const entry = table.lookup(zip);
  if (!entry || entry.country !== "US") return undefined;
  return { latitude: entry.latitude, longitude: entry.longitude };
}

/** Metres in a statute mile. */
const METRES_PER_MILE = 1609.344;

/** The distance between two positions in miles (great circle, 1 m accuracy). */
export function distanceMiles(from: Position, to: Position): number {
  return getDistance(from, to, 1) / METRES_PER_MILE;
}

/** The south-west and north-east corners of the box that holds every position within `miles` of `centre`. */
export function boundsWithin(centre: Position, miles: number): { south: number; west: number; north: number; east: number } {
  const [southWest, northEast] = getBoundsOfDistance(centre, miles * METRES_PER_MILE) as [Position, Position];
  return { south: southWest.latitude, west: southWest.longitude, north: northEast.latitude, east: northEast.longitude };
}
