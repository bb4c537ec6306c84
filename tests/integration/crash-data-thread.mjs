// Preloaded into a server.ts child (NODE_OPTIONS=--import) by data-thread.test.ts: inside the data
// thread (server/data-thread.ts, recognised by its workerData) it waits for the file named by
// CRASH_DATA_THREAD_FILE and then dies the way a fault would: "throw" throws an uncaught error,
// "exit" ends the thread with code 3. Elsewhere (the main thread, the PDF workers) it does nothing.
import { existsSync, readFileSync } from "node:fs";
import { isMainThread, workerData } from "node:worker_threads";

const trigger = process.env.CRASH_DATA_THREAD_FILE;
const dataThread = !isMainThread && workerData && typeof workerData === "object" && "config" in workerData && "port" in workerData;
if (trigger && dataThread) {
  const timer = setInterval(() => {
    if (!existsSync(trigger)) return;
    clearInterval(timer);
    if (readFileSync(trigger, "utf8").trim() === "exit") process.exit(3);
    throw new Error("simulated fault in the data thread");
  }, 50);
  timer.unref();
}
