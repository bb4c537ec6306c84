// With IDENTITY_URL and CONSUMER_API_URL set, server.ts loads none of the reference services'
// code (docs/architecture.md §1: they are embedded only when no upstream is configured): no
// embedded database engine for them, no PDF workers, no mail sender.
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type Running } from "./server-process.ts";

const tracer = path.join(import.meta.dirname, "module-trace.mjs");

/** The project files (relative paths) a server.ts child loaded, from its module trace. */
function loadedFiles(traceFile: string): string[] {
  const root = path.resolve(import.meta.dirname, "../..");
  return readFileSync(traceFile, "utf8")
    .split("\n")
    .filter((url) => url.startsWith("file:") && !url.includes("/node_modules/"))
    .map((url) => path.relative(root, new URL(url).pathname));
}

async function stop(server: Running | undefined) {
  if (server && server.child.exitCode === null) {
    server.child.kill("SIGTERM");
    await server.exited;
  }
}

describe("reference services", () => {
  let upstream: Server;
  let external: Running | undefined;
  let embedded: Running | undefined;
  let externalTrace: string;
  let embeddedTrace: string;

  beforeAll(async () => {
    // Stands in for both upstreams; the server does not call them before a page asks.
    upstream = createServer((_request, response) => response.writeHead(503).end());
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
    const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    externalTrace = path.join(mkdtempSync(path.join(tmpdir(), "sw-trace-")), "modules.txt");
    embeddedTrace = path.join(mkdtempSync(path.join(tmpdir(), "sw-trace-")), "modules.txt");
    [external, embedded] = await Promise.all([
      startServer({
        DATA_DIR: mkdtempSync(path.join(tmpdir(), "sw-external-")),
        IDENTITY_URL: upstreamUrl,
        IDENTITY_CLIENT_SECRET: "a-client-secret-for-the-test",
        CONSUMER_API_URL: upstreamUrl,
        NODE_OPTIONS: `--import ${tracer}`,
        MODULE_TRACE_FILE: externalTrace,
      }),
      startServer({
        DATA_DIR: mkdtempSync(path.join(tmpdir(), "sw-embedded-")),
        NODE_OPTIONS: `--import ${tracer}`,
        MODULE_TRACE_FILE: embeddedTrace,
      }),
    ]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([stop(external), stop(embedded)]);
    await new Promise((resolve) => upstream?.close(resolve));
  });

  it("are loaded when no upstream URL is set (the embedded default)", () => {
    const files = loadedFiles(embeddedTrace);
    expect(files).toContain(path.join("services", "identity", "server.ts"));
    expect(files).toContain(path.join("services", "consumer", "server.ts"));
  });

  it("are not loaded at all when both upstream URLs are set", async () => {
    const health = await fetch(`${external!.url}/healthz`);
    expect(health.status).toBe(200);
    const files = loadedFiles(externalTrace);
    expect(files).toContain("server.ts");
    const servicesCode = files.filter((file) => file.startsWith(path.join("services", "identity")) || file.startsWith(path.join("services", "consumer")));
    expect(servicesCode).toEqual([]);
  });
});
