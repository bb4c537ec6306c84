/**
 * SafeWindow's process (docs/architecture/README.md §1, §3): configuration, the DATA_DIR lock, the upstreams (the
 * reference services start here unless IDENTITY_URL, CONSUMER_API_URL and BUSINESS_API_URL name them), Redis
 * and the session store, the web app's pipeline (server/app.ts, loaded once from the build, or through Vite
 * with `--dev`), listen, and graceful shutdown. Nothing is written into process.env.
 */
import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Kysely } from "kysely";
import { keptSecret } from "./app/server/config.server.ts";
import { connectRedis, redisReachable, RedisUnavailableError, type RedisClient } from "./app/server/redis.server.ts";
import { APP_MIGRATION_TABLE, databaseSessionStore, migrateSessionTable, redisSessionStore, type SessionDataStore } from "./app/server/session-store.server.ts";
import { createDatabase, pgliteOf } from "./lib/db/database.ts";
import type { SchemaOwner } from "./lib/db/embedded.ts";
import { migrateToLatest } from "./lib/db/migrate.ts";
import { endLog } from "./lib/end-log.ts";
import type { RequestHandler } from "express";
import type * as AppModule from "./server/app.ts";
import { listen, startProcess } from "./server/process.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const dev = process.argv.includes("--dev");
/** How often expired sessions are deleted from the database, ms. */
const sessionPurgeIntervalMs = 15 * 60 * 1000;
/** How long in-flight requests may take to finish after SIGTERM. */
const shutdownGraceMs = 10_000;

const { config, log, upstreamExtensions, dataDirWasOpen, dataDirLock } = await startProcess(process.env);
const sessionSecret = config.SESSION_SECRET ?? keptSecret(config.DATA_DIR, "session-secret");
/** The upstreams the app calls: the configured URLs, or those of the services started below. */
const upstreams: AppModule.Upstreams = { identityUrl: config.IDENTITY_URL ?? "", consumerUrl: config.CONSUMER_API_URL ?? "", businessUrl: config.BUSINESS_API_URL ?? "", identityClientSecret: config.IDENTITY_CLIENT_SECRET ?? "" };

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

/**
 * The one embedded database (lib/db/embedded.ts): without DATABASE_URL, the embedded
 * services and the session store keep their tables in one PGlite under DATA_DIR/db, merged at the
 * first start from the earlier one-database-per-service layout. Closed last (closers run in
 * reverse order).
 */
let embeddedDb: Kysely<any> | undefined;
if (!config.DATABASE_URL && (!config.IDENTITY_URL || !config.CONSUMER_API_URL || !config.BUSINESS_API_URL || !redis)) {
  const { openEmbeddedDatabase } = await import("./lib/db/embedded.ts");
  const owners: SchemaOwner[] = [];
  if (!config.IDENTITY_URL) {
    const { IDENTITY_MIGRATION_TABLE, identityMigrations } = await import("./services/identity/schema/migrations.ts");
    owners.push({ name: "identity", migrationTable: IDENTITY_MIGRATION_TABLE, migrate: (db) => migrateToLatest(db, identityMigrations, IDENTITY_MIGRATION_TABLE) });
  }
  if (!config.CONSUMER_API_URL) {
    const { CONSUMER_MIGRATION_TABLE, consumerMigrations } = await import("./services/consumer/schema/migrations.ts");
    owners.push({ name: "consumer", migrationTable: CONSUMER_MIGRATION_TABLE, migrate: (db) => migrateToLatest(db, consumerMigrations, CONSUMER_MIGRATION_TABLE) });
  }
  if (!config.BUSINESS_API_URL) {
    const { BUSINESS_MIGRATION_TABLE, businessMigrations } = await import("./services/business/schema/migrations.ts");
    owners.push({ name: "business", migrationTable: BUSINESS_MIGRATION_TABLE, migrate: (db) => migrateToLatest(db, businessMigrations, BUSINESS_MIGRATION_TABLE) });
  }
  if (!redis) owners.push({ name: "app", migrationTable: APP_MIGRATION_TABLE, migrate: migrateSessionTable });
  const opened = await openEmbeddedDatabase(config.DATA_DIR, owners, log);
  closers.push(() => opened.destroy());
  embeddedDb = opened;
}
/** Where the session table lives without Redis: the embedded database, or an embedded service's PostgreSQL pool. */
let sessionDb: Kysely<any> | undefined = embeddedDb;

// The reference services (with their databases, mail sender and PDF workers) are loaded only when
// they run here: with IDENTITY_URL, CONSUMER_API_URL and BUSINESS_API_URL set, none of their code is imported.
if (!config.IDENTITY_URL) {
  const { startIdentityService } = await import("./services/identity/server.ts");
  const clientSecret = config.IDENTITY_CLIENT_SECRET ?? keptSecret(config.DATA_DIR, "identity-client-secret");
  const identity = await startIdentityService({
    dataDir: config.DATA_DIR,
    databaseUrl: config.DATABASE_URL,
    publicUrl: config.publicUrl,
    smtpUrl: config.SMTP_URL,
    mailFrom: config.MAIL_FROM,
    // Notices of account changes tell whoever did not make them to write here.
    supportEmail: config.SUPPORT_EMAIL,
    clients: [{ clientId: config.IDENTITY_CLIENT_ID, clientSecret }],
    logger: log.child({ service: "identity" }),
    db: embeddedDb,
    rotateSigningKey: dataDirWasOpen,
    extensions: upstreamExtensions === "on",
  });
  closers.push(identity.close);
  sessionDb ??= identity.db;
  upstreams.identityUrl = identity.url;
  upstreams.identityClientSecret = clientSecret;
  log.info({ url: "loopback", extensions: upstreamExtensions }, "embedded identity authority started");
} else if (!config.IDENTITY_CLIENT_SECRET) {
  console.error("Invalid configuration:\n  IDENTITY_CLIENT_SECRET: required when IDENTITY_URL is set");
  process.exit(1);
}

// Before the consumer API, which asks it for venues.
if (!config.BUSINESS_API_URL) {
  const { startBusinessService } = await import("./services/business/server.ts");
  const business = await startBusinessService({
    dataDir: config.DATA_DIR,
    databaseUrl: config.DATABASE_URL,
    identityUrl: upstreams.identityUrl,
    logger: log.child({ service: "business" }),
    db: embeddedDb,
    extensions: upstreamExtensions === "on",
  });
  closers.push(business.close);
  upstreams.businessUrl = business.url;
  log.info({ url: "loopback", extensions: upstreamExtensions }, "embedded business API started");
}

if (!config.CONSUMER_API_URL) {
  const { startConsumerService } = await import("./services/consumer/server.ts");
  const { labTestServerFromEnv } = await import("./services/consumer/results/link.ts");
  const { readDccTrustList, readExtraIssuers } = await import("./services/consumer/results/proof/trust.ts");
  // Test only: the reference lab server that serves the labs' result links.
  const labTestServer = labTestServerFromEnv(config.LAB_LINKS_TEST_SERVER, config.LAB_LINKS_TEST_CA);
  const consumer = await startConsumerService({
    dataDir: config.DATA_DIR,
    databaseUrl: config.DATABASE_URL,
    identityUrl: upstreams.identityUrl,
    logger: log.child({ service: "consumer" }),
    // Threads start with the first upload and stop when idle: an idle server holds no pdf.js.
    pdf: { threads: config.MAX_PDF_WORKERS, idleStopMs: config.PDF_WORKER_IDLE_SECONDS * 1000 },
    db: embeddedDb,
    extensions: upstreamExtensions === "on",
    reviewers: config.REVIEWER_EMAILS,
    publicUrl: config.publicUrl,
    smtpUrl: config.SMTP_URL,
    mailFrom: config.MAIL_FROM,
    supportEmail: config.SUPPORT_EMAIL,
    businessUrl: upstreams.businessUrl,
    ...(labTestServer ? { links: { testServer: labTestServer } } : {}),
    proof: {
      ...(config.SHC_EXTRA_ISSUERS ? { shcIssuers: readExtraIssuers(config.SHC_EXTRA_ISSUERS) } : {}),
      ...(config.DCC_TRUST_LIST ? { dccSigners: readDccTrustList(config.DCC_TRUST_LIST) } : {}),
    },
  });
  closers.push(consumer.close);
  sessionDb ??= consumer.db;
  upstreams.consumerUrl = consumer.url;
  log.info({ url: "loopback", extensions: upstreamExtensions }, "embedded consumer API started");
}

// Sessions (docs/decisions/0009-sessions-in-the-database.md): Redis with REDIS_URL; else the
// app_session table of the one embedded database, or of the PostgreSQL database an embedded
// service already has open; else (DATABASE_URL with both upstreams elsewhere) a pool of the app's own.
let sessions: SessionDataStore;
if (redis) {
  sessions = redisSessionStore(redis);
} else {
  let db = sessionDb;
  if (!db) {
    const own = await createDatabase({ dataDir: config.DATA_DIR, databaseUrl: config.DATABASE_URL, name: "app" });
    closers.push(() => own.destroy());
    db = own;
  }
  const applied = await migrateSessionTable(db);
  if (applied.length > 0) log.info({ migrations: applied }, "session table migrated");
  const store = databaseSessionStore(db);
  const purge = () =>
    store.purgeExpired().then(
      (purged) => purged > 0 && log.info({ purged }, "expired sessions deleted"),
      (error: unknown) => log.warn({ err: error }, "purging expired sessions failed"),
    );
  await purge();
  const purgeTimer = setInterval(purge, sessionPurgeIntervalMs);
  purgeTimer.unref();
  // Closers run in reverse order: the timer stops before the database closes.
  closers.push(async () => clearInterval(purgeTimer));
  sessions = store;
}

// The pipeline from the build, or from Vite's module graph with --dev: each app module exists once.
const buildDir = path.resolve(here, process.env.BUILD_DIR || "build");
const vite = dev ? await (await import("vite")).createServer({ server: { middlewareMode: true } }) : undefined;
if (vite) closers.push(() => vite.close());
const { createApp } = (await (vite ? vite.ssrLoadModule("./server/app.ts") : import(pathToFileURL(path.join(buildDir, "server/index.js")).href))) as typeof AppModule;
const app = await createApp({
  config, log, upstreams, sessionSecret, sessions, redis,
  redisReachable: redis ? () => redisReachable(redis as RedisClient) : undefined,
  // The embedded services' series (lib/metrics.ts as they load it from source), after the build's own.
  otherMetrics: async () => (await import("./lib/metrics.ts")).registry.metrics(),
  assets: vite ? { vite: vite.middlewares as unknown as RequestHandler } : { clientDir: path.join(buildDir, "client") },
  routerContextProvider: vite ? (await import("react-router")).RouterContextProvider : undefined,
});

// Watched from the first request on, so a shutdown can answer every one with `Connection: close`.
const connections = listen(app, config, log, shutdownGraceMs);

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
  const drained = await connections.drain();
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
// backup of the embedded database, to the file named in DATA_DIR/backup-request.json.
process.on("SIGUSR2", () => void answerBackupRequest());
async function answerBackupRequest(): Promise<void> {
  const request = path.join(config.DATA_DIR, "backup-request.json");
  try {
    const { file } = JSON.parse(await readFile(request, "utf8")) as { file: string };
    const pglite = embeddedDb ? pgliteOf(embeddedDb) : undefined;
    if (!pglite) throw new Error("no embedded database here (DATABASE_URL is set): back up PostgreSQL with pg_dump");
    const { writeBackup } = await import("./lib/db/backup.ts");
    const bytes = await writeBackup(pglite, config.DATA_DIR, file);
    log.info({ file, bytes }, "backup written");
  } catch (error) {
    log.error({ err: error }, "backup failed");
  } finally {
    await rm(request, { force: true });
  }
}

process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
