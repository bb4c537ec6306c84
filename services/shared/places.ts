// Positions (docs/venues.md "The business side"): where a US ZIP code is, the centre of each 5-digit ZIP code
// from the `zipcodes` package (BSD licence; US data from federalgovernmentzipcodes.us); and distances
// between positions, by geolib (MIT; the haversine distance on the WGS 84 mean radius).
// The business API places its locations with it, the consumer API searches near a ZIP code.
//
// The package keeps every US and Canadian code as an object of strings. Measured on Node 24 (heap used
// after two gc(), against the same run without a lookup): 21.5 MiB once loaded, of which its objects,
// 8.9 MiB, stay for the life of the thread and the rest (its 4.9 MB lib/codes.js source, its compiled
// code) until V8 flushes code it no longer runs. So the first lookup copies the US centres into three
// typed arrays (0.81 MiB, outside the V8 heap) and drops every file of the package from Node's require
// cache, keeping no reference to its objects: a service that never needs a position holds nothing, one
// that does holds the arrays alone.
import { createRequire } from "node:module";
import { dirname, sep } from "node:path";
import { getBoundsOfDistance, getDistance } from "geolib";

/** What this module reads of the `zipcodes` package: every code (US 5-digit, Canadian 3-character) to its entry. */
interface ZipcodesPackage {
  codes: Record<string, { latitude: number; longitude: number; country: string }>;
}

/**
 * The US ZIP code centres: `codes` ascending (the 5-digit code as a number, "00501" → 501), and at the
 * same index its centre's `latitudes` and `longitudes` in degrees (WGS 84), the package's numbers as they are.
 */
interface ZipTable {
  codes: Int32Array;
  latitudes: Float64Array;
  longitudes: Float64Array;
}

let table: ZipTable | undefined;

/** How many 5-digit codes there can be (00000-99999). */
const ZIP_CODES = 100_000;

/**
 * Reads the `zipcodes` package once into a {@link ZipTable} (its US entries: 42,555 codes in 8.0.0),
 * then deletes every file of the package from `require.cache` (also when the copy throws) and keeps
 * no reference to its objects, so the collector can take its module, its entries and its source.
 * Measured on Node 24 (`--max-old-space-size=384`; heap used after the first `zipCentre` minus the
 * same run without it): +0.04 MiB of heap and +0.81 MiB of array buffers once V8 has run its own full
 * collections (or a last-resort gc()), against +8.9 MiB of heap with the package kept loaded; right
 * after it, two plain gc() still find +14.6 MiB (+21.5 kept loaded): V8's compilation cache holds the
 * package's source and compiled code (none with `--no-compilation-cache`) until V8 flushes code it
 * no longer runs, which its own collections did and 60 forced gc() in a row did not. It takes about
 * 200 ms, as long as loading the package alone did (196-206 ms against 213-217 ms).
 * Throws what `require` throws when the package is missing.
 */
function loadZipTable(): ZipTable {
  const require = createRequire(import.meta.url);
  const packageDir = dirname(require.resolve("zipcodes/package.json")) + sep;
  try {
    const { codes } = require("zipcodes") as ZipcodesPackage;
    // Indexed by the code itself (0-99999), so reading them in order sorts them without a sort.
    const known = new Uint8Array(ZIP_CODES);
    const latitudes = new Float64Array(ZIP_CODES);
    const longitudes = new Float64Array(ZIP_CODES);
    let count = 0;
    for (const zip of Object.keys(codes)) {
      const entry = codes[zip]!;
      if (!/^\d{5}$/.test(zip) || entry.country !== "US") continue;
      const code = Number(zip);
      if (known[code] === 0) count++;
      known[code] = 1;
      latitudes[code] = entry.latitude;
      longitudes[code] = entry.longitude;
    }
    const result: ZipTable = { codes: new Int32Array(count), latitudes: new Float64Array(count), longitudes: new Float64Array(count) };
    for (let code = 0, i = 0; code < ZIP_CODES; code++) {
      if (known[code] === 0) continue;
      result.codes[i] = code;
      result.latitudes[i] = latitudes[code]!;
      result.longitudes[i] = longitudes[code]!;
      i++;
    }
    return result;
  } finally {
    for (const file of Object.keys(require.cache)) if (file.startsWith(packageDir)) delete require.cache[file];
  }
}

/** A position in degrees (WGS 84). */
export interface Position {
  latitude: number;
  longitude: number;
}

/**
 * The centre of a US ZIP code in degrees (WGS 84), e.g. "98101" → { latitude: 47.6114, longitude: -122.3305 },
 * the same numbers as the `zipcodes` package's `lookup`; undefined for a code the package does not
 * know, a Canadian code, or anything but 5 digits. The first call builds the table ({@link loadZipTable},
 * about 200 ms); later calls are a binary search (under 1 µs). Throws only if the package cannot be loaded.
 */
export function zipCentre(zip: string): Position | undefined {
  if (!/^\d{5}$/.test(zip)) return undefined;
  table ??= loadZipTable();
  const code = Number(zip);
  const { codes } = table;
  let low = 0;
  let high = codes.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const found = codes[middle]!;
    if (found === code) return { latitude: table.latitudes[middle]!, longitude: table.longitudes[middle]! };
    if (found < code) low = middle + 1;
    else high = middle - 1;
  }
  return undefined;
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
