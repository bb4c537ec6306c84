/**
 * The web app's thread runs no database query and loads neither PGlite nor pdf.js
 * (docs/decisions/0016-services-in-a-data-thread.md): server.ts runs with a module trace of its
 * main thread (module-trace.mjs) while a user signs up and in, opens a signed-in page and uploads a
 * result, in the embedded default and with every upstream external and neither DATABASE_URL nor
 * REDIS_URL (the data thread then holds only the sessions' database); and that neither thread loads
 * the packages kept for when they are needed. Needs `npm run build` first.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { harborviewPdf } from "../fixtures/index.ts";
import { form, get, sessionCookieOf, signedUpUser, startServer, upload, type Running } from "./server-process.ts";

const tracer = path.join(import.meta.dirname, "module-trace.mjs");
const temp = (name: string) => mkdtempSync(path.join(tmpdir(), `sw-main-thread-${name}-`));
const email = `main-thread-${Date.now()}@example.com`;
const password = "Window#2026a";

/** The module URLs a trace file lists. */
const traced = (file: string) => readFileSync(file, "utf8").split("\n").filter(Boolean);
const engines = (urls: string[]) => urls.filter((url) => url.includes("/@electric-sql/pglite/") || url.includes("/pdfjs-dist/"));
/**
 * Packages loaded only when something needs them (docs/decisions/0013-bounded-v8-heap.md "Loaded when
 * needed"): the Redis client without REDIS_URL, the PostgreSQL driver without DATABASE_URL, the
 * signed codes' readers without a signed code. undici is the web app's upstream client, loaded by
 * the main thread at its first call, and by the data thread only for a result by link (`undici`).
 */
const onDemand = (urls: string[]) =>
  urls.filter((url) => ["@redis/client", "rate-limit-redis", "pg", "@peculiar/x509", "cborg", "base45", "zipcodes"].some((name) => url.includes(`/node_modules/${name}/`)));
/** The undici modules a trace lists. */
const undici = (urls: string[]) => urls.filter((url) => url.includes("/node_modules/undici/"));

/** A signed-in page and an upload (collected `hoursAgo`, so that no two are the same result) with `cookie` on `server`. */
async function useAsSignedIn(server: Running, cookie: string, hoursAgo: number): Promise<void> {
  const page = await get(server, "/safewindow", cookie);
  expect(page.status).toBe(200);
  const pdf = await harborviewPdf({ firstName: "Grace", lastName: "Hopper", dob: "1986-12-09", collectedAt: new Date(Date.now() - hoursAgo * 3600_000) });
  expect((await upload(server, cookie, pdf)).headers.get("location")).toBe("/mytests");
}

/** The port an embedded service logged it listens on (`msg`, e.g. "consumer API listening"). */
function listeningPort(output: string, msg: string): number {
  const line = output.split("\n").find((l) => l.includes(`"msg":"${msg}"`));
  if (!line) throw new Error(`no "${msg}" line`);
  return (JSON.parse(line) as { port: number }).port;
}

describe("the web app's thread", () => {
  const running: Running[] = [];
  afterAll(async () => {
    for (const server of running.reverse()) {
      if (server.child.exitCode === null) {
        server.child.kill("SIGTERM");
        await server.exited;
      }
    }
  });

  it("loads neither PGlite nor pdf.js, embedded and with every upstream external", async () => {
    const dataDir = temp("embedded");
    const allTrace = path.join(temp("trace"), "all.txt");
    const mainTrace = path.join(temp("trace"), "main.txt");
    const embedded = await startServer({ DATA_DIR: dataDir, NODE_OPTIONS: `--import ${tracer}`, MODULE_TRACE_FILE: allTrace, MODULE_TRACE_MAIN_FILE: mainTrace });
    running.push(embedded);
    const cookie = await signedUpUser(embedded, path.join(dataDir, "outbox"), email, password);
    await useAsSignedIn(embedded, cookie, 3);
    // The trace sees both engines, in the data thread; the main thread loaded the app and neither.
    expect(engines(traced(allTrace)).length).toBeGreaterThan(0);
    expect(traced(mainTrace).some((url) => url.endsWith("/server.ts"))).toBe(true);
    expect(engines(traced(mainTrace))).toEqual([]);
    // Neither thread loaded what this configuration and these requests never need.
    expect(onDemand(traced(allTrace))).toEqual([]);
    // undici: the web app's upstream client on the main thread; no other thread loaded it (every
    // line of the main thread's trace is in the whole trace too).
    expect(undici(traced(mainTrace)).length).toBeGreaterThan(0);
    expect(undici(traced(allTrace)).length).toBe(undici(traced(mainTrace)).length);

    // A replica of the same services: every upstream external, no DATABASE_URL, no REDIS_URL.
    const output = embedded.output();
    const loopback = (msg: string) => `http://127.0.0.1:${listeningPort(output, msg)}`;
    const externalTrace = path.join(temp("trace"), "external-main.txt");
    const external = await startServer({
      DATA_DIR: temp("external"),
      IDENTITY_URL: loopback("identity authority listening"),
      IDENTITY_CLIENT_SECRET: readFileSync(path.join(dataDir, "identity-client-secret"), "utf8").trim(),
      CONSUMER_API_URL: loopback("consumer API listening"),
      BUSINESS_API_URL: loopback("business API listening"),
      NODE_OPTIONS: `--import ${tracer}`,
      MODULE_TRACE_MAIN_FILE: externalTrace,
    });
    running.push(external);
    const signedIn = await fetch(`${external.url}/login`, form({ email, password }, external.url));
    const externalCookie = sessionCookieOf(signedIn);
    expect(externalCookie).toBeDefined();
    await useAsSignedIn(external, externalCookie!, 5);
    expect(traced(externalTrace).some((url) => url.endsWith("/server/upstreams.ts"))).toBe(true);
    expect(engines(traced(externalTrace))).toEqual([]);
    expect(onDemand(traced(externalTrace))).toEqual([]);
  }, 300_000);
});
