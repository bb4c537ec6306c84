// services/consumer/main.ts as a process: environment validation, starting before the identity
// authority (503 until it is up, then tokens verify without a restart), graceful SIGTERM.
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { SignJWT, generateKeyPair } from "jose";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startIdentityService } from "../../services/identity/server.ts";
import { contractFetch, listeningUrl, makeUser, runMain } from "./support.ts";

const MAIN = path.resolve("services/consumer/main.ts");
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "consumer-main-"));
});
afterAll(async () => {
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const run = (env: Record<string, string>) => runMain(MAIN, env);

/** A loopback port that nothing listens on (for now). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe("services/consumer/main.ts", () => {
  it.each([
    [{ PORT: "0" }, "IDENTITY_URL"],
    [{ PORT: "0", IDENTITY_URL: "" }, "IDENTITY_URL"],
    [{ PORT: "0", IDENTITY_URL: "identity:5001" }, "IDENTITY_URL"],
    [{ PORT: "0", IDENTITY_URL: "ftp://identity" }, "IDENTITY_URL"],
    [{ PORT: "eighty", IDENTITY_URL: "http://127.0.0.1:5001" }, "PORT"],
    [{ PORT: "70000", IDENTITY_URL: "http://127.0.0.1:5001" }, "PORT"],
    [{ PORT: "0", IDENTITY_URL: "http://127.0.0.1:5001", DATABASE_URL: "mysql://root:hunter2@x" }, "DATABASE_URL"],
    [{ PORT: "0", IDENTITY_URL: "http://127.0.0.1:5001", LOG_LEVEL: "loud" }, "LOG_LEVEL"],
    [{ PORT: "0", IDENTITY_URL: "http://127.0.0.1:5001", UPSTREAM_EXTENSIONS: "no" }, "UPSTREAM_EXTENSIONS"],
  ])("exits 1 with a message naming the bad variable (%#)", async (env, variable) => {
    const p = run(env as Record<string, string>);
    expect(await p.exited).toBe(1);
    expect(p.err()).toContain(`consumer: ${variable}`);
    expect(p.err()).not.toContain("hunter2");
  });

  it("with UPSTREAM_EXTENSIONS=off answers an extension call 404, as an unknown path, where it otherwise asks for a token", { timeout: 120_000 }, async () => {
    const p = run({ PORT: "0", DATA_DIR: path.join(dataDir, "plain-mode"), IDENTITY_URL: "http://127.0.0.1:5001", UPSTREAM_EXTENSIONS: "off" });
    const url = await listeningUrl(p, "consumer API listening");
    try {
      const exported = await fetch(`${url}/consumer/export`);
      expect(exported.status).toBe(404);
      expect(await exported.json()).toEqual({ error: "not_found", error_description: "No such endpoint." });
      // A product rules' call still needs its token.
      expect((await fetch(`${url}/consumer`)).status).toBe(401);
    } finally {
      p.child.kill("SIGTERM");
      await p.exited;
    }
  });

  it("starts before the identity authority, verifies tokens once it is up, and stops on SIGTERM", { timeout: 120_000 }, async () => {
    // Two fresh PGlite data dirs (this process's and the late authority's): slow on a busy machine.
    const identityPort = await freePort();
    const identityUrl = `http://127.0.0.1:${identityPort}`;
    const p = run({ PORT: "0", DATA_DIR: dataDir, IDENTITY_URL: identityUrl, LOG_LEVEL: "info" });
    const url = await listeningUrl(p, "consumer API listening");
    expect(await (await contractFetch(`${url}/healthz`)).json()).toEqual({ ok: true });

    // No authority yet: a token can be neither accepted nor refused.
    const { privateKey } = await generateKeyPair("RS256");
    const early = await new SignJWT({ scope: "consumer.api" }).setProtectedHeader({ alg: "RS256", kid: "k" }).setSubject("u").setIssuer(identityUrl).setAudience("consumer.api").setExpirationTime("1h").sign(privateKey);
    const unavailable = await contractFetch(`${url}/consumer`, { headers: { authorization: `Bearer ${early}` } });
    expect(unavailable.status).toBe(503);
    expect(unavailable.headers.get("retry-after")).toBe("5");
    expect(await unavailable.json()).toMatchObject({ error: "temporarily_unavailable" });
    // A token that is not even a JWT is refused without asking anyone.
    expect((await contractFetch(`${url}/consumer`, { headers: { authorization: "Bearer nonsense" } })).status).toBe(401);

    const CLIENT = { clientId: "safewindow-web", clientSecret: "main-consumer-secret-0123456789" };
    const identity = await startIdentityService({
      dataDir: path.join(dataDir, "late"),
      publicUrl: "http://localhost:3000",
      clients: [CLIENT],
      logger: pino({ level: "silent" }),
      port: identityPort,
    });
    let token = "";
    try {
      token = (await makeUser({ identityUrl: identity.url, client: CLIENT }, { email: "late@example.com", password: "Late!pass1" })).token;
      const res = await contractFetch(`${url}/consumer`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      expect(await res.json()).toBeNull();
      // The early token was signed by a key the authority never had.
      expect((await contractFetch(`${url}/consumer`, { headers: { authorization: `Bearer ${early}` } })).status).toBe(401);
    } finally {
      await identity.close();
    }

    p.child.kill("SIGTERM");
    expect(await p.exited).toBe(0);
    expect(p.out()).toContain("consumer API stopped");
    for (const secret of [early, token]) expect(p.out() + p.err()).not.toContain(secret);
  });
});
