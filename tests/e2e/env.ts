import { readFileSync } from "node:fs";
import path from "node:path";

/**
 * Where the end-to-end servers run and what they share with the tests. Two deployments, each with
 * all three upstreams or none (docs/architecture/README.md §1): the app (and the base-path app) with the
 * reference services embedded, the default; the app of plain mode with the three services as their own
 * processes elsewhere.
 */
export const e2e = {
  /** The app with every service embedded (its identity authority's and consumer API's mails in `appDataDir/outbox`). */
  appPort: 3100,
  appUrl: "http://127.0.0.1:3100",
  appDataDir: ".e2e-data/app",
  /** The same app under a non-root BASE_PATH, its services embedded too. */
  baseAppPort: 3102,
  basePath: "/sw",
  baseAppUrl: "http://127.0.0.1:3102",
  baseAppDataDir: ".e2e-data/app-basepath",
  /** The dispute reviewers of the app's embedded consumer API (REVIEWER_EMAILS): one per project. */
  reviewers: { js: "reviewer.js@e2e.example.com", "no-js": "reviewer.no-js@e2e.example.com" },
  /** The licensed administrators of the sample venues (`npm run seed:venues` before the app starts): one per project. */
  venueAdmins: { js: "venue.js@e2e.example.com", "no-js": "venue.no-js@e2e.example.com" },
  /**
   * The staff of tests/e2e/screens.spec.ts's signed-in screens: each a dispute reviewer (REVIEWER_EMAILS)
   * and a licensed administrator of the sample venues, who decides A's dispute, checks A in and shows
   * the reviewers' screens. One per worker slot (a worker's `parallelIndex`): two workers running at
   * once never share one, and a worker that replaces another, or runs the other project, signs in to
   * the account its slot made before. Four slots: the suite runs with two workers.
   */
  screensStaff: ["staff.0@e2e.example.com", "staff.1@e2e.example.com", "staff.2@e2e.example.com", "staff.3@e2e.example.com"],
  /** The reference lab result server (tests/lab-sites): every lab's result links, on loopback, with its own certificate. */
  labSitesPort: 3103,
  labSitesCa: ".e2e-data/lab-sites-ca.pem",
  /**
   * The same app against the three reference services run from their main.ts, answering exactly as
   * the product rules say (`UPSTREAM_EXTENSIONS=off`, docs/product/calls.md §7.4): the product rules' journeys run
   * here, the extension journeys against the app above (playwright.config.ts).
   */
  plainAppPort: 3104,
  plainAppUrl: "http://127.0.0.1:3104",
  plainAppDataDir: ".e2e-data/app-plain",
  plainIdentityPort: 3105,
  plainIdentityUrl: "http://127.0.0.1:3105",
  plainIdentityDataDir: ".e2e-data/identity-plain",
  plainConsumerPort: 3106,
  plainConsumerUrl: "http://127.0.0.1:3106",
  plainConsumerDataDir: ".e2e-data/consumer-plain",
  plainBusinessPort: 3107,
  plainBusinessUrl: "http://127.0.0.1:3107",
  plainBusinessDataDir: ".e2e-data/business-plain",
  clientId: "safewindow-web",
  clientSecret: "e2e-client-secret-not-for-production",
  /** The V8 heap options the app ships with (package.json config.nodeOptions; docs/operating.md "Memory"). */
  nodeOptions: (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { config: { nodeOptions: string } }).config.nodeOptions,
  /** glibc's malloc settings the app ships with (package.json config.glibcTunables; docs/operating.md "Memory"). */
  glibcTunables: (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { config: { glibcTunables: string } }).config.glibcTunables,
  /** Node's compile cache directory the app ships with (package.json config.compileCache, relative to the project, where the servers start). */
  compileCache: (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { config: { compileCache: string } }).config.compileCache,
} as const;

/** Where one project's journeys run: its app, its identity authority when that runs alone, and where their mails land. */
export interface E2eTarget {
  appUrl: string;
  appDataDir: string;
  /** The identity authority's URL when it runs as its own process; undefined when the app embeds it (on a loopback port of its own choosing). */
  identityUrl: string | undefined;
  /** The identity authority's outbox (its DATA_DIR/outbox: the app's when embedded). */
  identityOutbox: string;
  /** The consumer API's outbox (a decided dispute's mail; the app's DATA_DIR/outbox when embedded). */
  consumerOutbox: string;
}

/** The projects whose journeys run against the services in plain mode (playwright.config.ts). */
export const plainProjects = ["plain-js", "plain-no-js"] as const;

/** The servers of the project named `projectName`: the plain mode ones for `plainProjects`, else the app with every extension, embedded. */
export function targetOf(projectName: string): E2eTarget {
  return (plainProjects as readonly string[]).includes(projectName)
    ? {
        appUrl: e2e.plainAppUrl,
        appDataDir: e2e.plainAppDataDir,
        identityUrl: e2e.plainIdentityUrl,
        identityOutbox: path.join(e2e.plainIdentityDataDir, "outbox"),
        consumerOutbox: path.join(e2e.plainConsumerDataDir, "outbox"),
      }
    : { appUrl: e2e.appUrl, appDataDir: e2e.appDataDir, identityUrl: undefined, identityOutbox: path.join(e2e.appDataDir, "outbox"), consumerOutbox: path.join(e2e.appDataDir, "outbox") };
}

/** The base-path app (embedded services, under `e2e.basePath`). */
export const baseAppTarget: E2eTarget = {
  appUrl: `${e2e.baseAppUrl}${e2e.basePath}`,
  appDataDir: e2e.baseAppDataDir,
  identityUrl: undefined,
  identityOutbox: path.join(e2e.baseAppDataDir, "outbox"),
  consumerOutbox: path.join(e2e.baseAppDataDir, "outbox"),
};
