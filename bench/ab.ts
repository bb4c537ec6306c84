// A/B bench: `npm run bench:ab -- <buildA> <buildB> [page]`; `node bench/ab.ts --quick ...` for a smoke
// run (300 requests, two rounds). Compares two builds of the app on one page: the web app's main-thread
// CPU per request of build B against build A's, served side by side in interleaved rounds.
//
// Why: bench:cpu's figures move by up to a fifth between runs on a shared machine, with the machine's
// speed (bench/README.md "CPU per request: the lead figure"), so a change worth a few percent cannot
// be read from two bench:cpu runs. Here both builds run at once and take turns: A, B, A, B, ... with
// each B round compared with the mean of the A rounds before and after it, so a drift of the machine
// falls on both. Single rounds still move by up to a tenth, and the median of eight by a few percent
// between runs of the same two builds (bench/README.md gives the runs): a change is read from
// several runs, and one smaller than that spread is not read at all.
//
// How: each build is a folder of `react-router build`'s output inside the project (BUILD_DIR; `build-*`
// is ignored by git), e.g. the last commit's build kept as `build-a` before a change is built into
// `build`. Each is served by server.ts as `npm start` runs it (bench/support.ts startBenchServer: a
// fresh DATA_DIR, the reference services in its data thread) and given the people and cookies of
// bench/cpu.ts (support.ts gatePages); PAGE is a part of a gate page's label ("returning": /login for
// a returning visitor; "safewindow", "mytests", "people"). WARMUP_REQUESTS to each, then ROUNDS rounds
// of REQUESTS requests at CONNECTIONS keep-alive connections, A before the first B and after each:
// the main thread's utime + stime from /proc/<pid>/task/<pid>/stat before and after, in clock ticks
// (`getconf CLK_TCK`) turned into ms per request.
//
// Caveats: the main thread only (bench:cpu splits every thread); two servers and the load generator
// share the cores, so absolute figures are higher than bench:cpu's, and only the ratio is the result.
// Writes bench/ab.results.md (not with --quick).
import { execFileSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { root } from "../tests/integration/server-process.ts";
import { autocannonFor, BROWSER_ACCEPT_ENCODING, codeVersion, gatePages, shippedNodeOptions, startBenchServer, type BenchServer, type GatePage } from "./support.ts";

const QUICK = process.argv.includes("--quick");
const [dirA, dirB, PAGE = "returning"] = process.argv.slice(2).filter((arg) => arg !== "--quick");
const ROUNDS = QUICK ? 2 : 8;
const REQUESTS = QUICK ? 300 : 2000;
const WARMUP_REQUESTS = QUICK ? 300 : 1500;
const CONNECTIONS = 5;
const START_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 20_000;
const CLK_TCK = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim());

if (!dirA || !dirB) {
  console.error("usage: node bench/ab.ts <buildA> <buildB> [page]  (builds: folders of react-router build's output in the project, e.g. build-a and build)");
  process.exit(2);
}
for (const dir of [dirA, dirB]) {
  try {
    statSync(path.join(root, dir, "server", "index.js"));
  } catch {
    console.error(`${dir}/server/index.js not found: build it there first (see the top of bench/ab.ts)`);
    process.exit(2);
  }
}

/** The main thread's CPU time so far, ms (utime + stime of /proc/<pid>/task/<pid>/stat). */
function mainThreadMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK;
}

/** `requests` requests of `page`; its server's main-thread CPU per request, ms. @throws on any answer that is not 2xx */
async function cpuPerRequest(page: GatePage, requests: number): Promise<number> {
  const pid = page.target.child.pid!;
  const before = mainThreadMs(pid);
  const result = await autocannonFor({ url: `${page.target.base}${page.path}`, headers: { ...page.headers, "accept-encoding": BROWSER_ACCEPT_ENCODING }, connections: CONNECTIONS, amount: requests });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${page.label}: ${result.non2xx} answers not 2xx, ${result.errors} errors`);
  return (mainThreadMs(pid) - before) / result.requests.total;
}

/** The median (of an even count, the mean of the middle two). */
function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const servers: BenchServer[] = [];
try {
  for (const dir of [dirA, dirB]) servers.push(await startBenchServer({ startTimeoutMs: START_TIMEOUT_MS, env: { BUILD_DIR: dir } }));
  const [pageA, pageB] = await Promise.all(
    servers.map(async (server) => {
      const page = (await gatePages(server, server)).find((candidate) => candidate.target === server && candidate.label.includes(PAGE));
      if (!page) throw new Error(`no gate page's label contains "${PAGE}"`);
      return page;
    }),
  );
  await cpuPerRequest(pageA!, WARMUP_REQUESTS);
  await cpuPerRequest(pageB!, WARMUP_REQUESTS);
  const rounds: { a: number; b: number; ratio: number }[] = [];
  let aBefore = await cpuPerRequest(pageA!, REQUESTS);
  for (let round = 1; round <= ROUNDS; round++) {
    const b = await cpuPerRequest(pageB!, REQUESTS);
    const aAfter = await cpuPerRequest(pageA!, REQUESTS);
    const a = (aBefore + aAfter) / 2;
    aBefore = aAfter;
    rounds.push({ a, b, ratio: b / a });
    console.log(`round ${round}: A ${a.toFixed(3)} ms, B ${b.toFixed(3)} ms, B/A ${(b / a).toFixed(3)}`);
  }
  const ratios = rounds.map((round) => round.ratio);
  const summary = `${pageA!.label}: B/A ${median(ratios).toFixed(3)} (median of ${ROUNDS} rounds; ${Math.min(...ratios).toFixed(3)} to ${Math.max(...ratios).toFixed(3)}), A ${median(rounds.map((round) => round.a)).toFixed(3)} ms, B ${median(rounds.map((round) => round.b)).toFixed(3)} ms per request`;
  console.log(summary);
  if (!QUICK) {
    const built = (dir: string) => statSync(path.join(root, dir, "server", "index.js")).mtime.toISOString();
    const report = [
      "# bench/ab results",
      "",
      `Run: ${new Date().toISOString()} · Node ${process.version} · ${os.cpus().length} × ${os.cpus()[0]?.model ?? "unknown CPU"} · ${os.platform()} ${os.release()} · CLK_TCK ${CLK_TCK}`,
      `Code: ${codeVersion()}. A: ${dirA}/ (built ${built(dirA)}); B: ${dirB}/ (built ${built(dirB)}).`,
      `server.ts as \`npm start\` runs it (NODE_OPTIONS="${process.env.NODE_OPTIONS ?? shippedNodeOptions}"), once per build, side by side; ${WARMUP_REQUESTS} requests to each unmeasured, then ${ROUNDS} rounds of ${REQUESTS} requests at ${CONNECTIONS} connections, A before the first B and after each; the main thread's CPU per request, each B against the mean of the A rounds around it.`,
      "",
      `**${summary}.**`,
      "",
      "| round | A ms | B ms | B/A |",
      "|---|---|---|---|",
      ...rounds.map((round, n) => `| ${n + 1} | ${round.a.toFixed(3)} | ${round.b.toFixed(3)} | ${round.ratio.toFixed(3)} |`),
      "",
    ].join("\n");
    await writeFile(path.join(root, "bench", "ab.results.md"), report);
  }
} finally {
  for (const server of servers) await server.stop(STOP_TIMEOUT_MS);
}
