// server.ts and UPSTREAM_EXTENSIONS (docs/product/calls.md §7.4, docs/operating.md): it passes the
// setting to the reference services it embeds and reads it for nothing else; a value that is
// neither on nor off stops the start (an operator who meant "off" and typed "no" must not get a
// server that quietly answers with every extension). Needs `npm run build`.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runServerToExit, startServer } from "./server-process.ts";
import type { Running } from "./server-process.ts";

const dirs: string[] = [];
const dataDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), "sw-plain-mode-"));
  dirs.push(dir);
  return dir;
};
let server: Running | undefined;

afterAll(async () => {
  server?.child.kill("SIGTERM");
  await server?.exited;
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("server.ts with UPSTREAM_EXTENSIONS", () => {
  it("refuses a value that is neither on nor off, naming the variable", async () => {
    const { code, stderr } = await runServerToExit({ DATA_DIR: dataDir(), UPSTREAM_EXTENSIONS: "no" });
    expect(code).toBe(1);
    expect(stderr).toContain("UPSTREAM_EXTENSIONS: must be on or off");
  }, 60_000);

  it("starts each embedded service in plain mode with off", async () => {
    server = await startServer({ DATA_DIR: dataDir(), UPSTREAM_EXTENSIONS: "off" });
    const started = server
      .output()
      .split("\n")
      .filter((line) => line.includes("embedded") && line.includes("started"))
      .map((line) => JSON.parse(line) as { msg: string; extensions: string });
    expect(started.map((l) => [l.msg, l.extensions]).sort()).toEqual([
      ["embedded business API started", "off"],
      ["embedded consumer API started", "off"],
      ["embedded identity authority started", "off"],
    ]);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
  }, 120_000);
});
