// What a phone feels (docs/architecture/README.md §3 bench/): LCP and INP of the main screens under 4x CPU
// and slow-4G throttling, and page weight with and without JavaScript:
// `npm run bench:vitals` (builds, then runs this on Node 24).
//
// Starts server.ts as the other benches do (bench/support.ts: production build, fresh DATA_DIR, embedded
// services) and makes a signed-in user with one valid result through the forms. Then Chromium (the
// Debian package, CHROMIUM_PATH to override) loads each screen cold, in a new context each time, at
// phone size (390 x 844, device scale 3, mobile), with Chrome DevTools' throttling: the CPU 4x slower
// (Emulation.setCPUThrottlingRate) and Lighthouse's "Slow 4G" network (150 ms round trip, 1.6 Mbit/s
// down, 750 kbit/s up; Network.emulateNetworkConditions). The web-vitals library (Google's, the
// field's reference implementation), injected before the page's own scripts, reports:
// - LCP (largest contentful paint) and FCP of the load, in ms from navigation start;
// - INP (interaction to next paint) of one interaction a user makes on that screen without leaving
//   it (typing a character in a field, or Tab to the next control), with web-vitals' lowest threshold.
// Page weight: bytes received over the network per resource type (Network.loadingFinished's
// encodedDataLength: compressed, with headers).
//
// Each screen is loaded with its JavaScript, and without it: the app's scripts are refused by the
// browser's request routing (the document, CSS, images and fonts load as usual), which is what a
// browser with JavaScript off downloads and paints; web-vitals, injected by DevTools, still measures.
// RUNS loads per screen and mode; the report gives the median and the range. Thresholds for
// reference: Google's "good" is LCP <= 2500 ms and INP <= 200 ms at the 75th percentile of real users.
//
// Prints a Markdown report and writes it to bench/vitals.results.md. Environment: BENCH_VITALS_RUNS
// (default 3), CHROMIUM_PATH.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { root } from "../tests/integration/server-process.ts";
import { CONSENT_COOKIE, requireBuild, signedInUser, startBenchServer, type BenchServer } from "./support.ts";

const RUNS = Number(process.env.BENCH_VITALS_RUNS ?? 3);
const START_TIMEOUT_MS = 90_000;
/** Lighthouse's "Slow 4G" (its mobile default), as DevTools applies it. */
const SLOW_4G = { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 };
const CPU_SLOWDOWN = 4;
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true };

requireBuild();
// The library's browser build (its package exports only the module builds; the IIFE sits beside them).
const webVitals = readFileSync(path.join(path.dirname(createRequire(import.meta.url).resolve("web-vitals")), "web-vitals.iife.js"), "utf8");
/** Runs in the page before its own scripts: keeps the latest LCP, FCP and INP values in window.__vitals. */
const collector = `${webVitals};(function(){var v=(window.__vitals={});var keep=function(name){return function(m){v[name]=m.value}};webVitals.onLCP(keep("lcp"),{reportAllChanges:true});webVitals.onFCP(keep("fcp"));webVitals.onINP(keep("inp"),{reportAllChanges:true,durationThreshold:16});})();`;

interface Screen {
  path: string;
  signedIn: boolean;
  /** Text the page must show (checked on every load). */
  text: string;
  /** The interaction measured for INP; it must not leave the page. */
  interact: (page: Page) => Promise<void>;
  interaction: string;
}

const typeInto = (label: string) => async (page: Page) => {
  await page.getByLabel(label, { exact: true }).click();
  await page.keyboard.type("a");
};
const tab = async (page: Page) => {
  await page.keyboard.press("Tab");
};
const screens: Screen[] = [
  { path: "/login", signedIn: false, text: "Sign In", interact: typeInto("Email"), interaction: "type a character in Email" },
  { path: "/safewindow", signedIn: true, text: "My Safe Window", interact: tab, interaction: "Tab" },
  { path: "/mytests", signedIn: true, text: "My Tests", interact: tab, interaction: "Tab" },
  { path: "/people", signedIn: true, text: "People", interact: tab, interaction: "Tab" },
];

interface Load {
  lcp?: number;
  fcp?: number;
  /** With JavaScript: when React Router's client had started (polled every 20 ms), ms from navigation start. */
  hydrated?: number;
  inp?: number;
  bytes: Record<string, number>;
}

const server = await startBenchServer({ startTimeoutMs: START_TIMEOUT_MS });
const expect: BenchServer["expect"] = server.expect;
let browser: Browser | undefined;
try {
  const { cookie } = await signedInUser(server);
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });

  /** One cold load of `screen` (a new context: nothing cached), throttled; its vitals and bytes. */
  async function load(screen: Screen, withJs: boolean): Promise<Load> {
    const context: BrowserContext = await browser!.newContext(PHONE);
    try {
      const cookies = (screen.signedIn ? cookie : CONSENT_COOKIE).split("; ").map((pair) => {
        const at = pair.indexOf("=");
        return { name: pair.slice(0, at), value: pair.slice(at + 1), url: server.base };
      });
      await context.addCookies(cookies);
      const page = await context.newPage();
      await page.addInitScript(collector);
      if (!withJs) await page.route(/\/assets\/.*\.js$/, (route) => route.abort());
      const cdp = await context.newCDPSession(page);
      await cdp.send("Network.enable");
      await cdp.send("Network.emulateNetworkConditions", SLOW_4G);
      await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU_SLOWDOWN });
      const types = new Map<string, string>();
      const bytes: Record<string, number> = {};
      cdp.on("Network.responseReceived", (event) => types.set(event.requestId, event.type));
      cdp.on("Network.loadingFinished", (event) => {
        const type = types.get(event.requestId) ?? "Other";
        bytes[type] = (bytes[type] ?? 0) + event.encodedDataLength;
      });
      const response = await page.goto(`${server.base}${screen.path}`, { waitUntil: "load" });
      expect(response?.status() === 200, `${screen.path} answered ${response?.status()}`);
      await page.getByText(screen.text).first().waitFor();
      // With JavaScript, the interaction is measured once React Router's client has started
      // (window.__reactRouterDataRouter); when that was, in ms from navigation start.
      let hydrated: number | undefined;
      if (withJs) {
        await page.waitForFunction(() => "__reactRouterDataRouter" in window, null, { timeout: 60_000, polling: 20 });
        hydrated = await page.evaluate(() => performance.now());
      }
      await page.waitForTimeout(500);
      const { lcp, fcp } = await page.evaluate(() => (window as unknown as { __vitals: { lcp?: number; fcp?: number } }).__vitals);
      await screen.interact(page);
      await page.waitForTimeout(1000);
      const { inp } = await page.evaluate(() => (window as unknown as { __vitals: { inp?: number } }).__vitals);
      expect(new URL(page.url()).pathname === screen.path, `${screen.path}: the interaction left the page for ${page.url()}`);
      return { lcp, fcp, inp, hydrated, bytes };
    } finally {
      await context.close();
    }
  }

  const rows = [];
  for (const screen of screens) {
    for (const withJs of [true, false]) {
      const loads: Load[] = [];
      for (let run = 0; run < RUNS; run++) loads.push(await load(screen, withJs));
      rows.push({ screen, withJs, loads });
      console.error(`${screen.path} ${withJs ? "with JS" : "without JS"}: LCP ${loads.map((l) => l.lcp?.toFixed(0)).join(", ")} ms; INP ${loads.map((l) => l.inp?.toFixed(0) ?? "<16").join(", ")} ms`);
    }
  }

  // ------------------------------------------------------------ report
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const figure = (values: (number | undefined)[], floor?: string) => {
    const known = values.filter((v): v is number => v !== undefined);
    if (known.length === 0) return floor ?? "?";
    const sorted = [...known].sort((a, b) => a - b);
    const unknown = values.length - known.length;
    return `${median(known)!.toFixed(0)} (${sorted[0]!.toFixed(0)}-${sorted.at(-1)!.toFixed(0)})${unknown ? ` + ${unknown} × ${floor ?? "?"}` : ""}`;
  };
  const kib = (n: number | undefined) => (n === undefined ? "0" : (n / 1024).toFixed(1));
  const bytesOf = (loads: Load[], type: string) => median(loads.map((l) => l.bytes[type] ?? 0));
  const total = (loads: Load[]) => median(loads.map((l) => Object.values(l.bytes).reduce((a, b) => a + b, 0)));
  const version = execFileSync("git", ["describe", "--always", "--dirty"], { cwd: root, encoding: "utf8" }).trim();
  const lines = [
    "# bench/vitals results",
    "",
    `Run: ${new Date().toISOString()} · Node ${process.version} · ${os.cpus().length} × ${os.cpus()[0]?.model ?? "?"} · Chromium ${browser.version()} · code ${version}.`,
    `Each screen loaded cold ${RUNS} times per mode in a new context at 390 x 844 (device scale 3, mobile), CPU ${CPU_SLOWDOWN}x slower, network "Slow 4G" (150 ms RTT, 1.6 Mbit/s down, 750 kbit/s up), as DevTools throttles; web-vitals measures. Server and browser share this machine's cores. ` +
      "Without JavaScript: the app's scripts are refused, everything else loads. 'App started': when React Router's client had started (hydrated), polled every 20 ms. Figures: median (min-max) in ms; INP '<16' means the interaction's next paint came within 16 ms, below what web-vitals reports. Google's 'good': LCP <= 2500 ms, INP <= 200 ms.",
    "",
    "| screen | JavaScript | LCP ms | FCP ms | app started ms | INP ms (interaction) | HTML KiB | CSS KiB | JS KiB | images KiB | fonts KiB | total KiB |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ...rows.map(
      ({ screen, withJs, loads }) =>
        `| ${screen.path}${screen.signedIn ? " (signed in)" : ""} | ${withJs ? "on" : "off"} | ${figure(loads.map((l) => l.lcp))} | ${figure(loads.map((l) => l.fcp))} | ${withJs ? figure(loads.map((l) => l.hydrated)) : "-"} | ${figure(
          loads.map((l) => l.inp),
          "<16",
        )} (${screen.interaction}) | ${kib(bytesOf(loads, "Document"))} | ${kib(bytesOf(loads, "Stylesheet"))} | ${kib(bytesOf(loads, "Script"))} | ${kib(bytesOf(loads, "Image"))} | ${kib(bytesOf(loads, "Font"))} | ${kib(total(loads))} |`,
    ),
    "",
    "Bytes are as received (compressed, with headers), the median of the loads; a refused script is not counted.",
    "",
  ];
  const text = lines.join("\n");
  console.log(text);
  await writeFile(new URL("./vitals.results.md", import.meta.url), text);
} finally {
  await browser?.close();
  await server.stop(20_000);
  await rm(server.dataDir, { recursive: true, force: true });
}
