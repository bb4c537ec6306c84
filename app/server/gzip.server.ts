/**
 * Gzip of a whole rendered page on kept compressors (docs/decisions/0021-pages-whole-and-gzipped.md).
 *
 * The `compression` middleware makes a new zlib compressor for every answer and streams through it.
 * Setting a compressor up and freeing it, and the stream's turns, cost the web app's main thread
 * more than the compression itself, which runs in libuv's thread pool either way. A page is
 * rendered whole (app/entry.server.tsx), so it is compressed here in one piece, on a compressor
 * kept from an earlier page and reset (zlib's `deflateReset`): zlib's defaults (level 6), as the
 * middleware's. A page request does not enter the middleware at all (server/app.ts); everything else
 * made per request (data, the route manifest, resource routes, error pages) stays with it.
 */
import { constants, createGzip, type Deflate, type Gzip } from "node:zlib";
import Negotiator from "negotiator";

/** Node's Gzip has zlib's `reset()` (Node's zlib docs, `zlib.reset()`); @types/node names it only on Deflate and Inflate. */
type Compressor = Gzip & Pick<Deflate, "reset">;

/** Compressors kept between pages (each about 270 KB of native memory); more at once are made and closed. */
export const keptCompressors = 8;

const idle: Compressor[] = [];

/** The compressors waiting for a page now (for tests). */
export function idleCompressors(): number {
  return idle.length;
}

/** The Accept-Encoding text asked last and its answer: a browser sends the same text with every request. */
let lastAcceptEncoding: string | undefined;
let lastAccepts = false;

/**
 * True when an answer may be gzip: the request names an Accept-Encoding and it accepts gzip (before
 * identity, by its q-values). Without the header the answer is plain, as the `compression`
 * middleware sends it. The one rule for rendered pages and the shared page cache's copies.
 * @param acceptEncoding the request's Accept-Encoding header, if any
 */
export function acceptsGzip(acceptEncoding: string | null | undefined): boolean {
  if (!acceptEncoding) return false;
  if (acceptEncoding !== lastAcceptEncoding) {
    lastAccepts = new Negotiator({ headers: { "accept-encoding": acceptEncoding } }).encoding(["gzip", "identity"]) === "gzip";
    lastAcceptEncoding = acceptEncoding;
  }
  return lastAccepts;
}

/**
 * The gzip of `page` (one gzip member), made on a kept compressor in libuv's thread pool; at most
 * `keptCompressors` are kept, and one more at once is made and then closed.
 * @param page the bytes to compress (a page's HTML, tens of KB)
 * @returns the gzip bytes
 * @throws (rejects with) what zlib raises; that compressor is then closed, not kept
 */
export function gzipPage(page: Uint8Array): Promise<Buffer> {
  const compressor = idle.pop() ?? (createGzip() as Compressor);
  return new Promise<Buffer>((resolve, reject) => {
    const out: Buffer[] = [];
    const onData = (chunk: Buffer) => out.push(chunk);
    /** A failed compressor is closed, never kept; its 'error' listener stays, so the event it still emits is handled. */
    const fail = (error: Error) => {
      compressor.off("data", onData);
      compressor.close();
      reject(error);
    };
    compressor.on("data", onData);
    compressor.on("error", fail);
    compressor.write(page);
    // The stream calls this with the error, if any, before it emits 'error'.
    const finished = (error?: Error | null) => {
      if (error || compressor.destroyed) return fail(error ?? new Error("gzip: the compressor was destroyed"));
      compressor.off("data", onData);
      compressor.off("error", fail);
      if (idle.length < keptCompressors) {
        compressor.reset();
        idle.push(compressor);
      } else {
        compressor.close();
      }
      resolve(out.length === 1 ? out[0]! : Buffer.concat(out));
    };
    compressor.flush(constants.Z_FINISH, finished as () => void);
  });
}
