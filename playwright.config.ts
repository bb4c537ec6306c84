/**
 * End-to-end tests: every journey with JavaScript and without (docs/architecture.md §2 tests), against
 * the real app and the real reference identity authority, each on a fresh DATA_DIR. The journeys of
 * the product rules' screens run in `spec-js` and `spec-no-js`, against reference services that
 * answer exactly as the rules say; the others in `js` and `no-js`, with every extension.
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

/** The environment of an identity authority run alone for the end-to-end tests. */
function identityEnv(port: number, dataDir: string, publicUrl: string): Record<string, string> {
  return {
    HOST: "127.0.0.1",
    PORT: String(port),
    DATA_DIR: dataDir,
    PUBLIC_URL: publicUrl,
    IDENTITY_CLIENT_ID: e2e.clientId,
    IDENTITY_CLIENT_SECRET: e2e.clientSecret,
    LOG_LEVEL: "warn",
  };
}

/** The environment every app under test shares: production mode, the shipped heap options, and its identity authority. */
function appEnv(port: number, dataDir: string, identityUrl: string): Record<string, string> {
  return {
    NODE_ENV: "production",
    NODE_OPTIONS: e2e.nodeOptions,
    HOST: "127.0.0.1",
    PORT: String(port),
    DATA_DIR: dataDir,
    IDENTITY_URL: identityUrl,
    IDENTITY_CLIENT_ID: e2e.clientId,
    IDENTITY_CLIENT_SECRET: e2e.clientSecret,
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
  // the app whose services answer exactly as the rules say (UPSTREAM_EXTENSIONS=off, docs/product.md
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
      // The identity authority runs alone here, so that tests can act as the business side
      // (invite an account) with the client credentials; the app reaches it as a real upstream.
      command: `rm -rf ${e2e.identityDataDir} && node services/identity/main.ts`,
      url: `${e2e.identityUrl}/healthz`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: identityEnv(e2e.identityPort, e2e.identityDataDir, e2e.appUrl),
    },
    {
      // The labs' result sites (tests/lab-sites), before the app that trusts its certificate.
      command: "node tests/lab-sites/main.ts",
      port: e2e.labSitesPort,
      reuseExistingServer: false,
      timeout: 60_000,
      env: { PORT: String(e2e.labSitesPort), CA_FILE: e2e.labSitesCa },
    },
    {
      // The sample venues, with one licensed administrator per project, written before the app takes DATA_DIR.
      command: `rm -rf ${e2e.appDataDir} && node services/business/seed-cli.ts ${Object.values(e2e.venueAdmins).join(" ")} && node server.ts`,
      url: `${e2e.appUrl}/healthz`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        ...appEnv(e2e.appPort, e2e.appDataDir, e2e.identityUrl),
        REVIEWER_EMAILS: Object.values(e2e.reviewers).join(","),
        // Mail links of the embedded consumer API (a decided dispute) point here.
        PUBLIC_URL: e2e.appUrl,
        // Test only: result links are served by the reference lab sites on loopback.
        LAB_LINKS_TEST_SERVER: `127.0.0.1:${e2e.labSitesPort}`,
        LAB_LINKS_TEST_CA: e2e.labSitesCa,
        // Test only: SMART Health Cards signed with the committed test key are trusted (docs/product.md §10.9).
        SHC_EXTRA_ISSUERS: "tests/fixtures/keys/shc-test-issuers.json",
      },
    },
    {
      // An identity authority that answers as the product rules say and no more, for the SPEC-only app.
      command: `rm -rf ${e2e.specIdentityDataDir} && node services/identity/main.ts`,
      url: `${e2e.specIdentityUrl}/healthz`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: { ...identityEnv(e2e.specIdentityPort, e2e.specIdentityDataDir, e2e.specAppUrl), UPSTREAM_EXTENSIONS: "off" },
    },
    {
      // The app against reference services without extensions (docs/product.md §7.4): the SPEC journeys.
      command: `rm -rf ${e2e.specAppDataDir} && node server.ts`,
      url: `${e2e.specAppUrl}/healthz`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        ...appEnv(e2e.specAppPort, e2e.specAppDataDir, e2e.specIdentityUrl),
        UPSTREAM_EXTENSIONS: "off",
        PUBLIC_URL: e2e.specAppUrl,
        SHC_EXTRA_ISSUERS: "tests/fixtures/keys/shc-test-issuers.json",
      },
    },
    {
      // The same app under a non-root BASE_PATH, built into its own directory.
      command: `rm -rf ${e2e.baseAppDataDir} && react-router build && node server.ts`,
      url: `${e2e.baseAppUrl}/healthz`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: { ...appEnv(e2e.baseAppPort, e2e.baseAppDataDir, e2e.identityUrl), BASE_PATH: e2e.basePath, BUILD_DIR: "build-basepath" },
    },
  ],
});
