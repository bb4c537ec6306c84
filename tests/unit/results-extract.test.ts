// docs/architecture/results-pipeline.md §5 steps 3-4 (issuer, extraction) on generated lab PDFs, for every lab and every
// variation docs/product/labs.md §10 lists: split and kerned items, shuffled content-stream order, extra
// text, a second page, standard and embedded fonts, sizes, accents, apostrophes, hyphens,
// several-word names, case; US zones across daylight-saving changes; offsets; unreadable fields.
import { describe, expect, it } from "vitest";
import { cascade } from "../../services/consumer/labs/cascade.ts";
import { harborview } from "../../services/consumer/labs/harborview.ts";
import { meridian } from "../../services/consumer/labs/meridian.ts";
import { UploadRejectedError } from "../../services/consumer/results/errors.ts";
import { extractReport, readDate, readDateTime, textLines, valuesAfter, zonedTimeToInstant } from "../../services/consumer/results/extract.ts";
import type { Extracted } from "../../services/consumer/results/extract.ts";
import { recogniseIssuer } from "../../services/consumer/results/issuer.ts";
import type { TextItem } from "../../services/consumer/results/worker.ts";
import { cascadePdf, embeddedFontAvailable, harborviewPdf, labPdf, meridianPdf } from "../fixtures/index.ts";
import type { LabId, ReportOptions, Variation } from "../fixtures/index.ts";
import { parseFixture } from "../fixtures/parse.ts";

const COLLECTED = new Date("2026-11-20T16:15:00Z");

async function read(lab: LabId, o: ReportOptions): Promise<Extracted & { labId: string }> {
  const pdf = await parseFixture(await labPdf(lab, o));
  const found = recogniseIssuer(pdf);
  return { ...extractReport(pdf.page1.items, found), labId: found.id };
}

function rejection(fn: () => unknown): UploadRejectedError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(UploadRejectedError);
    return err as UploadRejectedError;
  }
  throw new Error("expected a rejection");
}

// ---------------------------------------------------------------- layout

describe("text lines by position", () => {
  const item = (str: string, x: number, y: number, width: number, size = 10): TextItem => ({ str, x, y, width, size });

  it("orders items by position, not by content-stream order; splits columns into runs", () => {
    const items = [
      item("Negative", 220, 600, 40),
      item("Result", 60, 600, 28),
      item("Surname", 60, 622, 36),
      item("Berg", 262, 622, 20),
      item("van der", 220, 622, 40),
    ];
    expect(textLines(items)).toEqual([
      { y: 622, runs: ["Surname", "van der Berg"] },
      { y: 600, runs: ["Result", "Negative"] },
    ]);
  });

  it("joins kerned pieces without a space, word gaps with one, and tolerates baseline jitter", () => {
    const items = [item("Jo", 100, 500, 10), item("sé", 110.6, 500.4, 10), item("María", 123.5, 499.8, 25)];
    expect(textLines(items)[0]?.runs).toEqual(["José María"]);
  });

  it("takes the value after a label in the same run or in the next run, with label boundaries", () => {
    const lines = textLines([
      item("Results relate only to the sample", 60, 700, 150),
      item("Result", 60, 680, 28),
      item("Void", 220, 680, 20),
      item("Result: NOT DETECTED", 60, 660, 110),
      item("P a t i e n t  Name:", 60, 640, 80),
      item("DOE, JANE", 200, 640, 50),
    ]);
    // "Result" is a whole word: not the start of "Results", nor of "Result:".
    expect(valuesAfter(lines, "Result")).toEqual(["Void"]);
    expect(valuesAfter(lines, "Result:")).toEqual(["NOT DETECTED"]);
    expect(valuesAfter(lines, "Patient Name:")).toEqual(["DOE, JANE"]);
  });
});

// ---------------------------------------------------------------- every lab, every variation

const PEOPLE = [
  { firstName: "José", middleNames: "María", lastName: "O'Brien-Smith", dob: "1990-03-04" },
  { firstName: "Zoë", lastName: "van der Berg", dob: "1985-12-31" },
  { firstName: "Mary Ann", lastName: "Ångström", dob: "2000-02-29" },
];

const VARIATIONS: [string, Variation][] = [
  ["plain", {}],
  ["values split per word", { split: "words" }],
  ["values split in character runs", { split: "chars" }],
  ["kerned values (TJ)", { kerning: true }],
  ["shuffled content stream", { shuffle: 11 }],
  ["extra text and a second page", { extraText: true, secondPage: true }],
  ["everything at once", { split: "chars", kerning: true, shuffle: 3, extraText: true, secondPage: true }],
  ["small font", { fontSize: 7 }],
  ["large font", { fontSize: 16 }],
  ["lower-case names", { nameCase: "lower" }],
  ["upper-case names", { nameCase: "upper" }],
];

const EXPECTED_CASE: Record<LabId, "upper" | "as-given"> = { harborview: "upper", meridian: "as-given", cascade: "as-given" };

function printedName(text: string, lab: LabId, variation: Variation): string {
  const mode = variation.nameCase ?? EXPECTED_CASE[lab];
  return mode === "upper" ? text.toUpperCase() : mode === "lower" ? text.toLowerCase() : text;
}

describe.each(["harborview", "meridian", "cascade"] as LabId[])("%s", (lab) => {
  it.each(VARIATIONS)("reads every field: %s", async (_name, variation) => {
    for (const person of PEOPLE) {
      const r = await read(lab, { ...person, collectedAt: COLLECTED, variation });
      const given = person.middleNames ? `${person.firstName} ${person.middleNames}` : person.firstName;
      expect(r.labId).toBe(lab);
      expect(r.givenNames).toBe(printedName(given, lab, variation));
      expect(r.lastName).toBe(printedName(person.lastName, lab, variation));
      expect(r.dob).toBe(person.dob);
      expect(r.collectedAt.toISOString()).toBe(COLLECTED.toISOString());
      expect(r.method).toBe("NAAT");
      expect(r.outcome).toBe("Negative");
    }
  });

  it.skipIf(!embeddedFontAvailable())("reads an embedded TrueType font, split and shuffled", async () => {
    const r = await read(lab, { ...PEOPLE[0]!, collectedAt: COLLECTED, variation: { font: "embedded", split: "chars", shuffle: 5, extraText: true } });
    expect(r.givenNames).toBe(printedName("José María", lab, {}));
    expect(r.lastName).toBe(printedName("O'Brien-Smith", lab, {}));
    expect(r.dob).toBe("1990-03-04");
  });

  it("reads each test kind and each result word", async () => {
    const person = PEOPLE[1]!;
    const methods = { harborview: ["NAAT", "antigen"], meridian: ["NAAT", "antigen"], cascade: ["NAAT", "antigen", "molecular"] } as const;
    for (const method of methods[lab]) {
      for (const result of ["negative", "positive", "inconclusive"] as const) {
        const r = await read(lab, { ...person, collectedAt: COLLECTED, method, result });
        expect(r.method).toBe(method === "antigen" ? "antigen" : "NAAT");
        expect(r.outcome).toBe({ negative: "Negative", positive: "Positive", inconclusive: "Inconclusive" }[result]);
      }
    }
  });

  it("refuses a report missing a field or with a value it cannot read, naming the field", async () => {
    const base = { ...PEOPLE[0]!, collectedAt: COLLECTED };
    const cases: [Partial<ReportOptions>, string][] = [
      [{ omit: ["name"] }, "patient name"],
      [{ omit: ["dob"] }, "date of birth"],
      [{ raw: { dob: "31/31/1990" } }, "date of birth"],
      [{ omit: ["collected"] }, "specimen collection time"],
      [{ raw: { collected: "last Tuesday" } }, "specimen collection time"],
      [{ raw: { test: "Influenza A/B" } }, "test name"],
      [{ raw: { result: "Pending" } }, "result"],
    ];
    for (const [change, field] of cases) {
      const pdf = await parseFixture(await labPdf(lab, { ...base, ...change }));
      const err = rejection(() => extractReport(pdf.page1.items, recogniseIssuer(pdf)));
      expect(err.reason).toBe("unreadable");
      expect(err.consumerMessage).toContain(field);
    }
  });
});

// ---------------------------------------------------------------- times and zones

describe("collection times", () => {
  const person = { firstName: "Ada", lastName: "Lovelace", dob: "1990-12-10" };

  it("Harborview: US zones with daylight saving, on the spring-forward day in ET", async () => {
    // 8 March 2026: 02:00 EST jumps to 03:00 EDT (07:00 UTC).
    const before = new Date("2026-03-08T06:30:00Z"); // 01:30 EST
    const after = new Date("2026-03-08T07:30:00Z"); // 03:30 EDT
    expect((await read("harborview", { ...person, collectedAt: before, zone: "ET" })).collectedText).toBe("03/08/2026 01:30 AM ET");
    expect((await read("harborview", { ...person, collectedAt: after, zone: "ET" })).collectedText).toBe("03/08/2026 03:30 AM ET");
    expect((await read("harborview", { ...person, collectedAt: before, zone: "ET" })).collectedAt).toEqual(before);
    expect((await read("harborview", { ...person, collectedAt: after, zone: "ET" })).collectedAt).toEqual(after);
    for (const zone of ["CT", "MT", "PT"] as const) {
      const summer = new Date("2026-07-04T19:05:00Z");
      expect((await read("harborview", { ...person, collectedAt: summer, zone })).collectedAt).toEqual(summer);
    }
  });

  it("reads US wall times around both daylight-saving changes; the earlier instant when in doubt", () => {
    const zones = harborview.collected.zones;
    const at = (text: string) => readDateTime(text, "MM/DD/YYYY hh:mm AM ZONE", zones)?.toISOString();
    expect(at("03/08/2026 01:59 AM ET")).toBe("2026-03-08T06:59:00.000Z");
    expect(at("03/08/2026 03:00 AM ET")).toBe("2026-03-08T07:00:00.000Z");
    // 02:30 does not exist that day: the earlier reading (as EDT).
    expect(at("03/08/2026 02:30 AM ET")).toBe("2026-03-08T06:30:00.000Z");
    // 1 November 2026: 02:00 EDT falls back to 01:00 EST; 01:30 happens twice, the first (EDT) is taken.
    expect(at("11/01/2026 01:30 AM ET")).toBe("2026-11-01T05:30:00.000Z");
    expect(at("11/01/2026 02:30 AM ET")).toBe("2026-11-01T07:30:00.000Z");
    expect(at("11/01/2026 12:05 AM PT")).toBe("2026-11-01T07:05:00.000Z");
    expect(at("11/01/2026 12:05 PM pt")).toBe("2026-11-01T20:05:00.000Z");
    expect(at("07/04/2026 11:59 PM CT")).toBe("2026-07-05T04:59:00.000Z");
    expect(at("01/15/2026 07:00 AM MT")).toBe("2026-01-15T14:00:00.000Z");
    for (const bad of ["13/01/2026 01:00 AM ET", "02/30/2026 01:00 AM ET", "03/08/2026 13:30 PM ET", "03/08/2026 00:30 AM ET", "03/08/2026 01:30 AM GMT", "03/08/2026 01:30 ET"]) {
      expect(at(bad), bad).toBeUndefined();
    }
    expect(zonedTimeToInstant(Date.UTC(2026, 2, 8, 12), "America/Los_Angeles").toISOString()).toBe("2026-03-08T19:00:00.000Z");
  });

  it("Meridian: local time with its UTC offset (GMT and BST)", async () => {
    const winter = new Date("2026-01-20T08:15:00Z");
    const summer = new Date("2026-07-20T08:15:00Z");
    const w = await read("meridian", { ...person, collectedAt: winter });
    const s = await read("meridian", { ...person, collectedAt: summer });
    expect(w.collectedText).toBe("2026-01-20 08:15 (+00:00)");
    expect(s.collectedText).toBe("2026-07-20 09:15 (+01:00)");
    expect([w.collectedAt, s.collectedAt]).toEqual([winter, summer]);
    expect(readDateTime("2026-07-20 09:15 (-05:30)", meridian.collected.format)?.toISOString()).toBe("2026-07-20T14:45:00.000Z");
    expect(readDateTime("2026-07-20 09:15", meridian.collected.format)).toBeNull();
  });

  it("Cascade: ISO 8601 with an offset or Z", async () => {
    const r = await read("cascade", { ...person, collectedAt: COLLECTED });
    expect(r.collectedText).toBe("2026-11-20T08:15:00-08:00");
    expect(r.collectedAt).toEqual(COLLECTED);
    const f = cascade.collected.format;
    expect(readDateTime("2026-11-20T16:15:00Z", f)?.toISOString()).toBe("2026-11-20T16:15:00.000Z");
    expect(readDateTime("2026-11-20T09:15:00.250+0100", f)?.toISOString()).toBe("2026-11-20T08:15:00.000Z");
    expect(readDateTime("2026-11-20T08:15:00", f)).toBeNull();
    expect(readDateTime("2026-11-31T08:15:00Z", f)).toBeNull();
  });
});

describe("dates of birth", () => {
  it("reads each lab's format and refuses impossible dates", () => {
    expect(readDate("03/04/1990", harborview.dob.format)).toEqual({ year: 1990, month: 3, day: 4 });
    expect(readDate("03/04/1990", meridian.dob.format)).toEqual({ year: 1990, month: 4, day: 3 });
    expect(readDate("March 4, 1990", cascade.dob.format)).toEqual({ year: 1990, month: 3, day: 4 });
    expect(readDate("march 4 , 1990", cascade.dob.format)).toEqual({ year: 1990, month: 3, day: 4 });
    expect(readDate("February 29, 2001", cascade.dob.format)).toBeNull();
    expect(readDate("Marzo 4, 1990", cascade.dob.format)).toBeNull();
    expect(readDate("04/31/1990", harborview.dob.format)).toBeNull();
    expect(readDate("1990-03-04", harborview.dob.format)).toBeNull();
  });
});

describe("issuer", () => {
  it("recognises each lab by its page-1 texts whatever the layout variation", async () => {
    const person = PEOPLE[2]!;
    for (const lab of ["harborview", "meridian", "cascade"] as LabId[]) {
      const pdf = await parseFixture(await labPdf(lab, { ...person, collectedAt: COLLECTED, variation: { shuffle: 2, split: "chars" } }));
      expect(recogniseIssuer(pdf).id).toBe(lab);
    }
  });

  it("needs the lab's own software, not only its texts", async () => {
    const o = { ...PEOPLE[0]!, collectedAt: COLLECTED };
    for (const bytes of [
      await harborviewPdf({ ...o, producer: "iText 7.2", creator: "Word" }),
      await meridianPdf({ ...o, producer: "iText 7.2" }),
      await cascadePdf({ ...o, creator: "Chrome" }),
    ]) {
      const pdf = await parseFixture(bytes);
      expect(rejection(() => recogniseIssuer(pdf)).reason).toBe("printed");
    }
  });
});
