/**
 * `npm run docs:screenshots`: the main screens at phone size (390x844, JavaScript on), written to
 * docs/screenshots/ for docs/style-guide.md. Runs the same servers as the end-to-end tests
 * (playwright.config.ts), so it cannot run while they do.
 */
import { defineConfig } from "@playwright/test";
import base from "../playwright.config";

export default defineConfig({
  ...base,
  testDir: ".",
  testMatch: "screenshots.spec.ts",
  workers: 1,
  reporter: [["list"]],
  projects: [{ name: "phone", use: { javaScriptEnabled: true, viewport: { width: 390, height: 844 }, deviceScaleFactor: 1 } }],
});
