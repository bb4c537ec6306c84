// Loaded into every thread of server.ts by bench/memory.ts (`--import`, which Node runs in the main
// thread and in each worker thread): once a second it writes this thread's V8 heap figures and the
// size of every WebAssembly memory the thread made (PGlite's, pdf.js's) to
// MEMORY_PROBE_DIR/<pid>-<threadId>.json, for bench/memory.ts to read. Nothing of the server calls it.
import { writeFileSync } from "node:fs";
import path from "node:path";
import v8 from "node:v8";
import { isMainThread, threadId, threadName } from "node:worker_threads";

const dir = process.env.MEMORY_PROBE_DIR;
/** Weak, so that a memory whose instance is gone (initdb's) is not kept by this probe. */
const memories: WeakRef<WebAssembly.Memory>[] = [];
const remember = (value: unknown) => {
  if (value instanceof WebAssembly.Memory) memories.push(new WeakRef(value));
};
/** The memories an instance exports and those its imports hand it. */
const collect = (instance: WebAssembly.Instance | undefined, imports: WebAssembly.Imports | undefined) => {
  for (const value of Object.values(instance?.exports ?? {})) remember(value);
  for (const group of Object.values(imports ?? {})) for (const value of Object.values(group ?? {})) remember(value);
};
const { instantiate, instantiateStreaming } = WebAssembly;
WebAssembly.instantiate = (async (source: BufferSource | WebAssembly.Module, imports?: WebAssembly.Imports) => {
  const result = await instantiate(source as BufferSource, imports);
  collect("instance" in result ? result.instance : (result as unknown as WebAssembly.Instance), imports);
  return result;
}) as typeof WebAssembly.instantiate;
if (instantiateStreaming) {
  WebAssembly.instantiateStreaming = async (source, imports) => {
    const result = await instantiateStreaming(source, imports);
    collect(result.instance, imports);
    return result;
  };
}

if (dir) {
  const file = path.join(dir, `${process.pid}-${threadId}.json`);
  const write = () => {
    const heap = v8.getHeapStatistics();
    const live = memories.map((ref) => ref.deref()).filter((memory) => memory !== undefined);
    const report = {
      at: Date.now(),
      thread: isMainThread ? "web" : threadName || `worker ${threadId}`,
      threadId,
      heapTotal: heap.total_heap_size,
      heapUsed: heap.used_heap_size,
      heapPhysical: heap.total_physical_size,
      heapLimit: heap.heap_size_limit,
      mallocedByV8: heap.malloced_memory,
      external: heap.external_memory,
      wasmBytes: [...new Set(live)].reduce((sum, memory) => sum + memory.buffer.byteLength, 0),
    };
    try {
      writeFileSync(file, JSON.stringify(report));
    } catch {
      // the bench removed its directory: it is over
    }
  };
  setInterval(write, 1000).unref();
  write();
}
