/**
 * Reads the QR code in a checker's photo on worker threads, never on the web thread
 * (docs/product/pass.md §11.5: a checker without JavaScript posts a photo of a pass; the
 * request context's `readQrPhoto`, app/server/context.ts). The thread is server/qr-photo-worker.ts,
 * run by piscina as the PDF threads are (services/consumer/results/pool.ts): threads start on
 * demand and stop when idle, each read has a time budget (the thread is terminated past it) and the
 * thread a heap limit, reads wait for a thread in a bounded queue, and one that finds it full is
 * answered `busy` at once.
 *
 * Neither the photo nor the text read from it is logged or kept: the photo is copied to the thread
 * for the read and dropped with it; a failure is logged without either.
 */
import { MessageChannel } from "node:worker_threads";
import { Piscina } from "piscina";
import type { Logger } from "pino";
import type { PhotoRead } from "../app/server/context.ts";
import { maxPassPhotoBytes, maxPassPhotoPixels } from "../contracts/limits.ts";
import type { QrPhotoAnswer, QrPhotoTask } from "./qr-photo-worker.ts";

/** The sizes and times of the reader of /verify's photos (docs/product/pass.md §11.5); every one has a default. */
export interface QrPhotoReaderOptions {
  /** Most worker threads at once, each reading one photo (default 1). */
  threads?: number;
  /**
   * Time budget of one read, ms (default 5000): from when the thread has its decoders loaded (a fresh
   * thread loads them in about 0.1 s, allowed LOAD_ALLOWANCE_MS) to the answer; past it the
   * thread is terminated and the read answers `busy`. The wait for a thread is not counted.
   */
  timeoutMs?: number;
  /** Reads waiting for a thread before new ones are answered `busy` (default 8). */
  maxQueue?: number;
  /**
   * How long a thread may stay without a read before it stops, ms (default 10 000): a thread that has
   * read a large photo holds tens of MiB (Skia's and zxing's). None runs before the first read.
   * `Infinity` starts every thread at once and keeps them.
   */
  idleStopMs?: number;
  /** Where failures (budget overruns, a thread that died) are logged, without the photo; none by default. */
  logger?: Pick<Logger, "warn">;
}

/** The reader of /verify's photos (docs/product/pass.md §11.5): one per process, whose `read` every request has as `readQrPhoto` (app/server/context.ts). */
export interface QrPhotoReader {
  /**
   * The text of the first valid QR code in a photo (JPEG, PNG, WebP or GIF bytes), read on a worker
   * thread; never rejects.
   * @returns PhotoRead (app/server/context.ts): `{ ok: true, text }`, or `{ ok: false, reason }` with
   *   `too_large` (over maxPassPhotoBytes, 12 MiB; answered here, nothing is sent to a thread),
   *   `not_image`, `too_many_pixels` (the header declares over maxPassPhotoPixels, 50 million; nothing
   *   is decoded), `no_code`, or `busy` (the queue is full, the read went over its time budget or the
   *   thread's heap limit, or the reader is closing).
   */
  read(bytes: Uint8Array): Promise<PhotoRead>;
  /** Worker threads running now (0 for an idle reader). */
  threadCount(): number;
  /** Lets the reads in flight finish, then stops the threads; later reads answer `busy`. */
  close(): Promise<void>;
}

/** How long a fresh thread may take to load the canvas and zxing-wasm before its read counts as stuck, ms. */
const LOAD_ALLOWANCE_MS = 15_000;
/** The JS heap of a thread, MiB: the pixels live outside it (Skia's memory, zxing's WebAssembly memory), bounded by the pixel cap. */
const HEAP_LIMIT_MB = 96;

/** No reader thread can be had now: the queue is full, or the reader is closing. */
class Busy extends Error {}

/** A FIFO of reads waiting for one of `size` threads, at most `maxQueue` long. */
class Slots {
  #free: number;
  readonly #waiting: (() => void)[] = [];
  readonly #maxQueue: number;
  constructor(size: number, maxQueue: number) {
    this.#free = size;
    this.#maxQueue = maxQueue;
  }
  /** @throws Busy when `maxQueue` reads are waiting already. */
  async acquire(): Promise<void> {
    if (this.#free > 0) {
      this.#free -= 1;
      return;
    }
    if (this.#waiting.length >= this.#maxQueue) throw new Busy();
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }
  release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#free += 1;
  }
}

/**
 * Makes the reader of /verify's photos (docs/product/pass.md §11.5): up to `threads` threads of
 * server/qr-photo-worker.ts, started on demand and stopped after `idleStopMs` without a read (see
 * QrPhotoReaderOptions for the units and defaults). The caps are contracts/limits.ts's maxPassPhotoBytes
 * (12 MiB, in bytes) and maxPassPhotoPixels (50 million pixels).
 * Threads start with the first read (with `idleStopMs: Infinity`, all of them now).
 */
export function createQrPhotoReader(opts: QrPhotoReaderOptions = {}): QrPhotoReader {
  const threads = opts.threads ?? 1;
  const timeoutMs = opts.timeoutMs ?? 5000;
  const idleStopMs = opts.idleStopMs ?? 10_000;
  const onDemand = Number.isFinite(idleStopMs);
  const piscina = new Piscina<QrPhotoTask, QrPhotoAnswer>({
    filename: new URL("./qr-photo-worker.ts", import.meta.url).href,
    minThreads: onDemand ? 0 : threads,
    maxThreads: threads,
    idleTimeout: idleStopMs,
    // The decode's and zxing's completions arrive on the thread's event loop; never block it between reads.
    atomics: "disabled",
    resourceLimits: { maxOldGenerationSizeMb: HEAP_LIMIT_MB, maxYoungGenerationSizeMb: 16 },
  });
  const slots = new Slots(threads, opts.maxQueue ?? 8);
  const inFlight = new Set<Promise<unknown>>();
  let closing: Promise<void> | undefined;

  async function run(bytes: Uint8Array): Promise<PhotoRead> {
    await slots.acquire();
    if (closing) {
      slots.release();
      return { ok: false, reason: "busy" };
    }
    const started = performance.now();
    const abort = new AbortController();
    // Until the thread says it has its decoders loaded, only the load allowance applies; then the budget.
    let timer = setTimeout(() => abort.abort(), LOAD_ALLOWANCE_MS + timeoutMs);
    const { port1, port2 } = new MessageChannel();
    port1.once("message", () => {
      clearTimeout(timer);
      timer = setTimeout(() => abort.abort(), timeoutMs);
    });
    // A copy of exactly the photo, handed over: never the caller's buffer (a Node Buffer's slice() is
    // a view, often of a shared pool), and never a view's whole underlying buffer cloned.
    const copy = new Uint8Array(bytes);
    let running: Promise<QrPhotoAnswer> | undefined;
    try {
      running = piscina.run({ bytes: copy, maxPixels: maxPassPhotoPixels, started: port2 }, { signal: abort.signal, transferList: [port2, copy.buffer] });
      inFlight.add(running);
      return await running;
    } catch (err) {
      // The worker's errors are the decoders' own and the thread's (terminated, out of memory); none quotes the photo.
      const code = err instanceof Error ? (err as { code?: unknown }).code : undefined;
      const message = err instanceof Error ? err.message : String(err);
      const overBudget = abort.signal.aborted || code === "ERR_WORKER_OUT_OF_MEMORY";
      opts.logger?.warn({ ms: Math.round(performance.now() - started), overBudget, code, message: message.slice(0, 200) }, "QR photo read stopped");
      return { ok: false, reason: "busy" };
    } finally {
      clearTimeout(timer);
      port1.close();
      if (running) inFlight.delete(running);
      slots.release();
    }
  }

  return {
    async read(bytes) {
      if (bytes.byteLength > maxPassPhotoBytes) return { ok: false, reason: "too_large" };
      if (closing) return { ok: false, reason: "busy" };
      try {
        return await run(bytes);
      } catch (err) {
        if (err instanceof Busy) return { ok: false, reason: "busy" };
        throw err;
      }
    },
    threadCount: () => piscina.threads.length,
    close() {
      closing ??= (async () => {
        // Terminating a thread mid-read is what the budget does; at close, let reads finish.
        await Promise.allSettled([...inFlight]);
        await piscina.destroy();
      })();
      return closing;
    },
  };
}
