// The identity authority's issuer (services/identity/README.md "Issuer"): a configured name, not
// the listening URL, so a token issued before a restart on the same data dir (new ephemeral
// port) is still accepted after it, by jose against the new JWKS and by the consumer API's own
// verifier reading the new discovery document.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createRemoteJWKSet, decodeJwt, jwtVerify } from "jose";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTokenVerifier } from "../../services/shared/auth.ts";
import { startIdentityService } from "../../services/identity/server.ts";
import type { IdentityOptions, IdentityService } from "../../services/identity/server.ts";
import { accessToken, contractFetch } from "./support.ts";

const PUBLIC_URL = "http://localhost:3000/app";
const CLIENT = { clientId: "web", clientSecret: "issuer-test-secret-0123456789" };

let dataDir: string;
const running: IdentityService[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "identity-issuer-"));
});

afterAll(async () => {
  for (const service of running) await service.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function start(extra: Partial<IdentityOptions> = {}): Promise<IdentityService> {
  const service = await startIdentityService({ dataDir, publicUrl: PUBLIC_URL, clients: [CLIENT], logger: pino({ level: "silent" }), ...extra });
  running.push(service);
  return service;
}

const portOf = (url: string) => new URL(url).port;

async function discoveredIssuer(url: string): Promise<string> {
  return ((await (await contractFetch(`${url}/.well-known/openid-configuration`)).json()) as { issuer: string }).issuer;
}

describe("issuer", () => {
  it("is `${publicUrl}/identity` by default, in discovery and in every token, whatever the port", async () => {
    const service = await start();
    expect(service.issuer).toBe(`${PUBLIC_URL}/identity`);
    expect(service.issuer).not.toContain(portOf(service.url));
    expect(await discoveredIssuer(service.url)).toBe(service.issuer);
    const client = await accessToken({ identityUrl: service.url, client: CLIENT }, { grant_type: "client_credentials" });
    expect(decodeJwt(client).iss).toBe(service.issuer);
    // The authority's own client-token calls check the same issuer.
    const available = await contractFetch(`${service.url}/api/account/isavailable?email=nobody%40example.com`, { headers: { authorization: `Bearer ${client}` } });
    expect(available.status).toBe(200);
    await service.close();
  });

  it("keeps a token issued before a restart valid after it (same data dir, new port)", async () => {
    const before = await start();
    const client = await accessToken({ identityUrl: before.url, client: CLIENT }, { grant_type: "client_credentials" });
    const email = "restart-user@example.com";
    const password = "Restart!pass1";
    const reg = await contractFetch(`${before.url}/api/account/register`, {
      method: "POST",
      headers: { authorization: `Bearer ${client}`, "content-type": "application/json" },
      body: JSON.stringify({ userName: email, password }),
    });
    expect(reg.status).toBe(200);
    const user = await accessToken({ identityUrl: before.url, client: CLIENT }, { grant_type: "password", username: email, password });
    await before.close();

    const after = await start();
    expect(after.url).not.toBe(before.url);
    expect(after.issuer).toBe(before.issuer);
    expect(await discoveredIssuer(after.url)).toBe(before.issuer);

    // jose, against the restarted authority's JWKS and the configured issuer.
    const { payload } = await jwtVerify(user, createRemoteJWKSet(new URL(`${after.url}/.well-known/jwks.json`)), {
      issuer: after.issuer,
      audience: "consumer.api",
    });
    expect(payload.email).toBe(email);

    // The consumer API's verifier, which reads the issuer from the discovery document.
    const verifier = createTokenVerifier({ identityUrl: after.url, now: () => new Date() });
    expect(await verifier.verify(`Bearer ${user}`)).toEqual({ identityUserId: payload.sub, email, emailVerified: false });

    // And the authority itself still accepts both tokens.
    const me = await contractFetch(`${after.url}/api/users/`, { headers: { authorization: `Bearer ${user}` } });
    expect(me.status).toBe(200);
    const available = await contractFetch(`${after.url}/api/account/isavailable?email=${encodeURIComponent(email)}`, { headers: { authorization: `Bearer ${client}` } });
    expect(await available.json()).toBe(false);
    await after.close();
  });

  it("uses the issuer option when given, and refuses one with a query, a fragment or another scheme", async () => {
    const service = await start({ issuer: "https://id.example.com/tenant" });
    expect(await discoveredIssuer(service.url)).toBe("https://id.example.com/tenant");
    const client = await accessToken({ identityUrl: service.url, client: CLIENT }, { grant_type: "client_credentials" });
    expect(decodeJwt(client).iss).toBe("https://id.example.com/tenant");
    await service.close();
    // A token of another issuer (the default one) is refused by the authority configured otherwise.
    const other = await start();
    const otherToken = await accessToken({ identityUrl: other.url, client: CLIENT }, { grant_type: "client_credentials" });
    await other.close();
    const renamed = await start({ issuer: "https://id.example.com/tenant" });
    const refused = await contractFetch(`${renamed.url}/api/account/isavailable?email=x%40example.com`, { headers: { authorization: `Bearer ${otherToken}` } });
    expect(refused.status).toBe(401);
    await renamed.close();

    for (const issuer of ["https://id.example.com/?a=1", "https://id.example.com/#x", "ftp://id.example.com", "not a url"]) {
      await expect(start({ issuer })).rejects.toThrow(/issuer/);
    }
  });
});
