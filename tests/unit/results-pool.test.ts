// The PDF worker pool's budgets (results/pool.ts, worker.ts; docs/architecture/results-pipeline.md §5 "The worker
// pool": a time budget and a memory limit per task, so that a malicious or huge PDF is refused
// without stalling other requests): each budget stops the task with too_complex, a fresh thread takes over, and the
// queue turns work away when full. Real worker threads, small budgets.
import { pino } from "pino";
import { afterAll, describe, expect, it, vi } from "vitest";
import { UploadRejectedError } from "../../services/consumer/results/errors.ts";
import { createPdfPool } from "../../services/consumer/results/pool.ts";
import type { PdfPool } from "../../services/consumer/results/pool.ts";
import {
  additionalActionPdf,
  decompressionBombPdf,
  embeddedFilePdf,
  fileAttachmentAnnotationPdf,
  handWrittenPdf,
  harborviewPdf,
  launchActionPdf,
  manyPagesPdf,
  onePageObjects,
  openActionJavaScriptPdf,
  resavedPdf,
} from "../fixtures/index.ts";

const o = { firstName: "Ada", lastName: "Lovelace", dob: "1990-12-10", collectedAt: new Date("2026-11-20T16:15:00Z") };
const pools: PdfPool[] = [];
const logger = pino({ level: "silent" });

afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
});

async function reasonOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(UploadRejectedError);
    return (err as UploadRejectedError).reason;
  }
  return "accepted";
}

describe("PDF worker pool", () => {
  it("stops a task over its time budget, and the next task runs on a fresh thread", async () => {
    // A generous budget for a 20 ms parse, even on a loaded machine; the bomb needs far more.
    const pool = createPdfPool(logger, { threads: 1, parseTimeoutMs: 1500, memoryLimitMb: 4096 });
    pools.push(pool);
    const good = await harborviewPdf(o);
    expect((await pool.parse(good)).pageCount).toBe(1);
    const started = performance.now();
    expect(await reasonOf(pool.parse(await decompressionBombPdf(o)))).toBe("too_complex");
    expect(performance.now() - started).toBeLessThan(8000);
    expect((await pool.parse(good)).page1.items.length).toBeGreaterThan(5);
  });

  it("stops a task over its memory budget", async () => {
    const pool = createPdfPool(logger, { threads: 1, parseTimeoutMs: 20_000, memoryLimitMb: 96 });
    pools.push(pool);
    expect(await reasonOf(pool.parse(await decompressionBombPdf(o, 256)))).toBe("too_complex");
    expect((await pool.parse(await harborviewPdf(o))).revisions).toBe(1);
  });

  it("applies the page limit and turns work away when the queue is full", async () => {
    const pool = createPdfPool(logger, { threads: 1, maxQueue: 1, maxPages: 3 });
    pools.push(pool);
    expect(await reasonOf(pool.parse(await manyPagesPdf(o, 4)))).toBe("too_many_pages");
    const good = await harborviewPdf(o);
    const answers = await Promise.all([0, 1, 2].map(() => reasonOf(pool.parse(good))));
    expect(answers.sort()).toEqual(["accepted", "accepted", "busy"]);
    const image = await pool.render(good);
    expect(image.width).toBeLessThanOrEqual(1250);
    expect(image.height).toBe(999);
  });

  it("starts no thread before the first task, starts one for it, and stops it once idle (on demand, the default)", async () => {
    const pool = createPdfPool(logger, { threads: 2, idleStopMs: 300 });
    pools.push(pool);
    expect(pool.threadCount()).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(pool.threadCount()).toBe(0);
    const good = await harborviewPdf(o);
    // The first task also pays for loading pdf.js on the new thread, outside its budget.
    expect((await pool.parse(good)).pageCount).toBe(1);
    expect(pool.threadCount()).toBeGreaterThanOrEqual(1);
    await vi.waitFor(() => expect(pool.threadCount()).toBe(0), { timeout: 10_000, interval: 50 });
    // The next upload starts a thread again.
    expect((await pool.parse(good)).revisions).toBe(1);
    expect(pool.threadCount()).toBeGreaterThanOrEqual(1);
  });

  it("with idleStopMs Infinity starts every thread at once and keeps them", async () => {
    const pool = createPdfPool(logger, { threads: 2, idleStopMs: Number.POSITIVE_INFINITY });
    pools.push(pool);
    expect(pool.threadCount()).toBe(2);
    expect((await pool.parse(await harborviewPdf(o))).pageCount).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(pool.threadCount()).toBe(2);
  });

  it("reads the active content of forged reports in its threads, and refuses an object stream it cannot read", async () => {
    const pool = createPdfPool(logger, { threads: 2 });
    pools.push(pool);
    const forged = await Promise.all([
      openActionJavaScriptPdf(o, "harborview", "object-streams"),
      additionalActionPdf(o, "meridian", "object-streams"),
      launchActionPdf(o, "cascade", "object-streams"),
      embeddedFilePdf(o, "harborview", "object-streams"),
      fileAttachmentAnnotationPdf(o, "meridian", "object-streams"),
    ]);
    const read = await Promise.all(forged.map((bytes) => pool.parse(bytes)));
    expect(read.map((pdf) => pdf.activeContent)).toEqual([["javascript", "actions"], ["actions"], ["launch"], ["embedded_file"], ["embedded_file"]]);
    // The genuine report, and saved again, carry none.
    const good = await harborviewPdf(o);
    expect((await pool.parse(good)).activeContent).toEqual([]);
    expect((await pool.parse(await resavedPdf(good))).activeContent).toEqual([]);
    // An LZW object stream holding a URI OpenAction (which pdf.js does not report): too complex.
    const hidden = handWrittenPdf(onePageObjects({ catalog: "/OpenAction << /S /URI /URI (https://x.example) >>" }), { objectStream: { packed: [1, 2], encoding: "lzw" } });
    expect(await reasonOf(pool.parse(hidden))).toBe("too_complex");
    // Hostile nesting costs its task only.
    const nested = handWrittenPdf(onePageObjects({ more: [`${"[".repeat(200_000)}`] }));
    expect(await reasonOf(pool.parse(nested))).toBe("accepted");
    expect((await pool.parse(good)).pageCount).toBe(1);
  });
});
