// CPU bench: `npm run bench:cpu` (builds, then runs this on Node 24); `node bench/cpu.ts --quick` for a
// smoke run (300 requests per page, one round). The script itself builds nothing but bench/bare: it
// serves whatever `npm run build` last wrote to build/ (BUILD_DIR), and stops with a message when
// there is none.
//
// What it measures: milliseconds of CPU (user + system) per request, thread by thread, for the bare
// React Router app's /login (bench/bare) and SafeWindow's /login rendered for a returning visitor,
// signed-in /safewindow, /mytests and /people. Each figure is split into the web app's main thread,
// the data thread (the three reference services and the session store on PGlite,
// docs/decisions/0016-services-in-a-data-thread.md), V8's platform worker threads ("GC") and every
// other thread (libuv's pool, Node's helpers, threads that ended during the window); "all" is the
// whole process. Beside it, requests/s and p99 of the same runs, each as a ratio to the bare page.
//
// How: server.ts as `npm start` runs it (bench/support.ts startBenchServer: NODE_ENV=production,
// NODE_OPTIONS, GLIBC_TUNABLES and NODE_COMPILE_CACHE of package.json's config, a fresh temporary
// DATA_DIR, a free port; LOG_LEVEL=warn and AUTH_RATE_LIMIT raised as in every bench), and bench/bare
// built and started beside it the way bench/pages.ts does. Through the app's forms (no JavaScript):
// the signed-in person of bench/support.ts signedInUser (account, profile, one uploaded Harborview
// Labs report: an open Strong window, one result), two more people made the same way whom that
// person follows, each request confirmed, so /people lists two people with their windows. The
// returning visitor's cookie is what that person's browser keeps once signed out: the remembered
// e-mail address (sw_username, signed) and the cookie-banner answer; that /login is rendered for the
// request (it prefills the address), never the shared page cache's copy
// (docs/decisions/0014-shared-page-cache.md), which the bench checks by the answer's CSP nonce.
// Every page is first checked for its status and text. Then ROUNDS rounds, each page in turn:
// WARMUP_REQUESTS unmeasured, then every thread's utime + stime read from
// /proc/<pid>/task/<tid>/stat (with its name from .../comm) and the process's from /proc/<pid>/stat,
// REQUESTS requests at CONNECTIONS keep-alive connections (autocannon, Accept-Encoding as Chromium
// sends it), read again; the difference, clock ticks (`getconf CLK_TCK`) turned into ms, divided by
// the requests. Threads are grouped by tid and name as Node 24 names them on Linux: the main thread
// is tid == pid ("MainThread"), the data thread is the Worker named "data" (Node gives a Worker's
// thread its name), GC is "V8Worker" (Node's platform workers, shared by every isolate of the
// process). Each cell of the tables is the median of the rounds on its own (single rounds vary by
// about a quarter); "all" is the median of the rounds' totals, so a row's parts need not add up to it.
// 'other' is also split by thread name, and the per-round figures follow the tables. Before the rounds, the idle CPU of each group is read over
// IDLE_SECONDS with nothing asked, to show the background work counted in every window.
//
// Caveats:
// - Clock ticks are 10 ms at CLK_TCK 100: with 2,000 requests a cell resolves 0.005 ms per request.
// - "GC" is the V8 platform workers' CPU: concurrent marking, parallel scavenging and sweeping for
//   both isolates, but also concurrent JIT compilation. The GC work done on the main or data thread
//   itself (a scavenge's own share, the final pauses) is in those threads' columns: "GC" is a floor
//   of garbage collection's cost, and bench:profile splits it by function.
// - Background work falls into every window, by time rather than by request, so more of it into a
//   slower page's: timers, the data thread's housekeeping, and malloc_trim every 5 s
//   (lib/malloc-trim.ts), which koffi runs on libuv's pool, so in "other" beside the compression
//   middleware's gzip. The idle line gives its rate.
// - autocannon runs in this process on the same machine: the server's CPU per request is counted on
//   the server's threads only, but a shared core (caches, the scheduler) inflates it somewhat, and
//   req/s and p99 are a floor, to read as ratios between rows of the same run.
// - LOG_LEVEL=warn as in every bench: `npm start`'s default, info, also writes a log line per request.
// - The bare app is a process of its own with no data thread; its "data" cell is empty.
// Writes bench/cpu.results.md (not with --quick).
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { root } from "../tests/integration/server-process.ts";
import {
  autocannonFor,
  BROWSER_ACCEPT_ENCODING,
  codeVersion,
  gatePages,
  requireBuild,
  serverEnvironment,
  shippedNodeOptions,
  startBenchServer,
  type AutocannonResult,
  type BenchServer,
  type GatePage,
} from "./support.ts";

const QUICK = process.argv.includes("--quick");
const REQUESTS = QUICK ? 300 : 2000;
const WARMUP_REQUESTS = QUICK ? 100 : 300;
const ROUNDS = QUICK ? 1 : 3;
const CONNECTIONS = 5;
const IDLE_SECONDS = QUICK ? 2 : 10;
/** A new PGlite data directory (~5 s) and the build's import; more on a busy machine. */
const START_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 20_000;
/** USER_HZ, the unit of utime and stime in /proc. */
const TICKS_PER_SECOND = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;

/** Ticks by which the process's own figure may run ahead of its threads' read just before it. */
const SKEW_TICKS = 3;


type Group = "main" | "data" | "gc" | "other";
const GROUPS: Group[] = ["main", "data", "gc", "other"];
const GROUP_LABELS: Record<Group, string> = { main: "main", data: "data", gc: "GC", other: "other" };

/** One reading of a process: its own utime + stime (threads that ended included) and each live thread's, in ticks. */
interface Reading {
  processTicks: number;
  threads: Map<number, { name: string; ticks: number }>;
}

/** utime + stime (ticks) of a /proc stat line: fields 14 and 15, counted after the ")" that ends the name. */
function ticksOf(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

/** Reads the process and every thread of `pid` from /proc (a thread that ends while read is left out). */
function read(pid: number): Reading {
  const threads = new Map<number, { name: string; ticks: number }>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, "utf8").trim();
      threads.set(Number(tid), { name, ticks: ticksOf(readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8")) });
    } catch {
      // it ended meanwhile: the process's own figure keeps its time
    }
  }
  return { processTicks: ticksOf(readFileSync(`/proc/${pid}/stat`, "utf8")), threads };
}

/** The group of a thread: the main thread by its id, the others by the name Node 24 gives them. */
function groupOf(pid: number, tid: number, name: string): Group {
  if (tid === pid) return "main";
  if (name === "data") return "data";
  if (/^V8.*Worke/.test(name)) return "gc";
  return "other";
}

/** CPU ms between two readings. */
interface Cpu extends Record<Group | "all" | "ended", number> {
  /** `other` by thread name, "(ended)" for threads that ended in between. */
  otherByName: Map<string, number>;
}

/**
 * CPU ms by group between two readings; `ended` is the time of threads that ended in between (also in
 * `other`): the process's own figure (which keeps an ended thread's time) less the live threads'.
 * The process is read a moment after its threads, so a tick or two in between would count as ended:
 * unless a thread read before is gone, or the difference is SKEW_TICKS or more (a thread that started
 * and ended in between), `all` is the live threads' sum.
 */
function cpuBetween(pid: number, before: Reading, after: Reading): Cpu {
  const ms = (ticks: number) => (ticks * 1000) / TICKS_PER_SECOND;
  const cpu: Cpu = { main: 0, data: 0, gc: 0, other: 0, all: ms(after.processTicks - before.processTicks), ended: 0, otherByName: new Map() };
  let live = 0;
  for (const [tid, now] of after.threads) {
    const spent = ms(now.ticks - (before.threads.get(tid)?.ticks ?? 0));
    const group = groupOf(pid, tid, now.name);
    cpu[group] += spent;
    if (group === "other") cpu.otherByName.set(now.name, (cpu.otherByName.get(now.name) ?? 0) + spent);
    live += spent;
  }
  const someEnded = [...before.threads.keys()].some((tid) => !after.threads.has(tid)) || cpu.all - live >= ms(SKEW_TICKS);
  cpu.ended = someEnded ? Math.max(0, cpu.all - live) : 0;
  cpu.all = live + cpu.ended;
  cpu.other += cpu.ended;
  if (cpu.ended > 0) cpu.otherByName.set("(ended)", cpu.ended);
  return cpu;
}

/** "libuv-worker 0.85, SignalInspector 0.01": the names that spent anything, most first, `scale` applied. */
function byNameLine(byName: Map<string, number>, scale: number, digits: number): string {
  const spent = [...byName].filter(([, ms]) => ms > 0).sort((a, b) => b[1] - a[1]);
  return spent.map(([name, ms]) => `${name} ${(ms * scale).toFixed(digits)}`).join(", ") || "nothing";
}

/** The thread names of a process by group, with how many threads bear each ("4 × V8Worker"). */
function threadNames(pid: number, reading: Reading): Record<Group, string> {
  const names: Record<Group, Map<string, number>> = { main: new Map(), data: new Map(), gc: new Map(), other: new Map() };
  for (const [tid, { name }] of reading.threads) {
    const group = names[groupOf(pid, tid, name)];
    group.set(name, (group.get(name) ?? 0) + 1);
  }
  const list = (m: Map<string, number>) => [...m].sort(([a], [b]) => a.localeCompare(b)).map(([name, n]) => (n > 1 ? `${n} × ${name}` : name)).join(", ") || "none";
  return { main: list(names.main), data: list(names.data), gc: list(names.gc), other: list(names.other) };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const buildEntry = requireBuild();
const loadAtStart = os.loadavg();
// ------------------------------------------------------------ start: bench/bare built as bench/pages.ts builds it, then both servers
const bareDir = path.join(root, "bench", "bare");
execFileSync(process.execPath, [path.join(root, "node_modules", "@react-router", "dev", "bin.cjs"), "build"], { cwd: bareDir, stdio: "ignore" });
const server = await startBenchServer({ startTimeoutMs: START_TIMEOUT_MS });
const expect: BenchServer["expect"] = server.expect;
const bare = await startBenchServer({ startTimeoutMs: START_TIMEOUT_MS, script: path.join("bench", "bare", "server.ts"), readyPath: "/login" });

try {
  // ------------------------------------------------------------ the pages, each checked once (bench/support.ts gatePages)
  const pages = await gatePages(server, bare);

  // ------------------------------------------------------------ load
  const pidOf = (target: BenchServer) => target.child.pid!;
  const load = async (page: GatePage, amount: number): Promise<{ result: AutocannonResult; seconds: number }> => {
    const startedAt = performance.now();
    const result = await autocannonFor({ url: `${page.target.base}${page.path}`, method: "GET", headers: { ...page.headers, "accept-encoding": BROWSER_ACCEPT_ENCODING }, connections: CONNECTIONS, amount });
    const seconds = (performance.now() - startedAt) / 1000;
    const failed = result.non2xx + result.errors + result.timeouts;
    expect(failed === 0, `${page.label}: ${result.non2xx} answers other than 2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
    return { result, seconds };
  };
  // Warm every page once before the idle reading, so that JIT and caches are past their first requests.
  for (const page of pages) await load(page, WARMUP_REQUESTS);

  const idleBefore = { server: read(pidOf(server)), bare: read(pidOf(bare)) };
  await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
  const idle = { server: cpuBetween(pidOf(server), idleBefore.server, read(pidOf(server))), bare: cpuBetween(pidOf(bare), idleBefore.bare, read(pidOf(bare))) };

  interface Run {
    /** CPU ms per request. */
    cpu: Cpu;
    requests: number;
    rps: number;
    p99: number;
  }
  const runs = new Map<GatePage, Run[]>(pages.map((page) => [page, []]));
  const lastReading = new Map<BenchServer, Reading>();
  for (let round = 1; round <= ROUNDS; round++) {
    for (const page of pages) {
      await load(page, WARMUP_REQUESTS);
      const pid = pidOf(page.target);
      const before = read(pid);
      const { result, seconds } = await load(page, REQUESTS);
      const after = read(pid);
      lastReading.set(page.target, after);
      const total = result.requests.total;
      const cpu = cpuBetween(pid, before, after);
      const perRequest: Cpu = {
        ...(Object.fromEntries([...GROUPS, "all", "ended"].map((group) => [group, cpu[group as keyof Cpu] as number / total])) as Record<Group | "all" | "ended", number>),
        otherByName: new Map([...cpu.otherByName].map(([name, ms]) => [name, ms / total])),
      };
      runs.get(page)!.push({ cpu: perRequest, requests: total, rps: total / seconds, p99: result.latency.p99 });
      console.error(
        `round ${round}, ${page.label}: ${total} requests, ${(total / seconds).toFixed(0)} req/s, p99 ${result.latency.p99} ms; CPU ms per request: ` +
          [...GROUPS, "all" as const].map((group) => `${group === "all" ? "all" : GROUP_LABELS[group]} ${perRequest[group].toFixed(2)}`).join(", "),
      );
    }
  }

  // ------------------------------------------------------------ report
  const medians = pages.map((page) => {
    const pageRuns = runs.get(page)!;
    const cell = (pick: (run: Run) => number) => median(pageRuns.map(pick));
    const names = new Set(pageRuns.flatMap((run) => [...run.cpu.otherByName.keys()]));
    return {
      page,
      otherByName: new Map([...names].map((name) => [name, cell((run) => run.cpu.otherByName.get(name) ?? 0)])),
      cpu: Object.fromEntries([...GROUPS, "all" as const].map((group) => [group, cell((run) => run.cpu[group])])) as Record<Group | "all", number>,
      rps: cell((run) => run.rps),
      p99: cell((run) => run.p99),
    };
  });
  const bareRow = medians[0]!;
  const ms = (value: number) => value.toFixed(2);
  const ratio = (value: number, of: number) => (of > 0 ? `${(value / of).toFixed(2)}x` : "-");
  const idleLine = (cpu: Cpu) =>
    `${[...GROUPS, "all" as const].map((group) => `${group === "all" ? "all" : GROUP_LABELS[group]} ${(cpu[group] / IDLE_SECONDS).toFixed(1)}`).join(", ")} ms/s (other: ${byNameLine(cpu.otherByName, 1 / IDLE_SECONDS, 1)})`;
  const serverNames = threadNames(pidOf(server), lastReading.get(server)!);
  const bareNames = threadNames(pidOf(bare), lastReading.get(bare)!);
  const commit = codeVersion();
  const lines = [
    "# bench/cpu results",
    "",
    `Run: ${new Date().toISOString()} · Node ${process.version} · ${os.cpus().length} × ${os.cpus()[0]?.model ?? "unknown CPU"} · ${os.platform()} ${os.release()} · CLK_TCK ${TICKS_PER_SECOND} · load average at start ${loadAtStart.map((l) => l.toFixed(2)).join(" / ")}, at end ${os.loadavg().map((l) => l.toFixed(2)).join(" / ")}`,
    `Code: ${commit}; ${path.relative(root, path.dirname(path.dirname(buildEntry)))}/ built ${statSync(buildEntry).mtime.toISOString()}.`,
    `server.ts as a child process as \`npm start\` runs it (NODE_ENV=production, NODE_OPTIONS="${process.env.NODE_OPTIONS ?? shippedNodeOptions}", GLIBC_TUNABLES="${serverEnvironment().GLIBC_TUNABLES}", a fresh DATA_DIR, the three reference services embedded on PGlite in its data thread; LOG_LEVEL=warn, AUTH_RATE_LIMIT raised), and bench/bare beside it with the same options. ` +
      `Per page and round: ${WARMUP_REQUESTS} requests unmeasured, then ${REQUESTS} requests at ${CONNECTIONS} keep-alive connections (autocannon in the bench's process, Accept-Encoding "${BROWSER_ACCEPT_ENCODING}"), every thread's utime + stime read from /proc before and after; ${ROUNDS} round${ROUNDS > 1 ? "s" : ""}, the pages in turn in each. ` +
      "Signed-in pages carry the cookies of a person who registered, confirmed the e-mail, signed in, made a profile and uploaded one valid Harborview Labs report through the forms (open Strong window, one result), following two people made the same way (both confirmed, both with a Strong window); /login carries that browser's cookies once signed out (the remembered e-mail address and the banner answer), so it is rendered for the request with the address filled in.",
    "",
    `## CPU per request (ms), median of ${ROUNDS} round${ROUNDS > 1 ? "s" : ""}`,
    "",
    "main: the web app's thread; data: the data thread (reference services, sessions, PGlite); GC: V8's platform workers (concurrent and parallel GC for both threads, and concurrent JIT compilation); other: the rest (libuv's pool, Node's helper threads, threads that ended). Each cell is a median on its own; 'all' is the whole process's (the median of the round totals).",
    "",
    "| page | main | data | GC | other | all | main vs bare | all vs bare |",
    "|---|---|---|---|---|---|---|---|",
    ...medians.map(
      ({ page, cpu }) =>
        `| ${page.label} | ${ms(cpu.main)} | ${page.target === bare ? "-" : ms(cpu.data)} | ${ms(cpu.gc)} | ${ms(cpu.other)} | ${ms(cpu.all)} | ${ratio(cpu.main, bareRow.cpu.main)} | ${ratio(cpu.all, bareRow.cpu.all)} |`,
    ),
    "",
    "'other' by thread name (ms per request, medians):",
    ...medians.map(({ page, otherByName }) => `- ${page.label}: ${byNameLine(otherByName, 1, 2)}`),
    "",
    `## Requests/s and p99 (${CONNECTIONS} connections), median of ${ROUNDS} round${ROUNDS > 1 ? "s" : ""}`,
    "",
    `req/s: the requests over the wall time of the ${REQUESTS}; p99 in ms (autocannon's). With the load generator on the same cores, a floor: read the ratios.`,
    "",
    "| page | req/s | vs bare | p99 ms | vs bare |",
    "|---|---|---|---|---|",
    ...medians.map(({ page, rps, p99 }) => `| ${page.label} | ${rps.toFixed(0)} | ${ratio(rps, bareRow.rps)} | ${p99} | ${ratio(p99, bareRow.p99)} |`),
    "",
    "## Each round",
    "",
    "CPU ms per request; 'ended' is the part of 'other' spent by threads that ended during the window.",
    "",
    "| page | round | main | data | GC | other | ended | all | req/s | p99 ms |",
    "|---|---|---|---|---|---|---|---|---|---|",
    ...pages.flatMap((page) =>
      runs
        .get(page)!
        .map(
          (run, i) =>
            `| ${page.label} | ${i + 1} | ${ms(run.cpu.main)} | ${page.target === bare ? "-" : ms(run.cpu.data)} | ${ms(run.cpu.gc)} | ${ms(run.cpu.other)} | ${ms(run.cpu.ended)} | ${ms(run.cpu.all)} | ${run.rps.toFixed(0)} | ${run.p99} |`,
        ),
    ),
    "",
    `At rest, ${IDLE_SECONDS} s with nothing asked after the warm-up (background work, also counted in every window): SafeWindow ${idleLine(idle.server)}; bare ${idleLine(idle.bare)}.`,
    "",
    "Threads at the end (/proc/PID/task/TID/comm), by group:",
    `- SafeWindow: main ${serverNames.main}; data ${serverNames.data}; GC ${serverNames.gc}; other ${serverNames.other}.`,
    `- bare: main ${bareNames.main}; data ${bareNames.data}; GC ${bareNames.gc}; other ${bareNames.other}.`,
    "",
    `Server log during the run: ${server.logLevels.warn} warn lines, ${server.logLevels.error} error lines.`,
    "",
  ];
  const text = lines.join("\n");
  console.log(text);
  if (QUICK) console.error(`server warn and error lines in its log tail:\n${server.logTail().split("\n").filter((line) => /"level":(40|50|60)\b/.test(line)).join("\n")}`);
  if (!QUICK) await writeFile(new URL("./cpu.results.md", import.meta.url), text);
} finally {
  await bare.stop(STOP_TIMEOUT_MS);
  await server.stop(STOP_TIMEOUT_MS);
  await rm(server.dataDir, { recursive: true, force: true });
  await rm(bare.dataDir, { recursive: true, force: true });
}
