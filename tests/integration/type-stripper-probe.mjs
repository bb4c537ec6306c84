// Preloaded into a server.ts child (NODE_OPTIONS=--import, which Node runs in every thread) by
// compile-cache.test.ts: writes, every 100 ms, whether this thread has loaded Node's TypeScript
// type stripper (amaro, in process.moduleLoadList) to STRIPPER_PROBE_DIR/<threadId>.txt.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { threadId } from "node:worker_threads";

const dir = process.env.STRIPPER_PROBE_DIR;
if (dir) {
  const write = () => {
    const loaded = process.moduleLoadList.some((name) => name.includes("internal/deps/amaro"));
    writeFileSync(path.join(dir, `${threadId}.txt`), loaded ? "stripper" : "none");
  };
  setInterval(write, 100).unref();
}
