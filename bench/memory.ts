// Memory bench (bench/README.md "Memory after load"): `npm run bench:memory` (builds, then runs this on Node 24).
// Where the whole server's resident memory goes, part by part, at rest and after load.
//
// Starts server.ts as bench/support.ts does (as `npm start` runs it: the same NODE_OPTIONS and
// environment, a fresh DATA_DIR), with bench/memory-probe.ts loaded into every thread (`--import`),
// which writes each thread's V8 heap and the size of its WebAssembly memories once a second.
// Reads, 15 s after the start with nothing asked ("at rest"), and again right after the load:
// - VmRSS of the whole server (/proc/PID/status, what bench/pages.ts gates on);
// - per thread (the web app's, the data thread, each PDF worker): V8's heap (total, used,
//   resident) and its WebAssembly memories (PGlite's, pdf.js's), from the probe;
// - /proc/PID/smaps split by kind of mapping: files (node itself, native add-ons), WebAssembly
//   memories (the anonymous mappings of the sizes the probe reports, or reserved larger than 4 GiB),
//   glibc's malloc heaps (the main arena's [heap] and the 64 MiB thread arenas), and the rest of the
//   anonymous memory (V8's heap pages, thread stacks, mmap'd allocations); the largest mappings.
// The load: a user signed up and signed in through the forms with one upload (bench/support.ts
// signedInUser, which starts the PDF workers), then BENCH_LOAD_SECONDS (default 15) of each of
// signed-in /safewindow, /mytests, /people and a rendered /login at BENCH_CONNECTIONS (default 50).
// A third reading 30 s after the load: the PDF workers have stopped (PDF_WORKER_IDLE_SECONDS, 10; they
// stop during the load already, 10 s after the upload) and V8 has given their heaps back (about 10 s).
// Takes about 3 minutes. Run it as the other benches (bench/README.md).
// Prints a Markdown report and writes it to bench/memory.results.md.
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { root } from "../tests/integration/server-process.ts";
import { autocannon, BROWSER_ACCEPT_ENCODING, codeVersion, mib, requireBuild, serverEnvironment, shippedNodeOptions, signedInUser, startBenchServer, type BenchServer } from "./support.ts";

const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 15);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SETTLE_SECONDS = 15;
/** The default PDF_WORKER_IDLE_SECONDS (10, app/server/config.server.ts) and then some: the PDF workers have stopped, and V8 gave their heaps back (about 10 s). */
const PDF_IDLE_WAIT_SECONDS = 30;

interface ThreadReport {
  at: number;
  thread: string;
  threadId: number;
  heapTotal: number;
  heapUsed: number;
  heapPhysical: number;
  heapLimit: number;
  mallocedByV8: number;
  external: number;
  wasmBytes: number;
}

requireBuild();
const loadAtStart = os.loadavg();
const probeDir = await mkdtemp(path.join(os.tmpdir(), "memory-probe-"));
const nodeOptions = `${process.env.NODE_OPTIONS ?? shippedNodeOptions} --import=${path.join(root, "bench", "memory-probe.ts")}`;
const server = await startBenchServer({ startTimeoutMs: 90_000, env: { NODE_OPTIONS: nodeOptions, MEMORY_PROBE_DIR: probeDir } });
const pid = server.child.pid!;
const expect: BenchServer["expect"] = server.expect;

/** The probe's reports of the threads alive now (written in the last 3 s). */
async function threads(): Promise<ThreadReport[]> {
  const reports: ThreadReport[] = [];
  for (const file of await readdir(probeDir)) {
    const report = JSON.parse(await readFile(path.join(probeDir, file), "utf8").catch(() => "null")) as ThreadReport | null;
    if (report && Date.now() - report.at < 3000) reports.push(report);
  }
  return reports.sort((a, b) => a.threadId - b.threadId);
}

interface Mapping {
  start: bigint;
  end: bigint;
  perms: string;
  name: string;
  size: number;
  rss: number;
  anonymous: number;
}

/** /proc/PID/smaps, every mapping with its size, Rss and Anonymous (bytes). */
async function smaps(): Promise<Mapping[]> {
  const text = await readFile(`/proc/${pid}/smaps`, "utf8");
  const mappings: Mapping[] = [];
  for (const line of text.split("\n")) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      mappings.push({ start: BigInt(`0x${head[1]}`), end: BigInt(`0x${head[2]}`), perms: head[3]!, name: head[4]!, size: 0, rss: 0, anonymous: 0 });
      continue;
    }
    const field = /^(Size|Rss|Anonymous):\s+(\d+) kB/.exec(line);
    const current = mappings.at(-1);
    if (field && current) current[field[1]!.toLowerCase() as "size" | "rss" | "anonymous"] = Number(field[2]) * 1024;
  }
  return mappings;
}

const ARENA = 64n * 2n ** 20n;
/** Resident bytes of each kind of mapping, and the largest mappings. */
function byKind(mappings: Mapping[], wasmSizes: Set<number>) {
  const kinds = { files: 0, wasm: 0, mallocMain: 0, mallocArenas: 0, arenaCount: 0, otherAnonymous: 0 };
  for (const [i, m] of mappings.entries()) {
    if (m.name.startsWith("/")) kinds.files += m.rss;
    else if (m.name === "[heap]") kinds.mallocMain += m.rss;
    else if (m.name === "" && (m.size >= 4 * 2 ** 30 || wasmSizes.has(m.size))) kinds.wasm += m.rss;
    else if (m.name === "" && m.start % ARENA === 0n && (m.end - m.start === ARENA || (mappings[i + 1]?.start === m.end && mappings[i + 1]!.perms.startsWith("---") && mappings[i + 1]!.end - m.start === ARENA))) {
      kinds.mallocArenas += m.rss;
      kinds.arenaCount += 1;
    } else kinds.otherAnonymous += m.rss;
  }
  const largest = [...mappings].sort((a, b) => b.rss - a.rss).slice(0, 10);
  return { kinds, largest };
}

interface Snapshot {
  label: string;
  rss: number | undefined;
  threads: ThreadReport[];
  kinds: ReturnType<typeof byKind>["kinds"];
  largest: Mapping[];
}
async function snapshot(label: string): Promise<Snapshot> {
  await new Promise((resolve) => setTimeout(resolve, 1500)); // a fresh report from every thread
  const reports = await threads();
  const { kinds, largest } = byKind(await smaps(), new Set(reports.map((t) => t.wasmBytes).filter((n) => n > 0)));
  return { label, rss: server.rss(), threads: reports, kinds, largest };
}

const snapshots: Snapshot[] = [];
let loadAtEnd: number[] = [];
try {
  await new Promise((resolve) => setTimeout(resolve, SETTLE_SECONDS * 1000));
  snapshots.push(await snapshot(`at rest (${SETTLE_SECONDS} s after start)`));
  const { cookie } = await signedInUser(server);
  for (const [page, headers] of [["/safewindow", { cookie }], ["/mytests", { cookie }], ["/people", { cookie }], ["/login", { cookie: "bench=rendered" }]] as const) {
    const result = await autocannon({ url: `${server.base}${page}`, headers: { ...headers, "accept-encoding": BROWSER_ACCEPT_ENCODING }, connections: CONNECTIONS, duration: LOAD_SECONDS });
    expect(result.non2xx + result.errors + result.timeouts === 0, `${page}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
    console.error(`${page}: ${result.requests.average.toFixed(0)} req/s, p99 ${result.latency.p99} ms; RSS ${mib(server.rss())}`);
  }
  snapshots.push(await snapshot("after load"));
  loadAtEnd = os.loadavg();
  await new Promise((resolve) => setTimeout(resolve, PDF_IDLE_WAIT_SECONDS * 1000));
  snapshots.push(await snapshot(`${PDF_IDLE_WAIT_SECONDS} s after the load (the PDF workers stopped when idle)`));
} finally {
  await server.stop(20_000);
  await rm(probeDir, { recursive: true, force: true });
  await rm(server.dataDir, { recursive: true, force: true });
}

const row = (cells: (string | number)[]) => `| ${cells.join(" | ")} |`;
const commit = codeVersion();
const env = serverEnvironment();
const lines = [
  "# bench/memory results",
  "",
  `Run: ${new Date().toISOString()} · Node ${process.version} · ${os.cpus().length} × ${os.cpus()[0]?.model.split(" ").slice(0, 2).join(" ")} · load average at start ${loadAtStart.map((n) => n.toFixed(2)).join(" / ")}, at end ${loadAtEnd.map((n) => n.toFixed(2)).join(" / ")}`,
  `Code: ${commit}. server.ts as bench/support.ts starts it: NODE_OPTIONS="${process.env.NODE_OPTIONS ?? shippedNodeOptions}" (and the probe's --import), ${Object.entries(env).map(([k, v]) => `${k}=${v}`).join(" ") || "no other variables"}. Load: one user made through the forms (one upload), then ${LOAD_SECONDS} s each of signed-in /safewindow, /mytests, /people and a rendered /login at ${CONNECTIONS} connections.`,
  "",
];
for (const s of snapshots) {
  lines.push(`## ${s.label}: VmRSS ${mib(s.rss)} (${s.rss === undefined ? "?" : (s.rss / 1e6).toFixed(0)} MB)`, "");
  lines.push(row(["thread", "V8 heap total", "V8 heap used", "V8 heap resident", "V8 malloced", "WebAssembly memory"]), row(["---", "---", "---", "---", "---", "---"]));
  for (const t of s.threads) lines.push(row([t.thread, mib(t.heapTotal), mib(t.heapUsed), mib(t.heapPhysical), mib(t.mallocedByV8), mib(t.wasmBytes)]));
  const k = s.kinds;
  lines.push("", row(["mappings (/proc/PID/smaps, resident)", "MiB"]), row(["---", "---"]));
  lines.push(row(["files (node, native add-ons, shared libraries)", mib(k.files)]), row(["WebAssembly memories (PGlite's, pdf.js's)", mib(k.wasm)]), row(["malloc: main arena ([heap])", mib(k.mallocMain)]), row([`malloc: thread arenas (${k.arenaCount} of 64 MiB)`, mib(k.mallocArenas)]), row(["other anonymous (V8 heap pages, stacks, mmap'd blocks)", mib(k.otherAnonymous)]));
  lines.push("", `Largest mappings: ${s.largest.map((m) => `${mib(m.rss)} ${m.name || `[anon ${mib(m.size)}]`}`).join(", ")}.`, "");
}
const report = lines.join("\n");
console.log(report);
await writeFile(path.join(root, "bench", "memory.results.md"), `${report}\n`);
