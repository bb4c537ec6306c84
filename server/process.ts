/**
 * The start of server.ts's process before any upstream or database opens (docs/architecture/README.md §1,
 * §3): the configuration parsed, the logger, DATA_DIR made owner-only and locked. Each refusal
 * prints its reason and exits 1, as server.ts always did.
 */
import type { Server } from "node:http";
import type { Express } from "express";
import type { Logger } from "pino";
import { ConfigError, parseConfig, type Config } from "../app/server/config.server.ts";
import { DataDirInUseError, lockDataDir, type DataDirLock } from "../lib/data-dir-lock.ts";
import { ForeignEntryError, ownerOnlyUmask, secureDataDir, tightenedMessage } from "../lib/data-dir.ts";
import { persistCompileCache } from "../lib/compile-cache.ts";
import { trimMallocEvery, trimMallocNow } from "../lib/malloc-trim.ts";
import { createLogger } from "../lib/log.ts";
import { drainable, type Drainable } from "../app/server/shutdown.server.ts";

/** What `startProcess` resolved. */
export interface ProcessStart {
  config: Config;
  log: Logger;
  /** UPSTREAM_EXTENSIONS: the embedded reference services' setting alone (docs/product/calls.md §7 "Extensions"). */
  upstreamExtensions: "on" | "off";
  /** DATA_DIR had entries open to other local users, now tightened: the embedded identity authority replaces its signing key. */
  dataDirWasOpen: boolean;
  /** The one-server-per-DATA_DIR lock, released at shutdown. */
  dataDirLock: DataDirLock;
}

/** Prints `message` and exits 1 when `error` is one of `refusals`; rethrows anything else. */
function refuse(error: unknown, refusals: (new (...args: never[]) => Error)[], prefix = "Cannot start:\n  "): never {
  if (refusals.some((kind) => error instanceof kind)) {
    console.error(`${prefix}${(error as Error).message}`);
    process.exit(1);
  }
  throw error;
}

/**
 * Parses `env`, makes the logger, secures and locks DATA_DIR.
 * @param env usually process.env (read, never written)
 * @returns the configuration, logger and lock; exits 1 on a wrong variable, a foreign entry in
 *   DATA_DIR or a DATA_DIR another server holds
 */
export async function startProcess(env: Record<string, string | undefined>): Promise<ProcessStart> {
  let config: Config;
  try {
    config = parseConfig(env);
  } catch (error) {
    refuse(error, [ConfigError], "");
  }
  const upstreamExtensions = env.UPSTREAM_EXTENSIONS || "on";
  if (upstreamExtensions !== "on" && upstreamExtensions !== "off") {
    console.error("Invalid configuration:\n  UPSTREAM_EXTENSIONS: must be on or off");
    process.exit(1);
  }
  const log = createLogger(config.LOG_LEVEL);
  process.on("unhandledRejection", (reason) => log.error({ err: reason }, "unhandled rejection"));

  // DATA_DIR is owner-only (docs/security/data.md "DATA_DIR", docs/decisions/0015-owner-only-data-dir.md):
  // whatever this process creates there is 0700/0600, and what an earlier start left open to other
  // local users is tightened now, with one line; since they may have read the signing key, the
  // embedded identity authority then replaces it. An entry of another user stops the start.
  ownerOnlyUmask();
  let dataDirWasOpen = false;
  try {
    const secured = secureDataDir(config.DATA_DIR);
    dataDirWasOpen = secured.tightened.length > 0;
    if (dataDirWasOpen) {
      log.warn(
        { tightened: secured.tightened.length },
        tightenedMessage(
          secured,
          config.IDENTITY_URL ? "the services run elsewhere (IDENTITY_URL): their keys are not here" : "the identity signing key and the pass keys are replaced at this start",
        ),
      );
    }
  } catch (error) {
    refuse(error, [ForeignEntryError]);
  }
  // One server per DATA_DIR (docs/decisions/0008-one-process-per-data-dir-and-draining-shutdown.md):
  // a second one stops here with a message naming the first; a lock left by a killed one is taken over.
  let dataDirLock: DataDirLock;
  try {
    dataDirLock = await lockDataDir(config.DATA_DIR, {
      onLost: (error) => {
        log.fatal({ err: error }, "lost the DATA_DIR lock (another server may now use DATA_DIR): stopping");
        process.exitCode = 1;
        process.kill(process.pid, "SIGTERM");
      },
    });
  } catch (error) {
    refuse(error, [DataDirInUseError]);
  }
  return { config, log, upstreamExtensions, dataDirWasOpen, dataDirLock };
}

/**
 * Listens on HOST:PORT with the header and request timeouts (35 s, 60 s), logs the address, then
 * writes the start's compiled modules to the compile cache (lib/compile-cache.ts), collects the
 * start's garbage ("startup garbage collected" is logged after both), gives the memory malloc then
 * holds free back to the system ("freed memory given back"), and from then on does so every
 * MALLOC_TRIM_SECONDS (lib/malloc-trim.ts).
 * @param graceMs how long a shutdown's drain lets in-flight requests finish, ms
 * @returns the drainable server (app/server/shutdown.server.ts), watched from the first request on
 */
export function listen(app: Express, config: Config, log: Logger, graceMs: number): Drainable {
  const server: Server = app.listen(config.PORT, config.HOST, () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : config.PORT;
    log.info({ port, basePath: config.BASE_PATH, dataDir: config.DATA_DIR }, `SafeWindow listening on http://localhost:${port}${config.basePrefix}/`);
    persistCompileCache();
    collectStartupGarbage(log);
    trimMallocNow(log);
    trimMallocEvery(config.MALLOC_TRIM_SECONDS * 1000, log);
  });
  server.headersTimeout = 35_000;
  server.requestTimeout = 60_000;
  return drainable(server, { graceMs });
}

/**
 * Gives back the memory the start left behind (docs/decisions/0013-bounded-v8-heap.md): loading
 * the build and the embedded services leaves about 60 MB of garbage in V8's heap, which nothing
 * collects while the server waits for its first request (a restart sat at 305-335 MiB at rest,
 * of which a full collection gave back about 75 MiB). One full collection once the server listens
 * (V8's "last resort" kind, which also shrinks the heap) takes it back. It needs `--expose-gc`
 * (package.json config.nodeOptions, the Dockerfile); without it, nothing happens.
 */
export function collectStartupGarbage(log: Logger): void {
  if (typeof globalThis.gc !== "function") return;
  const before = process.memoryUsage();
  globalThis.gc({ type: "major", flavor: "last-resort", execution: "sync" });
  const after = process.memoryUsage();
  const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
  log.info({ heapTotalMb: [mb(before.heapTotal), mb(after.heapTotal)], rssMb: [mb(before.rss), mb(after.rss)] }, "startup garbage collected");
}
