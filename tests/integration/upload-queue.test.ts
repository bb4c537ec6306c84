// More uploads at once than the consumer API takes (docs/architecture/results-pipeline.md §5 "Uploads at
// once"): server.ts with the embedded consumer API, whose limit is MAX_CONCURRENT_UPLOADS, and the app's
// own queue in front of it (app/server/upstream/upload-queue.server.ts). A burst waits its turn and is
// stored; an upload that does not get its turn is a 503 with Retry-After and the upload form's message
// (messages.uploadBusy), never a 502.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as messages from "../../app/messages";
import { MAX_CONCURRENT_UPLOADS } from "../../services/consumer/results/routes.ts";
import { listedResults, report, signUp, uploadPost } from "./app-journey";
import { startServer, type Running } from "./server-process";

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
      // Counted for operators (docs/operating.md), as many as were turned away.
      const metrics = await (await fetch(`${server!.url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })).text();
      expect(metrics).toMatch(new RegExp(`^safewindow_upload_queue_busy_total ${refused.length}$`, "m"));
    },
    120_000,
  );
});
