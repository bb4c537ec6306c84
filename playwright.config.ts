/**
 * End-to-end tests: every journey with JavaScript and without (docs/architecture/README.md §2 tests), against
 * the real app and the real reference services, each on a fresh DATA_DIR, in the two deployments
 * the configuration allows (all three upstreams or none, docs/architecture/README.md §1). The journeys of
 * the product rules' screens run in `plain-js` and `plain-no-js`, against the three reference services
 * run as their own processes (main.ts) and answering exactly as the rules say; the others in `js`
 * and `no-js`, against the app with the services embedded (the default) and every extension.
 * Chromium is the operating system's headless shell (Debian package `chromium-headless-shell`):
 * Playwright cannot download its own here. CHROMIUM_PATH overrides /usr/bin/chromium-headless-shell.
 */
import { defineConfig } from "@playwright/test";
import { e2e, plainProjects } from "./tests/e2e/env";

/** The journeys of the product rules' own screens: accounts, profile and settings, upload and Test Detail, disputes, following, form validation. */
const plainJourneys = ["**/accounts.spec.ts", "**/profile.spec.ts", "**/results.spec.ts", "**/follow.spec.ts", "**/validation.spec.ts"];

// The headless shell, not the full browser run headless: the same Blink and V8 without the browser's
// own user interface and services, which is what Playwright runs for headless tests by default.
// The journeys' browser CPU about halves (screens.spec.ts: 370 -> 205 CPU-s for the whole run).
const chromium = {
  executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium-headless-shell",
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
    // A trace (DOM snapshots and screenshots of every action) costs about a fifth of the suite's CPU
    // even when it is thrown away after a passing test: kept for failures locally, off in CI
    // (rerun a failing journey with `--trace=retain-on-failure` to get one).
    trace: process.env.CI ? "off" : "retain-on-failure",
  },
  // Each journey runs once, in both modes: the journeys of the product rules' own screens against
  // the app whose services answer exactly as the rules say (UPSTREAM_EXTENSIONS=off, docs/product/calls.md
  // §7.4), everything else (the extensions' journeys, and what every page does) against the app with
  // every extension.
  projects: [
    { name: "js", testIgnore: plainJourneys, use: { javaScriptEnabled: true } },
    { name: "no-js", testIgnore: plainJourneys, use: { javaScriptEnabled: false } },
    { name: plainProjects[0], testMatch: plainJourneys, use: { javaScriptEnabled: true, baseURL: e2e.plainAppUrl } },
    { name: plainProjects[1], testMatch: plainJourneys, use: { javaScriptEnabled: false, baseURL: e2e.plainAppUrl } },
  ],
  // Every server the journeys need, on fresh DATA_DIRs, started together where nothing orders them
  // (tests/e2e/servers.ts): Playwright starts a list of web servers one after another.
  webServer: {
    command: "node tests/e2e/servers.ts",
    wait: { stdout: /^e2e servers ready$/m },
    // Seven processes, one of them a production build, on two cores that may be busy.
    timeout: 180_000,
    reuseExistingServer: false,
  },
});
