/**
 * Writes app/server/data/postal-time-zones.json: the IANA time zone of every US ZIP code and Canadian
 * forward sortation area (the first three characters of a postal code), the default zone of a person's
 * clock (docs/architecture/behaviour.md §4 "One clock").
 *
 * Sources (devDependencies, used only here):
 * - `zipcodes` (BSD licence): each US ZIP code's and Canadian FSA's centre, latitude and longitude (US data
 *   from federalgovernmentzipcodes.us, Canadian from AggData's sample).
 * - `@photostructure/tz-lookup` (CC0): the IANA zone at a latitude and longitude, from
 *   timezone-boundary-builder's shapes.
 *
 * The table is compact: codes in sort order, consecutive codes with the same zone merged into one range
 * `[first code, zone index]` (a code belongs to the last range starting at or before it); zone index -1
 * where the source has no position (military APO/FPO codes). About 2,600 ranges instead of 44,000 rows.
 *
 * Run: `npm run data:postal-time-zones` (rerun when the packages are updated; the file is committed, and
 * tests/unit/timezone.test.ts fails while it differs from what this script writes). An argument writes
 * the table to another path instead.
 */
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const zipcodes: { codes: Record<string, { zip: string; latitude: number; longitude: number; country: string }> } = require("zipcodes");
const tzLookup: (latitude: number, longitude: number) => string = require("@photostructure/tz-lookup");
const sources = {
  zipcodes: require("zipcodes/package.json").version as string,
  "@photostructure/tz-lookup": require("@photostructure/tz-lookup/package.json").version as string,
};

type Ranges = Array<[string, number]>;
const zones: string[] = [];

function zoneIndex(zone: string | null): number {
  if (zone === null) return -1;
  let index = zones.indexOf(zone);
  if (index < 0) index = zones.push(zone) - 1;
  return index;
}

/** The ranges of one country's codes, sorted as strings (ZIP codes are fixed-width, so that is numeric order). */
function rangesOf(country: "US" | "Canada"): Ranges {
  const entries = Object.values(zipcodes.codes)
    .filter((code) => (country === "US" ? code.country === "US" : code.country !== "US"))
    .sort((a, b) => (a.zip < b.zip ? -1 : a.zip > b.zip ? 1 : 0));
  const ranges: Ranges = [];
  for (const code of entries) {
    const located = code.latitude !== 0 || code.longitude !== 0;
    const index = zoneIndex(located ? tzLookup(code.latitude, code.longitude) : null);
    if (ranges.at(-1)?.[1] !== index) ranges.push([code.zip.toUpperCase(), index]);
  }
  return ranges;
}

const us = rangesOf("US");
const ca = rangesOf("Canada");
const out = process.argv[2] ?? fileURLToPath(new URL("../app/server/data/postal-time-zones.json", import.meta.url));
writeFileSync(out, `${JSON.stringify({ sources, zones, us, ca })}\n`);
console.log(`${zones.length} zones, ${us.length} US ranges, ${ca.length} Canadian ranges → ${out}`);
