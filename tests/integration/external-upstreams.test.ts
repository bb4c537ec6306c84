// The reference services are embedded all together or not at all (docs/architecture/README.md §1). A
// replica with IDENTITY_URL, CONSUMER_API_URL and BUSINESS_API_URL set, the three services run
// from their main.ts each on a DATA_DIR of its own, loads none of the services' code and works
// (sign-up, sign-in, signed-in pages); its DATA_DIR then holds what the replica needs and nothing
// else: the session secret and the lock, and, with neither REDIS_URL nor DATABASE_URL, the session
// database (db/), whose tables are the app's own. No client secret of an embedded authority, no
// outbox, no data of the services.
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, startRedis, stopProcess } from "./redis-server.ts";
import { get, root, signedUpUser, startServer, type Running } from "./server-process.ts";
import { listeningUrl, runMain, type MainProcess } from "./support.ts";

const tracer = path.join(import.meta.dirname, "module-trace.mjs");
const clientSecret = "external-upstreams-client-secret-0123";

/** The temporary directories tempDir() made, removed after the test. */
const tempDirs: string[] = [];
/** A fresh temporary directory. */
function tempDir(name: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `sw-external-${name}-`));
  tempDirs.push(dir);
  return dir;
}

/** The project files (relative paths) a server.ts child loaded, from its module trace. */
function loadedFiles(traceFile: string): string[] {
  return readFileSync(traceFile, "utf8")
    .split("\n")
    .filter((url) => url.startsWith("file:") && !url.includes("/node_modules/"))
    .map((url) => path.relative(root, new URL(url).pathname));
}

/** Stops a started server.ts with SIGTERM; its exit code. */
async function stop(server: Running | undefined): Promise<number | null | undefined> {
  if (!server) return undefined;
  if (server.child.exitCode === null) server.child.kill("SIGTERM");
  return server.exited;
}

describe("the upstreams elsewhere: a replica with the three URLs", () => {
  let identity: MainProcess;
  let consumer: MainProcess;
  let business: MainProcess;
  let identityOutbox: string;
  let redis: ChildProcess;
  let redisUrl: string;
  /** Sessions in the replica's own database under DATA_DIR (neither REDIS_URL nor DATABASE_URL). */
  let plain: Running | undefined;
  /** Sessions in Redis. */
  let shared: Running | undefined;
  /** The embedded default, for the module trace only. */
  let embedded: Running | undefined;
  const dirs = { plain: tempDir("plain"), shared: tempDir("shared"), embedded: tempDir("embedded") };
  const traces = { plain: path.join(tempDir("trace"), "modules.txt"), embedded: path.join(tempDir("trace"), "modules.txt") };

  beforeAll(async () => {
    const common = { HOST: "127.0.0.1", PORT: "0", LOG_LEVEL: "info" };
    const identityDir = tempDir("identity");
    identityOutbox = path.join(identityDir, "outbox");
    identity = runMain(path.join(root, "services/identity/main.ts"), {
      ...common,
      DATA_DIR: identityDir,
      PUBLIC_URL: "http://localhost:8080",
      IDENTITY_CLIENT_SECRET: clientSecret,
    });
    const redisPort = await freePort();
    redis = await startRedis(redisPort);
    redisUrl = `redis://127.0.0.1:${redisPort}`;
    // A first start migrates a fresh database: well over 30 s on a busy machine.
    const startMs = 120_000;
    const identityUrl = await listeningUrl(identity, "identity authority listening", startMs);
    business = runMain(path.join(root, "services/business/main.ts"), { ...common, DATA_DIR: tempDir("business"), IDENTITY_URL: identityUrl });
    const businessUrl = await listeningUrl(business, "business API listening", startMs);
    consumer = runMain(path.join(root, "services/consumer/main.ts"), { ...common, DATA_DIR: tempDir("consumer"), IDENTITY_URL: identityUrl, BUSINESS_API_URL: businessUrl });
    const consumerUrl = await listeningUrl(consumer, "consumer API listening", startMs);

    const upstreams = { IDENTITY_URL: identityUrl, IDENTITY_CLIENT_SECRET: clientSecret, CONSUMER_API_URL: consumerUrl, BUSINESS_API_URL: businessUrl };
    [plain, shared, embedded] = await Promise.all([
      startServer({ ...upstreams, DATA_DIR: dirs.plain, NODE_OPTIONS: `--import ${tracer}`, MODULE_TRACE_FILE: traces.plain }),
      startServer({ ...upstreams, DATA_DIR: dirs.shared, REDIS_URL: redisUrl }),
      startServer({ DATA_DIR: dirs.embedded, NODE_OPTIONS: `--import ${tracer}`, MODULE_TRACE_FILE: traces.embedded }),
    ]);
  }, 480_000);

  afterAll(async () => {
    await Promise.all([stop(plain), stop(shared), stop(embedded)]);
    for (const service of [consumer, business, identity]) if (service) await stopProcess(service.child);
    if (redis) await stopProcess(redis);
    for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it("the embedded default loads the three services", () => {
    const files = loadedFiles(traces.embedded);
    for (const service of ["identity", "consumer", "business"]) expect(files).toContain(path.join("services", service, "server.ts"));
  });

  it("a replica with the three URLs loads none of the services' code, and finds them ready", async () => {
    const files = loadedFiles(traces.plain);
    expect(files).toContain("server.ts");
    expect(files.filter((file) => file.startsWith(`services${path.sep}`))).toEqual([]);
    for (const replica of [plain!, shared!]) {
      const ready = await fetch(`${replica.url}/readyz`);
      expect((await ready.json()) as unknown).toMatchObject({ ready: true, checks: { identity: true, consumer: true, business: true } });
    }
  });

  it.each(["plain", "shared"] as const)("%s: sign-up, sign-in and the signed-in pages work", async (which) => {
    const replica = which === "plain" ? plain! : shared!;
    // Registration, the confirmation link from the identity authority's outbox, sign-in, the profile.
    const cookie = await signedUpUser(replica, identityOutbox, `external-${which}-${Date.now()}@example.com`);
    const safeWindow = await get(replica, "/safewindow", cookie);
    expect(safeWindow.status).toBe(200);
    expect(await safeWindow.text()).toContain("Grace Hopper");
    // Settings asks the business API whether the person administers a location.
    const settings = await get(replica, "/settings", cookie);
    expect(settings.status).toBe(200);
    expect(await settings.text()).toContain('aria-label="Main"');
  });

  it("the replicas' DATA_DIRs hold the session secret, the lock and (without Redis) the session database, and nothing else", async () => {
    // Listed while they run, after the journeys above: the lock is held.
    expect(readdirSync(dirs.shared).sort()).toEqual(["server.lock", "server.lock.json", "session-secret"]);
    expect(readdirSync(dirs.plain).sort()).toEqual(["db", "server.lock", "server.lock.json", "session-secret"]);
    // Stopped, they give the lock up; what stays is what the next start needs.
    expect(await stop(shared)).toBe(0);
    expect(await stop(plain)).toBe(0);
    expect(readdirSync(dirs.shared).sort()).toEqual(["session-secret"]);
    expect(readdirSync(dirs.plain).sort()).toEqual(["db", "session-secret"]);
    // The session database holds the app's tables only: no account, result or venue of a service.
    const db = new PGlite(path.join(dirs.plain, "db"));
    try {
      const tables = await db.query<{ table_name: string }>("select table_name from information_schema.tables where table_schema = 'public' order by table_name");
      const names = tables.rows.map((row) => row.table_name);
      expect(names).toContain("app_session");
      expect(names.filter((name) => !name.startsWith("app_"))).toEqual([]);
      const sessions = await db.query<{ count: number }>("select count(*)::int as count from app_session");
      expect(sessions.rows[0]!.count).toBeGreaterThan(0);
    } finally {
      await db.close();
    }
  }, 60_000);
});
