/**
 * Scale-out with REDIS_URL (docs/architecture/README.md §1): two replicas of server.ts share one real Redis
 * (Debian's redis-server, which .ci/run installs) and the same upstreams, as they would behind a
 * load balancer. A session begun on one is honoured and ended on the other; the account-form
 * rate limit counts across both; /readyz checks Redis; Redis going away gives error pages, not
 * hangs or crashes, and the replicas recover when it returns; an unreachable Redis stops the start.
 */
import type { ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createClient } from "@redis/client";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBusinessService, type BusinessService } from "../../services/business/server";
import { startConsumerService, type ConsumerService } from "../../services/consumer/server";
import { startIdentityService, type IdentityService } from "../../services/identity/server";
import { freePort, startRedis, stopProcess as stop } from "./redis-server";
import { form, runServerToExit, sessionCookieOf, startServer, type Running } from "./server-process";

/** Polls `check` every 200 ms until it returns true, for at most `ms`. */
async function eventually(check: () => Promise<boolean>, ms = 15_000): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > until) return false;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe("two replicas sharing Redis", () => {
  const password = "Window#2026a";
  const clientSecret = "redis-replicas-secret-0123";
  let redisPort: number;
  let redis: ChildProcess;
  let identity: IdentityService;
  let consumer: ConsumerService;
  let business: BusinessService;
  let a: Running;
  let b: Running;
  let dataDirA: string;

  beforeAll(async () => {
    redisPort = await freePort();
    redis = await startRedis(redisPort);
    const logger = pino({ level: "silent" });
    identity = await startIdentityService({
      dataDir: mkdtempSync(path.join(tmpdir(), "sw-redis-id-")),
      publicUrl: "http://127.0.0.1",
      clients: [{ clientId: "safewindow-web", clientSecret }],
      logger,
    });
    business = await startBusinessService({ dataDir: mkdtempSync(path.join(tmpdir(), "sw-redis-business-")), identityUrl: identity.url, logger });
    consumer = await startConsumerService({ dataDir: mkdtempSync(path.join(tmpdir(), "sw-redis-consumer-")), identityUrl: identity.url, businessUrl: business.url, logger });
    const shared = {
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      SESSION_SECRET: "one-secret-for-every-replica-0123456789",
      IDENTITY_URL: identity.url,
      IDENTITY_CLIENT_SECRET: clientSecret,
      CONSUMER_API_URL: consumer.url,
      BUSINESS_API_URL: business.url,
      AUTH_RATE_LIMIT: "4",
    };
    dataDirA = mkdtempSync(path.join(tmpdir(), "sw-redis-a-"));
    [a, b] = await Promise.all([
      startServer({ ...shared, DATA_DIR: dataDirA }),
      startServer({ ...shared, DATA_DIR: mkdtempSync(path.join(tmpdir(), "sw-redis-b-")) }),
    ]);
  }, 90_000);

  afterAll(async () => {
    for (const replica of [a, b]) if (replica?.child.exitCode === null) replica.child.kill("SIGKILL");
    await consumer?.close();
    await business?.close();
    await identity?.close();
    if (redis) await stop(redis);
  });

  it("reports Redis in /readyz", async () => {
    const ready = await fetch(`${a.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ready: true, checks: { identity: true, consumer: true, business: true, redis: true } });
  });

  it("honours a session begun on one replica on the other, and a logout on one ends it on both", async () => {
    const email = `replicas-${Date.now()}@example.com`;
    const registered = await fetch(`${a.url}/registration`, form({ email, password, confirmPassword: password, acceptTerms: "on", acceptPrivacy: "on" }, a.url));
    expect(registered.status).toBe(302);
    const cookie = sessionCookieOf(registered)!;
    expect(cookie).toBeTruthy();

    // The session lives in Redis with an expiry, not in replica A's files.
    const client = createClient({ url: `redis://127.0.0.1:${redisPort}` });
    await client.connect();
    try {
      const keys = await client.keys("safewindow:session:*");
      expect(keys.length).toBeGreaterThan(0);
      const ttl = await client.ttl(keys[0]!);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(12 * 60 * 60);
      expect(await client.get(keys[0]!)).not.toContain(password);
    } finally {
      await client.close();
    }
    expect(existsSync(path.join(dataDirA, "sessions")) ? readdirSync(path.join(dataDirA, "sessions")) : []).toEqual([]);

    const onB = await fetch(`${b.url}/checkconfirmation`, { headers: { cookie }, redirect: "manual" });
    expect(onB.status).toBe(200);
    expect(await onB.text()).toContain(email);

    const logout = await fetch(`${b.url}/logout`, form({}, b.url, cookie));
    expect(logout.status).toBe(302);
    const afterLogout = await fetch(`${a.url}/checkconfirmation`, { headers: { cookie }, redirect: "manual" });
    expect(afterLogout.status).toBe(302);
    expect(afterLogout.headers.get("location")).toMatch(/^\/login/);
  });

  it("counts the account-form rate limit across the replicas", async () => {
    const statuses: number[] = [];
    for (const replica of [a, b, a, b, a]) {
      const response = await fetch(`${replica.url}/requestpasswordchange`, form({ email: "limit@example.com" }, replica.url));
      statuses.push(response.status);
      await response.text();
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
  });

  it("answers error pages while Redis is down, and recovers when it returns", async () => {
    const email = `outage-${Date.now()}@example.com`;
    await stop(redis);

    // /readyz asks its upstreams and Redis at most once a second: an answer of the second before
    // (this file's earlier /readyz) may still stand.
    expect(await eventually(async () => (await fetch(`${a.url}/readyz`)).status === 503)).toBe(true);
    const started = Date.now();
    const login = await fetch(`${a.url}/login`, form({ email, password }, a.url));
    expect(login.status).toBe(500);
    expect(await login.text()).toContain("Something went wrong on our side");
    expect(Date.now() - started).toBeLessThan(5_000); // fails at once, no offline queue
    expect((await fetch(`${b.url}/healthz`)).status).toBe(200);
    expect(a.child.exitCode).toBeNull();
    expect(a.output()).not.toContain(`127.0.0.1:${redisPort}`); // connection errors are logged without the address

    redis = await startRedis(redisPort);
    expect(await eventually(async () => (await fetch(`${a.url}/readyz`)).status === 200)).toBe(true);
    expect(await eventually(async () => (await fetch(`${b.url}/readyz`)).status === 200)).toBe(true);
    const registered = await fetch(`${b.url}/registration`, form({ email, password, confirmPassword: password, acceptTerms: "on", acceptPrivacy: "on" }, b.url));
    expect(registered.status).toBe(302);
    const page = await fetch(`${a.url}/checkconfirmation`, { headers: { cookie: sessionCookieOf(registered)! }, redirect: "manual" });
    expect(page.status).toBe(200);
  }, 60_000);
});

describe("REDIS_URL unreachable at start", () => {
  it("stops the start with a message naming REDIS_URL but not its value", async () => {
    const port = await freePort();
    const { code, stderr } = await runServerToExit({
      REDIS_URL: `redis://sw:not-a-real-secret@127.0.0.1:${port}`,
      DATA_DIR: mkdtempSync(path.join(tmpdir(), "sw-redis-bad-")),
      IDENTITY_URL: "http://127.0.0.1:9",
      IDENTITY_CLIENT_SECRET: "a-secret-of-sixteen-chars",
      CONSUMER_API_URL: "http://127.0.0.1:9",
      BUSINESS_API_URL: "http://127.0.0.1:9",
    });
    expect(code).toBe(1);
    expect(stderr).toContain("REDIS_URL");
    expect(stderr).not.toContain("not-a-real-secret");
    expect(stderr).not.toContain(String(port));
  }, 30_000);
});
