// Shared by the load benches (bench/pages.ts, bench/soak.ts): server.ts started as a child process
// the way operators run it, and a signed-in user made through the app's own HTML forms.
//
// startBenchServer: NODE_ENV=production, NODE_OPTIONS and GLIBC_TUNABLES as `npm start` sets them,
// a fresh temporary DATA_DIR (or the one given), the
// the three reference services embedded on PGlite, LOG_LEVEL=warn, AUTH_RATE_LIMIT raised
// so that form posts measure the form and not the 429 page; waits until /healthz answers. Its log
// lines are drained (a full pipe would stall it) and counted by pino level; the last part is kept
// to show when something fails.
//
// signedInUser: registers, confirms the e-mail with the link of the .eml file in DATA_DIR/outbox,
// signs in through /login, creates the profile through /yourinfo and uploads one generated
// Harborview Labs report (tests/fixtures) through the /mytests form, so /safewindow shows an open
// window and /mytests one result (no JavaScript, as the integration tests drive it).
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdtemp, readdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import PostalMime from "postal-mime";
import * as messages from "../app/messages.ts";
import { harborviewPdf } from "../tests/fixtures/index.ts";
import { form, root, sessionCookieOf } from "../tests/integration/server-process.ts";

export const PASSWORD = "Window#2026a";
export const PERSON = { firstName: "Ada", lastName: "Lovelace", dob: "1990-12-10", usDob: "12/10/1990", postalCode: "10001" };
/** The cookie-banner answer as the app stores it (a returning user has it; see tests/e2e/support.ts). */
export const CONSENT_COOKIE = `sw_cookie_consent=${encodeURIComponent(btoa(JSON.stringify("accepted")))}`;
/** What Chromium sends; the compression middleware then answers with br. */
export const BROWSER_ACCEPT_ENCODING = "gzip, deflate, br";

// autocannon ships no types and package.json stays as it is: the part of its API the benches use.
export interface AutocannonRequest {
  method?: "GET" | "POST";
  path?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Mutates the request before each send (autocannon's setupRequest). */
  setupRequest?: (request: AutocannonRequest, context: Record<string, unknown>) => AutocannonRequest;
  onResponse?: (status: number, body: string, context: Record<string, unknown>, headers: Record<string, string>) => void;
}
export interface AutocannonOptions {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  requests?: AutocannonRequest[];
  connections: number;
  duration: number;
  /** Seconds without an answer before autocannon counts a timeout (default 10). */
  timeout?: number;
}
export interface LatencyHistogram {
  average: number;
  p50: number;
  p97_5: number;
  p99: number;
  max: number;
}
export interface AutocannonResult {
  requests: { average: number; total: number };
  latency: LatencyHistogram;
  errors: number;
  timeouts: number;
  /** Answers with a status outside 200-299. */
  non2xx: number;
  statusCodeStats: Record<string, { count: number }>;
}
/** A running autocannon load: a promise of its result that can also be stopped early. */
export type AutocannonInstance = Promise<AutocannonResult> & { stop: () => void };
export const autocannon = createRequire(import.meta.url)("autocannon") as (options: AutocannonOptions) => AutocannonInstance;
/** autocannon run for a number of requests (its `amount`) rather than a duration. */
export const autocannonFor = autocannon as unknown as (options: Omit<AutocannonOptions, "duration"> & { amount: number }) => AutocannonInstance;

/** The server build the benches serve: stops the bench with a message when there is none. */
export function requireBuild(): string {
  const buildEntry = path.resolve(root, process.env.BUILD_DIR || "build", "server", "index.js");
  if (!existsSync(buildEntry)) {
    console.error(`No build at ${path.relative(root, buildEntry)}: run \`npm run build\` first.`);
    process.exit(1);
  }
  return buildEntry;
}

/** A TCP port free on loopback right now (server.ts with LOG_LEVEL=warn does not print its port). */
export async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const port = (probe.address() as net.AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * The resident memory now of a process and every process it started, still running (the whole
 * server, whatever runs beside it: threads count once, in their process), bytes (Linux /proc;
 * undefined elsewhere or once it exited).
 */
export function rssOf(pid: number | undefined): number | undefined {
  const own = statusField(pid, "VmRSS");
  if (own === undefined) return undefined;
  return childrenOf(pid!).reduce((sum, child) => sum + (rssOf(child) ?? 0), own);
}

/** The pids a process started that still run (/proc/<pid>/task/<tid>/children, every thread's). */
function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((tid) =>
      readFileSync(`/proc/${pid}/task/${tid}/children`, "utf8")
        .split(" ")
        .filter(Boolean)
        .map(Number),
    );
  } catch {
    return [];
  }
}

/** A "kB" or count field of /proc/<pid>/status (kB fields in bytes). */
export function statusField(pid: number | undefined, field: string): number | undefined {
  try {
    const [, value, unit] = new RegExp(`^${field}:\\s+(\\d+)( kB)?`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8")) ?? [];
    return value === undefined ? undefined : Number(value) * (unit ? 1024 : 1);
  } catch {
    return undefined;
  }
}

/** Bytes as whole MiB, "?" when unknown. */
export const mib = (bytes: number | undefined) => (bytes === undefined ? "?" : `${(bytes / 2 ** 20).toFixed(0)} MiB`);

/** A server.ts child process of a bench. */
export interface BenchServer {
  child: ChildProcess;
  /** http://127.0.0.1:<port> */
  base: string;
  dataDir: string;
  /** Seconds from spawn until /healthz answered. */
  startSeconds: number;
  /** Resolves with the exit code when the process ends. */
  exited: Promise<number | null>;
  /** Log lines so far at pino's warn level, and at error or fatal. */
  logLevels: { warn: number; error: number };
  /** The last 4000 characters it printed. */
  logTail: () => string;
  /** Throws `message` with the server's log tail unless `ok`: a bench measures real pages or nothing. */
  expect: (ok: boolean, message: string) => asserts ok;
  /** SIGTERM, then SIGKILL if it has not exited within `timeoutMs`; resolves with the exit code (or "no exit"). */
  stop: (timeoutMs: number) => Promise<number | null | "no exit">;
  /** Where the identity authority writes its mail files: DATA_DIR/outbox, or its own with BENCH_UPSTREAMS=processes. */
  outboxDir: string;
  /** The resident memory of the whole server now (bytes): server.ts and what it started, and the upstreams' processes when the bench started them. */
  rss: () => number | undefined;
}

/**
 * How the bench runs the reference services (BENCH_UPSTREAMS): `thread`, the embedded default (the
 * data thread of server.ts), or `processes`, the child-process design measured against it: each
 * service from its own main.ts, a process of its own with its own DATA_DIR, and server.ts given
 * the three URLs (docs/decisions/0016-services-in-a-data-thread.md).
 */
export const benchUpstreams = process.env.BENCH_UPSTREAMS === "processes" ? "processes" : "thread";

/** The three services as processes of their own (BENCH_UPSTREAMS=processes), started in order, each waited for. */
async function startServiceProcesses(dir: string, timeoutMs: number): Promise<{ env: Record<string, string>; pids: () => number[]; outboxDir: string; stop: (timeoutMs: number) => Promise<void> }> {
  const secret = "bench-client-secret-0123456789abcdef";
  const children: ChildProcess[] = [];
  const start = async (service: "identity" | "business" | "consumer", env: Record<string, string>) => {
    const port = await freePort();
    const child = spawn(process.execPath, [path.join("services", service, "main.ts")], {
      cwd: root,
      env: { PATH: process.env.PATH ?? "", NODE_OPTIONS: process.env.NODE_OPTIONS ?? shippedNodeOptions, ...serverEnvironment(), HOST: "127.0.0.1", PORT: String(port), DATA_DIR: path.join(dir, service), LOG_LEVEL: "warn", ...env },
      stdio: ["ignore", "ignore", "pipe"],
    });
    children.push(child);
    const url = `http://127.0.0.1:${port}`;
    const startedAt = performance.now();
    while (!(await fetch(`${url}/healthz`).then((r) => r.ok, () => false))) {
      if (child.exitCode !== null || performance.now() - startedAt > timeoutMs) throw new Error(`services/${service}/main.ts did not start`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    return url;
  };
  const identity = await start("identity", { IDENTITY_CLIENT_SECRET: secret });
  const business = await start("business", { IDENTITY_URL: identity });
  const consumer = await start("consumer", { IDENTITY_URL: identity, BUSINESS_API_URL: business });
  return {
    env: { IDENTITY_URL: identity, BUSINESS_API_URL: business, CONSUMER_API_URL: consumer, IDENTITY_CLIENT_SECRET: secret },
    pids: () => children.map((child) => child.pid!).filter(Boolean),
    outboxDir: path.join(dir, "identity", "outbox"),
    stop: async (stopMs) => {
      for (const child of children.reverse()) {
        if (child.exitCode !== null || child.signalCode !== null) continue;
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        if ((await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve("no exit"), stopMs))])) === "no exit") child.kill("SIGKILL");
      }
    },
  };
}

/** The V8 options `npm start` and the Docker image run server.ts with (package.json config.nodeOptions). */
/**
 * The code a bench measured, for its results file: the commit, and "-dirty" when the working tree
 * had changes (`git describe --always --dirty`), so a run of uncommitted code says so.
 */
export function codeVersion(): string {
  return execFileSync("git", ["describe", "--always", "--dirty"], { cwd: root, encoding: "utf8" }).trim();
}

export const shippedNodeOptions = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { config: { nodeOptions: string } }).config.nodeOptions;

/** glibc's malloc settings `npm start` and the Docker image run server.ts with (package.json config.glibcTunables). */
export const shippedGlibcTunables = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { config: { glibcTunables: string } }).config.glibcTunables;

/** Node's compile cache directory `npm start` runs server.ts with (package.json config.compileCache), made absolute. */
export const shippedCompileCache = path.join(root, (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { config: { compileCache: string } }).config.compileCache);

/**
 * The environment besides NODE_OPTIONS that server.ts runs with here, as `npm start` gives it:
 * GLIBC_TUNABLES (glibc's malloc: docs/decisions/0013-bounded-v8-heap.md), this bench's own when
 * its environment sets one (an empty value runs glibc's defaults); NODE_COMPILE_CACHE (Node's
 * compile cache: docs/decisions/0017-module-compile-cache.md), this bench's own when set, and
 * NODE_DISABLE_COMPILE_CACHE when set; MALLOC_ARENA_MAX when set.
 */
export function serverEnvironment(): Record<string, string> {
  const env: Record<string, string> = { GLIBC_TUNABLES: process.env.GLIBC_TUNABLES ?? shippedGlibcTunables, NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? shippedCompileCache };
  if (process.env.NODE_DISABLE_COMPILE_CACHE !== undefined) env.NODE_DISABLE_COMPILE_CACHE = process.env.NODE_DISABLE_COMPILE_CACHE;
  if (process.env.MALLOC_ARENA_MAX !== undefined) env.MALLOC_ARENA_MAX = process.env.MALLOC_ARENA_MAX;
  return env;
}

/**
 * Starts server.ts (see the top of this file), or another server script, and waits until
 * `readyPath` answers 2xx.
 * @param options.dataDir an existing DATA_DIR (a restart); default a new temporary one
 * @param options.script the server to run, relative to the project; default "server.ts"
 * @param options.readyPath the path polled until it answers 2xx; default "/healthz"
 * @throws when it exits or does not answer within `startTimeoutMs`
 */
export async function startBenchServer(options: { dataDir?: string; startTimeoutMs: number; env?: Record<string, string>; script?: string; readyPath?: string }): Promise<BenchServer> {
  const script = options.script ?? "server.ts";
  const readyPath = options.readyPath ?? "/healthz";
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), "bench-")));
  // BENCH_UPSTREAMS=processes: the services beside server.ts, in a directory beside its DATA_DIR (started anew with each server).
  const services = benchUpstreams === "processes" && script === "server.ts" ? await startServiceProcesses(`${dataDir}-services`, options.startTimeoutMs) : undefined;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [script], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "production",
      // As `npm start` runs it (package.json config.nodeOptions and config.glibcTunables), unless NODE_OPTIONS or GLIBC_TUNABLES say otherwise.
      NODE_OPTIONS: process.env.NODE_OPTIONS ?? shippedNodeOptions,
      ...serverEnvironment(),
      HOST: "127.0.0.1",
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      AUTH_RATE_LIMIT: "1000000000",
      ...(process.env.BUILD_DIR ? { BUILD_DIR: process.env.BUILD_DIR } : {}),
      ...services?.env,
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const logLevels = { warn: 0, error: 0 };
  let logTail = "";
  const onLog = (chunk: Buffer) => {
    const text = String(chunk);
    logLevels.warn += text.match(/"level":40\b/g)?.length ?? 0;
    logLevels.error += text.match(/"level":(50|60)\b/g)?.length ?? 0;
    logTail = (logTail + text).slice(-4000);
  };
  child.stdout!.on("data", onLog);
  child.stderr!.on("data", onLog);
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const expect: BenchServer["expect"] = (ok, message) => {
    if (!ok) throw new Error(`${message}\nserver log tail:\n${logTail}`);
  };
  const stop = async (timeoutMs: number) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      await services?.stop(timeoutMs);
      return child.exitCode;
    }
    child.kill("SIGTERM");
    const code = await Promise.race([exited, new Promise<"no exit">((resolve) => setTimeout(() => resolve("no exit"), timeoutMs))]);
    if (code === "no exit") child.kill("SIGKILL");
    await services?.stop(timeoutMs);
    return code;
  };
  const rss = () => {
    const own = rssOf(child.pid);
    return own === undefined ? undefined : (services?.pids() ?? []).reduce((sum, pid) => sum + (rssOf(pid) ?? 0), own);
  };

  const startedAt = performance.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${script} exited ${child.exitCode} at start:\n${logTail}`);
    if (performance.now() - startedAt > options.startTimeoutMs) {
      child.kill("SIGKILL");
      throw new Error(`${script} did not answer ${readyPath} within ${options.startTimeoutMs} ms:\n${logTail}`);
    }
    const up = await fetch(`${base}${readyPath}`).then((r) => r.ok, () => false);
    if (up) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const startSeconds = (performance.now() - startedAt) / 1000;
  return { child, base, dataDir, startSeconds, exited, logLevels, logTail: () => logTail, expect, stop, outboxDir: services?.outboxDir ?? path.join(dataDir, "outbox"), rss };
}

/**
 * Makes a user through the forms (see the top of this file), with one valid Harborview Labs result.
 * @returns every cookie a browser holds after that (session, remembered user name, banner answer)
 * @throws (with the server's log tail) when a step does not answer as a browser would see it
 */
export async function signedInUser(server: BenchServer): Promise<{ cookie: string }> {
  const { base } = server;
  const expect: BenchServer["expect"] = server.expect;
  const email = `bench-${Date.now()}@example.com`;
  const registered = await fetch(`${base}/registration`, form({ email, password: PASSWORD, confirmPassword: PASSWORD, acceptTerms: "on", acceptPrivacy: "on" }, base));
  expect(registered.status === 302 && !!sessionCookieOf(registered), `registration answered ${registered.status}`);

  const confirmLink = await mailLink(server, email, "/confirmemail");
  const confirmed = await fetch(`${base}${confirmLink.pathname}${confirmLink.search}`);
  expect(confirmed.status === 200 && (await confirmed.text()).includes(messages.emailConfirmed), `the confirmation link answered ${confirmed.status}`);

  const signedIn = await fetch(`${base}/login`, form({ email, password: PASSWORD }, base));
  expect(signedIn.status === 302 && !!sessionCookieOf(signedIn), `sign-in answered ${signedIn.status}`);
  const cookie = [...signedIn.headers.getSetCookie().map((c) => c.split(";")[0]!), CONSENT_COOKIE].join("; ");

  const profile = await fetch(`${base}/yourinfo`, withCookie(form({ firstName: PERSON.firstName, lastName: PERSON.lastName, dob: PERSON.usDob, postalCode: PERSON.postalCode }, base), cookie));
  expect(profile.status === 302 && profile.headers.get("location") === "/welcome", `/yourinfo answered ${profile.status} ${profile.headers.get("location")}`);

  const uploaded = await fetch(`${base}/mytests`, { method: "POST", redirect: "manual", headers: { origin: base, cookie }, body: uploadForm(await labReport(0)) });
  expect(uploaded.status === 302, `the /mytests upload answered ${uploaded.status}: ${(await uploaded.text()).slice(0, 300)}`);
  // The redirect's page shows the upload's outcome once (a flash); take it before measuring.
  const outcome = await fetch(`${base}/mytests`, { headers: { cookie } });
  await outcome.text();
  return { cookie };
}

/** A Harborview Labs report of PERSON collected 2 h + `minutesEarlier` min ago (distinct values: distinct reports). */
export function labReport(minutesEarlier: number): Promise<Uint8Array> {
  const now = Date.now() - minutesEarlier * 60_000;
  return harborviewPdf({ firstName: PERSON.firstName, lastName: PERSON.lastName, dob: PERSON.dob, collectedAt: new Date(now - 2 * 3600_000), reportedAt: new Date(now - 3600_000) });
}

/** The /mytests upload form's body, as a browser sends it. */
export function uploadForm(pdf: Uint8Array): FormData {
  const upload = new FormData();
  upload.append("file", new Blob([pdf.slice()], { type: "application/pdf" }), "result.pdf");
  return upload;
}

/** `init` with the cookie header added. */
export function withCookie(init: RequestInit, cookie: string): RequestInit {
  return { ...init, headers: { ...(init.headers as Record<string, string>), cookie } };
}

/** The link containing `linkPart` of the newest mail to `to` in DATA_DIR/outbox (waits up to 15 s). */
async function mailLink(server: BenchServer, to: string, linkPart: string): Promise<URL> {
  const outbox = server.outboxDir;
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const files = (await readdir(outbox).catch(() => [] as string[])).filter((f) => f.endsWith(".eml")).sort().reverse();
    for (const file of files) {
      const parsed = await PostalMime.parse(await readFile(path.join(outbox, file), "utf8"));
      if (!(parsed.to ?? []).some((a) => "address" in a && a.address?.toLowerCase() === to.toLowerCase())) continue;
      const link = [...(parsed.text ?? "").matchAll(/https?:\/\/[^\s<>"]+/g)].map((m) => m[0]).find((l) => l.includes(linkPart));
      if (link) return new URL(link);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no mail to ${to} with a ${linkPart} link in ${outbox}`);
}

/** A page the CPU and allocation benches load: on which server, at which path, with which cookies. */
export interface GatePage {
  label: string;
  target: BenchServer;
  path: string;
  headers: Record<string, string>;
  /** Texts the first answer must contain (the real page, not a redirect or error page). */
  texts: string[];
}

/**
 * The pages of the CPU gates (bench/README.md "The performance goals"), made and checked through the
 * app's forms, no JavaScript: bench/bare's /login; /login rendered for a returning visitor (the
 * cookies a browser keeps once signed out: the remembered e-mail address and the banner answer, so
 * never the shared page cache's copy, checked by the answer's CSP nonce); and signed-in /safewindow,
 * /mytests and /people of the person of `signedInUser` (one Harborview Labs report, an open Strong
 * window), who follows two people made the same way, each request confirmed.
 * @throws (through `server.expect`) when a page answers other than 200 or lacks its texts
 */
export async function gatePages(server: BenchServer, bare: BenchServer): Promise<GatePage[]> {
  const expect: BenchServer["expect"] = server.expect;
  const { cookie } = await signedInUser(server);
  const followed = [await signedInUser(server), await signedInUser(server)];
  // Every person made here is PERSON: the search by the last name finds the others (not oneself).
  const found = await (await fetch(`${server.base}/addpublisher?q=${PERSON.lastName}`, { headers: { cookie } })).text();
  const ids = [...found.matchAll(/name="sfConsumerId" value="([^"]+)"/g)].map((m) => m[1]!);
  expect(ids.length === followed.length, `the search for ${PERSON.lastName} found ${ids.length} people, expected ${followed.length}`);
  for (const id of ids) {
    const requested = await fetch(`${server.base}/addpublisher?q=${PERSON.lastName}`, form({ sfConsumerId: id }, server.base, cookie));
    expect(requested.status < 400, `the follow request answered ${requested.status}`);
  }
  for (const person of followed) {
    const followers = await (await fetch(`${server.base}/people?tab=followers`, { headers: { cookie: person.cookie } })).text();
    const relation = /follower\?id=([^"&]+)/.exec(followers)?.[1];
    expect(relation !== undefined, "a followed person's /people?tab=followers shows no request");
    const confirmed = await fetch(`${server.base}/follower?id=${relation}`, form({ intent: "confirm" }, server.base, person.cookie));
    expect(confirmed.status < 400, `confirming the follow request answered ${confirmed.status}`);
  }
  // What the browser keeps once signed out: every cookie but the session.
  const returningCookie = cookie
    .split("; ")
    .filter((pair) => !pair.startsWith("__session="))
    .join("; ");
  expect(returningCookie.includes("sw_username="), `no remembered e-mail address among the cookies: ${returningCookie}`);

  // ------------------------------------------------------------ pages
  const pages: GatePage[] = [
    { label: "bare React Router /login", target: bare, path: "/login", headers: {}, texts: ["<h1>Sign In</h1>"] },
    { label: "/login, returning visitor (rendered)", target: server, path: "/login", headers: { cookie: returningCookie }, texts: ["<h1>Sign In</h1>", 'value="bench-'] },
    { label: "signed-in /safewindow", target: server, path: "/safewindow", headers: { cookie }, texts: ["My Safe Window", `${PERSON.firstName} ${PERSON.lastName}`, "Strong until"] },
    { label: "signed-in /mytests", target: server, path: "/mytests", headers: { cookie }, texts: ["<h1>My Tests</h1>", 'aria-label="Test results"', "Strong until"] },
    { label: "signed-in /people (2 followed)", target: server, path: "/people", headers: { cookie }, texts: ["<h1>People</h1>", 'class="person-state strong"'] },
  ];
  for (const page of pages) {
    const answer = await fetch(`${page.target.base}${page.path}`, { headers: page.headers, redirect: "manual" });
    const text = await answer.text();
    const missing = page.texts.filter((t) => !text.includes(t));
    expect(answer.status === 200 && missing.length === 0, `${page.label}: answered ${answer.status}, missing ${JSON.stringify(missing)}`);
  }
  const people = await (await fetch(`${server.base}/people`, { headers: { cookie } })).text();
  expect(people.match(/class="person-state strong"/g)?.length === 2, "/people does not list both people followed with a Strong window");
  // The page cache's copy carries no nonce: a nonce means this /login was rendered for the request.
  const loginPolicy = (await fetch(`${server.base}/login`, { headers: { cookie: returningCookie } })).headers.get("content-security-policy") ?? "";
  expect(loginPolicy.includes("'nonce-"), "the returning visitor's /login came from the shared page cache");
  return pages;
}
