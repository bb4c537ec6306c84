// Positions (docs/venues.md "The business side"): the centre of a US ZIP code from the `zipcodes`
// package, held as a compact table once the package has been read and dropped (services/shared/places.ts).
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { zipCentre, type Position } from "../../services/shared/places";

const require = createRequire(import.meta.url);
const packageDir = path.dirname(require.resolve("zipcodes/package.json")) + path.sep;
const packageFiles = () => Object.keys(require.cache).filter((file) => file.startsWith(packageDir));

interface ZipEntry {
  latitude: number;
  longitude: number;
  country: string;
}

/** The package's own answer, read the way the product read it before the table: `lookup`, US only. */
function packageCentre(lookup: (zip: string) => ZipEntry | undefined, zip: string): Position | undefined {
  const entry = lookup(zip);
  return entry && entry.country === "US" ? { latitude: entry.latitude, longitude: entry.longitude } : undefined;
}

describe("zipCentre", () => {
  // First in the file: nothing else has loaded the package yet, so what the cache holds afterwards is the table's doing.
  it("leaves no file of the zipcodes package in require.cache after the first call", () => {
    expect(packageFiles()).toEqual([]);
    expect(zipCentre("98101")).toEqual({ latitude: 47.6114, longitude: -122.3305 });
    expect(packageFiles()).toEqual([]);
  });

  it("gives the package's own centre for every 5-digit code, and undefined where the package has none", () => {
    const { lookup } = require("zipcodes") as { lookup(zip: string): ZipEntry | undefined };
    for (const file of packageFiles()) delete require.cache[file];
    for (const zip of ["98101", "10001", "90210", "60601", "00501"]) {
      expect(zipCentre(zip), zip).toEqual(packageCentre(lookup, zip));
      expect(zipCentre(zip), zip).toBeDefined();
    }
    // Every code from 00000 to 99999 (42,555 known): compared in bulk, one expectation for the lot.
    const differences: string[] = [];
    let known = 0;
    for (let code = 0; code < 100_000; code++) {
      const zip = String(code).padStart(5, "0");
      const expected = packageCentre(lookup, zip);
      const actual = zipCentre(zip);
      if (expected) known++;
      if (actual?.latitude !== expected?.latitude || actual?.longitude !== expected?.longitude || (actual === undefined) !== (expected === undefined)) {
        differences.push(`${zip}: ${JSON.stringify(actual)} ≠ ${JSON.stringify(expected)}`);
      }
    }
    expect(differences.slice(0, 10)).toEqual([]);
    expect(known).toBeGreaterThan(40_000);
  });

  it("gives undefined for unknown, malformed and Canadian codes", () => {
    for (const zip of ["00000", "99999", "", "9810", "981011", "98101-1234", " 98101", "98101 ", "9810a", "ABCDE", "T0A", "T0A 1A0", "M5V3L9", "１２３４５"]) {
      expect(zipCentre(zip), JSON.stringify(zip)).toBeUndefined();
    }
  });
});
