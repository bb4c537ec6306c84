// Preloaded into a server.ts child (NODE_OPTIONS=--import) by external-upstreams.test.ts: appends
// every module URL the process loads to the file named by MODULE_TRACE_FILE, one per line.
import { appendFileSync } from "node:fs";
import { registerHooks } from "node:module";

const traceFile = process.env.MODULE_TRACE_FILE;
if (traceFile) {
  registerHooks({
    resolve(specifier, context, nextResolve) {
      const resolved = nextResolve(specifier, context);
      appendFileSync(traceFile, `${resolved.url}\n`);
      return resolved;
    },
  });
}
