// Page load bench (docs/architecture/README.md §3 bench/): `npm run bench:pages` (builds, then runs this on Node 24).
// The script itself builds nothing: it serves whatever `npm run build` last wrote to build/ (BUILD_DIR), and
// stops with a message when there is no build.
//
// Memory is the whole server's: server.ts and every process it started, and with BENCH_UPSTREAMS=processes the
// services' processes (bench/support.ts BenchServer.rss).
// Starts server.ts as a child process (bench/support.ts) the way operators run it (NODE_ENV=production, a fresh
// temporary DATA_DIR, the three reference services embedded on PGlite, LOG_LEVEL=warn,
// AUTH_RATE_LIMIT raised so the form-post row measures the form and not the 429 page), and waits
// until /healthz answers. Then, through the app's own HTML forms (no JavaScript, as the
// integration tests drive it): registers a user, confirms the e-mail with the link of the .eml
// file in DATA_DIR/outbox, signs in through /login, creates the profile through /yourinfo, and
// uploads one generated Harborview Labs report (tests/fixtures) through the /mytests form, so
// /safewindow shows an open window and /mytests one result.
//
// Each target is first fetched once and must answer its expected status with its expected text;
// then autocannon drives it for WARMUP_SECONDS (discarded) and DURATION_SECONDS with CONNECTIONS
// keep-alive connections, sending `Accept-Encoding: gzip, deflate, br` as a browser does. /login has
// three rows: anonymous (the shared page cache's copy, docs/decisions/0014-shared-page-cache.md),
// rendered for every request (a cookie outside the cache's key, as a returning visitor), and rendered
// uncompressed (what compressing a page costs); each row checks which way it is answered. Reported
// per target: requests/s (autocannon's mean of per-second counts), latency p50 / p97.5 / p99 / max
// in ms (autocannon's 1 ms resolution), responses with another status than expected, socket
// errors and timeouts. Also the JavaScript the browser is told to load for /login and /safewindow
// (every `<script src>`, `<link rel="modulepreload">` and static import of the inline module
// scripts, each counted once): bytes raw and gzip-compressed (zlib level 6, as the compression
// middleware sends it), and the HTML document itself.
//
// autocannon runs in this process, on the same machine as the server: on a 2-core machine the
// figures are a floor, and other work running meanwhile lowers them (the load average is printed).
// The yardstick (docs/architecture/README.md §3 bench/): bench/bare, a React Router app with one /login route
// (loader, action, <Form>) on React Router's Express adapter and nothing else, same package versions.
// The bench builds it into bench/bare/build and starts it beside server.ts (same NODE_OPTIONS and GLIBC_TUNABLES). Both
// are left alone for SETTLE_SECONDS after their start, then their resident memory is read ("at
// rest"); then GET /login is loaded on each in turn, BENCH_ROUNDS rounds of DURATION_SECONDS with
// BENCH_COMPARE_CONNECTIONS connections (alternating, so that both see the same machine), and the
// report gives each round's requests/s and p99 and the SafeWindow / bare ratio, for the anonymous
// /login (the cache's copy) and for /login rendered per request; in the same rounds, the signed-in
// /safewindow, /mytests and /people with the same connections, each as a ratio to that round's bare
// /login, against the targets of bench/README.md; after every row,
// the resident memory of both again ("after load"); after the run, server.ts starts once more on the
// same DATA_DIR and its memory at rest is read again (a restart). The gates of bench/README.md are printed as met or not:
// /login at >= 0.9x the bare app (median of the rounds), resident memory at rest < 300 MB (decimal, 10^6 bytes, as the
// goals are written: 286 MiB; the larger
// of the first start and the restart), /login
// JavaScript <= 120 KiB gzip.
//
// Prints a Markdown report and writes it to bench/pages.results.md (with BENCH_UPSTREAMS=processes, to
// bench/pages.processes.results.md); stops the servers with SIGTERM.
// Environment: BENCH_DURATION_SECONDS, BENCH_CONNECTIONS, BENCH_ROUNDS, BENCH_COMPARE_CONNECTIONS
// override the defaults.
import { execFileSync } from "node:child_process";
import { statSync } from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import * as messages from "../app/messages.ts";
import { root, scriptAssets } from "../tests/integration/server-process.ts";
import { autocannon, benchUpstreams, BROWSER_ACCEPT_ENCODING, codeVersion, mib, PERSON, requireBuild, rssOf, serverEnvironment, shippedNodeOptions, signedInUser, startBenchServer, type AutocannonOptions, type AutocannonResult, type BenchServer } from "./support.ts";

const DURATION_SECONDS = Number(process.env.BENCH_DURATION_SECONDS ?? 10);
const WARMUP_SECONDS = 2;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const COMPARE_CONNECTIONS = Number(process.env.BENCH_COMPARE_CONNECTIONS ?? 50);
/** Left alone this long after start before memory "at rest" is read (as docs/operating.md "Memory" reports). */
const SETTLE_SECONDS = 15;
/** The hard gates of bench/README.md "The performance goals" (docs/architecture/README.md §3 bench/). */
const GATES = { loginRatio: 0.9, restBytes: 300e6, loginJsGzipBytes: 120 * 1024 };
/** The target for the whole server's resident memory after this bench's load, bytes (bench/README.md: 400 MB). */
const AFTER_LOAD_BYTES = 400e6;
/** Bytes as MiB with the decimal MB beside them: the goals are in MB (10^6 bytes), /proc reports kB of 1024. */
const mibMb = (bytes: number | undefined) => (bytes === undefined ? "?" : `${mib(bytes)} (${(bytes / 1e6).toFixed(0)} MB)`);
/**
 * The targets of bench/README.md for signed-in pages, each against the bare app's /login in the same
 * round (COMPARE_CONNECTIONS connections): a ratio of requests/s, and for /safewindow a p99 bound (ms).
 */
const SIGNED_IN_TARGETS = { "/safewindow": { ratio: 0.3, p99Ms: 400 }, "/mytests": { ratio: 0.2 }, "/people": { ratio: 0.2 } } as const;
type SignedInPage = keyof typeof SIGNED_IN_TARGETS;
const SIGNED_IN_PAGES = Object.keys(SIGNED_IN_TARGETS) as SignedInPage[];
/** Two new PGlite data directories (~5 s each) and the build's import. */
const START_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 20_000;

const buildEntry = requireBuild();
const loadAtStart = os.loadavg();
// ------------------------------------------------------------ the yardstick's build
const bareDir = path.join(root, "bench", "bare");
execFileSync(process.execPath, [path.join(root, "node_modules", "@react-router", "dev", "bin.cjs"), "build"], { cwd: bareDir, stdio: "ignore" });
// ------------------------------------------------------------ start (bench/support.ts)
const server = await startBenchServer({ startTimeoutMs: START_TIMEOUT_MS });
const { child, base, dataDir, exited, logLevels, startSeconds } = server;
const expect: BenchServer["expect"] = server.expect;
const bare = await startBenchServer({ startTimeoutMs: START_TIMEOUT_MS, script: path.join("bench", "bare", "server.ts"), readyPath: "/login" });

try {
  // ------------------------------------------------------------ memory at rest
  await new Promise((resolve) => setTimeout(resolve, SETTLE_SECONDS * 1000));
  const atRest = { safeWindow: server.rss(), bare: rssOf(bare.child.pid) };

  // ------------------------------------------------------------ a signed-in user with a profile and a result
  const { cookie } = await signedInUser(server);

  // ------------------------------------------------------------ targets
  interface Target {
    label: string;
    method: "GET" | "POST";
    path: string;
    headers: Record<string, string>;
    body?: string;
    status: number;
    /** Texts the first answer must contain (the real page, not a redirect or error page). */
    texts: string[];
    /** Default BROWSER_ACCEPT_ENCODING. */
    acceptEncoding?: string;
    /** For a page the shared page cache may keep: whether this request is answered from it or rendered (checked by its CSP). */
    cache?: "stored copy" | "rendered";
  }
  const signedInHeaders = { cookie };
  /** A cookie that the shared page cache does not key on: the page is rendered for every request. */
  const renderedHeaders = { cookie: "bench=rendered" };
  const badLogin = new URLSearchParams({ email: "", password: "whatever" }).toString();
  const targets: Target[] = [
    { label: "GET /healthz (baseline, no React)", method: "GET", path: "/healthz", headers: {}, status: 200, texts: ['"ok":true'] },
    { label: "GET /login (anonymous: the shared page cache's copy)", method: "GET", path: "/login", headers: {}, status: 200, texts: ["<h1>Sign In</h1>"], cache: "stored copy" },
    // The same page rendered for the request, as for a returning visitor (any cookie outside the cache's key).
    { label: "GET /login (rendered: a cookie outside the cache's key)", method: "GET", path: "/login", headers: renderedHeaders, status: 200, texts: ["<h1>Sign In</h1>"], cache: "rendered" },
    // Rendered and uncompressed: what compressing a server-rendered page costs.
    {
      label: "GET /login (rendered), Accept-Encoding: identity (uncompressed)",
      method: "GET",
      path: "/login",
      headers: renderedHeaders,
      status: 200,
      texts: ["<h1>Sign In</h1>"],
      acceptEncoding: "identity",
      cache: "rendered",
    },
    {
      label: "POST /login, empty e-mail (no-JS form, fails validation)",
      method: "POST",
      path: "/login",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: base },
      body: badLogin,
      status: 400,
      texts: [messages.loginEmailRequired],
    },
    {
      label: "GET /safewindow (signed in: 1 upstream call)",
      method: "GET",
      path: "/safewindow",
      headers: signedInHeaders,
      status: 200,
      texts: ["My Safe Window", `${PERSON.firstName} ${PERSON.lastName}`, "Strong until"],
    },
    {
      label: "GET /mytests (signed in: 2 upstream calls)",
      method: "GET",
      path: "/mytests",
      headers: signedInHeaders,
      status: 200,
      texts: ["<h1>My Tests</h1>", 'aria-label="Test results"', "Strong until"],
    },
    { label: "GET /people (signed in: 2 upstream calls)", method: "GET", path: "/people", headers: signedInHeaders, status: 200, texts: ["<h1>People</h1>"] },
  ];

  for (const target of targets) {
    const answer = await fetch(`${base}${target.path}`, { method: target.method, headers: target.headers, body: target.body, redirect: "manual" });
    const text = await answer.text();
    const missing = target.texts.filter((t) => !text.includes(t));
    expect(answer.status === target.status && missing.length === 0, `${target.label}: answered ${answer.status} (expected ${target.status}), missing ${JSON.stringify(missing)}`);
    if (target.cache) {
      // The first anonymous answer is rendered and stored; the second tells which way the row goes.
      const again = await fetch(`${base}${target.path}`, { headers: target.headers });
      const policy = again.headers.get("content-security-policy") ?? "";
      const answered = policy.includes("'nonce-") ? "rendered" : "stored copy";
      expect(answered === target.cache, `${target.label}: answered as a ${answered}, expected a ${target.cache}`);
    }
  }

  // ------------------------------------------------------------ JavaScript shipped
  const shipped = [];
  for (const [origin, page] of [[base, "/login"], [base, "/safewindow"], [bare.base, "/login"]] as const) {
    const html = await (await fetch(`${origin}${page}`, { headers: page === "/login" ? {} : { cookie } })).text();
    const assets = scriptAssets(html);
    let raw = 0;
    let gzip = 0;
    for (const asset of assets) {
      const response = await fetch(`${origin}${asset}`);
      expect(response.status === 200, `${asset} answered ${response.status}`);
      const bytes = new Uint8Array(await response.arrayBuffer());
      raw += bytes.length;
      gzip += gzipSync(bytes).length;
    }
    const htmlBytes = Buffer.from(html);
    shipped.push({ page: origin === bare.base ? `${page} (bare React Router app)` : page, files: assets.length, raw, gzip, html: htmlBytes.length, htmlGzip: gzipSync(htmlBytes).length });
  }

  // ------------------------------------------------------------ SafeWindow against the bare app, alternating
  const loginLoad = (origin: string, duration: number, headers: Record<string, string> = {}): Promise<AutocannonResult> =>
    autocannon({ url: `${origin}/login`, method: "GET", headers: { ...headers, "accept-encoding": BROWSER_ACCEPT_ENCODING }, connections: COMPARE_CONNECTIONS, duration });
  const bareAnswer = await fetch(`${bare.base}/login`);
  expect(bareAnswer.status === 200 && (await bareAnswer.text()).includes("<h1>Sign In</h1>"), `the bare app's /login answered ${bareAnswer.status}`);
  /** A signed-in page loaded like /login in the rounds: COMPARE_CONNECTIONS connections, the browser's Accept-Encoding. */
  const pageLoad = (page: string, duration: number): Promise<AutocannonResult> =>
    autocannon({ url: `${base}${page}`, method: "GET", headers: { cookie, "accept-encoding": BROWSER_ACCEPT_ENCODING }, connections: COMPARE_CONNECTIONS, duration });
  const rounds: { round: number; ours: AutocannonResult; theirs: AutocannonResult; rendered: AutocannonResult; signedIn: Record<SignedInPage, AutocannonResult>; ratio: number; renderedRatio: number }[] = [];
  const nonOk = (result: AutocannonResult) => result.non2xx + result.errors + result.timeouts;
  for (let round = 1; round <= ROUNDS; round++) {
    await loginLoad(base, WARMUP_SECONDS);
    const ours = await loginLoad(base, DURATION_SECONDS);
    await loginLoad(bare.base, WARMUP_SECONDS);
    const theirs = await loginLoad(bare.base, DURATION_SECONDS);
    await loginLoad(base, WARMUP_SECONDS, renderedHeaders);
    const rendered = await loginLoad(base, DURATION_SECONDS, renderedHeaders);
    const signedIn: Record<SignedInPage, AutocannonResult> = {} as Record<SignedInPage, AutocannonResult>;
    for (const page of SIGNED_IN_PAGES) {
      await pageLoad(page, WARMUP_SECONDS);
      signedIn[page] = await pageLoad(page, DURATION_SECONDS);
    }
    const failed = [ours, theirs, rendered, ...Object.values(signedIn)].map(nonOk);
    expect(failed.every((n) => n === 0), `round ${round}: answers other than 2xx, errors or timeouts (login, bare, rendered, ${SIGNED_IN_PAGES.join(", ")}: ${failed.join(", ")})`);
    const ratioOf = (result: AutocannonResult) => result.requests.average / theirs.requests.average;
    rounds.push({ round, ours, theirs, rendered, signedIn, ratio: ratioOf(ours), renderedRatio: ratioOf(rendered) });
    console.error(
      `round ${round}: /login ${ours.requests.average.toFixed(0)} (rendered ${rendered.requests.average.toFixed(0)}) vs bare ${theirs.requests.average.toFixed(0)} req/s (${ratioOf(ours).toFixed(2)}x); p99 ${ours.latency.p99} (${rendered.latency.p99}) vs ${theirs.latency.p99} ms; ` +
        SIGNED_IN_PAGES.map((page) => `${page} ${ratioOf(signedIn[page]).toFixed(2)}x p99 ${signedIn[page].latency.p99} ms`).join("; "),
    );
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const medianRatio = median(rounds.map((r) => r.ratio));
  const medianRenderedRatio = median(rounds.map((r) => r.renderedRatio));
  /** Per signed-in page: the median ratio to the bare /login and the median p99 over the rounds. */
  const signedInMedians = SIGNED_IN_PAGES.map((page) => ({
    page,
    ratio: median(rounds.map((r) => r.signedIn[page].requests.average / r.theirs.requests.average)),
    p99: median(rounds.map((r) => r.signedIn[page].latency.p99)),
  }));

  // ------------------------------------------------------------ load
  const rows = [];
  for (const target of targets) {
    const options: AutocannonOptions = {
      url: `${base}${target.path}`,
      method: target.method,
      headers: { ...target.headers, "accept-encoding": target.acceptEncoding ?? BROWSER_ACCEPT_ENCODING },
      body: target.body,
      connections: CONNECTIONS,
      duration: WARMUP_SECONDS,
    };
    await autocannon(options);
    const result = await autocannon({ ...options, duration: DURATION_SECONDS });
    const statuses = Object.entries(result.statusCodeStats)
      .map(([code, { count }]) => `${code}×${count}`)
      .join(", ");
    const unexpected = Object.entries(result.statusCodeStats)
      .filter(([code]) => Number(code) !== target.status)
      .reduce((sum, [, { count }]) => sum + count, 0);
    rows.push({ target, result, statuses, unexpected });
    console.error(`${target.label}: ${result.requests.average.toFixed(0)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms (${statuses})`);
  }

  const afterLoad = { safeWindow: server.rss(), bare: rssOf(bare.child.pid) };

  // ------------------------------------------------------------ stop
  await bare.stop(STOP_TIMEOUT_MS);
  const serverErrorsBeforeStop = logLevels.error;
  child.kill("SIGTERM");
  const code = await Promise.race([exited, new Promise<string>((resolve) => setTimeout(() => resolve("no exit"), STOP_TIMEOUT_MS))]);
  // With BENCH_UPSTREAMS=processes, the services' processes too (the restart below starts them again).
  await server.stop(STOP_TIMEOUT_MS);

  // ------------------------------------------------------------ memory at rest after a restart
  // The same DATA_DIR, its database made and holding this run's user: an operator's usual start.
  const restarted = await startBenchServer({ startTimeoutMs: START_TIMEOUT_MS, dataDir });
  await new Promise((resolve) => setTimeout(resolve, SETTLE_SECONDS * 1000));
  const atRestRestarted = restarted.rss();
  await restarted.stop(STOP_TIMEOUT_MS);
  const restWorst = Math.max(atRest.safeWindow ?? Infinity, atRestRestarted ?? Infinity);

  // ------------------------------------------------------------ report
  const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  const version = codeVersion();
  const lines = [
    "# bench/pages results",
    "",
    `Run: ${new Date().toISOString()} · Node ${process.version} · ${os.cpus().length} × ${cpu} · ${os.platform()} ${os.release()} · load average at start ${loadAtStart.map((l) => l.toFixed(2)).join(" / ")}`,
    `Code: ${version}; ${path.relative(root, path.dirname(path.dirname(buildEntry)))}/ built ${statSync(buildEntry).mtime.toISOString()}. Load average at end ${os.loadavg().map((l) => l.toFixed(2)).join(" / ")}.`,
    `server.ts as a child process (NODE_ENV=production, NODE_OPTIONS="${process.env.NODE_OPTIONS ?? shippedNodeOptions}", GLIBC_TUNABLES="${serverEnvironment().GLIBC_TUNABLES}", fresh DATA_DIR, ${benchUpstreams === "thread" ? "the three reference services embedded on PGlite in its data thread, sessions in the same database" : "BENCH_UPSTREAMS=processes: the three reference services as processes of their own (their main.ts, each its own PGlite), server.ts given their URLs, sessions in its data thread's PGlite"}, LOG_LEVEL=warn, AUTH_RATE_LIMIT raised; ready in ${startSeconds.toFixed(1)} s). ` +
      `autocannon ${CONNECTIONS} keep-alive connections, ${WARMUP_SECONDS} s warm-up (discarded) then ${DURATION_SECONDS} s per row, one row at a time, Accept-Encoding "${BROWSER_ACCEPT_ENCODING}" (Chromium's; pages answer gzip, assets br) unless the row says otherwise; ` +
      "autocannon runs on the same machine as the server, so both share its cores (other work may have been running too): read the figures as a floor and as ratios between rows. " +
      "Signed-in rows carry the cookies of a user who registered, confirmed the e-mail, signed in, created a profile and uploaded one valid Harborview Labs report through the forms (open Strong window, one result, no follows). " +
      "Every row's page was first checked for its status and text; 'other status' counts answers with any other status during the run.",
    "",
    "## SafeWindow against a bare React Router app",
    "",
    `bench/bare: one /login route (loader, action, <Form>) on React Router's Express adapter, no middleware, the same package versions, started beside server.ts with the same NODE_OPTIONS and GLIBC_TUNABLES. GET /login with ${COMPARE_CONNECTIONS} keep-alive connections, ${WARMUP_SECONDS} s warm-up then ${DURATION_SECONDS} s on each in turn, ${ROUNDS} rounds; every answer 200. ` +
      "SafeWindow's anonymous /login is answered from its shared page cache (docs/decisions/0014-shared-page-cache.md); the 'rendered' columns send a cookie outside the cache's key, so that every request renders the page, as for a returning visitor.",
    "",
    "| round | SafeWindow req/s | rendered req/s | bare req/s | ratio | rendered ratio | SafeWindow p99 ms | rendered p99 ms | bare p99 ms |",
    "|---|---|---|---|---|---|---|---|---|",
    ...rounds.map(
      (r) =>
        `| ${r.round} | ${r.ours.requests.average.toFixed(0)} | ${r.rendered.requests.average.toFixed(0)} | ${r.theirs.requests.average.toFixed(0)} | ${r.ratio.toFixed(2)}x | ${r.renderedRatio.toFixed(2)}x | ${r.ours.latency.p99} | ${r.rendered.latency.p99} | ${r.theirs.latency.p99} |`,
    ),
    "",
    `Resident memory (VmRSS): at rest, ${SETTLE_SECONDS} s after start with nothing asked, SafeWindow ${mib(atRest.safeWindow)} on a new DATA_DIR and ${mib(atRestRestarted)} restarted on the same one after this run, bare ${mib(atRest.bare)}; after the load of this bench (SafeWindow: a sign-up, an upload, every row below), SafeWindow ${mib(afterLoad.safeWindow)}, bare ${mib(afterLoad.bare)}.`,
    "",
    "Gates:",
    `- GET /login at >= ${GATES.loginRatio}x the bare app: ${medianRatio.toFixed(2)}x (median of the rounds), ${medianRatio >= GATES.loginRatio ? "met" : "NOT met"}. Rendered for every request (not a gate): ${medianRenderedRatio.toFixed(2)}x.`,
    `- Resident memory at rest < ${GATES.restBytes / 1e6} MB (${mib(GATES.restBytes)}): ${mibMb(restWorst)} (the larger of the new and the restarted DATA_DIR), ${restWorst < GATES.restBytes ? "met" : "NOT met"}.`,
    `- /login JavaScript <= ${kib(GATES.loginJsGzipBytes)} gzip: ${kib(shipped[0]!.gzip)}, ${shipped[0]!.gzip <= GATES.loginJsGzipBytes ? "met" : "NOT met"}.`,
    "",
    `Signed-in pages against the bare app's /login of the same round (${COMPARE_CONNECTIONS} connections; the signed-in user's cookie, so no page cache: each is rendered with its upstream calls):`,
    "",
    "| round | " + SIGNED_IN_PAGES.map((page) => `${page} req/s | ratio | p99 ms`).join(" | ") + " |",
    "|---|" + SIGNED_IN_PAGES.map(() => "---|---|---|").join(""),
    ...rounds.map(
      (r) =>
        `| ${r.round} | ` +
        SIGNED_IN_PAGES.map((page) => `${r.signedIn[page].requests.average.toFixed(0)} | ${(r.signedIn[page].requests.average / r.theirs.requests.average).toFixed(2)}x | ${r.signedIn[page].latency.p99}`).join(" | ") +
        " |",
    ),
    "",
    "Targets (medians of the rounds):",
    ...signedInMedians.map(({ page, ratio, p99 }) => {
      const target: { ratio: number; p99Ms?: number } = SIGNED_IN_TARGETS[page];
      const met = ratio >= target.ratio && (target.p99Ms === undefined || p99 < target.p99Ms);
      return `- signed-in ${page} >= ${target.ratio}x${target.p99Ms ? `, p99 < ${target.p99Ms} ms` : ""}: ${ratio.toFixed(2)}x, p99 ${p99} ms, ${met ? "met" : "NOT met"}.`;
    }),
    `- memory of the whole server (every process) at rest < ${GATES.restBytes / 1e6} MB: ${mibMb(restWorst)}; after load < ${AFTER_LOAD_BYTES / 1e6} MB (${mib(AFTER_LOAD_BYTES)}): ${mibMb(afterLoad.safeWindow)}, ${restWorst < GATES.restBytes && (afterLoad.safeWindow ?? Infinity) < AFTER_LOAD_BYTES ? "met" : "NOT met"}.`,
    "",
    "## Pages",
    "",
    "| request | expected | req/s | p50 ms | p97.5 ms | p99 ms | max ms | requests | other status | errors / timeouts |",
    "|---|---|---|---|---|---|---|---|---|---|",
    ...rows.map(
      ({ target, result, unexpected }) =>
        `| ${target.label} | ${target.status} | ${result.requests.average.toFixed(0)} | ${result.latency.p50} | ${result.latency.p97_5} | ${result.latency.p99} | ${result.latency.max} | ${result.requests.total} | ${unexpected} | ${result.errors} / ${result.timeouts} |`,
    ),
    "",
    "JavaScript the browser is told to load on first visit (script src, modulepreload, static imports of the inline module scripts; each file once; gzip at zlib level 6) and the HTML document:",
    "",
    "| page | JS files | JS raw | JS gzip | HTML raw | HTML gzip |",
    "|---|---|---|---|---|---|",
    ...shipped.map((s) => `| ${s.page} | ${s.files} | ${kib(s.raw)} | ${kib(s.gzip)} | ${kib(s.html)} | ${kib(s.htmlGzip)} |`),
    "",
    `Server log during the run: ${logLevels.warn} warn lines (each 4xx answer is logged at warn), ${serverErrorsBeforeStop} error lines. SIGTERM: exit ${code}.`,
    "",
  ];
  const text = lines.join("\n");
  console.log(text);
  // The child-process design's figures beside the embedded default's, never over them.
  await writeFile(new URL(benchUpstreams === "processes" ? "./pages.processes.results.md" : "./pages.results.md", import.meta.url), text);
} finally {
  if (child.exitCode === null && child.signalCode === null) {
    child.kill("SIGTERM");
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, STOP_TIMEOUT_MS))]);
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }
  await bare.stop(STOP_TIMEOUT_MS);
  await server.stop(STOP_TIMEOUT_MS);
  await rm(dataDir, { recursive: true, force: true });
  await rm(`${dataDir}-services`, { recursive: true, force: true });
  await rm(bare.dataDir, { recursive: true, force: true });
}
