/**
 * Node's module compile cache (docs/decisions/0017-module-compile-cache.md): server.ts writes what it
 * compiled to NODE_COMPILE_CACHE once it listens (the data thread once it is ready), so a server
 * killed with kill -9 right after its start leaves a filled cache; the next start takes every module
 * from it, and neither the web app's thread nor the data thread loads Node's type stripper.
 * Needs `npm run build` first.
 */
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startServer, type Running } from "./server-process.ts";

const temp = (name: string) => mkdtempSync(path.join(tmpdir(), `sw-compile-cache-${name}-`));
const probe = path.join(import.meta.dirname, "type-stripper-probe.mjs");

/** The entries (files) under a compile cache directory. */
const entries = (dir: string) => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length;

/** What each thread's probe wrote: "stripper" or "none", by thread id. */
function probed(dir: string): Record<string, string> {
  const written = readdirSync(dir).filter((file) => file.endsWith(".txt"));
  return Object.fromEntries(written.map((file) => [file.replace(".txt", ""), readFileSync(path.join(dir, file), "utf8")]));
}

describe("the compile cache", () => {
  const running: Running[] = [];
  afterAll(async () => {
    for (const server of running) {
      if (server.child.exitCode === null && server.child.signalCode === null) {
        server.child.kill("SIGTERM");
        await server.exited;
      }
    }
  });

  it("is written once the server listens, survives kill -9, and spares the next start the type stripper", async () => {
    const cache = temp("cache");
    const firstProbe = temp("probe-first");
    const first = await startServer({ DATA_DIR: temp("data-first"), NODE_COMPILE_CACHE: cache, NODE_OPTIONS: `--expose-gc --import ${probe}`, STRIPPER_PROBE_DIR: firstProbe });
    running.push(first);
    // Both threads strip our TypeScript on a start without a cache.
    await expect.poll(() => Object.values(probed(firstProbe)), { timeout: 10_000 }).toEqual(["stripper", "stripper"]);
    // Written without an exit: the data thread's modules (the services) once it is ready, the web
    // app's once it listens, before the start's garbage is collected.
    await expect.poll(() => first.output().includes("startup garbage collected"), { timeout: 10_000 }).toBe(true);
    expect(entries(cache)).toBeGreaterThan(200);
    first.child.kill("SIGKILL");
    await first.exited;

    const secondProbe = temp("probe-second");
    const second = await startServer({ DATA_DIR: temp("data-second"), NODE_COMPILE_CACHE: cache, NODE_OPTIONS: `--expose-gc --import ${probe}`, STRIPPER_PROBE_DIR: secondProbe });
    running.push(second);
    await expect.poll(() => Object.keys(probed(secondProbe)).length, { timeout: 10_000 }).toBe(2);
    // Give each thread's probe a later write too, after everything the start loads.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(probed(secondProbe)).toEqual(Object.fromEntries(Object.keys(probed(secondProbe)).map((id) => [id, "none"])));
    expect((await fetch(`${second.url}/login`)).status).toBe(200);
  }, 120_000);
});
