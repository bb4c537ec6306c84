/**
 * The scale-out recipe (docs/operating.md "Replicas"), end to end: two replicas of server.ts
 * behind a (here imaginary) load balancer, on a real PostgreSQL and a real Redis.
 *
 *   PostgreSQL ── identity authority (node services/identity/main.ts) ─┐
 *            ├─── consumer API (node services/consumer/main.ts) ───────┤
 *            └─── business API (node services/business/main.ts) ───────┤
 *   Redis ────────────────────────────────────────────── replica A, replica B (node server.ts)
 *
 * The reference services run once, as their own processes, with one DATABASE_URL (their tables
 * are prefixed, so they share a database). Every replica gets the same REDIS_URL (sessions,
 * rate limits), SESSION_SECRET (cookie signature), PUBLIC_URL, IDENTITY_URL with the client id
 * and secret, CONSUMER_API_URL and BUSINESS_API_URL, and a DATA_DIR of its own.
 *
 * The journey hops between replicas the way a load balancer without sticky sessions sends a
 * user's requests: register on A (the confirmation link comes from the identity authority's
 * outbox), sign in on B, make the profile and upload a lab PDF on B, then see the result and the
 * safe window on A with the same cookie.
 *
 * The commands and variables are deploy/compose.yaml's (read here; the compose network's names made this
 * machine's addresses), so the recipe operators copy and this test cannot drift apart.
 *
 * Needs Debian's postgresql and redis-server (.ci/run installs them) and `npm run build`.
 */
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createClient } from "@redis/client";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { formatInstant } from "../../app/dates";
import { harborviewPdf } from "../fixtures/index";
import { startPostgres, type PostgresServer } from "./postgres";
import { freePort, startRedis, stopProcess } from "./redis-server";
import { form, get, mailLink, root, sessionCookieOf, startServer, upload, type Running } from "./server-process";
import { listeningUrl, runMain, type MainProcess } from "./support";

const person = { firstName: "Grace", lastName: "Hopper", dob: "1986-12-09", usDob: "12/09/1986", postalCode: "10001" };
const password = "Window#2026a";
/** What the app prints times in when the browser has not said its zone (no JavaScript). */
const timeZone = "America/New_York";

/** The temporary directories tempDir() made, removed after the test. */
const tempDirs: string[] = [];
/** A fresh temporary directory. */
function tempDir(name: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `sw-scaleout-${name}-`));
  tempDirs.push(dir);
  return dir;
}

/** What deploy/compose.yaml says of a service: the script its command runs and its environment. */
interface ComposeService {
  script: string;
  environment: Record<string, string>;
}

/** The values this test gives the variables compose.yaml asks the operator for. */
const operatorVariables: Record<string, string> = {
  POSTGRES_PASSWORD: "unused-here",
  SESSION_SECRET: "one-secret-for-every-replica-0123456789",
  IDENTITY_CLIENT_SECRET: "scale-out-client-secret-0123",
};

/** Service `name` of deploy/compose.yaml (anchors and merge keys resolved). */
function composeService(name: string): ComposeService {
  const compose = parse(readFileSync(path.join(root, "deploy/compose.yaml"), "utf8"), { merge: true }) as {
    services: Record<string, { command: string[]; environment: Record<string, string> }>;
  };
  const service = compose.services[name];
  if (!service) throw new Error(`deploy/compose.yaml has no service ${name}`);
  expect(service.command[0]).toBe("node");
  return { script: service.command[1]!, environment: service.environment };
}

/**
 * A service's environment as compose.yaml gives it, with the operator's variables filled in (`${X}`,
 * `${X:-default}`, `${X:?message}`), and the compose network's addresses, the ports and DATA_DIR made
 * this machine's: every variable compose.yaml sets is set, and no other.
 */
function environmentOf(service: ComposeService, where: Record<"postgres" | "redis" | "identity" | "consumer" | "business", string>, dataDir: string): Record<string, string> {
  const filled = (value: string) =>
    String(value).replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_, variable: string, kind?: string, rest?: string) => {
      const given = operatorVariables[variable];
      if (given !== undefined) return given;
      if (kind === "-") return rest ?? "";
      throw new Error(`deploy/compose.yaml needs ${variable}, which this test does not give`);
    });
  const local = (key: string, value: string): string => {
    if (key === "PORT") return "0";
    if (key === "HOST") return "127.0.0.1";
    if (key === "DATA_DIR") return dataDir;
    if (/@postgres:5432\//.test(value)) return where.postgres;
    if (value.startsWith("redis://redis:")) return where.redis;
    if (value.startsWith("http://identity:")) return where.identity;
    if (value.startsWith("http://consumer:")) return where.consumer;
    if (value.startsWith("http://business:")) return where.business;
    return value;
  };
  return Object.fromEntries(Object.entries(service.environment).map(([key, value]) => [key, local(key, filled(value))]));
}

describe("two replicas on PostgreSQL and Redis", () => {
  let postgres: PostgresServer;
  let redis: ChildProcess;
  let redisUrl: string;
  let identity: MainProcess;
  let consumer: MainProcess;
  let business: MainProcess;
  let identityOutbox: string;
  let a: Running;
  let b: Running;
  const replicaDirs = { a: tempDir("a"), b: tempDir("b") };

  beforeAll(async () => {
    // The shared state: one PostgreSQL database for both services, one Redis for the replicas.
    postgres = await startPostgres({ database: "safewindow" });
    const redisPort = await freePort();
    redis = await startRedis(redisPort);
    redisUrl = `redis://127.0.0.1:${redisPort}`;

    // The reference services, once each, as their own processes on PostgreSQL, with the commands
    // and variables of deploy/compose.yaml (this machine's addresses for the compose network's names).
    const where = { postgres: postgres.databaseUrl, redis: redisUrl, identity: "", consumer: "", business: "" };
    const identityDir = tempDir("identity");
    identityOutbox = path.join(identityDir, "outbox");
    const identityService = composeService("identity");
    identity = runMain(path.join(root, identityService.script), environmentOf(identityService, where, identityDir));
    where.identity = await listeningUrl(identity, "identity authority listening");
    const businessService = composeService("business");
    business = runMain(path.join(root, businessService.script), environmentOf(businessService, where, tempDir("business")));
    where.business = await listeningUrl(business, "business API listening");
    const consumerService = composeService("consumer");
    consumer = runMain(path.join(root, consumerService.script), environmentOf(consumerService, where, tempDir("consumer")));
    where.consumer = await listeningUrl(consumer, "consumer API listening");

    // Two replicas: the same Redis, session secret and upstreams; a DATA_DIR each.
    const [appA, appB] = [composeService("app-a"), composeService("app-b")];
    expect([appA.script, appB.script]).toEqual(["server.ts", "server.ts"]);
    [a, b] = await Promise.all([startServer(environmentOf(appA, where, replicaDirs.a)), startServer(environmentOf(appB, where, replicaDirs.b))]);
  }, 180_000);

  afterAll(async () => {
    // In the reverse order of the start: the replicas, the services, then what they stored in.
    await Promise.all([a, b].map((replica) => replica && stopProcess(replica.child)));
    for (const service of [consumer, business, identity]) if (service) await stopProcess(service.child);
    if (redis) await stopProcess(redis);
    await postgres?.close();
    for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it("both replicas are ready: the upstreams and Redis answer", async () => {
    for (const replica of [a, b]) {
      const ready = await fetch(`${replica.url}/readyz`);
      expect(await ready.json()).toEqual({ ready: true, checks: { identity: true, consumer: true, business: true, redis: true } });
    }
  });

  it("register on A, sign in, make the profile and upload on B, see the result and the safe window on A", async () => {
    const email = `scaleout-${Date.now()}@example.com`;

    // Replica A: register; the confirmation link comes from the identity authority's outbox.
    const registered = await fetch(`${a.url}/registration`, form({ email, password, confirmPassword: password, acceptTerms: "on", acceptPrivacy: "on" }, a.url));
    expect(registered.status).toBe(302);
    expect(registered.headers.get("location")).toBe("/checkconfirmation");
    const link = await mailLink(identityOutbox, email, "/confirmemail");
    expect(link.origin).toBe("http://localhost:8080");
    expect((await fetch(`${a.url}/confirmemail${link.search}`)).status).toBe(200);

    // Replica B: sign in; the gate sees the confirmed address and no profile yet.
    const signedIn = await fetch(`${b.url}/login`, form({ email, password }, b.url));
    expect(signedIn.status).toBe(302);
    const cookie = sessionCookieOf(signedIn)!;
    expect(cookie).toBeTruthy();
    expect((await get(b, signedIn.headers.get("location")!, cookie)).headers.get("location")).toBe("/yourinfo");

    // Replica B: the profile, then a Harborview report collected three hours ago.
    const profile = await fetch(`${b.url}/yourinfo`, form({ firstName: person.firstName, lastName: person.lastName, dob: person.usDob, postalCode: person.postalCode }, b.url, cookie));
    expect(profile.status).toBe(302);
    expect(profile.headers.get("location")).toBe("/welcome");
    const collectedAt = new Date(Date.now() - 3 * 3600_000);
    const pdf = await harborviewPdf({ ...person, collectedAt, reportedAt: new Date(collectedAt.getTime() + 3600_000) });
    const uploaded = await upload(b, cookie, pdf);
    expect(uploaded.status).toBe(302);
    expect(uploaded.headers.get("location")).toBe("/mytests");

    // What B's services stored is in PostgreSQL.
    const db = new pg.Client({ connectionString: postgres.databaseUrl });
    await db.connect();
    let stored: { id: string; safe_window_id: string; strong_safety_date: Date; weak_safety_date: Date };
    try {
      const user = await db.query("select email_confirmed from identity_users where user_name = $1", [email]);
      expect(user.rows).toEqual([{ email_confirmed: true }]);
      // One database, both services' tables: the consumer's rows belong to the identity user.
      const rows = await db.query(
        `select r.id, p.safe_window_id, p.strong_safety_date, p.weak_safety_date
           from consumer_test_results r
           join consumer_profiles p on p.id = r.consumer_id
           join identity_users u on u.id::text = p.identity_user_id
          where u.user_name = $1`,
        [email],
      );
      expect(rows.rows).toHaveLength(1);
      stored = rows.rows[0];
    } finally {
      await db.end();
    }
    expect(stored.strong_safety_date.getTime()).toBeGreaterThan(Date.now());

    // Replica A, same cookie: the upload's outcome (a flash B left in the session in Redis), the
    // result in the list, and the safe window it opened.
    const myTests = await get(a, "/mytests", cookie);
    expect(myTests.status).toBe(200);
    const myTestsHtml = await myTests.text();
    expect(myTestsHtml).toContain("Your test result was validated.");
    expect([...myTestsHtml.matchAll(/testdetail\?id=([0-9a-f-]{36})/g)].map((m) => m[1])).toContain(stored.id);

    const safeWindow = await get(a, "/safewindow", cookie);
    expect(safeWindow.status).toBe(200);
    const safeWindowHtml = await safeWindow.text();
    expect(safeWindowHtml).toContain(`Safe window of ${person.firstName} ${person.lastName}`);
    expect(safeWindowHtml).toMatch(/<strong>Strong<\/strong>/);
    expect(safeWindowHtml).toContain(formatInstant(stored.strong_safety_date.toISOString(), timeZone));
    expect(safeWindowHtml).toContain(formatInstant(stored.weak_safety_date.toISOString(), timeZone));
    expect(safeWindowHtml).toContain(stored.safe_window_id);
  });

  it("keeps sessions in Redis and no data in the replicas' DATA_DIRs", async () => {
    const client = createClient({ url: redisUrl });
    await client.connect();
    try {
      expect((await client.keys("safewindow:session:*")).length).toBeGreaterThanOrEqual(2); // A's registration, B's sign-in
    } finally {
      await client.close();
    }
    // No embedded identity authority, consumer API or business API started on either replica.
    for (const dir of [replicaDirs.a, replicaDirs.b]) {
      expect(readdirSync(dir)).not.toContain("identity");
      expect(readdirSync(dir)).not.toContain("consumer");
      expect(readdirSync(dir)).not.toContain("business");
      expect(readdirSync(dir)).not.toContain("outbox");
    }
  });
});
