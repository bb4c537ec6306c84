// services/identity/main.ts as a process: environment validation and graceful shutdown.
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const MAIN = path.resolve("services/identity/main.ts");
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "identity-main-"));
});
afterAll(async () => {
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

function run(env: Record<string, string>) {
  const child = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, exited, out: () => stdout, err: () => stderr };
}

const good = { IDENTITY_CLIENT_SECRET: "main-test-secret-0123456789", PORT: "0" };

describe("services/identity/main.ts", () => {
  it.each([
    [{ ...good, PORT: "eighty" }, "PORT"],
    [{ ...good, PUBLIC_URL: "localhost:3000" }, "PUBLIC_URL"],
    [{ ...good, DATABASE_URL: "mysql://x" }, "DATABASE_URL"],
    [{ ...good, SMTP_URL: "http://mail" }, "SMTP_URL"],
    [{ ...good, IDENTITY_CLIENT_SECRET: "" }, "IDENTITY_CLIENT_SECRET"],
    [{ ...good, IDENTITY_CLIENT_SECRET: "too-short" }, "IDENTITY_CLIENT_SECRET"],
    [{ PORT: "0" }, "IDENTITY_CLIENT_SECRET"],
  ])("exits with a message naming the bad variable (%#)", async (env, variable) => {
    const p = run(env as Record<string, string>);
    expect(await p.exited).toBe(1);
    expect(p.err()).toContain(variable);
    expect(p.err()).not.toContain("mysql://x");
  });

  it("serves from env and stops gracefully on SIGTERM", async () => {
    const p = run({ ...good, DATA_DIR: dataDir, PUBLIC_URL: "http://localhost:3000/" });
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no listening line: ${p.out()} ${p.err()}`)), 30_000);
      p.child.stdout.on("data", () => {
        const m = /"port":(\d+),.*"identity authority listening"/.exec(p.out());
        if (m?.[1]) {
          clearTimeout(timer);
          resolve(`http://127.0.0.1:${m[1]}`);
        }
      });
    });
    const health = await fetch(`${url}/healthz`);
    expect(await health.json()).toEqual({ ok: true });
    // The client id defaults to the web app's, safewindow-web.
    const token = await fetch(`${url}/connect/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: "safewindow-web", client_secret: good.IDENTITY_CLIENT_SECRET }).toString(),
    });
    expect(token.status).toBe(200);
    p.child.kill("SIGTERM");
    expect(await p.exited).toBe(0);
    expect(p.out()).toContain("identity authority stopped");
  });
});
