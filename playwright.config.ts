/**
 * End-to-end tests: every journey with JavaScript and without (docs/architecture/README.md §2 tests), against
 * the real app and the real reference services, each on a fresh DATA_DIR, in the two deployments
 * the configuration allows (all three upstreams or none, docs/architecture/README.md §1). The journeys of
 * the product rules' screens run in `spec-js` and `spec-no-js`, against the three reference services
 * run as their own processes (main.ts) and answering exactly as the rules say; the others in `js`
 * and `no-js`, against the app with the services embedded (the default) and every extension.
 * Chromium is the operating system's (Debian package `chromium`): Playwright cannot download
 * its own here. CHROMIUM_PATH overrides /usr/bin/chromium.
 */
import { defineConfig } from "@playwright/test";
import { e2e, specProjects } from "./tests/e2e/env";

/** The journeys of the product rules' own screens: accounts, profile and settings, upload and Test Detail, disputes, following, form validation. */
const specJourneys = ["**/accounts.spec.ts", "**/profile.spec.ts", "**/results.spec.ts", "**/follow.spec.ts", "**/validation.spec.ts"];

const chromium = {
  executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-quic", "--no-first-run"],
};

/** The environment of a reference service run alone for the SPEC-only app: its port and DATA_DIR, without extensions. */
function specServiceEnv(port: number, dataDir: string): Record<string, string> {
  return { HOST: "127.0.0.1", PORT: String(port), DATA_DIR: dataDir, UPSTREAM_EXTENSIONS: "off", LOG_LEVEL: "warn" };
}

/** The environment every app under test shares: production mode, the shipped heap options. */
function appEnv(port: number, dataDir: string): Record<string, string> {
  return {
    NODE_ENV: "production",
    NODE_OPTIONS: e2e.nodeOptions,
    HOST: "127.0.0.1",
    PORT: String(port),
    DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
    // Every test's browser signs in from 127.0.0.1: over a hundred sign-ins a run, more than the
    // per-address limit allows one address. The limits are tested in tests/integration/security.test.ts.
    AUTH_RATE_LIMIT: "100000",
  };
}

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  workers: 2,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
    baseURL: e2e.appUrl,
    launchOptions: chromium,
    trace: "retain-on-failure",
  },
  // Each journey runs once, in both modes: the journeys of the product rules' own screens against
  // the app whose services answer exactly as the rules say (UPSTREAM_EXTENSIONS=off, docs/product/calls.md
  // §7.4), everything else (the extensions' journeys, and what every page does) against the app with
  // every extension.
  projects: [
    { name: "js", testIgnore: specJourneys, use: { javaScriptEnabled: true } },
    { name: "no-js", testIgnore: specJourneys, use: { javaScriptEnabled: false } },
    { name: specProjects[0], testMatch: specJourneys, use: { javaScriptEnabled: true, baseURL: e2e.specAppUrl } },
    { name: specProjects[1], testMatch: specJourneys, use: { javaScriptEnabled: false, baseURL: e2e.specAppUrl } },
  ],
  webServer: [
    {
      // The labs' result sites (tests/lab-sites), before the app that trusts its certificate.
      command: "node tests/lab-sites/main.ts",
      port: e2e.labSitesPort,
      reuseExistingServer: false,
      timeout: 60_000,
      env: { PORT: String(e2e.labSitesPort), CA_FILE: e2e.labSitesCa },
    },
    {
      // The default deployment: the three services embedded. The sample venues, with one licensed
      // administrator per project, are written before the app takes DATA_DIR.
      command: `rm -rf ${e2e.appDataDir} && node services/business/seed-cli.ts ${Object.values(e2e.venueAdmins).join(" ")} && node server.ts`,
      url: `${e2e.appUrl}/healthz`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        ...appEnv(e2e.appPort, e2e.appDataDir),
        REVIEWER_EMAILS: Object.values(e2e.reviewers).join(","),
        // Mail links of the embedded identity authority and consumer API point here.
        PUBLIC_URL: e2e.appUrl,
        // Test only: result links are served by the reference lab sites on loopback.
        LAB_LINKS_TEST_SERVER: `127.0.0.1:${e2e.labSitesPort}`,
        LAB_LINKS_TEST_CA: e2e.labSitesCa,
        // Test only: SMART Health Cards signed with the committed test key are trusted (docs/product/labs.md §10.9).
        SHC_EXTRA_ISSUERS: "tests/fixtures/keys/shc-test-issuers.json",
      },
    },
    // The SPEC deployment: the three reference services as their own processes (each service's
    // main.ts, a DATA_DIR of its own), answering as the product rules say and no more
    // (docs/product/calls.md §7.4), started in order (the consumer API asks the business API, both the
    // identity authority). The identity authority alone also lets tests act as the business side
    // (invite an account) with the client credentials.
    {
      command: `rm -rf ${e2e.specIdentityDataDir} && node services/identity/main.ts`,
      url: `${e2e.specIdentityUrl}/healthz`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: { ...specServiceEnv(e2e.specIdentityPort, e2e.specIdentityDataDir), PUBLIC_URL: e2e.specAppUrl, IDENTITY_CLIENT_ID: e2e.clientId, IDENTITY_CLIENT_SECRET: e2e.clientSecret },
    },
    {
      command: `rm -rf ${e2e.specBusinessDataDir} && node services/business/main.ts`,
      url: `${e2e.specBusinessUrl}/healthz`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: { ...specServiceEnv(e2e.specBusinessPort, e2e.specBusinessDataDir), IDENTITY_URL: e2e.specIdentityUrl },
    },
    {
      command: `rm -rf ${e2e.specConsumerDataDir} && node services/consumer/main.ts`,
      url: `${e2e.specConsumerUrl}/healthz`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        ...specServiceEnv(e2e.specConsumerPort, e2e.specConsumerDataDir),
        IDENTITY_URL: e2e.specIdentityUrl,
        BUSINESS_API_URL: e2e.specBusinessUrl,
        // Mail links (a decided dispute) point at the SPEC-only app.
        PUBLIC_URL: e2e.specAppUrl,
        // Test only: SMART Health Cards signed with the committed test key are trusted (docs/product/labs.md §10.9).
        SHC_EXTRA_ISSUERS: "tests/fixtures/keys/shc-test-issuers.json",
      },
    },
    {
      // The app with the three upstream URLs: the SPEC journeys.
      command: `rm -rf ${e2e.specAppDataDir} && node server.ts`,
      url: `${e2e.specAppUrl}/healthz`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        ...appEnv(e2e.specAppPort, e2e.specAppDataDir),
        IDENTITY_URL: e2e.specIdentityUrl,
        IDENTITY_CLIENT_ID: e2e.clientId,
        IDENTITY_CLIENT_SECRET: e2e.clientSecret,
        CONSUMER_API_URL: e2e.specConsumerUrl,
        BUSINESS_API_URL: e2e.specBusinessUrl,
        PUBLIC_URL: e2e.specAppUrl,
      },
    },
    {
      // The same app under a non-root BASE_PATH, built into its own directory, its services embedded.
      command: `rm -rf ${e2e.baseAppDataDir} && react-router build && node server.ts`,
      url: `${e2e.baseAppUrl}/healthz`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: { ...appEnv(e2e.baseAppPort, e2e.baseAppDataDir), BASE_PATH: e2e.basePath, BUILD_DIR: "build-basepath" },
    },
  ],
});
