// Where a page's time goes (docs/architecture/README.md §3 bench/): a CPU profile of each target, taken
// before any change for speed, that writes down where the time and the memory go per request: `npm run bench:profile` (builds, then
// runs this on Node 24).
//
// For each target, server.ts starts as the other benches start it (bench/support.ts), with V8's
// sampling profiler on (`--cpu-prof`, written when the process exits after SIGTERM). A signed-in
// user is made through the forms; then autocannon loads the target with CONNECTIONS keep-alive
// connections for DURATION_SECONDS, and the server stops. The profile's self time is summed by
// where the code comes from (the package of its file, or V8's own entries: garbage collection,
// the idle loop, native code) and per request (profiled ms / requests answered). Targets:
// - GET /login rendered for each request (a cookie outside the shared page cache's key);
// - GET /login from the shared page cache (anonymous);
// - GET /safewindow signed in (one upstream call to the embedded consumer API, its database).
//
// The embedded reference services (identity, consumer and business APIs) run in the data thread of the same
// process; every thread writes a profile of its own, and the report sums them (jose, Kysely, PGlite's
// WebAssembly included), giving the web app's thread alone beside. Prints a Markdown report and writes
// it to bench/profile.results.md. Environment: BENCH_PROFILE_SECONDS (default 15),
// BENCH_PROFILE_CONNECTIONS (default 10).
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { root } from "../tests/integration/server-process.ts";
import { autocannon, BROWSER_ACCEPT_ENCODING, requireBuild, shippedNodeOptions, signedInUser, startBenchServer, type BenchServer } from "./support.ts";

const DURATION_SECONDS = Number(process.env.BENCH_PROFILE_SECONDS ?? 15);
const CONNECTIONS = Number(process.env.BENCH_PROFILE_CONNECTIONS ?? 10);
const START_TIMEOUT_MS = 90_000;
/** Categories shown, in this order; others are summed as "other". */
const TOP = 14;

interface Target {
  label: string;
  path: string;
  /** "rendered": a cookie outside the cache's key; "anonymous": none; "signed in": the user's. */
  who: "rendered" | "anonymous" | "signed in";
}
const targets: Target[] = [
  { label: "GET /login, rendered per request", path: "/login", who: "rendered" },
  { label: "GET /login, from the shared page cache", path: "/login", who: "anonymous" },
  { label: "GET /safewindow, signed in", path: "/safewindow", who: "signed in" },
];

/** The V8 CPU profile's shape (the parts read here). */
interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string }; hitCount?: number }[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** Where a profiled function comes from: its package, an app or service folder, or V8's own entry. */
function categoryOf({ functionName, url }: { functionName: string; url: string }): string {
  if (!url) {
    if (functionName === "(garbage collector)") return "V8: garbage collection";
    if (functionName === "(idle)") return "idle";
    if (functionName === "(program)") return "V8: compiling and the engine";
    return `native: ${functionName || "(anonymous)"}`;
  }
  const packageMatch = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (packageMatch) return packageMatch[1]!;
  if (url.startsWith("node:")) {
    // node:internal/deps/undici/undici is fetch; node:internal/streams/... the streams.
    const parts = url.slice(5).split("/");
    return `Node: ${parts[0] === "internal" ? parts.slice(0, parts[1] === "deps" ? 3 : 2).join("/") : parts[0]}`;
  }
  const local = url.replace(/^file:\/\//, "").replace(`${root}/`, "");
  if (local.startsWith("build/server/")) return "app (build/server: routes, components, entry)";
  const folder = local.split("/").slice(0, 2).join("/");
  return folder.endsWith(".ts") ? local : folder;
}

/** Self time in ms per category, from the profile's samples. */
function selfTimeByCategory(profile: CpuProfile): Map<string, number> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, number>();
  profile.samples.forEach((id, index) => {
    const node = byId.get(id);
    if (!node) return;
    const category = categoryOf(node.callFrame);
    totals.set(category, (totals.get(category) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000);
  });
  return totals;
}

requireBuild();
const results = [];
for (const target of targets) {
  const profileDir = await mkdtemp(path.join(os.tmpdir(), "bench-profile-"));
  const server = await startBenchServer({
    startTimeoutMs: START_TIMEOUT_MS,
    env: { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? shippedNodeOptions} --cpu-prof --cpu-prof-dir=${profileDir}` },
  });
  const expect: BenchServer["expect"] = server.expect;
  try {
    const { cookie } = target.who === "signed in" ? await signedInUser(server) : { cookie: "" };
    const headers: Record<string, string> = { "accept-encoding": BROWSER_ACCEPT_ENCODING };
    if (target.who === "rendered") headers.cookie = "bench=rendered";
    if (target.who === "signed in") headers.cookie = cookie;
    const check = await fetch(`${server.base}${target.path}`, { headers });
    expect(check.status === 200, `${target.label}: answered ${check.status}`);
    await check.text();
    const load = await autocannon({ url: `${server.base}${target.path}`, method: "GET", headers, connections: CONNECTIONS, duration: DURATION_SECONDS });
    expect(load.non2xx === 0 && load.errors === 0, `${target.label}: ${load.non2xx} answers other than 2xx, ${load.errors} errors`);
    const code = await server.stop(20_000);
    expect(code === 0, `${target.label}: the server exited ${code}`);
    // One profile per thread (the web app's, the data thread, each PDF worker) and per child process
    // (initdb): CPU.<date>.<time>.<pid>.<thread id>.<n>.cpuprofile. Summed; the web app's thread (the
    // server's pid, thread 0) is also reported alone.
    const files = readdirSync(profileDir).filter((name) => name.endsWith(".cpuprofile"));
    expect(files.length > 0, `${target.label}: no profile was written`);
    const totals = new Map<string, number>();
    let mainBusy = 0;
    for (const file of files) {
      const own = selfTimeByCategory(JSON.parse(readFileSync(path.join(profileDir, file), "utf8")) as CpuProfile);
      for (const [category, ms] of own) totals.set(category, (totals.get(category) ?? 0) + ms);
      const [, , , pid, threadId] = file.split(".");
      if (Number(pid) === server.child.pid && threadId === "0") mainBusy = [...own].filter(([category]) => category !== "idle").reduce((sum, [, ms]) => sum + ms, 0);
    }
    const busy = [...totals].filter(([category]) => category !== "idle").reduce((sum, [, ms]) => sum + ms, 0);
    results.push({ target, requests: load.requests.total, perSecond: load.requests.average, p99: load.latency.p99, totals, busy, mainBusy, profiles: files.length });
    console.error(`${target.label}: ${load.requests.total} requests, ${(busy / load.requests.total).toFixed(2)} ms of CPU each (whole process, setup included)`);
  } finally {
    await server.stop(20_000);
    await rm(server.dataDir, { recursive: true, force: true });
    await rm(profileDir, { recursive: true, force: true });
  }
}

// ------------------------------------------------------------ report
const version = execFileSync("git", ["describe", "--always", "--dirty"], { cwd: root, encoding: "utf8" }).trim();
const lines = [
  "# bench/profile results",
  "",
  `Run: ${new Date().toISOString()} · Node ${process.version} · ${os.cpus().length} × ${os.cpus()[0]?.model ?? "?"} · code ${version}.`,
  `server.ts as the benches start it, with \`--cpu-prof\`; autocannon ${CONNECTIONS} keep-alive connections for ${DURATION_SECONDS} s on one target per server, then SIGTERM. ` +
    "Self time of the whole process from start to exit (start, the sign-up of the signed-in target and the load), summed by the package or folder of the sampled function; 'idle' left out of the busy total. " +
    "The embedded reference services (identity authority, consumer API, business API) run in the data thread of the same process (docs/decisions/0016-services-in-a-data-thread.md): each thread writes its own profile, and the tables sum them all; the web app's thread alone is given beside.",
  "",
];
for (const { target, requests, perSecond, p99, totals, busy, mainBusy, profiles } of results) {
  const sorted = [...totals].filter(([category]) => category !== "idle").sort((a, b) => b[1] - a[1]);
  const shown = sorted.slice(0, TOP);
  const other = sorted.slice(TOP).reduce((sum, [, ms]) => sum + ms, 0);
  lines.push(
    `## ${target.label}`,
    "",
    `${requests} requests (${perSecond.toFixed(0)} req/s, p99 ${p99} ms); busy CPU ${(busy / 1000).toFixed(1)} s over ${profiles} threads and processes, ${(busy / requests).toFixed(2)} ms per request; of which the web app's thread ${(mainBusy / 1000).toFixed(1)} s, ${(mainBusy / requests).toFixed(2)} ms per request.`,
    "",
    "| where | self ms | share of busy | ms per request |",
    "|---|---|---|---|",
    ...shown.map(([category, ms]) => `| ${category} | ${ms.toFixed(0)} | ${((100 * ms) / busy).toFixed(1)}% | ${(ms / requests).toFixed(3)} |`),
    `| other (${sorted.length - shown.length} places) | ${other.toFixed(0)} | ${((100 * other) / busy).toFixed(1)}% | ${(other / requests).toFixed(3)} |`,
    "",
  );
}
const text = lines.join("\n");
console.log(text);
await writeFile(new URL("./profile.results.md", import.meta.url), text);
