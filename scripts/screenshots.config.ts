/**
 * `npm run docs:screenshots`: the main screens at phone size (390x844, JavaScript on), written to
 * docs/screenshots/ for docs/style-guide.md. Runs the same servers as the end-to-end tests
 * (playwright.config.ts), so it cannot run while they do.
 */
import { fileURLToPath } from "node:url";
import { defineConfig } from "@playwright/test";
import base from "../playwright.config";

// The servers start from the repository's root, as under playwright.config.ts.
const root = fileURLToPath(new URL("..", import.meta.url));
const servers = Array.isArray(base.webServer) ? base.webServer : base.webServer ? [base.webServer] : [];

export default defineConfig({
  ...base,
  testDir: ".",
  testMatch: "screenshots.spec.ts",
  workers: 1,
  reporter: [["list"]],
  outputDir: `${root}test-results/screenshots`,
  webServer: servers.map((server) => ({ ...server, cwd: root })),
  projects: [{ name: "phone", use: { javaScriptEnabled: true, viewport: { width: 390, height: 844 }, deviceScaleFactor: 1 } }],
});
