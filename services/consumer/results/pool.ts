// The PDF worker pool (docs/architecture/README.md §2 "PDF"): piscina threads running worker.ts, each task with a
// time budget (the worker is terminated past it) and a memory budget (heap limit of the
// thread, plus worker.ts's check of heap and ArrayBuffers), so that a bomb costs one worker for
// at most the budget while the event loop and the other workers keep answering. The budget
// covers reading the PDF only: not the wait for a thread (tasks wait here, in a bounded queue)
// nor a fresh thread's loading of pdfjs (the worker says when it starts reading).
import { MessageChannel } from "node:worker_threads";
import { Piscina } from "piscina";
import type { Logger } from "pino";
import { UploadRejectedError } from "./errors.ts";
import type { TextLine } from "./extract.ts";
import type { PageAnswer, ParseAnswer, ParsedPdf, RenderAnswer, WorkerFailure, WorkerTask } from "./worker.ts";
import { MEMORY_EXIT_CODE } from "./worker.ts";
import { gauge } from "../../../lib/metrics.ts";

export interface PdfPoolOptions {
  /** Most worker threads at once (default 2). */
  threads?: number;
  /**
   * How long a thread may stay without a task before it stops, ms (default 10 000: each thread holds
   * 60-70 MiB, docs/decisions/0013-bounded-v8-heap.md "PDF threads stop after 10 s"). Threads
   * start on demand: none runs before the first upload, and an idle pool holds no pdf.js in
   * memory; the first task on a new thread waits for pdf.js to load (about 0.2 s, outside its
   * budget). `Infinity` starts every thread at once, loads pdf.js in each, and keeps them.
   */
  idleStopMs?: number;
  /** Time budget of one parse, ms (default 3000). */
  parseTimeoutMs?: number;
  /** Time budget of one render, ms (default 5000). */
  renderTimeoutMs?: number;
  /** Heap plus ArrayBuffers one task may use, MB (default 384). */
  memoryLimitMb?: number;
  /** Most pages a PDF may have (default 20). */
  maxPages?: number;
  /** Largest image, in pixels, a PDF may declare or page 1 may draw (default 16 million). */
  maxImagePixels?: number;
  /** Uploads waiting for a worker before new ones are turned away as busy (default 64). */
  maxQueue?: number;
}

export interface PdfPool {
  /**
   * Reads page 1's text, the metadata, the revision count and whether the file is encrypted
   * (worker.ts "parse").
   * @throws UploadRejectedError corrupt, encrypted (a password is needed to open it),
   *   too_many_pages, too_complex (over a budget, or an image XObject over maxImagePixels), busy.
   */
  parse(bytes: Uint8Array): Promise<ParsedPdf>;
  /**
   * One page (1-based, default 1) as a JPEG that fits 1250x1000 (worker.ts "render").
   * @throws UploadRejectedError corrupt (also a page the PDF does not have), encrypted,
   *   too_complex (over a budget), busy.
   */
  render(bytes: Uint8Array, page?: number): Promise<{ jpeg: Uint8Array; width: number; height: number }>;
  /**
   * Page 1 as render draws it, and the texts of the QR codes on the first `codesPages` pages
   * (docs/product/labs.md §10.9), decoded in the same task and budget.
   * @throws UploadRejectedError as render.
   */
  renderWithCodes(bytes: Uint8Array, codesPages: number): Promise<{ jpeg: Uint8Array; width: number; height: number; codes: string[] }>;
  /**
   * A lab's HTML result page as lines of runs (page.ts), and with `caption` its drawing as a JPEG
   * that fits 1250x1000 (worker.ts "page"); under the parse budget.
   * @throws UploadRejectedError corrupt, too_complex (over a budget), busy.
   */
  page(bytes: Uint8Array, caption?: string[]): Promise<{ lines: TextLine[]; image?: { jpeg: Uint8Array; width: number; height: number } }>;
  /** The page limit, for messages. */
  readonly maxPages: number;
  /** Worker threads running now (0 for an idle on-demand pool). */
  threadCount(): number;
  /** Waits for tasks in flight, then stops the threads. */
  close(): Promise<void>;
}

/** docs/product/messages.md §9: the large view is 1250x1000. */
export const IMAGE_BOX = { width: 1250, height: 1000 } as const;
const JPEG_QUALITY = 82;
/** How long a fresh thread may take to load pdfjs before its task counts as stuck. */
const LOAD_ALLOWANCE_MS = 15_000;

/** GET /metrics: PDF tasks waiting for a worker thread now (every pool of the process together). */
const pdfQueue = gauge("safewindow_pdf_queue_length", "PDF tasks (uploads, page renders) waiting for a worker thread.", []);

/** A FIFO of waiters for one of `size` slots. */
class Slots {
  #free: number;
  readonly #waiting: (() => void)[] = [];
  readonly #maxQueue: number;
  constructor(size: number, maxQueue: number) {
    this.#free = size;
    this.#maxQueue = maxQueue;
  }
  async acquire(): Promise<void> {
    if (this.#free > 0) {
      this.#free -= 1;
      return;
    }
    if (this.#waiting.length >= this.#maxQueue) throw new UploadRejectedError("busy", (w) => w.busy());
    pdfQueue.inc();
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }
  release(): void {
    const next = this.#waiting.shift();
    if (next) {
      pdfQueue.dec();
      next();
    } else this.#free += 1;
  }
}

function rejection(reason: WorkerFailure, maxPages: number, pageCount?: number): UploadRejectedError {
  switch (reason) {
    case "encrypted":
      return new UploadRejectedError("encrypted", (w) => w.encrypted());
    case "too_many_pages":
      return new UploadRejectedError("too_many_pages", (w) => w.too_many_pages(pageCount ?? maxPages + 1, maxPages));
    case "too_complex":
      return new UploadRejectedError("too_complex", (w) => w.too_complex());
    default:
      return new UploadRejectedError("corrupt", (w) => w.corrupt());
  }
}

/**
 * Makes the pool: up to `threads` threads, started on demand and stopped after `idleStopMs`
 * without a task; with `idleStopMs: Infinity`, all started at once and each warmed (pdf.js loaded).
 * @param logger where budget overruns and worker failures are logged (never file contents).
 */
export function createPdfPool(logger: Logger, opts: PdfPoolOptions = {}): PdfPool {
  const threads = opts.threads ?? 2;
  const idleStopMs = opts.idleStopMs ?? 10_000;
  const onDemand = Number.isFinite(idleStopMs);
  const parseTimeoutMs = opts.parseTimeoutMs ?? 3000;
  const renderTimeoutMs = opts.renderTimeoutMs ?? 5000;
  const memoryLimitMb = opts.memoryLimitMb ?? 384;
  const memoryLimitBytes = memoryLimitMb * 1024 * 1024;
  const maxPages = opts.maxPages ?? 20;
  const maxImagePixels = opts.maxImagePixels ?? 16_000_000;
  const piscina = new Piscina<WorkerTask, ParseAnswer | RenderAnswer | PageAnswer | true>({
    filename: new URL("./worker.ts", import.meta.url).href,
    // On demand: no thread until a task comes, and each stops after idleStopMs without one.
    // Loading pdfjs (~0.2 s) on a new thread is outside the task's budget (LOAD_ALLOWANCE_MS).
    // Always on: every thread started and warmed now; one stopped by a budget is replaced at once.
    minThreads: onDemand ? 0 : threads,
    maxThreads: threads,
    idleTimeout: idleStopMs,
    // Tasks leave pdfjs clean-up on the worker's event loop; never block it between tasks.
    atomics: "disabled",
    // The JS heap; ArrayBuffers are watched by worker.ts.
    resourceLimits: { maxOldGenerationSizeMb: memoryLimitMb, maxYoungGenerationSizeMb: 32 },
  });
  const slots = new Slots(threads, opts.maxQueue ?? 64);
  const inFlight = new Set<Promise<unknown>>();

  async function run<T>(task: Exclude<WorkerTask, { op: "warmup" }>, timeoutMs: number): Promise<T> {
    await slots.acquire();
    const started = performance.now();
    const abort = new AbortController();
    // Until the worker says it has pdfjs loaded, only the load allowance applies; then the budget.
    let timer = setTimeout(() => abort.abort(), LOAD_ALLOWANCE_MS + timeoutMs);
    const { port1, port2 } = new MessageChannel();
    port1.once("message", () => {
      clearTimeout(timer);
      timer = setTimeout(() => abort.abort(), timeoutMs);
    });
    const running = piscina.run({ ...task, started: port2 }, { signal: abort.signal, transferList: [port2] }) as Promise<T>;
    inFlight.add(running);
    try {
      return await running;
    } catch (err) {
      const code = err instanceof Error ? (err as { code?: unknown }).code : undefined;
      const message = err instanceof Error ? err.message : String(err);
      const overBudget =
        (err instanceof Error && err.name === "AbortError") || code === "ERR_WORKER_OUT_OF_MEMORY" || message.includes(`code: ${MEMORY_EXIT_CODE}`);
      logger.warn({ op: task.op, ms: Math.round(performance.now() - started), overBudget, code, message: message.slice(0, 200) }, "PDF task stopped");
      throw new UploadRejectedError("too_complex", (w) => w.too_complex());
    } finally {
      clearTimeout(timer);
      port1.close();
      inFlight.delete(running);
      slots.release();
    }
  }

  // Always on: load pdfjs in every thread now rather than on the first uploads.
  for (let i = 0; i < (onDemand ? 0 : threads); i += 1) {
    const warmup = piscina.run({ op: "warmup" }).catch((err: unknown) => {
      logger.error({ message: err instanceof Error ? err.message : String(err) }, "PDF worker failed to start");
    });
    inFlight.add(warmup);
    void warmup.finally(() => inFlight.delete(warmup));
  }

  let closing: Promise<void> | undefined;
  return {
    maxPages,
    threadCount: () => piscina.threads.length,
    async parse(bytes) {
      const answer = await run<ParseAnswer>({ op: "parse", bytes, maxPages, maxImagePixels, memoryLimitBytes }, parseTimeoutMs);
      if (!answer.ok) throw rejection(answer.reason, maxPages, answer.pageCount);
      return answer.pdf;
    },
    async render(bytes, page = 1) {
      const answer = await run<RenderAnswer>(
        { op: "render", bytes, page, box: IMAGE_BOX, quality: JPEG_QUALITY, maxImagePixels, memoryLimitBytes },
        renderTimeoutMs,
      );
      if (!answer.ok) throw rejection(answer.reason, maxPages);
      return { jpeg: answer.jpeg, width: answer.width, height: answer.height };
    },
    async renderWithCodes(bytes, codesPages) {
      const answer = await run<RenderAnswer>(
        { op: "render", bytes, page: 1, box: IMAGE_BOX, quality: JPEG_QUALITY, maxImagePixels, memoryLimitBytes, codesPages },
        renderTimeoutMs,
      );
      if (!answer.ok) throw rejection(answer.reason, maxPages);
      return { jpeg: answer.jpeg, width: answer.width, height: answer.height, codes: answer.codes ?? [] };
    },
    async page(bytes, caption) {
      const draw = caption ? { caption, box: IMAGE_BOX, quality: JPEG_QUALITY } : undefined;
      const answer = await run<PageAnswer>({ op: "page", bytes, memoryLimitBytes, ...(draw ? { draw } : {}) }, parseTimeoutMs + (draw ? renderTimeoutMs : 0));
      if (!answer.ok) throw rejection(answer.reason, maxPages);
      return answer.image ? { lines: answer.lines, image: answer.image } : { lines: answer.lines };
    },
    close() {
      closing ??= (async () => {
        // Terminating a worker mid-task is what the budgets do; at shutdown, let tasks finish.
        await Promise.allSettled([...inFlight]);
        await piscina.destroy();
      })();
      return closing;
    },
  };
}
