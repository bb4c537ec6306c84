// Giving freed malloc memory back to the system (docs/decisions/0018-malloc-trim.md). glibc keeps
// what a thread once allocated and then freed in its arena, to reuse it: a page of the arena goes
// back to the system only when it is at the arena's top. The start (module sources, the
// WebAssembly binaries, the compile cache) and every burst of requests (Buffers, zlib's state,
// the services' answers) leave tens of MiB of free memory between live blocks, resident for good.
// glibc's malloc_trim(0) walks every arena and gives each whole free page back (madvise), so the
// server's resident memory follows what it uses. Node has no binding for it: koffi, a foreign
// function interface whose prebuilt binaries npm installs for each platform, calls it in libc.
import { createRequire } from "node:module";
import type { Logger } from "pino";

/** malloc_trim(pad): 1 when memory was given back, 0 when there was none to give; `async` runs it on libuv's thread pool. */
interface TrimFunction {
  (pad: number): number;
  async(pad: number, callback: (error: unknown, released: number) => void): void;
}

let bound: TrimFunction | null | undefined;

/**
 * glibc's malloc_trim, bound once; null where there is none: another C library (musl, as on
 * Alpine, has no arenas to trim), another system, or koffi missing for this platform.
 */
function mallocTrim(): TrimFunction | null {
  if (bound !== undefined) return bound;
  try {
    const koffi = createRequire(import.meta.url)("koffi") as typeof import("koffi");
    bound = koffi.load("libc.so.6").func("int malloc_trim(size_t pad)") as TrimFunction;
  } catch {
    bound = null;
  }
  return bound;
}

const mib = (bytes: number) => Math.round(bytes / 2 ** 20);

/**
 * Gives every arena's free pages back now, on this thread (at the start, before the first
 * request, nothing waits for it), and logs the resident memory before and after and the time it
 * took ("freed memory given back", info).
 * @returns whether glibc gave any back; null where malloc_trim does not exist (nothing happens)
 */
export function trimMallocNow(log: Logger): boolean | null {
  const trim = mallocTrim();
  if (!trim) return null;
  const before = process.memoryUsage.rss();
  const started = performance.now();
  const released = trim(0) === 1;
  log.info({ rssMb: [mib(before), mib(process.memoryUsage.rss())], ms: Math.round(performance.now() - started) }, "freed memory given back");
  return released;
}

/**
 * Gives every arena's free pages back every `intervalMs` (ms), on libuv's thread pool: the event
 * loop goes on meanwhile (a malloc of its own waits only while glibc walks the arena it needs);
 * a trim still running when the next is due is not doubled. Each trim is logged at debug with the
 * resident memory before and after, and how long it took from the call to its answer (ms, the
 * wait for a pool thread included). A trim koffi refuses to start is logged at warn and tried
 * again at the next. The timer does not keep the process alive.
 * @returns a function that stops it; where malloc_trim does not exist, nothing starts
 */
export function trimMallocEvery(intervalMs: number, log: Logger): () => void {
  const trim = mallocTrim();
  if (!trim || intervalMs <= 0) return () => {};
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    const before = process.memoryUsage.rss();
    const started = performance.now();
    try {
      trim.async(0, (error, released) => {
        running = false;
        if (error) return log.warn({ err: error }, "malloc_trim failed");
        log.debug({ rssMb: [mib(before), mib(process.memoryUsage.rss())], released: released === 1, ms: Math.round(performance.now() - started) }, "freed memory given back");
      });
    } catch (error) {
      running = false;
      log.warn({ err: error }, "malloc_trim failed");
    }
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
