import { readFileSync } from "node:fs";

/** Where the end-to-end servers run and what they share with the tests. */
export const e2e = {
  appPort: 3100,
  appUrl: "http://127.0.0.1:3100",
  appDataDir: ".e2e-data/app",
  identityPort: 3101,
  identityUrl: "http://127.0.0.1:3101",
  identityDataDir: ".e2e-data/identity",
  baseAppPort: 3102,
  basePath: "/sw",
  baseAppUrl: "http://127.0.0.1:3102",
  baseAppDataDir: ".e2e-data/app-basepath",
  /** The dispute reviewers of the app's embedded consumer API (REVIEWER_EMAILS): one per project. */
  reviewers: { js: "reviewer.js@e2e.example.com", "no-js": "reviewer.no-js@e2e.example.com" },
  /** The licensed administrators of the sample venues (`npm run seed:venues` before the app starts): one per project. */
  venueAdmins: { js: "venue.js@e2e.example.com", "no-js": "venue.no-js@e2e.example.com" },
  /** The reference lab result server (tests/lab-sites): every lab's result links, on loopback, with its own certificate. */
  labSitesPort: 3103,
  labSitesCa: ".e2e-data/lab-sites-ca.pem",
  /**
   * The same app against reference services that answer exactly as the product rules say
   * (`UPSTREAM_EXTENSIONS=off`, docs/product.md §7.4): the SPEC journeys run here, the extension
   * journeys against the app above (playwright.config.ts).
   */
  specAppPort: 3104,
  specAppUrl: "http://127.0.0.1:3104",
  specAppDataDir: ".e2e-data/app-spec",
  specIdentityPort: 3105,
  specIdentityUrl: "http://127.0.0.1:3105",
  specIdentityDataDir: ".e2e-data/identity-spec",
  clientId: "safewindow-web",
  clientSecret: "e2e-client-secret-not-for-production",
  /** The V8 heap options the app ships with (package.json config.nodeOptions; README "Memory"). */
  nodeOptions: (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { config: { nodeOptions: string } }).config.nodeOptions,
} as const;

/** Where one project's journeys run: its app, the identity authority it uses, and their data directories. */
export interface E2eTarget {
  appUrl: string;
  appDataDir: string;
  identityUrl: string;
  identityDataDir: string;
}

/** The projects whose journeys run against the SPEC-only services (playwright.config.ts). */
export const specProjects = ["spec-js", "spec-no-js"] as const;

/** The servers of the project named `projectName`: the SPEC-only ones for `specProjects`, else the app with every extension. */
export function targetOf(projectName: string): E2eTarget {
  return (specProjects as readonly string[]).includes(projectName)
    ? { appUrl: e2e.specAppUrl, appDataDir: e2e.specAppDataDir, identityUrl: e2e.specIdentityUrl, identityDataDir: e2e.specIdentityDataDir }
    : { appUrl: e2e.appUrl, appDataDir: e2e.appDataDir, identityUrl: e2e.identityUrl, identityDataDir: e2e.identityDataDir };
}
