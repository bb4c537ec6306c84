/**
 * The data thread (docs/decisions/0016-services-in-a-data-thread.md, docs/architecture/README.md §1): the
 * worker thread that holds everything of the server that is not the web app. It opens the one
 * embedded database (lib/db/embedded.ts) when DATABASE_URL is unset, runs the embedded identity
 * authority, business API and consumer API (the consumer's PDF worker pool lives under this
 * thread), and answers the web app's session store when sessions are in a database (not Redis).
 * The web app's thread then runs no database query and loads neither PGlite nor pdf.js.
 *
 * Started by server/upstreams.ts with `DataThreadData` as workerData. Once every service listens
 * and every migration ran it posts one `DataThreadReady` to its parent; a failure before that is
 * thrown (the parent's start fails with it). Afterwards it answers the calls of `DataThreadCalls`
 * over the MessagePort it was given (birpc). Run by Node's type stripping, under `npm run dev` too.
 *
 * Logs: its own pino logger on the process's stdout (fd 1, one synchronous write per line, so that
 * its lines never interleave with the web app's), every line naming its service: identity,
 * consumer, business, or database for the thread's own lines.
 */
import type { MessagePort } from "node:worker_threads";
import { isMainThread, parentPort, workerData } from "node:worker_threads";
import { createBirpc } from "birpc";
import type { Kysely } from "kysely";
import { pino } from "pino";
import type { Config } from "../app/server/config.server.ts";
import { createLogger, endLog } from "../app/server/log.server.ts";
import { APP_MIGRATION_TABLE, databaseSessionStore, migrateSessionTable, type DatabaseSessionStore, type SessionDataStore } from "../app/server/session-store.server.ts";
import { persistCompileCache } from "../lib/compile-cache.ts";
import { createDatabase, pgliteOf } from "../lib/db/database.ts";
import type { SchemaOwner } from "../lib/db/embedded.ts";
import { migrateToLatest } from "../lib/db/migrate.ts";
import { registry } from "../lib/metrics.ts";

/** What the data thread is started with (plain values: workerData is structured-cloned). */
export interface DataThreadData {
  /** The server's parsed configuration (app/server/config.server.ts parseConfig). */
  config: Config;
  /** The identity client secret the embedded identity authority accepts (the kept one, or IDENTITY_CLIENT_SECRET). */
  identityClientSecret: string | undefined;
  /** DATA_DIR had entries open to other users at this start: the embedded identity authority replaces its signing key. */
  rotateSigningKey: boolean;
  /** UPSTREAM_EXTENSIONS=on (docs/product/calls.md §7 "Extensions"). */
  extensions: boolean;
  /** Sessions are in Redis: the thread keeps no session table. */
  redisSessions: boolean;
  /** The port the thread answers `DataThreadCalls` on. */
  port: MessagePort;
}

/** Posted to the parent once the thread is ready: the services' base URLs (the configured ones for external upstreams). */
export interface DataThreadReady {
  type: "ready";
  identityUrl: string;
  consumerUrl: string;
  businessUrl: string;
  /** The thread answers the session store's calls (sessions are not in Redis). */
  sessions: boolean;
}

/** Prometheus metrics as prom-client's `registry.getMetricsAsJSON()` gives them. */
export type MetricsJson = Awaited<ReturnType<typeof registry.getMetricsAsJSON>>;

/**
 * The calls the data thread answers. The session calls are app/server/session-store.server.ts's
 * `SessionDataStore`, run by `databaseSessionStore` on the thread's database; they reject when
 * sessions are in Redis.
 */
export interface DataThreadCalls extends SessionDataStore {
  /**
   * Writes a backup of the embedded database to `file` (lib/db/backup.ts).
   * @returns the backup's size in bytes
   * @throws Error when there is no embedded database (DATABASE_URL is set)
   */
  backup(file: string): Promise<number>;
  /** The thread's metrics (the services' series), as JSON. */
  metrics(): Promise<MetricsJson>;
  /** Closes the services (HTTP, outboxes, mail, PDF workers), the session purge and the databases, in that order, then ends the thread's log. */
  close(): Promise<void>;
}

/** How often expired sessions are deleted from the database, ms. */
const sessionPurgeIntervalMs = 15 * 60 * 1000;

if (isMainThread || !parentPort) throw new Error("server/data-thread.ts runs only as a worker thread (server/upstreams.ts starts it)");
const parent = parentPort;
const { config, identityClientSecret, rotateSigningKey, extensions, redisSessions, port } = workerData as DataThreadData;

const log = createLogger(config.LOG_LEVEL, pino.destination({ fd: 1, sync: true }));
const dbLog = log.child({ service: "database" });
process.on("unhandledRejection", (reason) => dbLog.error({ err: reason }, "unhandled rejection"));

/** Run in reverse order by close(). */
const closers: (() => Promise<void>)[] = [];

/**
 * The one embedded database (lib/db/embedded.ts): without DATABASE_URL, the embedded services and
 * the session store keep their tables in one PGlite under DATA_DIR/db, merged at the first start
 * from the earlier one-database-per-service layout. Closed last.
 */
let embeddedDb: Kysely<any> | undefined;
if (!config.DATABASE_URL) {
  const { openEmbeddedDatabase } = await import("../lib/db/embedded.ts");
  const owners: SchemaOwner[] = [];
  if (!config.IDENTITY_URL) {
    const { IDENTITY_MIGRATION_TABLE, identityMigrations } = await import("../services/identity/schema/migrations.ts");
    owners.push({ name: "identity", migrationTable: IDENTITY_MIGRATION_TABLE, migrate: (db) => migrateToLatest(db, identityMigrations, IDENTITY_MIGRATION_TABLE) });
  }
  if (!config.CONSUMER_API_URL) {
    const { CONSUMER_MIGRATION_TABLE, consumerMigrations } = await import("../services/consumer/schema/migrations.ts");
    owners.push({ name: "consumer", migrationTable: CONSUMER_MIGRATION_TABLE, migrate: (db) => migrateToLatest(db, consumerMigrations, CONSUMER_MIGRATION_TABLE) });
  }
  if (!config.BUSINESS_API_URL) {
    const { BUSINESS_MIGRATION_TABLE, businessMigrations } = await import("../services/business/schema/migrations.ts");
    owners.push({ name: "business", migrationTable: BUSINESS_MIGRATION_TABLE, migrate: (db) => migrateToLatest(db, businessMigrations, BUSINESS_MIGRATION_TABLE) });
  }
  if (!redisSessions) owners.push({ name: "app", migrationTable: APP_MIGRATION_TABLE, migrate: migrateSessionTable });
  const opened = await openEmbeddedDatabase(config.DATA_DIR, owners, dbLog);
  closers.push(() => opened.destroy());
  embeddedDb = opened;
}
/** Where the session table lives without Redis: the embedded database, or an embedded service's PostgreSQL pool. */
let sessionDb: Kysely<any> | undefined = embeddedDb;

// The reference services are loaded only when they run here: an upstream with a URL loads none of its code.
let identityUrl = config.IDENTITY_URL;
if (!identityUrl) {
  const { startIdentityService } = await import("../services/identity/server.ts");
  const identity = await startIdentityService({
    dataDir: config.DATA_DIR,
    databaseUrl: config.DATABASE_URL,
    publicUrl: config.publicUrl,
    smtpUrl: config.SMTP_URL,
    mailFrom: config.MAIL_FROM,
    // Notices of account changes tell whoever did not make them to write here.
    supportEmail: config.SUPPORT_EMAIL,
    clients: [{ clientId: config.IDENTITY_CLIENT_ID, clientSecret: identityClientSecret as string }],
    logger: log.child({ service: "identity" }),
    db: embeddedDb,
    rotateSigningKey,
    extensions,
  });
  closers.push(identity.close);
  sessionDb ??= identity.db;
  identityUrl = identity.url;
  log.child({ service: "identity" }).info({ url: "loopback", extensions: extensions ? "on" : "off" }, "embedded identity authority started");
}

// Before the consumer API, which asks it for venues.
let businessUrl = config.BUSINESS_API_URL;
if (!businessUrl) {
  const { startBusinessService } = await import("../services/business/server.ts");
  const business = await startBusinessService({
    dataDir: config.DATA_DIR,
    databaseUrl: config.DATABASE_URL,
    identityUrl,
    logger: log.child({ service: "business" }),
    db: embeddedDb,
    extensions,
  });
  closers.push(business.close);
  businessUrl = business.url;
  log.child({ service: "business" }).info({ url: "loopback", extensions: extensions ? "on" : "off" }, "embedded business API started");
}

let consumerUrl = config.CONSUMER_API_URL;
if (!consumerUrl) {
  const { startConsumerService } = await import("../services/consumer/server.ts");
  const { labTestServerFromEnv } = await import("../services/consumer/results/link.ts");
  const { readDccTrustList, readExtraIssuers } = await import("../services/consumer/results/proof/trust.ts");
  // Test only: the reference lab server that serves the labs' result links.
  const labTestServer = labTestServerFromEnv(config.LAB_LINKS_TEST_SERVER, config.LAB_LINKS_TEST_CA);
  const consumer = await startConsumerService({
    dataDir: config.DATA_DIR,
    databaseUrl: config.DATABASE_URL,
    identityUrl,
    logger: log.child({ service: "consumer" }),
    // Threads start with the first upload and stop when idle: an idle server holds no pdf.js.
    pdf: { threads: config.MAX_PDF_WORKERS, idleStopMs: config.PDF_WORKER_IDLE_SECONDS * 1000 },
    db: embeddedDb,
    extensions,
    reviewers: config.REVIEWER_EMAILS,
    publicUrl: config.publicUrl,
    smtpUrl: config.SMTP_URL,
    mailFrom: config.MAIL_FROM,
    supportEmail: config.SUPPORT_EMAIL,
    businessUrl,
    ...(labTestServer ? { links: { testServer: labTestServer } } : {}),
    proof: {
      ...(config.SHC_EXTRA_ISSUERS ? { shcIssuers: readExtraIssuers(config.SHC_EXTRA_ISSUERS) } : {}),
      ...(config.DCC_TRUST_LIST ? { dccSigners: readDccTrustList(config.DCC_TRUST_LIST) } : {}),
    },
    // A DATA_DIR found open to other users: the pass keys may have been read too.
    replacePassKeys: rotateSigningKey,
  });
  closers.push(consumer.close);
  sessionDb ??= consumer.db;
  consumerUrl = consumer.url;
  log.child({ service: "consumer" }).info({ url: "loopback", extensions: extensions ? "on" : "off" }, "embedded consumer API started");
}

// Sessions without Redis (docs/decisions/0009-sessions-in-the-database.md): the app_session table of
// the one embedded database, or of the PostgreSQL database an embedded service already has open;
// else (DATABASE_URL with every upstream elsewhere) a pool of the sessions' own.
let store: DatabaseSessionStore | undefined;
if (!redisSessions) {
  let db = sessionDb;
  if (!db) {
    const own = await createDatabase({ dataDir: config.DATA_DIR, databaseUrl: config.DATABASE_URL, name: "app" });
    closers.push(() => own.destroy());
    db = own;
  }
  const applied = await migrateSessionTable(db);
  if (applied.length > 0) dbLog.info({ migrations: applied }, "session table migrated");
  const opened = databaseSessionStore(db);
  const purge = () =>
    opened.purgeExpired().then(
      (purged) => purged > 0 && dbLog.info({ purged }, "expired sessions deleted"),
      (error: unknown) => dbLog.warn({ err: error }, "purging expired sessions failed"),
    );
  await purge();
  const purgeTimer = setInterval(purge, sessionPurgeIntervalMs);
  purgeTimer.unref();
  // Closers run in reverse order: the timer stops before the database closes.
  closers.push(async () => clearInterval(purgeTimer));
  store = opened;
}

/** The session store, or a rejection when sessions are in Redis (the web app never asks then). */
function sessions(): DatabaseSessionStore {
  if (!store) throw new Error("sessions are in Redis: the data thread keeps none");
  return store;
}

let closing: Promise<void> | undefined;
const calls: DataThreadCalls = {
  createData: (data, expires) => sessions().createData(data, expires),
  readData: (id) => sessions().readData(id),
  readSession: (id) => sessions().readSession(id),
  updateData: (id, data, expires) => sessions().updateData(id, data, expires),
  deleteData: (id) => sessions().deleteData(id),
  userGeneration: (userName) => sessions().userGeneration(userName),
  nextUserGeneration: (userName) => sessions().nextUserGeneration(userName),
  deleteUserSessions: (userName) => sessions().deleteUserSessions(userName),
  async backup(file) {
    const pglite = embeddedDb ? pgliteOf(embeddedDb) : undefined;
    if (!pglite) throw new Error("no embedded database here (DATABASE_URL is set): back up PostgreSQL with pg_dump");
    const { writeBackup } = await import("../lib/db/backup.ts");
    return writeBackup(pglite, config.DATA_DIR, file);
  },
  metrics: () => registry.getMetricsAsJSON(),
  close() {
    closing ??= (async () => {
      for (const close of closers.reverse()) {
        await close().catch((error: unknown) => dbLog.error({ err: error }, "close failed"));
      }
      dbLog.info("data thread stopped");
      await endLog(log);
    })();
    return closing;
  },
};
// No timeout of its own: this side only answers (the web app's side bounds its calls).
createBirpc<Record<string, never>, DataThreadCalls>(calls, {
  post: (message) => port.postMessage(message),
  on: (handler) => port.on("message", handler),
  off: (handler) => port.off("message", handler),
});

/**
 * Gives back the garbage the start left in this thread's heap (loading the services, the
 * migrations), as server.ts does for its own once it listens (docs/decisions/0013-bounded-v8-heap.md):
 * one full collection of V8's "last resort" kind, which also shrinks the heap. Needs `--expose-gc`;
 * without it, nothing happens.
 */
function collectStartupGarbage(): void {
  if (typeof globalThis.gc !== "function") return;
  const before = process.memoryUsage().heapTotal;
  globalThis.gc({ type: "major", flavor: "last-resort", execution: "sync" });
  const after = process.memoryUsage().heapTotal;
  const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
  dbLog.info({ heapTotalMb: [mb(before), mb(after)] }, "startup garbage of the data thread given back");
}
collectStartupGarbage();
persistCompileCache();

const ready: DataThreadReady = {
  type: "ready",
  identityUrl,
  consumerUrl,
  businessUrl,
  sessions: store !== undefined,
};
parent.postMessage(ready);
