/**
 * SafeWindow's process (docs/architecture/README.md §1, §3): configuration, the DATA_DIR lock, the upstreams (the
 * reference services start here unless IDENTITY_URL, CONSUMER_API_URL and BUSINESS_API_URL name them), Redis
 * and the session store, the web app's pipeline (server/app.ts, loaded once from the build, or through Vite
 * with `--dev`), listen, and graceful shutdown. Nothing is written into process.env.
 */
import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { keptSecret } from "./app/server/config.server.ts";
import { connectRedis, redisReachable, RedisUnavailableError, type RedisClient } from "./app/server/redis.server.ts";
import { redisSessionStore, type SessionDataStore } from "./app/server/session-store.server.ts";
import { endLog } from "./lib/end-log.ts";
import type { RequestHandler } from "express";
import type * as AppModule from "./server/app.ts";
import { listen, startProcess } from "./server/process.ts";
import { createQrPhotoReader } from "./server/qr-photo.ts";
import { startUpstreams } from "./server/upstreams.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const dev = process.argv.includes("--dev");
/** How long in-flight requests may take to finish after SIGTERM. */
const shutdownGraceMs = 10_000;

const { config, log, upstreamExtensions, dataDirWasOpen, dataDirLock } = await startProcess(process.env);
const sessionSecret = config.SESSION_SECRET ?? keptSecret(config.DATA_DIR, "session-secret");
/** The upstreams the app calls: the configured URLs, or those of the services started below. */
const upstreams: AppModule.Upstreams = { identityUrl: config.IDENTITY_URL ?? "", consumerUrl: config.CONSUMER_API_URL ?? "", businessUrl: config.BUSINESS_API_URL ?? "", identityClientSecret: config.IDENTITY_CLIENT_SECRET ?? "" };

const closers: (() => Promise<void>)[] = [];
/** The listening server's connections; undefined until it listens (a data thread dead before then leaves nothing to drain). */
let connections: ReturnType<typeof listen> | undefined;
let stopping = false;
/** Aborted when the drain begins: the app then answers the uploads still waiting for their turn as busy (server/app.ts `draining`). */
const draining = new AbortController();

let redis: RedisClient | undefined;
if (config.REDIS_URL) {
  try {
    redis = await connectRedis(config.REDIS_URL, log.child({ component: "redis" }));
  } catch (error) {
    if (error instanceof RedisUnavailableError) {
      console.error(`Cannot start:\n  ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  const client = redis;
  closers.push(() => client.close());
  log.info("sessions and rate limits in Redis");
}

// The embedded reference services, the one embedded database and the database session store run in
// the data thread (server/upstreams.ts, docs/decisions/0016-services-in-a-data-thread.md), ready
// before the app listens: this thread runs no database query and loads neither PGlite nor pdf.js.
const identityClientSecret = config.IDENTITY_URL ? config.IDENTITY_CLIENT_SECRET : (config.IDENTITY_CLIENT_SECRET ?? keptSecret(config.DATA_DIR, "identity-client-secret"));
// The pipeline from the build is loaded while the data thread starts (each takes a second or more).
const buildDir = path.resolve(here, process.env.BUILD_DIR || "build");
const builtApp = dev ? undefined : (import(pathToFileURL(path.join(buildDir, "server/index.js")).href) as Promise<typeof AppModule>);
builtApp?.catch(() => {}); // awaited below; a failed start must not end on this rejection first
const started = await startUpstreams({
  config,
  identityClientSecret,
  rotateSigningKey: dataDirWasOpen,
  extensions: upstreamExtensions === "on",
  redisSessions: Boolean(redis),
  // A dead data thread takes the services and the sessions with it: the server stops (exit 1).
  onCrash: (error) => {
    log.fatal({ err: error }, "the data thread (embedded services and database) stopped unexpectedly: stopping the server");
    process.exitCode = 1;
    void shutdown("data thread crash");
  },
}).catch(async (error: unknown) => {
  await dataDirLock.release();
  throw error;
});
closers.push(() => started.close());
Object.assign(upstreams, { identityUrl: started.identityUrl, consumerUrl: started.consumerUrl, businessUrl: started.businessUrl, identityClientSecret: identityClientSecret ?? "" });

// Sessions (docs/decisions/0009-sessions-in-the-database.md): Redis with REDIS_URL; else the
// app_session table the data thread keeps (the one embedded database, or PostgreSQL with DATABASE_URL).
const sessions: SessionDataStore = redis ? redisSessionStore(redis) : (started.sessions as SessionDataStore);

// The photos posted to /verify are read on a worker thread of their own, started on the first one.
const qrPhotos = createQrPhotoReader({ logger: log });
closers.push(() => qrPhotos.close());

// The pipeline from the build, or from Vite's module graph with --dev: each app module exists once.
const vite = dev ? await (await import("vite")).createServer({ server: { middlewareMode: true } }) : undefined;
if (vite) closers.push(() => vite.close());
const { createApp } = (await (vite ? vite.ssrLoadModule("./server/app.ts") : builtApp!)) as typeof AppModule;
const app = await createApp({
  config, log, upstreams, sessionSecret, sessions, redis, draining: draining.signal,
  readQrPhoto: (bytes) => qrPhotos.read(bytes),
  redisReachable: redis ? () => redisReachable(redis as RedisClient) : undefined,
  // The data thread's series (the embedded services'), merged with the build's own.
  otherMetrics: () => started.metrics(),
  assets: vite ? { vite: vite.middlewares as unknown as RequestHandler } : { clientDir: path.join(buildDir, "client") },
  routerContextProvider: vite ? (await import("react-router")).RouterContextProvider : undefined,
});

// Watched from the first request on, so a shutdown can answer every one with `Connection: close`.
connections = listen(app, config, log, shutdownGraceMs);

/**
 * SIGTERM/SIGINT (docs/decisions/0008-one-process-per-data-dir-and-draining-shutdown.md): stop
 * accepting, answer the uploads still waiting for their turn as busy, finish in-flight requests with
 * `Connection: close` and close idle connections (at most shutdownGraceMs, then cut), close the
 * embedded services and databases, give DATA_DIR up, exit 0 (1 after a lost DATA_DIR lock).
 */
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, "shutting down: finishing in-flight requests");
  // The answers in flight are marked `Connection: close` first; then the waiting uploads answer busy.
  const drain = connections?.drain();
  draining.abort();
  const drained = (await drain) ?? { cut: 0, inFlightAtStart: 0 };
  if (drained.cut > 0) log.warn({ cut: drained.cut }, `in-flight requests did not finish within ${shutdownGraceMs} ms; their connections were cut`);
  else log.info({ inFlight: drained.inFlightAtStart }, "in-flight requests finished");
  for (const close of closers.reverse()) {
    await close().catch((error: unknown) => log.error({ err: error }, "close failed"));
  }
  await dataDirLock.release();
  log.info("stopped");
  await endLog(log);
  process.exit();
}
// `npm run backup` while this server holds DATA_DIR (lib/db/backup-cli.ts): SIGUSR2 asks for a
// backup of the embedded database, to the file named in DATA_DIR/backup-request.json; the data
// thread, which holds the database, writes it.
process.on("SIGUSR2", () => void answerBackupRequest());
async function answerBackupRequest(): Promise<void> {
  const request = path.join(config.DATA_DIR, "backup-request.json");
  try {
    const { file } = JSON.parse(await readFile(request, "utf8")) as { file: string };
    const bytes = await started.backup(file);
    log.info({ file, bytes }, "backup written");
  } catch (error) {
    log.error({ err: error }, "backup failed");
  } finally {
    await rm(request, { force: true });
  }
}

process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
