// Node's module compile cache (docs/decisions/0017-module-compile-cache.md): when NODE_COMPILE_CACHE
// names a directory (`npm start` and the image set it, package.json config.compileCache), Node
// keeps there, for each module, V8's compiled code and, for our TypeScript, the source with its
// types stripped. A thread whose modules all come from the cache compiles little and never loads
// Node's type stripper: a start takes about a ninth less CPU.
import module from "node:module";

/**
 * Writes what this thread compiled so far to the cache directory now, rather than only when the
 * thread exits: a server stopped hard (kill -9, a container killed) would otherwise never write
 * it, and each start would strip and compile everything again. Node writes each entry to a
 * temporary file and renames it, so processes sharing the directory never read half an entry.
 * Does nothing when the cache is off (no NODE_COMPILE_CACHE, or NODE_DISABLE_COMPILE_CACHE set);
 * never throws: an entry Node cannot write (a read-only directory) is compiled again next time.
 */
export function persistCompileCache(): void {
  if (module.getCompileCacheDir() !== undefined) module.flushCompileCache();
}
