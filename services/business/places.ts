// Where a US ZIP code is (docs/venues.md "Positions"): the centre of each 5-digit ZIP code from the
// `zipcodes` package (BSD licence; US data from federalgovernmentzipcodes.us), loaded on first use
// (about 9 MB of heap), so a service that never needs a position never holds the table.
import { createRequire } from "node:module";

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
