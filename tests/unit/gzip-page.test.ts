// The pages' gzip on kept compressors (app/server/gzip.server.ts, docs/decisions/0021-pages-whole-and-gzipped.md):
// every page decompresses to its own HTML however often a compressor is reused, pages at once each
// get their own, and at most keptCompressors stay.
import type { TransformCallback } from "node:stream";
import zlib, { gunzipSync } from "node:zlib";
import fc from "fast-check";
import Negotiator from "negotiator";
import { describe, expect, it } from "vitest";
import { acceptsGzip, gzipPage, idleCompressors, keptCompressors } from "../../app/server/gzip.server";

/** A page's worth of HTML, different for each `n`. */
function page(n: number): Buffer {
  return Buffer.from(`<!DOCTYPE html><html lang="en"><head><title>Page ${n}</title></head><body><main>${"<p>Safe window open.</p>".repeat(200 + n)}</main></body></html><!-- ${n} -->`);
}

describe("gzipPage", () => {
  it("each page, one after the other on a kept compressor, decompresses to its own HTML", async () => {
    for (let n = 0; n < 50; n++) expect(gunzipSync(await gzipPage(page(n))).equals(page(n))).toBe(true);
    expect(idleCompressors()).toBeGreaterThan(0);
  });

  it("pages at once each get their own compressor, and at most keptCompressors stay after", async () => {
    const pages = Array.from({ length: 3 * keptCompressors }, (_, n) => page(1000 + n));
    const answers = await Promise.all(pages.map((html) => gzipPage(html)));
    answers.forEach((answer, n) => expect(gunzipSync(answer).equals(pages[n]!), `page ${n}`).toBe(true));
    expect(idleCompressors()).toBe(keptCompressors);
  });

  it("any bytes, empty included: what comes out is the gzip of what went in", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 40_000 }), async (bytes) => {
        expect(gunzipSync(await gzipPage(bytes)).equals(Buffer.from(bytes))).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it("a compressor that fails rejects its page, is closed rather than kept, and the process goes on", async () => {
    await gzipPage(page(1));
    const before = idleCompressors();
    expect(before).toBeGreaterThan(0);
    // zlib's own stream fails once, as a compressor whose native write failed would.
    const transform = zlib.Gzip.prototype._transform;
    let failNext = true;
    zlib.Gzip.prototype._transform = function (this: zlib.Gzip, chunk: Buffer, encoding: BufferEncoding, callback: TransformCallback) {
      if (!failNext) return transform.call(this, chunk, encoding, callback);
      failNext = false;
      callback(new Error("zlib failed"));
    };
    try {
      await expect(gzipPage(page(2))).rejects.toThrow("zlib failed");
      // The stream's 'error' event comes a turn later: it must find its listener.
      await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      zlib.Gzip.prototype._transform = transform;
    }
    expect(idleCompressors()).toBe(before - 1);
    expect(gunzipSync(await gzipPage(page(3))).equals(page(3))).toBe(true);
  });

  it("compresses as the middleware did (zlib's defaults): an ordinary page to about a quarter", async () => {
    const html = Buffer.from(Array.from({ length: 300 }, (_, n) => `<li class="result"><span>${n}</span> Harborview Labs: Negative</li>`).join(""));
    const gzip = await gzipPage(html);
    expect(gzip[0]).toBe(0x1f);
    expect(gzip[1]).toBe(0x8b);
    expect(gzip.length).toBeLessThan(html.length / 4);
  });
});

describe("acceptsGzip", () => {
  it("gzip when named and not refused; plain without the header, for identity only, or gzip;q=0", () => {
    expect(acceptsGzip("gzip, deflate")).toBe(true);
    expect(acceptsGzip("deflate, gzip;q=0.5")).toBe(true);
    expect(acceptsGzip("*")).toBe(true);
    expect(acceptsGzip(undefined)).toBe(false);
    expect(acceptsGzip(null)).toBe(false);
    expect(acceptsGzip("")).toBe(false);
    expect(acceptsGzip("identity")).toBe(false);
    expect(acceptsGzip("gzip;q=0")).toBe(false);
    expect(acceptsGzip("deflate")).toBe(false);
  });

  it("answers as Negotiator does for any header, whatever was asked before (the last answer is kept by its text)", () => {
    const coding = fc.constantFrom("gzip", "deflate", "br", "identity", "*", "GZIP", "x-gzip", "zstd");
    const header = fc.array(fc.tuple(coding, fc.option(fc.constantFrom("0", "0.5", "1", "0.001"), { nil: undefined })), { maxLength: 4 }).map((parts) => parts.map(([name, q]) => (q === undefined ? name : `${name};q=${q}`)).join(", "));
    fc.assert(
      fc.property(fc.array(header, { minLength: 1, maxLength: 6 }), (headers) => {
        for (const text of [...headers, ...headers.toReversed()]) {
          const expected = text !== "" && new Negotiator({ headers: { "accept-encoding": text } }).encoding(["gzip", "identity"]) === "gzip";
          expect(acceptsGzip(text), text).toBe(expected);
        }
      }),
    );
  });
});
