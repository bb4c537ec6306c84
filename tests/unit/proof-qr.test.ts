// QR codes on a lab report (results/worker.ts "render" with codesPages): found and decoded by
// zxing-wasm in the worker pool, on the pages drawn at the image's scale, offline. Real worker threads.
import { PDFDocument } from "pdf-lib";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPdfPool } from "../../services/consumer/results/pool.ts";
import type { PdfPool } from "../../services/consumer/results/pool.ts";
import { cascadePdf, harborviewPdf, meridianPdf } from "../fixtures/index.ts";
import { dccText, testDccSigner } from "../fixtures/dcc.ts";
import { shcText, testShcIssuer } from "../fixtures/shc.ts";

const person = { firstName: "Ada", lastName: "Lovelace", dob: "1990-12-10", collectedAt: new Date("2026-11-20T16:15:00Z") };
let pool: PdfPool;

beforeAll(() => {
  pool = createPdfPool(pino({ level: "silent" }), { threads: 1 });
});
afterAll(async () => {
  await pool.close();
});

describe("renderWithCodes", () => {
  it("decodes a SMART Health Card on page 1 and an EU DCC on page 2, with page 1's image", async () => {
    const shc = await shcText(await testShcIssuer(), { givenNames: ["Ada"], lastName: "Lovelace", dob: "1990-12-10", collectedAt: person.collectedAt });
    const dcc = dccText(await testDccSigner(), { givenNames: "Ada", lastName: "Lovelace", dob: "1990-12-10", collectedAt: person.collectedAt });
    const pdf = await harborviewPdf({ ...person, variation: { secondPage: true, qr: [{ text: shc }, { text: dcc, page: 2 }] } });
    const drawn = await pool.renderWithCodes(pdf, 3);
    expect(drawn.codes).toEqual([shc, dcc]);
    expect(Buffer.from(drawn.jpeg).subarray(0, 2).toString("hex")).toBe("ffd8");
    expect(Math.max(drawn.width, drawn.height)).toBeLessThanOrEqual(1250);
    // Only the pages asked for are looked at.
    expect((await pool.renderWithCodes(pdf, 1)).codes).toEqual([shc]);
  });

  it("draws a page declared huge within the pixel cap: answered in seconds, not gigabytes", async () => {
    const doc = await PDFDocument.create();
    doc.addPage([612, 792]).drawText("Harborview", { x: 50, y: 700, size: 12 });
    doc.addPage([14_400, 14_400]);
    const started = performance.now();
    const drawn = await pool.renderWithCodes(await doc.save(), 3);
    expect(drawn.codes).toEqual([]);
    expect(performance.now() - started).toBeLessThan(4000);
  });

  it("finds every code of a page, and none on a report without", async () => {
    const pdf = await meridianPdf({ ...person, variation: { qr: [{ text: "https://example.com/a" }, { text: "HC1:NCFTEST" }] } });
    expect((await pool.renderWithCodes(pdf, 3)).codes.sort()).toEqual(["HC1:NCFTEST", "https://example.com/a"]);
    expect((await pool.renderWithCodes(await cascadePdf(person), 3)).codes).toEqual([]);
  });
});
