// More uploads at once than the consumer API takes (docs/architecture/results-pipeline.md §5 "Uploads at
// once"): server.ts with the embedded consumer API, whose limit is MAX_CONCURRENT_UPLOADS, and the app's
// own queue in front of it (app/server/upstream/upload-queue.server.ts). A burst waits its turn and is
// stored; an upload that does not get its turn is a 503 with Retry-After and the upload form's message
// (messages.uploadBusy), never a 502. When the server drains (SIGTERM), the uploads still waiting are
// answered busy at once and the one at the consumer API is stored.
import { mkdtempSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as messages from "../../app/messages";
import { MAX_CONCURRENT_UPLOADS } from "../../services/consumer/results/routes.ts";
import { resultLink, startLabSites, type LabSites } from "../lab-sites/server.ts";
import { listedResults, person, report, signUp, uploadPost } from "./app-journey";
import { form, startServer, type Running } from "./server-process";

/** Distinct reports (each runs the whole pipeline), more than the consumer API handles at once. */
const burst = MAX_CONCURRENT_UPLOADS + 16;

/** One upload's answer as the test reads it. */
interface Answered {
  status: number;
  retryAfter: string | null;
  location: string | null;
  body: string;
}

/** Sends `reports` as one browser without JavaScript would, all at once, and reads every answer. */
async function uploadAll(base: string, cookie: string, reports: Uint8Array[]): Promise<Answered[]> {
  return Promise.all(
    reports.map(async (pdf) => {
      const response = await uploadPost(base, cookie, pdf);
      return { status: response.status, retryAfter: response.headers.get("retry-after"), location: response.headers.get("location"), body: await response.text() };
    }),
  );
}

/** Starts server.ts on a fresh DATA_DIR with `env` and signs up the person of the reports. */
async function serverWithPerson(prefix: string, env: Record<string, string>): Promise<{ server: Running; cookie: string }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), prefix));
  const server = await startServer({ DATA_DIR: dataDir, AUTH_RATE_LIMIT: "100000", ...env });
  return { server, cookie: await signUp(server.url, dataDir, "grace@example.com") };
}

describe("a burst of uploads beyond the consumer API's limit", () => {
  let server: Running | undefined;
  let cookie = "";

  beforeAll(async () => {
    // A wait long enough for the whole burst on a busy machine: this part checks that the burst waits.
    ({ server, cookie } = await serverWithPerson("sw-upload-burst-", { UPLOAD_QUEUE_WAIT_MS: "150000" }));
  }, 120_000);

  afterAll(() => {
    server?.child.kill("SIGKILL");
  });

  it(
    `${burst} uploads at once all wait their turn and are stored: none is a 502 or a 503`,
    async () => {
      const reports = await Promise.all(Array.from({ length: burst }, (_, i) => report(30 + i)));
      const answers = await uploadAll(server!.url, cookie, reports);
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 302));
      expect(answers.map((a) => a.location)).toEqual(answers.map(() => "/mytests"));
      // Every upload is listed once.
      expect((await listedResults(server!.url, cookie)).length).toBe(burst);
    },
    180_000,
  );
});

/** GET /metrics's token for the server that counts the uploads it turned away. */
const metricsToken = "upload-queue-test-metrics";

describe("an upload that does not get its turn in time", () => {
  let server: Running | undefined;
  let cookie = "";

  beforeAll(async () => {
    // One upload at a time, and a wait far shorter than one upload's pipeline.
    ({ server, cookie } = await serverWithPerson("sw-upload-wait-", { UPLOADS_AT_ONCE: "1", UPLOAD_QUEUE_WAIT_MS: "1", METRICS_TOKEN: metricsToken }));
  }, 120_000);

  afterAll(() => {
    server?.child.kill("SIGKILL");
  });

  it(
    "is answered 503 with Retry-After (the wait in seconds) and the upload form's message; the others are stored",
    async () => {
      const reports = await Promise.all(Array.from({ length: 6 }, (_, i) => report(30 + i)));
      const answers = await uploadAll(server!.url, cookie, reports);
      const refused = answers.filter((a) => a.status === 503);
      const stored = answers.filter((a) => a.status === 302);
      expect(refused.length + stored.length).toBe(answers.length);
      expect(stored.length).toBeGreaterThanOrEqual(1);
      expect(refused.length).toBeGreaterThanOrEqual(1);
      for (const answer of refused) {
        expect(answer.retryAfter).toBe("1");
        // The page with the form and its message (a browser without JavaScript shows it as it is).
        expect(answer.body).toContain(`<p>${messages.uploadBusy(1)}</p>`);
        expect(answer.body).toMatch(/<input[^>]*name="file"/);
      }
      expect((await listedResults(server!.url, cookie)).length).toBe(stored.length);
      // Logged as back-pressure (warn), not as a failure (error): each refused upload's access line.
      const lines = server!.output().split("\n").filter((line) => line.includes('"statusCode":503'));
      expect(lines.length).toBe(refused.length);
      for (const line of lines) expect((JSON.parse(line) as { level: number }).level).toBe(40);
      // Counted for operators (docs/operating.md), as many as were turned away.
      const metrics = await (await fetch(`${server!.url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })).text();
      expect(metrics).toMatch(new RegExp(`^safewindow_upload_queue_busy_total ${refused.length}$`, "m"));
    },
    120_000,
  );
});

/** GET /metrics's token for the server that is stopped while uploads wait. */
const drainToken = "upload-queue-drain-metrics";

/** The uploads waiting in the app's queue now (safewindow_upload_queue_length). */
async function waitingUploads(base: string): Promise<number> {
  const metrics = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${drainToken}` } })).text();
  return Number(/^safewindow_upload_queue_length (\d+)$/m.exec(metrics)?.[1] ?? Number.NaN);
}

/** What the test reads of an answer to a request sent with node:http. */
interface RawAnswer {
  status: number;
  retryAfter: string | undefined;
  body: string;
}

/**
 * Starts an upload whose body is sent in two parts: resolves once the headers and the first part are
 * out (the request is in flight at the server); `finish()` sends the rest, `answer` resolves with
 * what the server answered.
 */
async function uploadInTwoParts(base: string, cookie: string, pdf: Uint8Array): Promise<{ finish(): void; answer: Promise<RawAnswer> }> {
  const body = new FormData();
  body.append("file", new Blob([pdf.slice()], { type: "application/pdf" }), "result.pdf");
  const encoded = new Request(`${base}/mytests`, { method: "POST", body });
  const bytes = Buffer.from(await encoded.arrayBuffer());
  const req = httpRequest(`${base}/mytests`, {
    method: "POST",
    headers: { origin: base, cookie, "content-type": encoded.headers.get("content-type") ?? "", "content-length": String(bytes.length) },
  });
  const answer = new Promise<RawAnswer>((resolve, reject) => {
    req.on("response", (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers["retry-after"], body: text }));
    });
    req.on("error", reject);
  });
  await new Promise<void>((resolve, reject) => req.write(bytes.subarray(0, 1024), (error) => (error ? reject(error) : resolve())));
  return { finish: () => req.end(bytes.subarray(1024)), answer };
}

describe("uploads waiting for their turn when the server stops", () => {
  let sites: LabSites | undefined;
  let server: Running | undefined;
  let restarted: Running | undefined;
  let dataDir = "";
  let cookie = "";
  /** The environment of both starts: one upload at a time, the default wait (15 s), the lab sites for links. */
  let env: Record<string, string> = {};

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "sw-upload-drain-"));
    const caFile = path.join(mkdtempSync(path.join(tmpdir(), "sw-upload-drain-ca-")), "lab-sites.pem");
    sites = await startLabSites({ caFile });
    writeFileSync(caFile, sites.ca);
    env = {
      DATA_DIR: dataDir,
      AUTH_RATE_LIMIT: "100000",
      UPLOADS_AT_ONCE: "1",
      METRICS_TOKEN: drainToken,
      LAB_LINKS_TEST_SERVER: `${sites.address}:${sites.port}`,
      LAB_LINKS_TEST_CA: caFile,
    };
    server = await startServer(env);
    cookie = await signUp(server.url, dataDir, "grace@example.com");
  }, 120_000);

  afterAll(async () => {
    server?.child.kill("SIGKILL");
    restarted?.child.kill("SIGKILL");
    await sites?.close();
  });

  it(
    "answers the waiting uploads 503 with Retry-After at once, and those arriving during the drain; the running one is stored and the process exits 0",
    async () => {
      const base = server!.url;
      const linkReport = (minutesAgo: number) => ({ firstName: person.firstName, lastName: person.lastName, dob: person.dob, collectedAt: new Date(Date.now() - minutesAgo * 60_000).toISOString() });
      const addLink = (link: string) => fetch(`${base}/mytests`, form({ intent: "link", url: link }, base, cookie));
      // The running upload: a result by link whose lab site answers only when the test says.
      const running = addLink(resultLink("harborview", linkReport(20), "held"));
      let runningAnswered = false;
      void running.then(() => (runningAnswered = true));
      await sites!.held.arrived;
      // Two uploads wait behind it: a file and a result by link.
      const waitingLink = resultLink("harborview", linkReport(40));
      const waiting = [uploadPost(base, cookie, await report(30)), addLink(waitingLink)];
      // A third is in flight, its file not all sent yet: it reaches the queue during the drain.
      const late = await uploadInTwoParts(base, cookie, await report(50));
      const deadline = Date.now() + 30_000;
      while ((await waitingUploads(base)) !== 2) {
        expect(Date.now()).toBeLessThan(deadline);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }

      const stoppedAt = Date.now();
      server!.child.kill("SIGTERM");
      const [file, link] = await Promise.all(waiting);
      const answeredAfterMs = Date.now() - stoppedAt;
      // At once, well before the queue's 15 s wait; the running upload still runs.
      expect(answeredAfterMs).toBeLessThan(5_000);
      expect(runningAnswered).toBe(false);
      for (const answer of [file!, link!]) {
        expect(answer.status).toBe(503);
        expect(answer.headers.get("retry-after")).toBe("15");
        expect(await answer.clone().text()).toContain(messages.uploadBusy(15));
      }
      // The form keeps its state: the file field, and the link in its own field.
      expect(await file!.text()).toMatch(/<input[^>]*name="file"/);
      expect(/<input[^>]*name="url"[^>]*>/.exec(await link!.text())?.[0]).toContain(`value="${waitingLink}"`);

      late.finish();
      const lateAnswer = await late.answer;
      expect({ status: lateAnswer.status, retryAfter: lateAnswer.retryAfter }).toEqual({ status: 503, retryAfter: "15" });
      expect(lateAnswer.body).toContain(messages.uploadBusy(15));
      expect(runningAnswered).toBe(false);

      // The upload at the consumer API finishes within the drain and is stored.
      sites!.held.release();
      const stored = await running;
      expect({ status: stored.status, location: stored.headers.get("location") }).toEqual({ status: 302, location: "/mytests" });
      expect(await server!.exited).toBe(0);
      expect(Date.now() - stoppedAt).toBeLessThan(15_000);
      expect(server!.output()).toContain("in-flight requests finished");
      expect(server!.output()).not.toContain("were cut");

      // Started again on the same DATA_DIR: the running upload is listed, none of the three others.
      restarted = await startServer(env);
      expect((await listedResults(restarted.url, cookie)).length).toBe(1);
    },
    180_000,
  );
});
