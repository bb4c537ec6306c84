// Soak bench: `npm run bench:soak` (builds, then runs this on Node 24).
// The script itself builds nothing: it serves whatever `npm run build` last wrote to build/ (BUILD_DIR).
//
// Starts server.ts as operators run it and makes one signed-in user with one lab result through
// the app's forms (both in bench/support.ts, shared with bench/pages.ts). Then autocannon drives
// SOAK_CONNECTIONS (default 100) keep-alive connections for SOAK_DURATION_SECONDS (default 60), all
// with that user's cookies (so they are also concurrent requests of one session), each connection
// cycling through the signed-in pages /safewindow, /mytests, /people, /settings and an upload of a
// lab report (POST /mytests, multipart/form-data with a PDF, as the upload form without JavaScript
// sends it). The uploads take turns through SOAK_DISTINCT_REPORTS (default 20) different reports of
// the user: the first upload of each runs the whole result pipeline and is stored, later ones are
// refused as duplicates at intake, so the result list (and /mytests) stays bounded.
//
// Printed while it runs: the server process's resident memory (RSS, from /proc, worker threads
// included) every SOAK_SAMPLE_SECONDS (default 10). At the end: answers by page and status, socket
// errors and timeouts, requests/s and latency, and whether the RSS at the end (60 s) is within 10%
// of the RSS at a third of the run (20 s). Then the shutdown: with the same load running again for
// a few seconds, SIGTERM, and the time until the process exits (its drain); then a restart on the
// same DATA_DIR (the lock given up on exit) and the time an idle server takes from SIGTERM to exit.
//
// autocannon runs in this process, on the same machine as the server (2 cores here): read figures
// as a floor. Where the time goes: the server's own /metrics (METRICS_TOKEN set for the run) read before
// and after the soak gives its time to answer by route and status, and the web app's upstream calls by
// call and outcome (histogram buckets); /proc/PID/task gives the CPU of each of the server's threads (the
// web app's main thread, the data thread, the PDF workers, V8's and libuv's helpers).
// Writes a Markdown report to bench/soak.results.md.
// Environment: SOAK_DURATION_SECONDS, SOAK_CONNECTIONS, SOAK_SAMPLE_SECONDS, SOAK_DISTINCT_REPORTS.
import { readdirSync, readFileSync } from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { root } from "../tests/integration/server-process.ts";
import {
  autocannon,
  BROWSER_ACCEPT_ENCODING,
  codeVersion,
  labReport,
  mib,
  requireBuild,
  shippedNodeOptions,
  signedInUser,
  startBenchServer,
  statusField,
  uploadForm,
  type AutocannonRequest,
  type BenchServer,
} from "./support.ts";

const DURATION_SECONDS = Number(process.env.SOAK_DURATION_SECONDS ?? 60);
const CONNECTIONS = Number(process.env.SOAK_CONNECTIONS ?? 100);
/** bench/README.md's target for this load: p99 below this (ms), with no error. */
const TARGET = { p99Ms: 700 };
const SAMPLE_SECONDS = Number(process.env.SOAK_SAMPLE_SECONDS ?? 10);
const DISTINCT_REPORTS = Number(process.env.SOAK_DISTINCT_REPORTS ?? 20);
/** How long the load runs before SIGTERM when measuring the drain, s. */
const DRAIN_LOAD_SECONDS = 5;
/** Two new PGlite data directories (~5 s each) and the build's import; more on a busy machine. */
const START_TIMEOUT_MS = 120_000;
/** server.ts's grace period is 10 s: more than that means it did not exit by itself. */
const STOP_TIMEOUT_MS = 30_000;
/** An answer taking longer than this counts as a timeout, s. */
const TIMEOUT_SECONDS = 30;
/** In the consumer API's answer to a duplicate upload, which the form shows. */
const DUPLICATE_TEXT = "You have already uploaded this test result";
const UPLOAD_STORED = "POST /mytests (upload of a new report)";
const UPLOAD_DUPLICATE = "POST /mytests (upload of a duplicate)";

const buildEntry = requireBuild();
const loadAtStart = os.loadavg();
/** GET /metrics is served only with a token: the soak reads the server's own timings by route and upstream call. */
const METRICS_TOKEN = "soak-bench-metrics-token";
const server = await startBenchServer({ startTimeoutMs: START_TIMEOUT_MS, env: { METRICS_TOKEN } });
const expect: BenchServer["expect"] = server.expect;
const { base, dataDir } = server;
let restarted: BenchServer | undefined;


try {
  // ------------------------------------------------------------ the user, the pages, the uploads
  const { cookie } = await signedInUser(server);
  const pageHeaders = { cookie, "accept-encoding": BROWSER_ACCEPT_ENCODING };
  const pages = [
    { path: "/safewindow", text: "My Safe Window" },
    { path: "/mytests", text: "<h1>My Tests</h1>" },
    { path: "/people", text: "<h1>People</h1>" },
    { path: "/settings", text: "<h1>My Settings</h1>" },
  ];
  for (const page of pages) {
    const answer = await fetch(`${base}${page.path}`, { headers: { cookie }, redirect: "manual" });
    const text = await answer.text();
    expect(answer.status === 200 && text.includes(page.text), `${page.path} answered ${answer.status}${text.includes(page.text) ? "" : `, without ${JSON.stringify(page.text)}`}`);
  }
  // Each upload body as the browser encodes the form (multipart with its boundary).
  const uploads: { body: Buffer; contentType: string }[] = [];
  for (let i = 0; i < DISTINCT_REPORTS; i++) {
    const encoded = new Response(uploadForm(await labReport(i + 1)));
    uploads.push({ body: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get("content-type")! });
  }
  // What the two kinds of upload answer: a new report is stored (302 to /mytests), the same one
  // again is refused as a duplicate (422, the form with the message).
  const probe = await labReport(DISTINCT_REPORTS + 1);
  const stored = await fetch(`${base}/mytests`, { method: "POST", redirect: "manual", headers: { origin: base, cookie }, body: uploadForm(probe) });
  expect(stored.status === 302, `a new report's upload answered ${stored.status}`);
  const again = await fetch(`${base}/mytests`, { method: "POST", redirect: "manual", headers: { origin: base, cookie }, body: uploadForm(probe) });
  expect(again.status === 422 && (await again.text()).includes(DUPLICATE_TEXT), `a duplicate upload answered ${again.status}`);

  /** Answers by request label and status, counted as they arrive. */
  const tally = new Map<string, Map<number, number>>();
  const add = (label: string, status: number) => {
    const byStatus = tally.get(label) ?? new Map<number, number>();
    byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
    tally.set(label, byStatus);
  };
  const count = (label: string) => (status: number) => add(label, status);
  /** The status each label should answer; anything else is counted as unexpected. */
  const expected = new Map<string, number>([
    ...pages.map((page) => [`GET ${page.path}`, 200] as const),
    [UPLOAD_STORED, 302],
    [UPLOAD_DUPLICATE, 422],
  ]);
  let nextUpload = 0;
  const requests: AutocannonRequest[] = [
    ...pages.map((page) => ({ method: "GET" as const, path: page.path, headers: pageHeaders, onResponse: count(`GET ${page.path}`) })),
    {
      method: "POST",
      path: "/mytests",
      // Uncompressed, so the duplicate's message can be read from the answer.
      headers: { cookie, "accept-encoding": "identity", origin: base },
      setupRequest: (request) => {
        const upload = uploads[nextUpload++ % uploads.length]!;
        return { ...request, body: upload.body, headers: { ...request.headers, "content-type": upload.contentType } };
      },
      onResponse: (status, body) => add(status === 422 && body.includes(DUPLICATE_TEXT) ? UPLOAD_DUPLICATE : UPLOAD_STORED, status),
    },
  ];

  // ------------------------------------------------------------ soak
  const metricsBefore = await scrapeMetrics();
  const cpuBefore = threadCpu(server.child.pid);
  const rss: { second: number; bytes: number | undefined }[] = [{ second: 0, bytes: server.rss() }];
  console.error(`soak: ${CONNECTIONS} connections, ${DURATION_SECONDS} s; RSS at 0 s: ${mib(rss[0]!.bytes)}`);
  const soakStart = performance.now();
  const sampler = setInterval(() => {
    const second = Math.round((performance.now() - soakStart) / 1000);
    const bytes = server.rss();
    rss.push({ second, bytes });
    const answers = [...tally.values()].reduce((sum, byStatus) => sum + [...byStatus.values()].reduce((a, b) => a + b, 0), 0);
    const pid = server.child.pid;
    console.error(`  ${second} s: RSS ${mib(bytes)} (anonymous ${mib(statusField(pid, "RssAnon"))}, files ${mib(statusField(pid, "RssFile"))}; ${statusField(pid, "Threads")} threads), ${answers} answers so far`);
  }, SAMPLE_SECONDS * 1000);
  const soak = await autocannon({ url: base, requests, connections: CONNECTIONS, duration: DURATION_SECONDS, timeout: TIMEOUT_SECONDS });
  clearInterval(sampler);
  // The last sample at the very end of the run, if the interval's last tick came before it.
  const endSecond = Math.round((performance.now() - soakStart) / 1000);
  if (rss.at(-1)!.second < endSecond - 1) rss.push({ second: endSecond, bytes: server.rss() });
  const soakErrorLines = server.logLevels.error;
  const cpuAfter = threadCpu(server.child.pid);
  const metricsAfter = await scrapeMetrics();
  const routeRows = histogramRows(metricsBefore, metricsAfter, "safewindow_http_request_duration_seconds", (labels) => `${labels.method} ${labels.route} ${labels.status}`);
  const upstreamRows = histogramRows(metricsBefore, metricsAfter, "safewindow_upstream_request_duration_seconds", (labels) => `${labels.call} (${labels.outcome})`);
  const cpuRows = cpuSplit(cpuBefore, cpuAfter, server.child.pid);
  const soakTally = new Map([...tally].map(([label, byStatus]) => [label, new Map(byStatus)]));

  const third = DURATION_SECONDS / 3;
  const atThird = rss.reduce((best, s) => (Math.abs(s.second - third) < Math.abs(best.second - third) ? s : best));
  const atEnd = rss.at(-1)!;
  const growth = atThird.bytes && atEnd.bytes ? (atEnd.bytes - atThird.bytes) / atThird.bytes : undefined;
  const statusTotals = new Map<number, number>();
  for (const byStatus of soakTally.values()) for (const [status, n] of byStatus) statusTotals.set(status, (statusTotals.get(status) ?? 0) + n);
  const notOk = [...statusTotals].filter(([status]) => status < 200 || status >= 400);
  const unexpected = [...soakTally].flatMap(([label, byStatus]) => [...byStatus].filter(([status]) => status !== expected.get(label)).map(([status, n]) => `${label} ${status}×${n}`));
  const fiveHundreds = notOk.filter(([status]) => status >= 500).reduce((sum, [, n]) => sum + n, 0);

  // ------------------------------------------------------------ drain: SIGTERM under the same load
  const drainLoad = autocannon({ url: base, requests, connections: CONNECTIONS, duration: DRAIN_LOAD_SECONDS + 60, timeout: TIMEOUT_SECONDS });
  await new Promise((resolve) => setTimeout(resolve, DRAIN_LOAD_SECONDS * 1000));
  const tallyBeforeSignal = new Map([...tally].map(([label, byStatus]) => [label, new Map(byStatus)]));
  const signalledAt = performance.now();
  const drainCode = await server.stop(STOP_TIMEOUT_MS);
  const drainMs = performance.now() - signalledAt;
  drainLoad.stop();
  const drainResult = await drainLoad;
  const cut = server.logTail().includes("were cut");
  const drainAnswers = [...tally].flatMap(([label, byStatus]) =>
    [...byStatus].map(([status, n]) => ({ label, status, n: n - (tallyBeforeSignal.get(label)?.get(status) ?? 0) })).filter((row) => row.n > 0),
  );

  // ------------------------------------------------------------ idle: restart on the same DATA_DIR, SIGTERM
  restarted = await startBenchServer({ dataDir, startTimeoutMs: START_TIMEOUT_MS });
  const idleSignalledAt = performance.now();
  const idleCode = await restarted.stop(STOP_TIMEOUT_MS);
  const idleMs = performance.now() - idleSignalledAt;

  // ------------------------------------------------------------ report
  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  const version = codeVersion();
  const byLabel = [...soakTally].map(([label, byStatus]) => {
    const total = [...byStatus.values()].reduce((a, b) => a + b, 0);
    const statuses = [...byStatus].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`).join(", ");
    return `| ${label} | ${expected.get(label)} | ${total} | ${statuses} |`;
  });
  const lines = [
    "# bench/soak results",
    "",
    `Run: ${new Date().toISOString()} · Node ${process.version} · ${os.cpus().length} × ${cpu} · ${os.platform()} ${os.release()} · load average at start ${loadAtStart.map((l) => l.toFixed(2)).join(" / ")}, at end ${os.loadavg().map((l) => l.toFixed(2)).join(" / ")}`,
    `Code: ${version}; ${path.relative(root, path.dirname(path.dirname(buildEntry)))}/ built. server.ts as a child process (NODE_ENV=production, NODE_OPTIONS="${process.env.NODE_OPTIONS ?? shippedNodeOptions}", fresh DATA_DIR, the three reference services embedded on PGlite, LOG_LEVEL=warn, AUTH_RATE_LIMIT raised; ready in ${server.startSeconds.toFixed(1)} s).`,
    `autocannon in the same process, same machine: ${CONNECTIONS} keep-alive connections for ${DURATION_SECONDS} s, all with one signed-in user's cookies, each cycling GET /safewindow, /mytests, /people, /settings (Accept-Encoding "${BROWSER_ACCEPT_ENCODING}") and an upload (POST /mytests, multipart PDF, ${DISTINCT_REPORTS} distinct reports in turn: the first of each stored, the rest refused as duplicates; uncompressed answers so the duplicate's message is read), answers timing out after ${TIMEOUT_SECONDS} s.`,
    "",
    "## Soak",
    "",
    `${soak.requests.total} answers, ${soak.requests.average.toFixed(0)} req/s; latency p50 ${soak.latency.p50} ms, p97.5 ${soak.latency.p97_5} ms, p99 ${soak.latency.p99} ms, max ${soak.latency.max} ms.`,
    `Socket errors: ${soak.errors}; timeouts: ${soak.timeouts}. Answers other than 2xx/3xx: ${notOk.length === 0 ? "none" : notOk.map(([status, n]) => `${status}×${n}`).join(", ")} (5xx: ${fiveHundreds}; the duplicates' 422 is their expected answer). ` +
      `Answers with another status than their request's expected one: ${unexpected.length === 0 ? "none" : unexpected.join(", ")}. Server log error lines: ${soakErrorLines}.`,
    "",
    `Target (bench/README.md): p99 < ${TARGET.p99Ms} ms and no error (no socket error, timeout or 5xx): p99 ${soak.latency.p99} ms, ${soak.errors + soak.timeouts + fiveHundreds} errors, ${soak.latency.p99 < TARGET.p99Ms && soak.errors + soak.timeouts + fiveHundreds === 0 ? "met" : "NOT met"}.`,
    "",
    "| request | expected | answers | by status |",
    "|---|---|---|---|",
    ...byLabel,
    "",
    "### Where the time goes",
    "",
    `The server's own time to answer (its \`/metrics\` histograms over the soak, from the request's arrival to the last byte; buckets, so a percentile is the bucket's upper bound), by route and status:`,
    "",
    "| request | answers | mean | p50 ≤ | p99 ≤ |",
    "|---|---|---|---|---|",
    ...routeRows,
    "",
    "The web app's calls to the upstreams (the data thread's services) in that time, by call and outcome:",
    "",
    "| call | calls | mean | p50 ≤ | p99 ≤ |",
    "|---|---|---|---|---|",
    ...upstreamRows,
    "",
    `CPU of the server's threads over the soak (/proc, user + system; ${os.cpus().length} cores, ${(DURATION_SECONDS * os.cpus().length).toFixed(0)} core-seconds in all, the load generator's share included in what is left): ${cpuRows}.`,
    "",
    `Server RSS: ${rss.map((s) => `${s.second} s ${mib(s.bytes)}`).join(" · ")}.`,
    `RSS at ${atEnd.second} s vs at ${atThird.second} s: ${growth === undefined ? "?" : `${growth >= 0 ? "+" : ""}${(growth * 100).toFixed(1)}%`}, ${growth !== undefined && Math.abs(growth) <= 0.1 ? "within" : "NOT within"} 10%.`,
    "",
    "## Shutdown",
    "",
    `Drain: the same load for ${DRAIN_LOAD_SECONDS} s, then SIGTERM: exit ${drainCode} after ${drainMs.toFixed(0)} ms${cut ? ", connections CUT at the grace period" : ", nothing cut"}. ` +
      `Answers from the signal on: ${drainAnswers.reduce((sum, row) => sum + row.n, 0)} on the ${CONNECTIONS} connections (${drainAnswers.map((row) => `${row.label} ${row.status}×${row.n}`).join(", ")}); autocannon's socket errors over that load (new connections refused once the server stopped listening): ${drainResult.errors}.`,
    `Idle: restart on the same DATA_DIR (ready in ${restarted.startSeconds.toFixed(1)} s), then SIGTERM: exit ${idleCode} after ${idleMs.toFixed(0)} ms.`,
    "",
  ];
  const text = lines.join("\n");
  console.log(text);
  await writeFile(new URL("./soak.results.md", import.meta.url), text);
} finally {
  await server.stop(STOP_TIMEOUT_MS);

  if (restarted) await restarted.stop(STOP_TIMEOUT_MS);
  await rm(dataDir, { recursive: true, force: true });
}

/** The server's /metrics text (Prometheus). */
async function scrapeMetrics(): Promise<string> {
  const answer = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(answer.ok, `/metrics answered ${answer.status}`);
  return answer.text();
}

/** One histogram's series: labels (without `le`) to cumulative bucket counts by upper bound (s), count and sum. */
function histogramSeries(text: string, name: string): Map<string, { labels: Record<string, string>; buckets: Map<number, number>; count: number; sum: number }> {
  const series = new Map<string, { labels: Record<string, string>; buckets: Map<number, number>; count: number; sum: number }>();
  const line = new RegExp(`^${name}_(bucket|count|sum)\\{([^}]*)\\} (\\S+)$`);
  for (const row of text.split("\n")) {
    const match = line.exec(row);
    if (!match) continue;
    const labels = Object.fromEntries([...match[2]!.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
    const le = labels.le;
    delete labels.le;
    const key = JSON.stringify(labels);
    const entry = series.get(key) ?? { labels, buckets: new Map<number, number>(), count: 0, sum: 0 };
    const value = Number(match[3]);
    if (match[1] === "bucket") entry.buckets.set(le === "+Inf" ? Infinity : Number(le), value);
    else if (match[1] === "count") entry.count = value;
    else entry.sum = value;
    series.set(key, entry);
  }
  return series;
}

/** Table rows of a histogram's growth between two scrapes: answers, mean, and p50/p99 as bucket upper bounds, most answers first. */
function histogramRows(before: string, after: string, name: string, label: (labels: Record<string, string>) => string): string[] {
  const earlier = histogramSeries(before, name);
  const ms = (seconds: number) => (seconds === Infinity ? "> 10 s" : `${Math.round(seconds * 1000)} ms`);
  return [...histogramSeries(after, name)]
    .map(([key, now]) => {
      const then = earlier.get(key);
      const count = now.count - (then?.count ?? 0);
      const sum = now.sum - (then?.sum ?? 0);
      const bounds = [...now.buckets.keys()].sort((a, b) => a - b);
      const at = (q: number) => bounds.find((le) => now.buckets.get(le)! - (then?.buckets.get(le) ?? 0) >= q * count) ?? Infinity;
      return { count, row: `| ${label(now.labels)} | ${count} | ${count ? ms(sum / count) : "-"} | ${count ? ms(at(0.5)) : "-"} | ${count ? ms(at(0.99)) : "-"} |` };
    })
    .filter((entry) => entry.count > 0)
    .sort((a, b) => b.count - a.count)
    .map((entry) => entry.row);
}

/** CPU seconds (user + system) of each thread of `pid` by thread id, with its name, from /proc. */
function threadCpu(pid: number | undefined): Map<string, { name: string; seconds: number }> {
  const threads = new Map<string, { name: string; seconds: number }>();
  if (pid === undefined) return threads;
  const ticks = 100; // USER_HZ on Linux
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      threads.set(tid, { name, seconds: (Number(fields[11]) + Number(fields[12])) / ticks });
    } catch {
      // the thread ended meanwhile
    }
  }
  return threads;
}

/** The CPU used between two readings, by thread name (the main thread apart), most first. */
function cpuSplit(before: Map<string, { name: string; seconds: number }>, after: Map<string, { name: string; seconds: number }>, pid: number | undefined): string {
  const byName = new Map<string, number>();
  for (const [tid, now] of after) {
    const name = String(pid) === tid ? "main thread (web app)" : now.name;
    byName.set(name, (byName.get(name) ?? 0) + now.seconds - (before.get(tid)?.seconds ?? 0));
  }
  const total = [...byName.values()].reduce((a, b) => a + b, 0);
  return `${total.toFixed(1)} s in all: ${[...byName].filter(([, s]) => s >= 0.05).sort((a, b) => b[1] - a[1]).map(([name, s]) => `${name} ${s.toFixed(1)} s`).join(", ")}`;
}
