// services/identity/main.ts as a process: environment validation and graceful shutdown.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contractFetch, listeningUrl, runMain } from "./support.ts";

const MAIN = path.resolve("services/identity/main.ts");
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "identity-main-"));
});
afterAll(async () => {
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const run = (env: Record<string, string>) => runMain(MAIN, env);

const good = { IDENTITY_CLIENT_SECRET: "main-test-secret-0123456789", PORT: "0" };

describe("services/identity/main.ts", () => {
  it.each([
    [{ ...good, PORT: "eighty" }, "PORT"],
    [{ ...good, PUBLIC_URL: "localhost:3000" }, "PUBLIC_URL"],
    [{ ...good, DATABASE_URL: "mysql://x" }, "DATABASE_URL"],
    [{ ...good, SMTP_URL: "http://mail" }, "SMTP_URL"],
    [{ ...good, IDENTITY_ISSUER: "https://id.example.com/?tenant=1" }, "IDENTITY_ISSUER"],
    [{ ...good, SUPPORT_EMAIL: "support" }, "SUPPORT_EMAIL"],
    [{ ...good, IDENTITY_CLIENT_SECRET: "" }, "IDENTITY_CLIENT_SECRET"],
    [{ ...good, IDENTITY_CLIENT_SECRET: "too-short" }, "IDENTITY_CLIENT_SECRET"],
    [{ ...good, IDENTITY_SIGNING_SECRET: "shorter-than-32-characters" }, "IDENTITY_SIGNING_SECRET"],
    [{ PORT: "0" }, "IDENTITY_CLIENT_SECRET"],
  ])("exits with a message naming the bad variable (%#)", async (env, variable) => {
    const p = run(env as Record<string, string>);
    expect(await p.exited).toBe(1);
    expect(p.err()).toContain(variable);
    expect(p.err()).not.toContain("mysql://x");
  });

  it("serves from env and stops gracefully on SIGTERM", async () => {
    const p = run({ ...good, DATA_DIR: dataDir, PUBLIC_URL: "http://localhost:3000/" });
    const url = await listeningUrl(p, "identity authority listening");
    // The issuer is named after PUBLIC_URL, not after the port it listens on.
    expect(p.out()).toContain('"issuer":"http://localhost:3000/identity"');
    const health = await contractFetch(`${url}/healthz`);
    expect(await health.json()).toEqual({ ok: true });
    // The client id defaults to the web app's, safewindow-web.
    const token = await contractFetch(`${url}/connect/token`, {
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
