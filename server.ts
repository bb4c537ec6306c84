/**
 * SafeWindow's HTTP entry (docs/architecture.md §1, §3).
 *
 * Express 5 with helmet (per-request CSP nonce, Referrer-Policy strict-origin-when-cross-origin),
 * compression, hashed assets served immutable, /healthz (process up) and /readyz (upstreams and
 * database reachable), pino-http request logs with a request id and redaction, a body size limit,
 * the React Router request handler, and graceful shutdown on SIGTERM/SIGINT.
 *
 * Scale-out (docs/architecture.md §1): with REDIS_URL, the account-form rate-limit counters (here) and the
 * sessions (app/server/session.server.ts) live in Redis, shared by every replica; /readyz then
 * checks Redis too. Redis unreachable at start stops the start with a message naming REDIS_URL.
 *
 * Embedded default: with no IDENTITY_URL (CONSUMER_API_URL, BUSINESS_API_URL), the reference
 * identity authority (consumer API, business API) starts in this process on a loopback port, its data in PGlite under DATA_DIR (or
 * PostgreSQL with DATABASE_URL), and the app calls it over HTTP like any upstream.
 *
 * Run: `node server.ts` (production build in ./build) or `node server.ts --dev` (Vite middleware).
 */
import { randomBytes } from "node:crypto";
import { readdirSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import type { Server } from "node:http";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import compression from "compression";
import expressStaticGzip from "express-static-gzip";
import express, { type NextFunction, type Request, type Response } from "express";
import { ipKeyGenerator, rateLimit } from "express-rate-limit";
import helmet from "helmet";
import { RedisStore, type RedisReply } from "rate-limit-redis";
import { pinoHttp } from "pino-http";
import type { ServerBuild } from "react-router";
import { createRequestHandler } from "@react-router/express";
import { maxFormBodyBytes, uploadDiscardLimitBytes } from "./app/limits.ts";
import { paths, routePathOf } from "./app/paths.ts";
import * as messages from "./app/messages.ts";
import { ConfigError, keptSecret, parseConfig, type Config } from "./app/server/config.server.ts";
import { DataDirInUseError, lockDataDir, type DataDirLock } from "./lib/data-dir-lock.ts";
import { createAttemptLimits, formName, minutesToWait, type AttemptLimits } from "./app/server/attempt-limits.server.ts";
import { isCrossSite } from "./app/server/crosssite.server.ts";
import { createLogger, endLog, httpSerializers, requestId } from "./app/server/log.server.ts";
import { createSharedPageCache, policyWithHashes, type PageCacheSlot } from "./app/server/page-cache.server.ts";
import { connectRedis, redisReachable, RedisUnavailableError, type RedisClient } from "./app/server/redis.server.ts";
import { redisSessionStore, type SessionDataStore } from "./app/server/session-store.server.ts";
import { drainable } from "./app/server/shutdown.server.ts";
import { httpMetrics, metricsEndpoint, routePaths } from "./app/server/http-metrics.server.ts";
import { rateLimitRejections } from "./app/server/attempt-limits.server.ts";
import { addMetricsSource } from "./lib/metrics.ts";
import { startUpstreams } from "./server/upstreams.ts";
import { ForeignEntryError, ownerOnlyUmask, secureDataDir, tightenedMessage } from "./lib/data-dir.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const dev = process.argv.includes("--dev");
/** How long in-flight requests may take to finish after SIGTERM. */
const shutdownGraceMs = 10_000;

let config: Config;
try {
  config = parseConfig(process.env);
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

// UPSTREAM_EXTENSIONS (on, the default, or off) is the embedded reference services' setting alone
// (docs/product.md §7 "Extensions"): read here only to pass it on; the app never reads it.
const upstreamExtensions = process.env.UPSTREAM_EXTENSIONS || "on";
if (upstreamExtensions !== "on" && upstreamExtensions !== "off") {
  console.error("Invalid configuration:\n  UPSTREAM_EXTENSIONS: must be on or off");
  process.exit(1);
}

const log = createLogger(config.LOG_LEVEL);
process.on("unhandledRejection", (reason) => log.error({ err: reason }, "unhandled rejection"));

// DATA_DIR is owner-only (docs/security.md "DATA_DIR", docs/decisions/0015-owner-only-data-dir.md):
// whatever this process creates there is 0700/0600, and what an earlier start left open to other
// local users is tightened now, with one line; since they may have read the signing key, the
// embedded identity authority then replaces it (below). An entry of another user stops the start.
ownerOnlyUmask();
let dataDirWasOpen = false;
try {
  const secured = secureDataDir(config.DATA_DIR);
  dataDirWasOpen = secured.tightened.length > 0;
  if (dataDirWasOpen) {
    log.warn(
      { tightened: secured.tightened.length },
      tightenedMessage(secured, config.IDENTITY_URL ? "the identity authority runs elsewhere (IDENTITY_URL): its signing key is not here" : "the identity signing key is replaced at this start"),
    );
  }
} catch (error) {
  if (error instanceof ForeignEntryError) {
    console.error(`Cannot start:\n  ${error.message}`);
    process.exit(1);
  }
  throw error;
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
  if (error instanceof DataDirInUseError) {
    console.error(`Cannot start:\n  ${error.message}`);
    process.exit(1);
  }
  throw error;
}
process.env.SESSION_SECRET ??= keptSecret(config.DATA_DIR, "session-secret");

const closers: (() => Promise<void>)[] = [];

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
if (config.IDENTITY_URL && !config.IDENTITY_CLIENT_SECRET) {
  console.error("Invalid configuration:\n  IDENTITY_CLIENT_SECRET: required when IDENTITY_URL is set");
  process.exit(1);
}
const identityClientSecret = config.IDENTITY_URL ? config.IDENTITY_CLIENT_SECRET : (config.IDENTITY_CLIENT_SECRET ?? keptSecret(config.DATA_DIR, "identity-client-secret"));
const upstreams = await startUpstreams({
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
closers.push(() => upstreams.close());
addMetricsSource(() => upstreams.metrics());
process.env.IDENTITY_URL = upstreams.identityUrl;
process.env.CONSUMER_API_URL = upstreams.consumerUrl;
process.env.BUSINESS_API_URL = upstreams.businessUrl;
if (identityClientSecret) process.env.IDENTITY_CLIENT_SECRET = identityClientSecret;

// Sessions (docs/decisions/0009-sessions-in-the-database.md): Redis with REDIS_URL; else the
// app_session table the data thread keeps (the one embedded database, or PostgreSQL with DATABASE_URL).
const sessions: SessionDataStore = redis ? redisSessionStore(redis) : (upstreams.sessions as SessionDataStore);

const app = express();
app.disable("x-powered-by");
app.set("trust proxy", config.TRUST_PROXY);

app.use(
  pinoHttp({
    logger: log,
    genReqId: requestId,
    serializers: httpSerializers,
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? "error" : res.statusCode >= 400 ? "warn" : "info"),
    autoLogging: { ignore: (req) => req.url === "/healthz" || req.url === "/readyz" },
  }),
);

// With METRICS_TOKEN, every answer counted and timed by route, and GET /metrics for the token
// (app/server/http-metrics.server.ts); without it, no request pays for counts nobody can read.
let knownRoutes: Set<string> | undefined;
if (config.METRICS_TOKEN) {
  app.use(httpMetrics({ basePrefix: config.basePrefix, routes: () => knownRoutes }));
  app.get("/metrics", metricsEndpoint(config.METRICS_TOKEN));
}

app.use((_req, res, next) => {
  res.locals.cspNonce = randomBytes(16).toString("base64");
  next();
});

app.use(
  helmet({
    contentSecurityPolicy: dev
      ? false
      : {
          useDefaults: false,
          directives: {
            defaultSrc: ["'self'"],
            scriptSrc: ["'self'", (_req, res) => `'nonce-${(res as Response).locals.cspNonce}'`],
            styleSrc: ["'self'"],
            imgSrc: ["'self'", "data:", "blob:"],
            fontSrc: ["'self'"],
            connectSrc: ["'self'"],
            formAction: ["'self'"],
            frameAncestors: ["'none'"],
            baseUri: ["'self'"],
            objectSrc: ["'none'"],
            ...(config.publicUrl.startsWith("https:") ? { upgradeInsecureRequests: [] } : {}),
          },
        },
    // helmet's default no-referrer makes Chromium send `Origin: null` on form posts, which
    // React Router's CSRF check rejects (docs/architecture.md §2).
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    strictTransportSecurity: config.publicUrl.startsWith("https:"),
    // CSP frame-ancestors 'none' already forbids framing; the legacy header said less (SAMEORIGIN).
    xFrameOptions: false,
  }),
);
// No page uses the camera, microphone, payments or USB: browsers refuse them to every frame and script
// of the app; the position only to our own pages (Locations' "Near me"; docs/security.md "Headers").
app.use((_req, res, next) => {
  res.set("Permissions-Policy", "camera=(), microphone=(), geolocation=(self), payment=(), usb=(), browsing-topics=()");
  next();
});
// Answers made per request (pages, data, error pages) are compressed with gzip, even for a browser
// that also accepts br: on our 8-11 KB pages brotli saved about 80 bytes (3%) and cost a quarter of
// GET /login's requests/s, its encoder state being set up for every answer (bench/pages.results.md).
// The middleware prefers br whenever it is accepted, so br is taken out of what it reads; the
// hashed assets, compressed once at build time, keep brotli (their own middleware, below, reads
// the header as the browser sent it).
const assetsPrefix = `${config.basePrefix}/assets/`;
app.use((req, _res, next) => {
  const accepted = req.headers["accept-encoding"];
  if (accepted && !req.path.startsWith(assetsPrefix)) {
    req.headers["accept-encoding"] = accepted
      .split(",")
      .filter((coding) => coding.split(";")[0]!.trim().toLowerCase() !== "br")
      .join(",");
  }
  next();
});
app.use(compression());

app.get("/healthz", (_req, res) => {
  res.json({ ok: true });
});

app.get("/readyz", async (_req, res) => {
  const [identity, consumer, business, redisUp] = await Promise.all([
    reachable(`${process.env.IDENTITY_URL}/healthz`),
    reachable(`${process.env.CONSUMER_API_URL}/healthz`),
    reachable(`${process.env.BUSINESS_API_URL}/healthz`),
    redis ? redisReachable(redis) : undefined,
  ]);
  const checks = { identity, consumer, business, ...(redis ? { redis: redisUp } : {}) };
  const ready = Object.values(checks).every(Boolean);
  res.status(ready ? 200 : 503).json({ ready, checks });
});

/** True when `url` answers 2xx within 2 s. */
async function reachable(url: string): Promise<boolean> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(2_000) })).ok;
  } catch {
    return false;
  }
}

const base = config.basePrefix;

// Cross-site state-changing requests are refused before anything acts on them, whatever the route
// (app/server/crosssite.server.ts: Fetch Metadata, then Origin).
const trustedOrigins = [new URL(config.publicUrl).origin];
app.use((req, res, next) => {
  const site = { method: req.method, secFetchSite: req.get("sec-fetch-site"), origin: req.get("origin"), host: req.get("host") ?? "" };
  if (!isCrossSite(site, trustedOrigins)) return next();
  req.log.warn({ origin: site.origin, secFetchSite: site.secFetchSite }, "cross-site request refused");
  res.status(403).type("html").send(errorPage(messages.crossSiteRefused));
});

// Bodies are bounded before anything reads them: forms are small, the upload form carries one
// PDF; a body without a declared length (chunked) is refused, so none is buffered unbounded.
app.use((req, res, next) => {
  if (req.headers["transfer-encoding"] && !req.headers["content-length"]) {
    res.status(411).set("Connection", "close").type("html").send(errorPage("Your browser sent the form in a way we cannot accept. Please try again."));
    return;
  }
  const length = Number(req.headers["content-length"] ?? 0);
  // An upload a little over its limit reaches the upload form's action, which answers with the
  // form's own message (app/limits.ts); only absurd sizes are refused here, unread.
  const upload = req.method === "POST" && routePathOf(req.path, base) === paths.mytests;
  if (length > (upload ? uploadDiscardLimitBytes : maxFormBodyBytes)) {
    req.log.warn({ length }, "request body too large");
    const message = upload ? messages.uploadTooLarge : "That was more than this form accepts. Please go back and shorten what you entered.";
    res.status(413).set("Connection", "close").type("html").send(errorPage(message));
    return;
  }
  next();
});

// Sign-in and account forms: at most AUTH_RATE_LIMIT posts per client address and form in 10
// minutes, against password guessing and mail flooding, whatever the spelling of the path
// (formName). The route actions add limits per target account and per mail recipient
// (attemptLimits, in the load context). The counters are in Redis with REDIS_URL (shared by the
// replicas), else in this process's memory.
const redisStore = (prefix: string) =>
  new RedisStore({ prefix, sendCommand: (...args: string[]) => (redis as RedisClient).sendCommand(args) as Promise<RedisReply> });
const attemptLimits = createAttemptLimits(redis ? redisStore : undefined);
app.use(
  rateLimit({
    windowMs: 10 * 60 * 1000,
    limit: config.AUTH_RATE_LIMIT,
    standardHeaders: "draft-8",
    legacyHeaders: false,
    skip: (req) => req.method !== "POST" || !formName(req.path, base),
    keyGenerator: (req) => `${ipKeyGenerator(req.ip ?? "")}|${formName(req.path, base)}`,
    store: redis ? redisStore("safewindow:ratelimit:") : undefined,
    handler: (req, res) => {
      req.log.warn("account form rate limit reached");
      rateLimitRejections.inc({ limit: "formsPerAddress" });
      const resetTime = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
      const seconds = resetTime ? Math.ceil((resetTime.getTime() - Date.now()) / 1000) : 600;
      res.status(429).set("Retry-After", String(Math.max(1, seconds))).type("html").send(errorPage(messages.tooManyAttempts(minutesToWait(seconds))));
    },
  }),
);

let build: ServerBuild | (() => Promise<ServerBuild>);
if (dev) {
  const vite = await import("vite");
  const viteServer = await vite.createServer({ server: { middlewareMode: true } });
  app.use(viteServer.middlewares);
  build = () => viteServer.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>;
  closers.push(() => viteServer.close());
} else {
  const buildDir = path.resolve(here, process.env.BUILD_DIR || "build");
  const client = path.join(buildDir, "client");
  // Hashed assets: immutable, and served from the brotli or gzip file the build wrote beside each
  // (vite.config.ts), as the browser accepts; the compression middleware leaves encoded answers alone.
  app.use(
    `${base}/assets`,
    expressStaticGzip(path.join(client, "assets"), {
      enableBrotli: true,
      orderPreference: ["br", "gzip"],
      index: false,
      serveStatic: { immutable: true, maxAge: "1y", index: false },
    }),
  );
  // The few files at the build's top level (favicon, the service-worker remover): only their own
  // paths reach the static middleware, so that a page request costs no file-system lookup.
  const rootFiles = new Set(readdirSync(client, { withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => `/${entry.name}`));
  const serveRootFile = express.static(client, { maxAge: "1h", index: false });
  app.use(base || "/", (req, res, next) => (rootFiles.has(req.path) ? serveRootFile(req, res, next) : next()));
  build = (await import(pathToFileURL(path.join(buildDir, "server/index.js")).href)) as ServerBuild;
  knownRoutes = routePaths(build.routes);
}

// The shared page cache (app/server/page-cache.server.ts, docs/decisions/0014-shared-page-cache.md):
// a GET without a session or any other personal cookie is answered from memory when its page was
// stored (a page every anonymous visitor gets the same); otherwise it may store what it renders.
// Not in development, where the code changes under it.
const pageCache = dev ? undefined : createSharedPageCache({ keyedCookies: ((build as ServerBuild).entry.module as unknown as EntryModule).sharedPageCookies() });
app.use((req, res, next) => {
  const key = pageCache?.keyOf({ method: req.method, url: req.originalUrl, host: req.headers.host, cookie: req.headers.cookie });
  if (!pageCache || key === undefined) return next();
  const nonce = res.locals.cspNonce as string;
  const page = pageCache.get(key);
  const policy = res.getHeader("Content-Security-Policy");
  const withHashes = page && typeof policy === "string" ? policyWithHashes(policy, nonce, page) : undefined;
  if (!page || !withHashes) {
    const slot = pageCache.slot(key, nonce);
    res.locals.sharedPage = slot;
    // Stored only by the headers that went out: the session middleware (or any other) may add a
    // Set-Cookie after the page was rendered.
    res.on("finish", () => slot.finish(res.statusCode, res.getHeaderNames()));
    return next();
  }
  for (const [name, value] of page.headers) res.setHeader(name, value);
  res.setHeader("Content-Security-Policy", withHashes);
  res.vary("Accept-Encoding");
  // Without an Accept-Encoding header the answer is the plain HTML, as the compression middleware would send.
  const gzip = Boolean(req.headers["accept-encoding"]) && req.acceptsEncodings("gzip", "identity") === "gzip";
  if (gzip) res.setHeader("Content-Encoding", "gzip");
  const body = gzip ? page.gzip : page.html;
  res.setHeader("Content-Length", body.length);
  res.status(200).end(body);
});

type EntryModule = {
  createLoadContext: (info: {
    nonce: string;
    requestId: string;
    log: typeof log;
    clientIp: string;
    sessions: SessionDataStore;
    attemptLimits: AttemptLimits;
    sharedPage: PageCacheSlot | undefined;
  }) => never;
  sharedPageCookies: () => string[];
};
const loadContextOf = async () => ((typeof build === "function" ? await build() : build).entry.module as unknown as EntryModule);

app.all(
  "/{*path}",
  createRequestHandler({
    build,
    mode: dev ? "development" : "production",
    getLoadContext: async (req, res) =>
      (await loadContextOf()).createLoadContext({
        nonce: res.locals.cspNonce as string,
        requestId: String(req.id),
        log: req.log,
        clientIp: req.ip ?? "",
        sessions,
        attemptLimits,
        sharedPage: res.locals.sharedPage as PageCacheSlot | undefined,
      }),
  }),
);

app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
  req.log.error({ err: error }, "request failed");
  if (res.headersSent) return res.end();
  const status = (error as { status?: number }).status;
  const clientError = typeof status === "number" && status >= 400 && status < 500;
  res
    .status(clientError ? status : 500)
    .type("html")
    .send(errorPage(clientError ? "We could not read that request. Please go back and try again." : "Something went wrong on our side. Please try again in a minute."));
});

/** A small self-contained error page (no scripts, no stack trace). */
function errorPage(message: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>SafeWindow</title></head><body><main><h1>SafeWindow</h1><p>${message}</p><p><a href="${base}/">Go to the start page</a></p></main></body></html>`;
}

const server: Server = app.listen(config.PORT, config.HOST, () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.PORT;
  log.info({ port, basePath: config.BASE_PATH, dataDir: config.DATA_DIR }, `SafeWindow listening on http://localhost:${port}${base}/`);
  collectStartupGarbage();
});

/**
 * Gives back the memory the start left behind (docs/decisions/0013-bounded-v8-heap.md): loading
 * the build and the embedded services leaves about 60 MB of garbage in V8's heap, which nothing
 * collects while the server waits for its first request (a restart sat at 305-335 MiB at rest,
 * of which a full collection gave back about 75 MiB). One full collection once the server listens
 * (V8's "last resort" kind, which also shrinks the heap) takes it back. It needs `--expose-gc`
 * (package.json config.nodeOptions, the Dockerfile); without it, nothing happens.
 */
function collectStartupGarbage() {
  if (typeof globalThis.gc !== "function") return;
  const before = process.memoryUsage();
  globalThis.gc({ type: "major", flavor: "last-resort", execution: "sync" });
  const after = process.memoryUsage();
  const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
  log.info({ heapTotalMb: [mb(before.heapTotal), mb(after.heapTotal)], rssMb: [mb(before.rss), mb(after.rss)] }, "startup garbage collected");
}
server.headersTimeout = 35_000;
server.requestTimeout = 60_000;
// Watched from the first request on, so a shutdown can answer every one with `Connection: close`.
const connections = drainable(server, { graceMs: shutdownGraceMs });

let stopping = false;
/**
 * SIGTERM/SIGINT (docs/decisions/0008-one-process-per-data-dir-and-draining-shutdown.md): stop
 * accepting, finish in-flight requests with `Connection: close` and close idle connections (at most
 * shutdownGraceMs, then cut), close the embedded services and databases, give DATA_DIR up, exit 0
 * (1 after a lost DATA_DIR lock).
 */
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, "shutting down: finishing in-flight requests");
  let drained: Awaited<ReturnType<typeof connections.drain>> | undefined;
  try {
    drained = await connections.drain();
  } catch (error) {
    // A data thread that died before the app listened: there is nothing to drain yet.
    if (!(error instanceof ReferenceError)) throw error;
  }
  if (drained && drained.cut > 0) log.warn({ cut: drained.cut }, `in-flight requests did not finish within ${shutdownGraceMs} ms; their connections were cut`);
  else if (drained) log.info({ inFlight: drained.inFlightAtStart }, "in-flight requests finished");
  // Then the data thread (its services, outboxes and databases), Redis, and the rest, in reverse order of opening.
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
    const bytes = await upstreams.backup(file);
    log.info({ file, bytes }, "backup written");
  } catch (error) {
    log.error({ err: error }, "backup failed");
  } finally {
    await rm(request, { force: true });
  }
}

process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
