// PDF pipeline throughput (docs/architecture/results-pipeline.md §5, "The worker pool"): `npm run bench:pdf` (Node 24 from the devDependency).
// Starts the identity authority and the consumer API in this process (fresh PGlite data in a
// temporary directory, as embedded), then through the consumer API's HTTP contract:
//   1. time per 1-page upload, one client at a time (median, p95; target median < 150 ms), every upload's
//      QR codes looked for (docs/product/labs.md §10.9); then the same with a signed SMART Health Card printed on
//      each report, and the QR step's own cost: page 1 drawn without and with the QR pass, in the pool;
//   2. uploads per second with 4 concurrent clients;
//   3. latency of other requests (GET /consumer/getsafewindow, /testresult/getcurrentusertestresults)
//      while a decompression bomb is being rejected (p99; target < 200 ms).
// Every upload is a distinct generated lab report (tests/fixtures), generated before timing.
// Prints a Markdown report and writes it to bench/pdf-pipeline.results.md.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { decodeJwt } from "jose";
import { pino } from "pino";
import { startConsumerService } from "../services/consumer/server.ts";
import { startIdentityService } from "../services/identity/server.ts";
import { createPdfPool } from "../services/consumer/results/pool.ts";
import { cascadePdf, decompressionBombPdf, harborviewPdf, meridianPdf } from "../tests/fixtures/index.ts";
import { directoryEntry, shcText, testShcIssuer } from "../tests/fixtures/shc.ts";
import type { ReportOptions } from "../tests/fixtures/index.ts";

const SEQUENTIAL = Number(process.env.BENCH_SEQUENTIAL ?? 60);
const CONCURRENT_CLIENTS = 4;
const PER_CLIENT = Number(process.env.BENCH_PER_CLIENT ?? 25);
const WARMUP = 6;
const CLIENT = { clientId: "safewindow-web", clientSecret: "bench-secret-0123456789abcdef" };
const PERSON = { firstName: "Ada", lastName: "Lovelace", dob: "1990-12-10" };

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? NaN;
}
const ms = (n: number) => `${n.toFixed(1)} ms`;

const dirs = await Promise.all([mkdtemp(path.join(os.tmpdir(), "bench-id-")), mkdtemp(path.join(os.tmpdir(), "bench-consumer-"))]);
const logger = pino({ level: "silent" });
const identity = await startIdentityService({ dataDir: dirs[0]!, publicUrl: "http://localhost:3000", clients: [CLIENT], logger });
const issuer = await testShcIssuer();
const consumer = await startConsumerService({ dataDir: dirs[1]!, identityUrl: identity.url, logger, proof: { shcIssuers: [directoryEntry(issuer)] } });

try {
  async function token(fields: Record<string, string>): Promise<string> {
    const res = await fetch(`${identity.url}/connect/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ client_id: CLIENT.clientId, client_secret: CLIENT.clientSecret, ...fields }).toString(),
    });
    if (res.status !== 200) throw new Error(`token: ${res.status}`);
    return ((await res.json()) as { access_token: string }).access_token;
  }

  let users = 0;
  async function newUser(): Promise<string> {
    users += 1;
    const email = `bench-${users}-${Date.now()}@example.com`;
    const password = "Bench!pass1234";
    const clientToken = await token({ grant_type: "client_credentials", scope: "identity.api" });
    await fetch(`${identity.url}/api/account/register`, {
      method: "POST",
      headers: { authorization: `Bearer ${clientToken}`, "content-type": "application/json" },
      body: JSON.stringify({ userName: email, password }),
    });
    const t = await token({ grant_type: "password", username: email, password });
    const res = await fetch(`${consumer.url}/consumer/createprofile`, {
      method: "POST",
      headers: { authorization: `Bearer ${t}`, "content-type": "application/json" },
      body: JSON.stringify({ consumer: { ...PERSON, postalCode: "94105" }, latitude: null, longitude: null }),
    });
    if (res.status !== 200 || !decodeJwt(t).sub) throw new Error(`createprofile: ${res.status}`);
    return t;
  }

  let made = 0;
  /** A distinct 1-page report (labs in turn, collection times a minute apart). */
  async function report(signed = false): Promise<Uint8Array> {
    made += 1;
    const collectedAt = new Date(Math.floor((Date.now() - 2 * 3600_000 - made * 60_000) / 60_000) * 60_000);
    const qr = signed ? [{ text: await shcText(issuer, { givenNames: [PERSON.firstName], lastName: PERSON.lastName, dob: PERSON.dob, collectedAt }) }] : undefined;
    const o: ReportOptions = { ...PERSON, collectedAt, ...(qr ? { variation: { qr } } : {}) };
    return [harborviewPdf, meridianPdf, cascadePdf][made % 3]!(o);
  }

  async function upload(t: string, bytes: Uint8Array): Promise<number> {
    const form = new FormData();
    form.append("multipartData", new Blob([bytes.slice()], { type: "application/pdf" }), "result.pdf");
    const started = performance.now();
    const res = await fetch(`${consumer.url}/testresult/addtestresultmultipart/`, { method: "POST", headers: { authorization: `Bearer ${t}` }, body: form });
    await res.arrayBuffer();
    const elapsed = performance.now() - started;
    if (res.status !== 200) throw new Error(`upload answered ${res.status}`);
    return elapsed;
  }

  async function timedGet(t: string, p: string): Promise<number> {
    const started = performance.now();
    const res = await fetch(`${consumer.url}${p}`, { headers: { authorization: `Bearer ${t}` } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${p} answered ${res.status}`);
    return performance.now() - started;
  }

  // ------------------------------------------------------------ 1. one client
  const solo = await newUser();
  const soloFiles = await Promise.all(Array.from({ length: SEQUENTIAL + WARMUP }, () => report()));
  for (const f of soloFiles.slice(0, WARMUP)) await upload(solo, f);
  const sequential: number[] = [];
  for (const f of soloFiles.slice(WARMUP)) sequential.push(await upload(solo, f));

  // ------------------------------------------------------------ 1b. signed reports, and the QR step alone
  const signedFiles = await Promise.all(Array.from({ length: SEQUENTIAL }, () => report(true)));
  const signedUser = await newUser();
  const signedTimes: number[] = [];
  for (const f of signedFiles) signedTimes.push(await upload(signedUser, f));
  const pool = createPdfPool(logger, { threads: 1 });
  const plainDraw: number[] = [];
  const withCodes: number[] = [];
  const stepFiles = [...soloFiles.slice(0, 15), ...signedFiles.slice(0, 15)];
  for (const f of stepFiles.slice(0, 3)) await pool.renderWithCodes(f, 3);
  for (const f of stepFiles) {
    let started = performance.now();
    await pool.render(f, 1);
    plainDraw.push(performance.now() - started);
    started = performance.now();
    await pool.renderWithCodes(f, 3);
    withCodes.push(performance.now() - started);
  }
  await pool.close();

  // ------------------------------------------------------------ 2. four clients
  const clients = await Promise.all(Array.from({ length: CONCURRENT_CLIENTS }, () => newUser()));
  const clientFiles = await Promise.all(clients.map(() => Promise.all(Array.from({ length: PER_CLIENT }, () => report()))));
  const concurrent: number[] = [];
  const concurrentStarted = performance.now();
  await Promise.all(
    clients.map(async (t, i) => {
      for (const f of clientFiles[i]!) concurrent.push(await upload(t, f));
    }),
  );
  const concurrentSeconds = (performance.now() - concurrentStarted) / 1000;

  // ------------------------------------------------------------ 3. other requests during a bomb
  const bomb = await decompressionBombPdf({ ...PERSON, collectedAt: new Date(Date.now() - 3600_000) });
  const form = new FormData();
  form.append("multipartData", new Blob([bomb.slice()], { type: "application/pdf" }), "bomb.pdf");
  const bombStarted = performance.now();
  let bombDone = false;
  const bombAnswer = fetch(`${consumer.url}/testresult/addtestresultmultipart/`, { method: "POST", headers: { authorization: `Bearer ${solo}` }, body: form }).then(
    async (res) => {
      const json = (await res.json()) as { reason?: string };
      bombDone = true;
      return { status: res.status, reason: json.reason, ms: performance.now() - bombStarted };
    },
  );
  const during: number[] = [];
  await Promise.all(
    [solo, clients[0]!].map(async (t, i) => {
      while (!bombDone) during.push(await timedGet(t, i === 0 ? "/consumer/getsafewindow" : "/testresult/getcurrentusertestresults/"));
    }),
  );
  const bombResult = await bombAnswer;

  // ------------------------------------------------------------ report
  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  const lines = [
    "# bench/pdf-pipeline results",
    "",
    `Run: ${new Date().toISOString()} · Node ${process.version} · ${os.cpus().length} × ${cpu} · ${os.platform()} ${os.release()}`,
    "Services in-process (identity authority + consumer API on PGlite, default PDF pool: 2 threads); uploads are distinct generated 1-page lab reports (Harborview, Meridian, Cascade in turn) through POST /testresult/addtestresultmultipart/.",
    "",
    "| measure | value | target |",
    "|---|---|---|",
    `| upload, 1 client: median (n=${sequential.length}) | ${ms(percentile(sequential, 50))} | < 150 ms |`,
    `| upload, 1 client: p95 | ${ms(percentile(sequential, 95))} | |`,
    `| upload with a signed SMART Health Card, 1 client: median / p95 (n=${signedTimes.length}) | ${ms(percentile(signedTimes, 50))} / ${ms(percentile(signedTimes, 95))} | < 150 ms |`,
    `| QR step: page 1 drawn, then drawn with the QR pass (pool, n=${stepFiles.length}): median | ${ms(percentile(plainDraw, 50))} → ${ms(percentile(withCodes, 50))} | |`,
    `| upload, ${CONCURRENT_CLIENTS} clients: uploads/s (n=${concurrent.length}) | ${(concurrent.length / concurrentSeconds).toFixed(1)} | |`,
    `| upload, ${CONCURRENT_CLIENTS} clients: median / p95 per upload | ${ms(percentile(concurrent, 50))} / ${ms(percentile(concurrent, 95))} | |`,
    `| other requests during a bomb: p50 / p99 / max (n=${during.length}) | ${ms(percentile(during, 50))} / ${ms(percentile(during, 99))} / ${ms(Math.max(...during))} | p99 < 200 ms |`,
    `| bomb (${(bomb.length / 1024).toFixed(0)} KiB, inflates to 512 MiB): answer | ${bombResult.status} ${bombResult.reason} after ${ms(bombResult.ms)} | rejected |`,
    "",
  ];
  const text = lines.join("\n");
  console.log(text);
  await writeFile(new URL("./pdf-pipeline.results.md", import.meta.url), text);
} finally {
  await consumer.close();
  await identity.close();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
}
