// One clock (docs/architecture/behaviour.md §4): the zone of a postal code, and upstream texts' UTC times on the user's clock.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatInstant, localizeTimes } from "~/dates";
import { postalCodeTimeZone } from "~/server/timezone.server";

describe("formatInstant", () => {
  it("writes each instant for its own zone and language, the second time as the first", () => {
    const fresh = (iso: string, timeZone: string, locale: string) =>
      new Intl.DateTimeFormat(locale, { timeZone, weekday: "short", year: "numeric", month: "short", day: "numeric", hour: "numeric", minute: "2-digit", timeZoneName: "short" }).format(new Date(iso));
    const cases: [string, string, "en" | "es", string][] = [
      ["2026-11-22T16:15:00Z", "America/Phoenix", "en", "en-US"],
      ["2026-11-22T16:15:00Z", "Asia/Tokyo", "en", "en-US"],
      ["2026-11-22T16:15:00Z", "America/Phoenix", "es", "es-US"],
      ["2026-11-22T16:16:00Z", "America/Phoenix", "en", "en-US"],
    ];
    for (let round = 0; round < 2; round++) {
      for (const [iso, zone, language, locale] of cases) expect(formatInstant(iso, zone, language)).toBe(fresh(iso, zone, locale));
    }
    expect(new Set(cases.map(([iso, zone, language]) => formatInstant(iso, zone, language))).size).toBe(4);
  });
});

describe("postalCodeTimeZone", () => {
  it.each([
    ["10001", "America/New_York"],
    ["85001", "America/Phoenix"],
    ["85001-1234", "America/Phoenix"],
    ["850011234", "America/Phoenix"],
    [" 60601 ", "America/Chicago"],
    ["46201", "America/Indiana/Indianapolis"],
    ["79901", "America/Denver"],
    ["97914", "America/Boise"],
    ["94105", "America/Los_Angeles"],
    ["96813", "Pacific/Honolulu"],
    ["99501", "America/Anchorage"],
    ["00901", "America/Puerto_Rico"],
    ["T2P 1J9", "America/Edmonton"],
    ["m5v 3l9", "America/Toronto"],
    ["V6B1A1", "America/Vancouver"],
  ])("%s is in %s", (code, zone) => {
    expect(postalCodeTimeZone(code)).toBe(zone);
  });

  it.each(["", "1234", "123456", "ABCDE", "SW1A 1AA", "34001"])("%j gives none", (code) => {
    // 34001 is an APO code: the source has no position for it.
    expect(postalCodeTimeZone(code)).toBeNull();
  });

  it("reads the table scripts/postal-time-zones.ts writes from the packages (the committed file is current)", () => {
    const out = join(mkdtempSync(join(tmpdir(), "ptz-")), "table.json");
    execFileSync(process.execPath, ["scripts/postal-time-zones.ts", out], { stdio: "pipe" });
    expect(readFileSync(out, "utf8")).toBe(readFileSync("app/server/data/postal-time-zones.json", "utf8"));
  });
});

describe("localizeTimes", () => {
  it("writes each UTC time of an upstream text in the user's zone, as the rest of the page does", () => {
    const text = "Validated. Its safe window is strong until 2026-11-22 16:15 UTC and weak until 2026-11-23 16:15 UTC.";
    expect(localizeTimes(text, "America/Phoenix")).toBe(
      `Validated. Its safe window is strong until ${formatInstant("2026-11-22T16:15:00Z", "America/Phoenix")} and weak until ${formatInstant("2026-11-23T16:15:00Z", "America/Phoenix")}.`,
    );
    expect(localizeTimes("PCR (NAAT), collected 2026-11-20 16:15 UTC", "Asia/Tokyo")).toBe("PCR (NAAT), collected Sat, Nov 21, 2026, 1:15 AM GMT+9");
    expect(localizeTimes("PCR (NAAT), collected 2026-07-01 16:15 UTC", "America/New_York")).toBe("PCR (NAAT), collected Wed, Jul 1, 2026, 12:15 PM EDT");
  });

  it("leaves other text, and a time that is no real instant, as written", () => {
    expect(localizeTimes("No times here.", "Europe/Paris")).toBe("No times here.");
    expect(localizeTimes("at 2026-13-45 99:99 UTC", "Europe/Paris")).toBe("at 2026-13-45 99:99 UTC");
    expect(localizeTimes("at 2026-11-20 16:15 UTCX", "Europe/Paris")).toBe("at 2026-11-20 16:15 UTCX");
  });
});
