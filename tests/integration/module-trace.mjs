// Preloaded into a server.ts child (NODE_OPTIONS=--import, which Node runs in every thread started
// from a file too) by external-upstreams.test.ts and main-thread.test.ts: appends every module URL
// the process loads to the file named by MODULE_TRACE_FILE, one per line, and those the main thread
// of server.ts (the web app's) loads also to MODULE_TRACE_MAIN_FILE when that is set. Child
// processes inherit NODE_OPTIONS (lib/db/initdb.ts): they write to MODULE_TRACE_FILE only.
import { appendFileSync } from "node:fs";
import { registerHooks } from "node:module";
import { isMainThread } from "node:worker_threads";

const traceFile = process.env.MODULE_TRACE_FILE;
const mainTraceFile = isMainThread && process.argv[1]?.endsWith("server.ts") ? process.env.MODULE_TRACE_MAIN_FILE : undefined;
if (traceFile || mainTraceFile) {
  registerHooks({
    resolve(specifier, context, nextResolve) {
      const resolved = nextResolve(specifier, context);
      if (traceFile) appendFileSync(traceFile, `${resolved.url}\n`);
      if (mainTraceFile) appendFileSync(mainTraceFile, `${resolved.url}\n`);
      return resolved;
    },
  });
}
