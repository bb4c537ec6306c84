/**
 * End-to-end tests: the same journeys in a `js` and a `no-js` project (docs/architecture.md §2 tests),
 * against the real app and the real reference identity authority, each on a fresh DATA_DIR.
 * Chromium is the operating system's (Debian package `chromium`): Playwright cannot download
 * its own here. CHROMIUM_PATH overrides /usr/bin/chromium.
 */
import { defineConfig } from "@playwright/test";
import { e2e } from "./tests/e2e/env";

const chromium = {
  executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-quic", "--no-first-run"],
};

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
  projects: [
    { name: "js", use: { javaScriptEnabled: true } },
    { name: "no-js", use: { javaScriptEnabled: false } },
  ],
  webServer: [
    {
      // The identity authority runs alone here, so that tests can act as the business side
      // (invite an account) with the client credentials; the app reaches it as a real upstream.
      command: `rm -rf ${e2e.identityDataDir} && node services/identity/main.ts`,
      url: `${e2e.identityUrl}/healthz`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        HOST: "127.0.0.1",
        PORT: String(e2e.identityPort),
        DATA_DIR: e2e.identityDataDir,
        PUBLIC_URL: e2e.appUrl,
        IDENTITY_CLIENT_ID: e2e.clientId,
        IDENTITY_CLIENT_SECRET: e2e.clientSecret,
        LOG_LEVEL: "warn",
      },
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
        NODE_ENV: "production",
        NODE_OPTIONS: e2e.nodeOptions,
        HOST: "127.0.0.1",
        PORT: String(e2e.appPort),
        DATA_DIR: e2e.appDataDir,
        IDENTITY_URL: e2e.identityUrl,
        IDENTITY_CLIENT_ID: e2e.clientId,
        IDENTITY_CLIENT_SECRET: e2e.clientSecret,
        LOG_LEVEL: "warn",
        // Every test's browser signs in from 127.0.0.1: over a hundred sign-ins a run, more than the
        // per-address limit allows one address. The limits are tested in tests/integration/security.test.ts.
        AUTH_RATE_LIMIT: "100000",
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
      // The same app under a non-root BASE_PATH, built into its own directory.
      command: `rm -rf ${e2e.baseAppDataDir} && react-router build && node server.ts`,
      url: `${e2e.baseAppUrl}/healthz`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        NODE_ENV: "production",
        NODE_OPTIONS: e2e.nodeOptions,
        HOST: "127.0.0.1",
        PORT: String(e2e.baseAppPort),
        BASE_PATH: e2e.basePath,
        BUILD_DIR: "build-basepath",
        DATA_DIR: e2e.baseAppDataDir,
        IDENTITY_URL: e2e.identityUrl,
        IDENTITY_CLIENT_ID: e2e.clientId,
        IDENTITY_CLIENT_SECRET: e2e.clientSecret,
        LOG_LEVEL: "warn",
        // Every test's browser signs in from 127.0.0.1: over a hundred sign-ins a run, more than the
        // per-address limit allows one address. The limits are tested in tests/integration/security.test.ts.
        AUTH_RATE_LIMIT: "100000",
      },
    },
  ],
});
