// Preloaded into a server.ts child (NODE_OPTIONS=--import, which Node runs in every thread) by
// compile-cache.test.ts: writes, every 100 ms, whether this thread has loaded Node's TypeScript
// type stripper (amaro, in process.moduleLoadList) to STRIPPER_PROBE_DIR/<threadId>.txt. Written
// beside it and renamed over it, so the test never reads a file half written (empty).
import { renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { threadId } from "node:worker_threads";

const dir = process.env.STRIPPER_PROBE_DIR;
if (dir) {
  const write = () => {
    const loaded = process.moduleLoadList.some((name) => name.includes("internal/deps/amaro"));
    const file = path.join(dir, `${threadId}.txt`);
    writeFileSync(`${file}.part`, loaded ? "stripper" : "none");
    renameSync(`${file}.part`, file);
  };
  setInterval(write, 100).unref();
}
