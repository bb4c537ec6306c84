// docs/architecture/results-pipeline.md §5 steps 1-2 without HTTP: the PDF magic, what the worker reads (revisions, page
// limit, corrupt and truncated files, declared image sizes) and the originality rules
// (docs/product/labs.md §10.5), on generated fixtures.
import { describe, expect, it } from "vitest";
import { hasPdfMagic } from "../../services/consumer/results/intake.ts";
import { checkOriginality, printOrSaveProgram, readPdfDate } from "../../services/consumer/results/originality.ts";
import { declaresOversizedImage } from "../../services/consumer/results/worker.ts";
import {
  corruptPdf,
  harborviewPdf,
  imageBombPdf,
  incrementallyUpdatedPdf,
  manyPagesPdf,
  meridianPdf,
  modifiedLaterPdf,
  notPdf,
  printedPdf,
  savedAgainPdf,
  scannedPdf,
  truncatedPdf,
} from "../fixtures/index.ts";
import { parseAnswer, parseFixture } from "../fixtures/parse.ts";
import { rejectionOf } from "./support.ts";

const person = { firstName: "Ada", lastName: "Lovelace", dob: "1990-12-10" };
const o = { ...person, collectedAt: new Date("2026-11-20T16:15:00Z") };

/** The reason `fn` is refused with (undefined when it is not); every consumerMessage is a sentence. */
function reasonOf(fn: () => unknown): string | undefined {
  const err = rejectionOf(fn);
  if (err) expect(err.consumerMessage).toMatch(/\.$/);
  return err?.reason;
}

describe("intake", () => {
  it("wants %PDF- first, after at most white space or a byte-order mark (no 1 KiB of anything before it)", () => {
    const pdf = new TextEncoder().encode("%PDF-1.7\n");
    expect(hasPdfMagic(pdf)).toBe(true);
    expect(hasPdfMagic(new Uint8Array([...new TextEncoder().encode(" \r\n\t\f"), ...pdf]))).toBe(true);
    expect(hasPdfMagic(new Uint8Array([0xef, 0xbb, 0xbf, ...pdf]))).toBe(true);
    // Any other byte before it, NUL included, is another format's (or junk) ahead of the PDF.
    expect(hasPdfMagic(new Uint8Array([...new Uint8Array(1000), ...pdf]))).toBe(false);
    expect(hasPdfMagic(new Uint8Array([...new Uint8Array(1024), ...pdf]))).toBe(false);
    expect(hasPdfMagic(new Uint8Array([0x41, ...pdf]))).toBe(false);
    expect(hasPdfMagic(notPdf())).toBe(false);
    expect(hasPdfMagic(new Uint8Array(0))).toBe(false);
  });

  it("the worker counts revisions, refuses corrupt, truncated and over-long files, and image bombs", async () => {
    const original = await harborviewPdf(o);
    expect((await parseFixture(original)).revisions).toBe(1);
    expect((await parseFixture(await incrementallyUpdatedPdf(o))).revisions).toBe(2);
    expect(await parseAnswer(corruptPdf())).toEqual({ ok: false, reason: "corrupt" });
    expect(await parseAnswer(truncatedPdf(original))).toEqual({ ok: false, reason: "corrupt" });
    expect(await parseAnswer(await manyPagesPdf(o, 200))).toEqual({ ok: false, reason: "too_many_pages", pageCount: 200 });
    expect((await parseFixture(await manyPagesPdf(o, 20))).pageCount).toBe(20);
    const bomb = await imageBombPdf(o);
    expect(declaresOversizedImage(bomb, 16_000_000)).toBe(true);
    expect(declaresOversizedImage(bomb, 500_000_000)).toBe(false);
    expect(declaresOversizedImage(original, 1)).toBe(false);
    expect(await parseAnswer(bomb)).toEqual({ ok: false, reason: "too_complex" });
  });
});

describe("originality", () => {
  it("accepts each lab's original", async () => {
    for (const bytes of [await harborviewPdf(o), await meridianPdf({ ...o, variation: { secondPage: true } })]) {
      const pdf = await parseFixture(bytes);
      expect(() => checkOriginality(pdf)).not.toThrow();
    }
  });

  it("refuses a file without a text layer (scanned, faxed, photographed)", async () => {
    const pdf = await parseFixture(await scannedPdf(person));
    expect(pdf.page1.items).toEqual([]);
    expect(reasonOf(() => checkOriginality(pdf))).toBe("no_text");
  });

  it("refuses print-to-PDF and save-as producers", async () => {
    for (const bytes of [await printedPdf(o), await savedAgainPdf(o)]) {
      const pdf = await parseFixture(bytes);
      expect(reasonOf(() => checkOriginality(pdf))).toBe("printed");
    }
    for (const producer of ["Microsoft: Print To PDF", "GPL Ghostscript 10.02.1", "cairo 1.18.0 (https://cairographics.org)", "Skia/PDF m120", "HylaFAX"]) {
      expect(printOrSaveProgram({ producer, creator: null }), producer).toBeDefined();
    }
    for (const producer of ["iText® 7.2.5", "JasperReports Library version 6.20.6", "Qt 4.8.7"]) {
      expect(printOrSaveProgram({ producer, creator: "Harborview LIS 4.1" }), producer).toBeUndefined();
    }
  });

  it("refuses files changed after issue: an incremental update, or a ModDate over 10 minutes after creation", async () => {
    const updated = await parseFixture(await incrementallyUpdatedPdf(o));
    expect(reasonOf(() => checkOriginality(updated))).toBe("changed");
    const late = await parseFixture(await modifiedLaterPdf(o));
    expect(reasonOf(() => checkOriginality(late))).toBe("changed");
    const reported = new Date(o.collectedAt.getTime() + 20 * 3600_000);
    const tenMinutes = await parseFixture(await harborviewPdf({ ...o, reportedAt: reported, modDate: new Date(reported.getTime() + 10 * 60_000) }));
    expect(() => checkOriginality(tenMinutes)).not.toThrow();
  });

  it("reads PDF dates with and without zones", () => {
    expect(readPdfDate("D:20261120081500Z")?.toISOString()).toBe("2026-11-20T08:15:00.000Z");
    expect(readPdfDate("D:20261120001500-08'00'")?.toISOString()).toBe("2026-11-20T08:15:00.000Z");
    expect(readPdfDate("D:20261120091500+01'00")?.toISOString()).toBe("2026-11-20T08:15:00.000Z");
    expect(readPdfDate("D:2026")?.toISOString()).toBe("2026-01-01T00:00:00.000Z");
    expect(readPdfDate("yesterday")).toBeNull();
    expect(readPdfDate(null)).toBeNull();
  });
});
