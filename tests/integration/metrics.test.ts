/**
 * GET /metrics (docs/operating.md "What the alerts mean", app/server/http-metrics.server.ts): Prometheus text behind
 * METRICS_TOKEN, never public. server.ts runs as operators run it (the production build), with the
 * embedded services; the counters are read back after page requests and uploads. An upstream
 * failure is counted by a second server.ts whose three upstreams are elsewhere and do not answer
 * (the upstreams are embedded all together or not at all, docs/architecture/README.md §1).
 * Needs `npm run build`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { harborviewPdf } from "../fixtures/index";
import { stopProcess } from "./redis-server";
import { form, signedUpUser, startServer, upload, type Running } from "./server-process";

const TOKEN = "metrics-token-for-the-test-0123";
const dirs: string[] = [];
const temp = (name: string) => {
  const dir = mkdtempSync(path.join(tmpdir(), `sw-metrics-${name}-`));
  dirs.push(dir);
  return dir;
};

/** The value of the series `name{labels…}` in a Prometheus text (0 when it is absent). */
function valueOf(text: string, name: string, labels: Record<string, string>): number {
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`)) continue;
    const set = Object.fromEntries([...line.slice(name.length + 1, line.lastIndexOf("}")).matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => set[k] === v)) return Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return 0;
}

describe("GET /metrics", () => {
  let appDir: string;
  let server: Running;
  /** The upstreams elsewhere, none answering. */
  let stranded: Running;

  beforeAll(async () => {
    appDir = temp("app");
    const nowhere = "http://127.0.0.1:9";
    [server, stranded] = await Promise.all([
      startServer({ DATA_DIR: appDir, METRICS_TOKEN: TOKEN }),
      startServer({
        DATA_DIR: temp("stranded"),
        IDENTITY_URL: nowhere,
        IDENTITY_CLIENT_SECRET: "metrics-client-secret-0123456",
        CONSUMER_API_URL: nowhere,
        BUSINESS_API_URL: nowhere,
        METRICS_TOKEN: TOKEN,
      }),
    ]);
  }, 90_000);

  afterAll(async () => {
    await Promise.all([server, stranded].map((running) => running && stopProcess(running.child)));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  const metrics = async (of = server) => {
    const res = await fetch(`${of.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/plain");
    return res.text();
  };

  it("answers 401 without the token or with another one, and says nothing", async () => {
    for (const headers of [{}, { authorization: "Bearer wrong-token-of-some-length" }, { authorization: TOKEN }] as Record<string, string>[]) {
      const res = await fetch(`${server.url}/metrics`, { headers });
      expect(res.status).toBe(401);
      expect(await res.text()).not.toContain("safewindow_");
    }
  });

  it("counts requests by route and status, uploads by outcome, and upstream failures by call; with the process's memory and event-loop delay", async () => {
    const before = await metrics();
    for (let i = 0; i < 3; i += 1) expect((await fetch(`${server.url}/login`)).status).toBe(200);
    expect((await fetch(`${server.url}/no/such/page`)).status).toBe(404);
    // The embedded identity authority writes its mails to the app's DATA_DIR/outbox.
    const cookie = await signedUpUser(server, path.join(appDir, "outbox"), `metrics-${Date.now()}@example.com`);
    const pdf = await harborviewPdf({ firstName: "Grace", lastName: "Hopper", dob: "1986-12-09", collectedAt: new Date(Date.now() - 3 * 3600_000) });
    expect((await upload(server, cookie, pdf)).headers.get("location")).toBe("/mytests");
    expect((await upload(server, cookie, new TextEncoder().encode("not a pdf at all"))).status).toBeLessThan(500);

    // No identity authority answers the other server: a sign-in there is an upstream failure of the token call.
    const strandedBefore = await metrics(stranded);
    expect((await fetch(`${stranded.url}/login`, form({ email: "someone@example.com", password: "Window#2026a" }, stranded.url))).status).toBe(503);
    const strandedAfter = await metrics(stranded);
    expect(valueOf(strandedAfter, "safewindow_upstream_failures_total", { call: "token", reason: "unavailable" }) - valueOf(strandedBefore, "safewindow_upstream_failures_total", { call: "token", reason: "unavailable" })).toBeGreaterThanOrEqual(1);

    const after = await metrics();
    const delta = (name: string, labels: Record<string, string>) => valueOf(after, name, labels) - valueOf(before, name, labels);
    expect(delta("safewindow_http_requests_total", { route: "/login", method: "GET", status: "200" })).toBe(3);
    expect(delta("safewindow_http_requests_total", { route: "other", method: "GET", status: "404" })).toBe(1);
    expect(delta("safewindow_http_requests_total", { route: "/mytests", method: "POST", status: "302" })).toBeGreaterThanOrEqual(1);
    expect(delta("safewindow_http_request_duration_seconds_count", { route: "/login", method: "GET", status: "200" })).toBe(3);
    expect(delta("safewindow_pdf_uploads_total", { outcome: "valid" })).toBe(1);
    expect(delta("safewindow_pdf_uploads_total", { outcome: "not_pdf" })).toBe(1);
    expect(delta("safewindow_upstream_request_duration_seconds_count", { call: "addTestResultMultipart", outcome: "ok" })).toBe(1);
    expect(after).toMatch(/^safewindow_process_resident_memory_bytes \d+/m);
    expect(after).toMatch(/^safewindow_nodejs_eventloop_lag_p99_seconds [\d.e-]+/m);
    expect(after).toMatch(/^safewindow_pdf_queue_length 0$/m);
    // No label carries a user's data: no e-mail address, no result id.
    expect(after).not.toMatch(/@example\.com|[0-9a-f]{8}-[0-9a-f]{4}-/);
  });
});

describe("GET /metrics without METRICS_TOKEN", () => {
  it("is not served: the page-not-found answer", async () => {
    const dir = temp("plain");
    const server = await startServer({ DATA_DIR: dir });
    try {
      const res = await fetch(`${server.url}/metrics`);
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain("safewindow_");
    } finally {
      await stopProcess(server.child);
    }
  }, 90_000);
});
