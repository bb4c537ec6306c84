/**
 * The end-to-end servers (playwright.config.ts's one webServer): every process the journeys need,
 * each on a fresh DATA_DIR, started at once where nothing orders them and polled on /healthz until
 * all answer; then one line, `e2e servers ready`, on stdout (each server's start time on stderr). Playwright starts a config's web
 * servers one after another, each waiting for the one before: seven in a row took about 90 s here,
 * most of it one core idle. Order kept: the app that trusts the lab sites' certificate starts once
 * they have written it. The reference services read each other's keys and configuration on first
 * use, not at start (services/shared/auth.ts), so the ones in plain mode start together.
 * A server that exits before it answers stops the launcher (exit 1, naming it); the launcher runs
 * until Playwright ends its process group.
 * Run: `node tests/e2e/servers.ts` (the Playwright config does).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { connect } from "node:net";
import { e2e } from "./env.ts";

/** One server: its shell command, its environment (added to the launcher's), what shows it is up (a URL that answers 200, or a port that accepts a connection), the servers it waits for. */
interface Server {
  name: string;
  command: string;
  env: Record<string, string>;
  health: string | { port: number };
  after?: string[];
}

/** The environment of a reference service run alone for the app of plain mode: its port and DATA_DIR, without extensions. */
function plainServiceEnv(port: number, dataDir: string): Record<string, string> {
  return { HOST: "127.0.0.1", PORT: String(port), DATA_DIR: dataDir, UPSTREAM_EXTENSIONS: "off", LOG_LEVEL: "warn" };
}

/** The environment every app under test shares: production mode, the shipped heap options and malloc settings. */
function appEnv(port: number, dataDir: string): Record<string, string> {
  return {
    NODE_ENV: "production",
    NODE_OPTIONS: e2e.nodeOptions,
    GLIBC_TUNABLES: e2e.glibcTunables,
    HOST: "127.0.0.1",
    PORT: String(port),
    DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
    // Every test's browser signs in from 127.0.0.1: over a hundred sign-ins a run, more than the
    // per-address limit allows one address. The limits are tested in tests/integration/security.test.ts.
    AUTH_RATE_LIMIT: "100000",
  };
}

/** The servers, in the two deployments the configuration allows (docs/architecture/README.md §1). */
export const servers: Server[] = [
  {
    // The labs' result sites (tests/lab-sites), before the app that trusts its certificate.
    name: "lab-sites",
    command: "node tests/lab-sites/main.ts",
    env: { PORT: String(e2e.labSitesPort), CA_FILE: e2e.labSitesCa },
    // No health page (it answers only the labs' host names): up once its port accepts a connection.
    health: { port: e2e.labSitesPort },
  },
  {
    // The default deployment: the three services embedded. The sample venues, with one licensed
    // administrator per project and the screens' staff, are written before the app takes DATA_DIR.
    name: "app",
    command: `rm -rf ${e2e.appDataDir} && node services/business/seed-cli.ts ${[...Object.values(e2e.venueAdmins), ...e2e.screensStaff].join(" ")} && node server.ts`,
    after: ["lab-sites"],
    health: `${e2e.appUrl}/healthz`,
    env: {
      ...appEnv(e2e.appPort, e2e.appDataDir),
      REVIEWER_EMAILS: [...Object.values(e2e.reviewers), ...e2e.screensStaff].join(","),
      // Mail links of the embedded identity authority and consumer API point here.
      PUBLIC_URL: e2e.appUrl,
      // Test only: result links are served by the reference lab sites on loopback.
      LAB_LINKS_TEST_SERVER: `127.0.0.1:${e2e.labSitesPort}`,
      LAB_LINKS_TEST_CA: e2e.labSitesCa,
      // Test only: SMART Health Cards signed with the committed test key are trusted (docs/product/labs.md §10.9).
      SHC_EXTRA_ISSUERS: "tests/fixtures/keys/shc-test-issuers.json",
    },
  },
  // The plain mode deployment: the three reference services as their own processes (each service's
  // main.ts, a DATA_DIR of its own), answering as the product rules say and no more
  // (docs/product/calls.md §7.4). The identity authority alone also lets tests act as the business
  // side (invite an account) with the client credentials.
  {
    name: "identity (plain mode)",
    command: `rm -rf ${e2e.plainIdentityDataDir} && node services/identity/main.ts`,
    health: `${e2e.plainIdentityUrl}/healthz`,
    env: { ...plainServiceEnv(e2e.plainIdentityPort, e2e.plainIdentityDataDir), PUBLIC_URL: e2e.plainAppUrl, IDENTITY_CLIENT_ID: e2e.clientId, IDENTITY_CLIENT_SECRET: e2e.clientSecret },
  },
  {
    name: "business (plain mode)",
    command: `rm -rf ${e2e.plainBusinessDataDir} && node services/business/main.ts`,
    health: `${e2e.plainBusinessUrl}/healthz`,
    env: { ...plainServiceEnv(e2e.plainBusinessPort, e2e.plainBusinessDataDir), IDENTITY_URL: e2e.plainIdentityUrl },
  },
  {
    name: "consumer (plain mode)",
    command: `rm -rf ${e2e.plainConsumerDataDir} && node services/consumer/main.ts`,
    health: `${e2e.plainConsumerUrl}/healthz`,
    env: {
      ...plainServiceEnv(e2e.plainConsumerPort, e2e.plainConsumerDataDir),
      IDENTITY_URL: e2e.plainIdentityUrl,
      BUSINESS_API_URL: e2e.plainBusinessUrl,
      // Mail links (a decided dispute) point at the app of plain mode.
      PUBLIC_URL: e2e.plainAppUrl,
      // Test only: SMART Health Cards signed with the committed test key are trusted (docs/product/labs.md §10.9).
      SHC_EXTRA_ISSUERS: "tests/fixtures/keys/shc-test-issuers.json",
    },
  },
  {
    // The app with the three upstream URLs: the product rules' journeys.
    name: "app (plain mode)",
    command: `rm -rf ${e2e.plainAppDataDir} && node server.ts`,
    health: `${e2e.plainAppUrl}/healthz`,
    env: {
      ...appEnv(e2e.plainAppPort, e2e.plainAppDataDir),
      IDENTITY_URL: e2e.plainIdentityUrl,
      IDENTITY_CLIENT_ID: e2e.clientId,
      IDENTITY_CLIENT_SECRET: e2e.clientSecret,
      CONSUMER_API_URL: e2e.plainConsumerUrl,
      BUSINESS_API_URL: e2e.plainBusinessUrl,
      PUBLIC_URL: e2e.plainAppUrl,
    },
  },
  {
    // The same app under a non-root BASE_PATH, built into its own directory, its services embedded.
    name: "app (BASE_PATH)",
    command: `rm -rf ${e2e.baseAppDataDir} && react-router build && node server.ts`,
    health: `${e2e.baseAppUrl}/healthz`,
    env: { ...appEnv(e2e.baseAppPort, e2e.baseAppDataDir), BASE_PATH: e2e.basePath, BUILD_DIR: "build-basepath" },
  },
];

/** Whether `health` shows the server up now: its URL answers 200, or its port accepts a connection. */
function isUp(health: Server["health"]): Promise<boolean> {
  if (typeof health === "string")
    return fetch(health, { signal: AbortSignal.timeout(2_000) }).then(
      (response) => response.status === 200,
      () => false,
    );
  return new Promise((resolve) => {
    const socket = connect(health.port, "127.0.0.1");
    socket.once("connect", () => resolve(true)).once("error", () => resolve(false));
    socket.unref();
    socket.once("connect", () => socket.destroy());
  });
}

/** Resolves once `health` shows the server up (polled every 100 ms); rejects when `exited` does. */
async function answered(health: Server["health"], exited: Promise<never>): Promise<void> {
  for (;;) {
    const ok = await isUp(health);
    if (ok) return;
    await Promise.race([new Promise((resolve) => setTimeout(resolve, 100)), exited]);
  }
}

if (import.meta.main) {
  const started = Date.now();
  const children: ChildProcess[] = [];
  const ready = new Map<string, Promise<void>>();
  const start = async (server: Server): Promise<void> => {
    await Promise.all((server.after ?? []).map((name) => ready.get(name)));
    // Every server with Node's compile cache, as `npm start` runs server.ts (docs/decisions/0017-module-compile-cache.md).
    const child = spawn(server.command, { shell: true, stdio: ["ignore", "inherit", "inherit"], env: { ...process.env, NODE_COMPILE_CACHE: e2e.compileCache, ...server.env } });
    children.push(child);
    const exited = new Promise<never>((_, reject) => child.once("exit", (code) => reject(new Error(`${server.name} exited (${code}) before it was up`))));
    await answered(server.health, exited);
    console.error(`e2e: ${server.name} answers after ${((Date.now() - started) / 1000).toFixed(1)} s`);
  };
  for (const server of servers) ready.set(server.name, start(server));
  try {
    await Promise.all(ready.values());
    console.log("e2e servers ready");
  } catch (error) {
    console.error(`e2e: ${(error as Error).message}`);
    for (const child of children) child.kill();
    process.exit(1);
  }
}
