// Allocation bench: `npm run bench:alloc` (builds, then runs this on Node 24); `node bench/alloc.ts --quick`
// for a smoke run (300 requests per page). Like bench/cpu.ts it serves what `npm run build` last
// wrote to build/ (BUILD_DIR) and builds nothing but bench/bare.
//
// What it measures: what the web app's main thread allocates per request, and the garbage
// collections that follow, for the pages of the CPU gates (bench/support.ts gatePages: bench/bare's
// /login, /login rendered for a returning visitor, signed-in /safewindow, /mytests and /people).
// CPU per request varies by about a quarter between runs on a shared machine; bytes allocated do
// not, so a change meant to lower garbage collection is read here first, then in bench:cpu.
//
// How: server.ts and bench/bare as bench/cpu.ts starts them (bench/support.ts startBenchServer,
// `npm start`'s options), each with V8's inspector on a free loopback port. Per page: WARMUP_REQUESTS
// unmeasured; then, through the inspector protocol, a PerformanceObserver of 'gc' entries is set up
// in the main thread and V8's sampling heap profiler started (HeapProfiler.startSampling, one sample
// per SAMPLING_INTERVAL bytes on average, objects already collected by a scavenge or a mark-compact
// kept); REQUESTS requests at CONNECTIONS keep-alive connections (autocannon, Accept-Encoding as
// Chromium sends it); the profiler stopped and the observer read. V8 scales each sample to the bytes
// it stands for, so their sum over the requests is the bytes allocated per request. Each sample is
// charged to the nearest frame with a source: its package (node_modules), Node's own modules, or
// the app's server build.
//
// Caveats:
// - The main thread only: the data thread is an isolate of its own (bench:cpu gives its CPU).
// - A GC's pause is the wall time the main thread stood still for it, as Node reports it (a scavenge
//   is shared with V8's helper threads, whose CPU bench:cpu counts as "GC").
// - The sampling profiler costs some CPU: this bench's latencies are not to be compared.
// Writes bench/alloc.results.md (not with --quick).
import { execFileSync } from "node:child_process";
import { statSync } from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { root } from "../tests/integration/server-process.ts";
import { autocannonFor, BROWSER_ACCEPT_ENCODING, codeVersion, freePort, gatePages, requireBuild, shippedNodeOptions, startBenchServer, type BenchServer, type GatePage } from "./support.ts";

const QUICK = process.argv.includes("--quick");
const REQUESTS = QUICK ? 300 : 2000;
const WARMUP_REQUESTS = QUICK ? 100 : 300;
const CONNECTIONS = 5;
/** Bytes per sample on average (V8's default is 32 KiB): about 100,000 samples over 2,000 signed-in requests. */
const SAMPLING_INTERVAL = 16 * 1024;
const START_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 20_000;
/** Packages and functions listed per page. */
const TOP = 8;


/** One node of V8's sampling heap profile (the Chrome DevTools protocol's SamplingHeapProfileNode). */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children: ProfileNode[];
}
interface HeapProfile {
  head: ProfileNode;
  samples: { size: number; nodeId: number }[];
}

/** A DevTools protocol session with a server's main thread, over the inspector's WebSocket. */
interface Inspector {
  send: <T = unknown>(method: string, params?: Record<string, unknown>) => Promise<T>;
  close: () => void;
}

/** Connects to the inspector listening on `port` (the first target: the main thread). */
async function inspect(port: number): Promise<Inspector> {
  const [target] = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
  if (!target) throw new Error(`no inspector target on port ${port}`);
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve, { once: true });
    socket.addEventListener("error", reject, { once: true });
  });
  let lastId = 0;
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
    const waiting = message.id === undefined ? undefined : pending.get(message.id);
    if (!waiting) return;
    pending.delete(message.id!);
    if (message.error) waiting.reject(new Error(message.error.message));
    else waiting.resolve(message.result);
  });
  return {
    send: <T,>(method: string, params: Record<string, unknown> = {}) =>
      new Promise<T>((resolve, reject) => {
        const id = ++lastId;
        pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
        socket.send(JSON.stringify({ id, method, params }));
      }),
    close: () => socket.close(),
  };
}

/** Evaluated in the server's main thread: counts its GCs by kind (perf_hooks' 'gc' entries) from now on. */
const startGcCount = `(() => {
  globalThis.__benchGc?.observer.disconnect();
  const { PerformanceObserver, constants } = process.getBuiltinModule("node:perf_hooks");
  const count = { minor: 0, major: 0, other: 0, pauseMs: 0 };
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = entry.detail.kind;
      if (kind === constants.NODE_PERFORMANCE_GC_MINOR) count.minor++;
      else if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) count.major++;
      else count.other++;
      count.pauseMs += entry.duration;
    }
  });
  observer.observe({ entryTypes: ["gc"] });
  globalThis.__benchGc = { observer, count };
  return true;
})()`;
/** The count so far, as JSON, after the observer's last entries are delivered. */
const readGcCount = `new Promise((resolve) => setTimeout(() => resolve(JSON.stringify(globalThis.__benchGc.count)), 100))`;

/** Where a frame's code comes from: its package, Node's own module, or the app's server build. */
function sourceOf(url: string): string | undefined {
  if (!url) return undefined;
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (inPackage) return inPackage[1]!;
  if (url.startsWith("node:")) return `Node: ${url.replace(/^node:(internal\/)?/, "").split("/")[0]}`;
  if (/\/server\/index\.js$/.test(url)) return "app (server build)";
  return path.relative(root, url.replace(/^file:\/\//, ""));
}

/** A function's name and place, as the tables show it. */
function functionOf(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  // In a package, its name and the file's last two path parts: react-router's files share line numbers.
  const file = url && /node_modules\//.test(url) ? `${sourceOf(url)} …/${url.split("/").slice(-2).join("/")}` : url && sourceOf(url);
  const where = url ? `${file}:${lineNumber + 1}` : "native";
  return `${functionName || "(anonymous)"} (${where})`;
}

/** Bytes per request by source (nearest frame with one) and by allocating function. */
function attribute(profile: HeapProfile, requests: number): { total: number; bySource: [string, number][]; byFunction: [string, number][] } {
  const nodes = new Map<number, { node: ProfileNode; parent?: number }>();
  const walk = (node: ProfileNode, parent?: number) => {
    nodes.set(node.id, { node, parent });
    for (const child of node.children) walk(child, node.id);
  };
  walk(profile.head);
  const bySource = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let total = 0;
  for (const sample of profile.samples) {
    let at = nodes.get(sample.nodeId);
    if (!at) continue;
    total += sample.size;
    byFunction.set(functionOf(at.node), (byFunction.get(functionOf(at.node)) ?? 0) + sample.size);
    while (at && !at.node.callFrame.url) at = at.parent === undefined ? undefined : nodes.get(at.parent);
    const source = at ? sourceOf(at.node.callFrame.url)! : "V8 and native code";
    bySource.set(source, (bySource.get(source) ?? 0) + sample.size);
  }
  const perRequest = (entries: Map<string, number>) => [...entries].map(([key, bytes]): [string, number] => [key, bytes / requests]).sort((a, b) => b[1] - a[1]);
  return { total: total / requests, bySource: perRequest(bySource), byFunction: perRequest(byFunction) };
}

interface Measured {
  page: GatePage;
  requests: number;
  bytes: ReturnType<typeof attribute>;
  gc: { minor: number; major: number; other: number; pauseMs: number };
}

const buildEntry = requireBuild();
const bareDir = path.join(root, "bench", "bare");
execFileSync(process.execPath, [path.join(root, "node_modules", "@react-router", "dev", "bin.cjs"), "build"], { cwd: bareDir, stdio: "ignore" });
const inspectorPorts = new Map<BenchServer, number>();
const startInspected = async (options: { script?: string; readyPath?: string }) => {
  const port = await freePort();
  const server = await startBenchServer({ startTimeoutMs: START_TIMEOUT_MS, ...options, env: { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? shippedNodeOptions} --inspect=127.0.0.1:${port}` } });
  inspectorPorts.set(server, port);
  return server;
};
const server = await startInspected({});
const bare = await startInspected({ script: path.join("bench", "bare", "server.ts"), readyPath: "/login" });

try {
  const pages = await gatePages(server, bare);
  const expect: BenchServer["expect"] = server.expect;
  const measured: Measured[] = [];
  for (const page of pages) {
    const load = async (amount: number) => {
      const result = await autocannonFor({ url: `${page.target.base}${page.path}`, method: "GET", headers: { ...page.headers, "accept-encoding": BROWSER_ACCEPT_ENCODING }, connections: CONNECTIONS, amount });
      const failed = result.non2xx + result.errors + result.timeouts;
      expect(failed === 0, `${page.label}: ${result.non2xx} answers other than 2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
      return result.requests.total;
    };
    await load(WARMUP_REQUESTS);
    const inspector = await inspect(inspectorPorts.get(page.target)!);
    try {
      await inspector.send("Runtime.evaluate", { expression: startGcCount, returnByValue: true });
      await inspector.send("HeapProfiler.enable");
      await inspector.send("HeapProfiler.startSampling", { samplingInterval: SAMPLING_INTERVAL, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
      const requests = await load(REQUESTS);
      const { profile } = await inspector.send<{ profile: HeapProfile }>("HeapProfiler.stopSampling");
      const counted = await inspector.send<{ result: { value: string } }>("Runtime.evaluate", { expression: readGcCount, awaitPromise: true, returnByValue: true });
      measured.push({ page, requests, bytes: attribute(profile, requests), gc: JSON.parse(counted.result.value) as Measured["gc"] });
    } finally {
      inspector.close();
    }
    const last = measured.at(-1)!;
    console.log(`${page.label}: ${(last.bytes.total / 1024).toFixed(0)} KiB per request, ${last.gc.minor} scavenges and ${last.gc.major} mark-compacts over ${last.requests} requests`);
  }

  // ------------------------------------------------------------ report
  const kib = (bytes: number) => (bytes / 1024).toFixed(1);
  const bareRow = measured[0]!;
  const commit = codeVersion();
  const lines = [
    "# bench/alloc results",
    "",
    `Run: ${new Date().toISOString()} · Node ${process.version} · ${os.cpus().length} × ${os.cpus()[0]?.model ?? "unknown CPU"} · ${os.platform()} ${os.release()}`,
    `Code: ${commit}; ${path.relative(root, path.dirname(path.dirname(buildEntry)))}/ built ${statSync(buildEntry).mtime.toISOString()}.`,
    `server.ts and bench/bare as bench/cpu.ts starts them (NODE_OPTIONS="${process.env.NODE_OPTIONS ?? shippedNodeOptions}" and V8's inspector), the pages and cookies of bench/cpu.ts. Per page: ${WARMUP_REQUESTS} requests unmeasured, then ${REQUESTS} requests at ${CONNECTIONS} keep-alive connections with V8's sampling heap profiler on the main thread (a sample per ${SAMPLING_INTERVAL / 1024} KiB on average, collected objects kept) and its GCs counted.`,
    "",
    "## The main thread per request",
    "",
    "KiB allocated per request (sampled, scaled by V8); GCs over the requests; pause: the main thread's wall time in GC per request.",
    "",
    "| page | KiB allocated | vs bare | scavenges per 100 requests | mark-compacts per 1,000 requests | GC pause ms |",
    "|---|---|---|---|---|---|",
    ...measured.map(({ page, requests, bytes, gc }) => `| ${page.label} | ${kib(bytes.total)} | ${(bytes.total / bareRow.bytes.total).toFixed(2)}x | ${((100 * gc.minor) / requests).toFixed(1)} | ${((1000 * gc.major) / requests).toFixed(1)} | ${(gc.pauseMs / requests).toFixed(3)} |`),
    "",
    `## Where it is allocated (KiB per request, top ${TOP})`,
    "",
    ...measured.flatMap(({ page, bytes }) => [
      `### ${page.label}`,
      "",
      `By source (the nearest frame with one): ${bytes.bySource.slice(0, TOP).map(([source, b]) => `${source} ${kib(b)}`).join(", ")}.`,
      "",
      "| allocating function | KiB | share |",
      "|---|---|---|",
      ...bytes.byFunction.slice(0, TOP).map(([name, b]) => `| ${name.replaceAll("|", "\\|")} | ${kib(b)} | ${((100 * b) / bytes.total).toFixed(1)}% |`),
      "",
    ]),
  ];
  const report = lines.join("\n");
  console.log(`\n${report}`);
  if (!QUICK) await writeFile(path.join(root, "bench", "alloc.results.md"), report);
} finally {
  for (const target of [server, bare]) {
    await target.stop(STOP_TIMEOUT_MS);
    await rm(target.dataDir, { recursive: true, force: true }).catch(() => {});
  }
}
