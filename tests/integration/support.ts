// What the integration tests of the reference services share: the identity authority and the
// consumer API started together on ephemeral ports, users registered and logged in over HTTP
// (SPEC §7 identity table), profiles made and consumer calls sent with a bearer token (SPEC §7
// consumer table), PGlite served over the PostgreSQL wire protocol, and a service's main.ts run
// as a child process. Each helper asserts what a test may take for granted (a 200 where setup
// must succeed); what a test is about stays in the test.
import { spawn } from "node:child_process";
import type { ChildProcessByStdio } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import type { Readable } from "node:stream";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { decodeJwt } from "jose";
import { pino } from "pino";
import type { Logger } from "pino";
import { expect } from "vitest";
import type { ConsumerProfile } from "../../services/consumer/profiles.ts";
import { startConsumerService } from "../../services/consumer/server.ts";
import type { ConsumerService } from "../../services/consumer/server.ts";
import { startIdentityService } from "../../services/identity/server.ts";
import type { IdentityService } from "../../services/identity/server.ts";

// ---------------------------------------------------------------- the two services

/** A confidential client of the identity authority (client_id and client_secret of /connect/token). */
export interface Client {
  clientId: string;
  clientSecret: string;
}

/** Where a test asks for tokens, and as which client. */
export interface Authority {
  /** The identity authority's base URL, no trailing slash. */
  identityUrl: string;
  client: Client;
  /** Called with every access token the helpers obtain (a test collects them to look for them in logs). */
  onToken?: (token: string) => void;
}

/** The identity authority and the consumer API as startServices() started them. */
export interface Services extends Authority {
  identity: IdentityService;
  consumer: ConsumerService;
  /** Closes the consumer API, then the authority, then removes the data dirs startServices() made. */
  close(): Promise<void>;
}

export interface ServicesOptions {
  /** The one client the authority knows. */
  client: Client;
  /** Names the fresh temporary data dirs: `<tmpPrefix>id-XXXXXX` for the authority, `<tmpPrefix>XXXXXX` for the consumer API. */
  tmpPrefix: string;
  /** PostgreSQL for both services (their tables are prefixed, so one database serves both); default PGlite in each data dir. */
  databaseUrl?: string;
  /** Give the consumer API the authority's configured issuer as the expected one, instead of it reading the discovery document. */
  pinIssuer?: boolean;
  /** Default: silent. */
  identityLogger?: Logger;
  /** Default: silent. */
  consumerLogger?: Logger;
  /** The consumer API's clock (token expiry, age rule); default the real one. The authority always runs on the real clock. */
  consumerNow?: () => Date;
  onToken?: (token: string) => void;
}

/**
 * Starts the identity authority (public URL http://localhost:3000, knowing `client`) and a
 * consumer API that verifies its tokens, each on an ephemeral loopback port with its own fresh
 * data dir. Call close() in afterAll.
 */
export async function startServices(options: ServicesOptions): Promise<Services> {
  const dirs = await Promise.all([mkdtemp(path.join(tmpdir(), `${options.tmpPrefix}id-`)), mkdtemp(path.join(tmpdir(), options.tmpPrefix))]);
  const silent = pino({ level: "silent" });
  const { databaseUrl } = options;
  let identity: IdentityService | undefined;
  let consumer: ConsumerService | undefined;
  const close = async () => {
    await consumer?.close();
    await identity?.close();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  };
  try {
    identity = await startIdentityService({
      dataDir: dirs[0]!,
      databaseUrl,
      publicUrl: "http://localhost:3000",
      clients: [options.client],
      logger: options.identityLogger ?? silent,
    });
    consumer = await startConsumerService({
      dataDir: dirs[1]!,
      databaseUrl,
      identityUrl: identity.url,
      identityIssuer: options.pinIssuer ? identity.issuer : undefined,
      logger: options.consumerLogger ?? silent,
      now: options.consumerNow,
    });
  } catch (err) {
    await close();
    throw err;
  }
  return { identity, consumer, identityUrl: identity.url, client: options.client, onToken: options.onToken, close };
}

/** A pino destination that appends each line written to it to `lines` (the test reads the log as text). */
export function lineSink(lines: string[]): Writable {
  return new Writable({
    write(chunk: Buffer, _enc, cb) {
      lines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
      cb();
    },
  });
}

// ---------------------------------------------------------------- tokens and users

/** POST /connect/token as the authority's client with `fields` (grant_type, username, scope, ...); the raw answer. */
export function requestToken(authority: Authority, fields: Record<string, string>): Promise<Response> {
  const { clientId, clientSecret } = authority.client;
  return fetch(`${authority.identityUrl}/connect/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ client_id: clientId, client_secret: clientSecret, ...fields }).toString(),
  });
}

/** The access token /connect/token answers for `fields`; asserts a 200. */
export async function accessToken(authority: Authority, fields: Record<string, string>): Promise<string> {
  const res = await requestToken(authority, fields);
  expect(res.status).toBe(200);
  const token = ((await res.json()) as { access_token: string }).access_token;
  authority.onToken?.(token);
  return token;
}

/** A registered identity user, logged in. */
export interface TestUser {
  email: string;
  password: string;
  /** Access token of the password grant with the default (all user) scopes. */
  token: string;
  /** The identity user id (token `sub`). */
  sub: string;
}

/** What makeUser() registers: by default a fresh e-mail address and password. */
export interface NewAccount {
  /** Starts the generated address (default "user"). */
  tag?: string;
  email?: string;
  password?: string;
}

let userCounter = 0;

/**
 * Registers a user (POST /api/account/register with a client-credentials token, asserting a 200)
 * and logs them in with the password grant. Without `email`, a fresh `<tag>-<n>-<random>@example.com`
 * (tag default "user"); without `password`, a random one that meets SPEC §5.
 */
export async function makeUser(authority: Authority, account: NewAccount = {}): Promise<TestUser> {
  userCounter += 1;
  const email = account.email ?? `${account.tag ?? "user"}-${userCounter}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const password = account.password ?? `Sw!${Math.random().toString(36).slice(2, 10)}x9Z`;
  const reg = await fetch(`${authority.identityUrl}/api/account/register`, {
    method: "POST",
    headers: { authorization: `Bearer ${await accessToken(authority, { grant_type: "client_credentials", scope: "identity.api" })}`, "content-type": "application/json" },
    body: JSON.stringify({ userName: email, password }),
  });
  expect(reg.status).toBe(200);
  const token = await accessToken(authority, { grant_type: "password", username: email, password });
  return { email, password, token, sub: decodeJwt(token).sub as string };
}

// ---------------------------------------------------------------- the consumer API

/** Who a call is made as: a bearer token, anything carrying one (a TestUser), or nobody (no Authorization header). */
export type Bearer = string | { token: string } | null;

/** fetch of `${consumer URL}${pathAndQuery}` with `init`, adding `Authorization: Bearer <token>` for `who`; the raw answer. */
export function callApi(services: Pick<Services, "consumer">, pathAndQuery: string, who: Bearer, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  const token = typeof who === "string" ? who : who?.token;
  if (token) headers.set("authorization", `Bearer ${token}`);
  return fetch(`${services.consumer.url}${pathAndQuery}`, { ...init, headers });
}

/** The answer's JSON body; asserts it says it is JSON. */
export async function json<T = any>(res: Response): Promise<T> {
  expect(res.headers.get("content-type")).toContain("application/json");
  return (await res.json()) as T;
}

/** GET /testresult/getcurrentusertestresults/ as `who` (SPEC §7); asserts 200 and returns the list. */
export async function currentResults(services: Pick<Services, "consumer">, who: Bearer): Promise<any[]> {
  const res = await callApi(services, "/testresult/getcurrentusertestresults/", who);
  expect(res.status).toBe(200);
  return json(res);
}

/** GET /consumer/getsafewindow as `who` (SPEC §7); asserts 200 and returns the window. */
export async function safeWindowOf(services: Pick<Services, "consumer">, who: Bearer): Promise<any> {
  const res = await callApi(services, "/consumer/getsafewindow", who);
  expect(res.status).toBe(200);
  return json(res);
}

/** A profile as the consumer API answers it (SPEC §7 GET /consumer): the service's own type. */
export type Profile = ConsumerProfile;

/** POST /consumer/createprofile `{ consumer, ...extra }` as JSON (extra: no coordinates unless given); the raw answer. */
export function createProfile(
  services: Pick<Services, "consumer">,
  who: Bearer,
  consumer: Record<string, unknown>,
  extra: Record<string, unknown> = { latitude: null, longitude: null },
): Promise<Response> {
  return callApi(services, "/consumer/createprofile", who, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ consumer, ...extra }),
  });
}

/** POST /consumer/modifycore/ with `fields` as a URL-encoded form; the raw answer. */
export function modifyCore(services: Pick<Services, "consumer">, who: Bearer, fields: Record<string, string>): Promise<Response> {
  return callApi(services, "/consumer/modifycore/", who, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });
}

/** A user with a profile. */
export interface Person extends TestUser {
  /** The profile as createprofile answered it. */
  profile: Profile;
}

/** makeUser(services, account), then createprofile with `consumer` as their first consumer call (asserting a 200). */
export async function makePerson(services: Services, consumer: Record<string, unknown>, account: NewAccount = {}): Promise<Person> {
  const user = await makeUser(services, account);
  const res = await createProfile(services, user, consumer);
  expect(res.status).toBe(200);
  return { ...user, profile: ((await res.json()) as { consumer: Profile }).consumer };
}

// ---------------------------------------------------------------- PostgreSQL

/** An in-memory PGlite served over the PostgreSQL wire protocol. */
export interface PgliteServer {
  /** postgresql://postgres@127.0.0.1:<port>/postgres */
  databaseUrl: string;
  /** Stops the socket server, then closes the database. */
  close(): Promise<void>;
}

/** Serves a fresh in-memory PGlite on an ephemeral loopback port (up to 32 connections), so `pg` can talk to it: no PostgreSQL install needed. */
export async function startPgliteServer(): Promise<PgliteServer> {
  const pglite = new PGlite();
  const socketServer = new PGLiteSocketServer({ db: pglite, host: "127.0.0.1", port: 0, maxConnections: 32 });
  await socketServer.start();
  return {
    databaseUrl: `postgresql://postgres@${socketServer.getServerConn()}/postgres`,
    async close() {
      await socketServer.stop();
      await pglite.close();
    },
  };
}

// ---------------------------------------------------------------- main.ts as a process

/** A service's main.ts running as a child process. */
export interface MainProcess {
  child: ChildProcessByStdio<null, Readable, Readable>;
  /** Resolves with the exit code when it ends. */
  exited: Promise<number | null>;
  /** Everything it wrote to stdout so far. */
  out(): string;
  /** Everything it wrote to stderr so far. */
  err(): string;
}

/** Runs `script` (a path) with this Node (24), its environment only PATH and `env`. */
export function runMain(script: string, env: Record<string, string>): MainProcess {
  const child = spawn(process.execPath, [script], {
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

/**
 * Waits for the process's JSON log line `message` with its `"port"`, and answers
 * http://127.0.0.1:<port>.
 * @throws after 30 s without that line, with what the process printed
 */
export function listeningUrl(p: MainProcess, message: string): Promise<string> {
  const line = new RegExp(`"port":(\\d+),.*"${message.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}"`);
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line: ${p.out()} ${p.err()}`)), 30_000);
    p.child.stdout.on("data", () => {
      const m = line.exec(p.out());
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${m[1]}`);
      }
    });
  });
}
