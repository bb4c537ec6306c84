// What the integration tests of the reference services share: the identity authority and the
// consumer API started together on ephemeral ports, users registered and logged in over HTTP
// (docs/product/calls.md §7 identity table), profiles made and consumer calls sent with a bearer token
// (docs/product/calls.md §7 consumer table), PGlite served over the PostgreSQL wire protocol, and a
// service's main.ts run as a child process. Each helper asserts what a test may take for granted
// (a 200 where setup must succeed); what a test is about stays in the test.
//
// Contract tests: every call the service tests send goes through contractFetch, which parses the
// answer of each contract call (contracts/) with the schema the app's clients use, and fails the
// test when it does not fit or carries keys the contract does not document.
import type { LinkFetchOptions } from "../../services/consumer/results/link.ts";
import { spawn } from "node:child_process";
import type { ChildProcessByStdio } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import type { Readable } from "node:stream";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { decodeJwt } from "jose";
import { pino } from "pino";
import PostalMime from "postal-mime";
import type { Logger } from "pino";
import { expect } from "vitest";
import type { z } from "zod";
import { findCall } from "../../contracts/call.ts";
import type { CallContract } from "../../contracts/call.ts";
import { consumerCalls } from "../../contracts/consumer.ts";
import type { Consumer } from "../../contracts/consumer.ts";
import { businessCalls } from "../../contracts/business.ts";
import { rulesPart } from "../../contracts/extension.ts";
import { identityCalls } from "../../contracts/identity.ts";
import { startBusinessService } from "../../services/business/server.ts";
import type { BusinessService } from "../../services/business/server.ts";
import { startConsumerService } from "../../services/consumer/server.ts";
import type { ConsumerOptions, ConsumerService } from "../../services/consumer/server.ts";
import { startIdentityService } from "../../services/identity/server.ts";
import type { IdentityService } from "../../services/identity/server.ts";
import { childEnv } from "./server-process.ts";

// ---------------------------------------------------------------- contract checks

/**
 * The contract call (contracts/identity.ts, contracts/consumer.ts, contracts/business.ts) at `method` and `path` (query
 * string ignored; case and a trailing slash too, as the services ignore them), or undefined.
 */
export function contractCallAt(method: string, path: string): { name: string; call: CallContract } | undefined {
  return findCall(identityCalls, method, path) ?? findCall(consumerCalls, method, path) ?? findCall(businessCalls, method, path);
}

/**
 * Keys of `sent` that parsing with the contract dropped, as paths ("consumer.extra",
 * "[0].reason"): what the service sends and the contract does not document.
 */
function undocumentedKeys(sent: unknown, parsed: unknown, at = ""): string[] {
  if (Array.isArray(sent) && Array.isArray(parsed)) return sent.flatMap((item, i) => undocumentedKeys(item, parsed[i], `${at}[${i}]`));
  if (sent === null || typeof sent !== "object" || parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return [];
  return Object.entries(sent).flatMap(([key, value]) => {
    const path = at ? `${at}.${key}` : key;
    return key in parsed ? undocumentedKeys(value, (parsed as Record<string, unknown>)[key], path) : [path];
  });
}

/**
 * Checks one answer of a reference service against its call's contract: a 2xx JSON answer against
 * the call's `answer` schema (or the product rules' part of it, contracts/extension.ts rulesPart: the answer of a
 * service in plain mode), an error answer whose status the call lists against that schema. The
 * body must parse, and may hold no key the contract leaves out (so the contract documents all the
 * service sends). Answers of paths no contract names (health, discovery, unknown paths) and error
 * statuses a call does not list (401, 413, ...) are not checked.
 * @throws Error naming the call, the status and what did not fit: the test fails there
 */
export async function checkAnswer(method: string, url: string, res: Response): Promise<void> {
  const found = contractCallAt(method, new URL(url).pathname);
  if (!found) return;
  const { name, call } = found;
  const schema: z.ZodType | undefined = res.ok ? call.answer : call.errorAnswers?.[res.status]?.schema;
  if (!schema || !(res.headers.get("content-type") ?? "").includes("application/json")) return;
  const sent: unknown = await res.clone().json();
  // An answer without the contract's extension fields (a service in plain mode) fits the rules' part.
  const full = schema.safeParse(sent);
  const parsed = full.success ? full : rulesPart(schema).safeParse(sent);
  const where = `${method} ${new URL(url).pathname} (contract ${name}) answered ${res.status}`;
  if (!parsed.success) {
    const problems = (full.error ?? parsed.error).issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; ");
    throw new Error(`${where}, which does not fit its contract: ${problems}\n${JSON.stringify(sent).slice(0, 2000)}`);
  }
  const extra = undocumentedKeys(sent, parsed.data);
  if (extra.length > 0) throw new Error(`${where} with keys its contract does not document: ${extra.join(", ")}`);
}

/**
 * fetch, then checkAnswer: every call the service tests make through it is a contract test.
 * Same arguments and answer as fetch (the body is still unread).
 */
export async function contractFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const res = await fetch(input, init);
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  const method = init?.method ?? (input instanceof Request ? input.method : "GET");
  await checkAnswer(method, url, res);
  return res;
}

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

/** The identity authority and the consumer API (and the business API when asked for) as startServices() started them. */
export interface Services extends Authority {
  identity: IdentityService;
  consumer: ConsumerService;
  /** With `business: true`: the business API, which the consumer API asks for venues. */
  business?: BusinessService;
  /** The authority's data dir: its mails are written to `outbox/` there (no SMTP in tests). */
  identityDataDir: string;
  /** The consumer API's data dir: its mails (a decided dispute) are written to `outbox/` there. */
  consumerDataDir: string;
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
  /** E-mail addresses of the consumer API's dispute reviewers (default none). */
  reviewers?: string[];
  /** Start the business API too (on the same database, or PGlite in the consumer's data dir), and give the consumer API its URL. */
  business?: boolean;
  /** How the consumer API fetches result links (results/link.ts); the object is kept, so a test may change it between calls. */
  links?: LinkFetchOptions;
  /** Signed-result issuers and signers the consumer API trusts besides the VCI snapshot (test keys). */
  proof?: ConsumerOptions["proof"];
  /** False: every service in plain mode (UPSTREAM_EXTENSIONS=off, docs/product/calls.md §7.4 "Extensions"). Default true. */
  extensions?: boolean;
  /** The consumer API's `emailMemoryMs` (services/consumer/server.ts); default its own. */
  emailMemoryMs?: number;
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
  let business: BusinessService | undefined;
  const close = async () => {
    await consumer?.close();
    await business?.close();
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
      ...(options.extensions === false ? { extensions: false } : {}),
    });
    if (options.business) {
      business = await startBusinessService({
        dataDir: dirs[1]!,
        databaseUrl,
        identityUrl: identity.url,
        identityIssuer: options.pinIssuer ? identity.issuer : undefined,
        logger: silent,
        ...(options.extensions === false ? { extensions: false } : {}),
      });
    }
    consumer = await startConsumerService({
      dataDir: dirs[1]!,
      databaseUrl,
      identityUrl: identity.url,
      businessUrl: business?.url,
      identityIssuer: options.pinIssuer ? identity.issuer : undefined,
      logger: options.consumerLogger ?? silent,
      now: options.consumerNow,
      reviewers: options.reviewers,
      publicUrl: "http://localhost:3000",
      ...(options.links ? { links: options.links } : {}),
      ...(options.proof ? { proof: options.proof } : {}),
      ...(options.extensions === false ? { extensions: false } : {}),
      ...(options.emailMemoryMs !== undefined ? { emailMemoryMs: options.emailMemoryMs } : {}),
    });
  } catch (err) {
    await close();
    throw err;
  }
  return { identity, consumer, ...(business ? { business } : {}), identityDataDir: dirs[0]!, consumerDataDir: dirs[1]!, identityUrl: identity.url, client: options.client, onToken: options.onToken, close };
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
  return contractFetch(`${authority.identityUrl}/connect/token`, {
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
  /** Confirm the address through the confirmation mail's link before signing in, so the token says `email_verified: true` (needs the services' outbox). */
  confirmed?: boolean;
}

let userCounter = 0;

/**
 * Registers a user (POST /api/account/register with a client-credentials token, asserting a 200)
 * and logs them in with the password grant. Without `email`, a fresh `<tag>-<n>-<random>@example.com`
 * (tag default "user"); without `password`, a random one that meets docs/product/data.md §5.
 */
export async function makeUser(authority: Authority, account: NewAccount = {}): Promise<TestUser> {
  userCounter += 1;
  const email = account.email ?? `${account.tag ?? "user"}-${userCounter}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const password = account.password ?? `Sw!${Math.random().toString(36).slice(2, 10)}x9Z`;
  const reg = await contractFetch(`${authority.identityUrl}/api/account/register`, {
    method: "POST",
    headers: { authorization: `Bearer ${await accessToken(authority, { grant_type: "client_credentials", scope: "identity.api" })}`, "content-type": "application/json" },
    body: JSON.stringify({ userName: email, password }),
  });
  expect(reg.status).toBe(200);
  if (account.confirmed) {
    if (!("identityDataDir" in authority)) throw new Error("makeUser({ confirmed: true }) needs the services' outbox (identityDataDir)");
    await confirmAddress(authority as Services, email);
  }
  const token = await accessToken(authority, { grant_type: "password", username: email, password });
  return { email, password, token, sub: decodeJwt(token).sub as string };
}

/** Whose outbox: the identity authority's (account mails) or the consumer API's (decided disputes). */
export type MailSource = "identity" | "consumer";

function outboxDir(services: Pick<Services, "identityDataDir" | "consumerDataDir">, source: MailSource): string {
  return path.join(source === "identity" ? services.identityDataDir : services.consumerDataDir, "outbox");
}

/** The `.eml` file names in a service's outbox directory (mails are written there in tests; none yet: []). */
export async function outboxFiles(services: Pick<Services, "identityDataDir" | "consumerDataDir">, source: MailSource = "identity"): Promise<string[]> {
  try {
    return (await readdir(outboxDir(services, source))).filter((f) => f.endsWith(".eml"));
  } catch {
    return [];
  }
}

/**
 * Runs `action` and answers the first mail to `address` written to `source`'s outbox after it started,
 * with the first link of its text (a service sends some mails a moment later: waits up to 15 s).
 * @throws Error when no such mail comes in 15 s.
 */
export async function mailAfter(
  services: Pick<Services, "identityDataDir" | "consumerDataDir">,
  address: string,
  action: () => Promise<unknown>,
  source: MailSource = "identity",
): Promise<{ subject: string; text: string; link: URL | null; contentLanguage: string | null; htmlLang: string | null }> {
  const before = new Set(await outboxFiles(services, source));
  await action();
  const deadline = Date.now() + 15_000;
  for (;;) {
    for (const file of (await outboxFiles(services, source)).filter((f) => !before.has(f))) {
      before.add(file);
      const mail = await PostalMime.parse(await readFile(path.join(outboxDir(services, source), file)));
      const to = mail.to?.[0] && "address" in mail.to[0] ? mail.to[0].address : undefined;
      if (to?.toLowerCase() !== address.toLowerCase()) continue;
      const href = /https?:\/\/\S+/.exec(mail.text ?? "")?.[0];
      const contentLanguage = mail.headers.find((h) => h.key === "content-language")?.value ?? null;
      const htmlLang = /^<!doctype html><html lang="([^"]+)">/i.exec(mail.html ?? "")?.[1] ?? null;
      return { subject: mail.subject ?? "", text: mail.text ?? "", link: href ? new URL(href) : null, contentLanguage, htmlLang };
    }
    if (Date.now() > deadline) throw new Error(`no mail to ${address}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Confirms `email` the way a person does: asks for the confirmation mail, reads its link's token and confirms (asserting success). */
export async function confirmAddress(services: Authority & Pick<Services, "identityDataDir" | "consumerDataDir">, email: string): Promise<void> {
  const client = `Bearer ${await accessToken(services, { grant_type: "client_credentials", scope: "identity.api" })}`;
  const mail = await mailAfter(services, email, async () => {
    const query = new URLSearchParams({ email, requestedUri: "https://safewindow.test/confirmemail" });
    expect((await contractFetch(`${services.identityUrl}/api/account/sendconfirmationemail?${query}`, { headers: { authorization: client } })).status).toBe(200);
  });
  const token = mail.link?.searchParams.get("token");
  if (!token) throw new Error(`the confirmation mail to ${email} has no token`);
  const confirmed = await contractFetch(`${services.identityUrl}/api/account/confirmemail?${new URLSearchParams({ email, token })}`, { headers: { authorization: client } });
  expect(await confirmed.json()).toMatchObject({ succeeded: true });
}

// ---------------------------------------------------------------- the consumer API

/** Who a call is made as: a bearer token, anything carrying one (a TestUser), or nobody (no Authorization header). */
export type Bearer = string | { token: string } | null;

/** fetch of `${consumer URL}${pathAndQuery}` with `init`, adding `Authorization: Bearer <token>` for `who`; the raw answer. */
export function callApi(services: Pick<Services, "consumer">, pathAndQuery: string, who: Bearer, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  const token = typeof who === "string" ? who : who?.token;
  if (token) headers.set("authorization", `Bearer ${token}`);
  return contractFetch(`${services.consumer.url}${pathAndQuery}`, { ...init, headers });
}

/** The answer's JSON body; asserts it says it is JSON. */
export async function json<T = any>(res: Response): Promise<T> {
  expect(res.headers.get("content-type")).toContain("application/json");
  return (await res.json()) as T;
}

/** GET /testresult/getcurrentusertestresults/ as `who` (docs/product/calls.md §7); asserts 200 and returns the list. */
export async function currentResults(services: Pick<Services, "consumer">, who: Bearer): Promise<any[]> {
  const res = await callApi(services, "/testresult/getcurrentusertestresults/", who);
  expect(res.status).toBe(200);
  return json(res);
}

/** GET /consumer/getsafewindow as `who` (docs/product/calls.md §7); asserts 200 and returns the window. */
export async function safeWindowOf(services: Pick<Services, "consumer">, who: Bearer): Promise<any> {
  const res = await callApi(services, "/consumer/getsafewindow", who);
  expect(res.status).toBe(200);
  return json(res);
}

/** A profile as the consumer API answers it (docs/product/calls.md §7 GET /consumer): the contract's type. */
export type Profile = Consumer;

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

/** makeUser(services, account), then createprofile with `consumer` as their first consumer call (asserting a 200); the profile as written. */
export async function makePerson(services: Services, consumer: Record<string, unknown>, account: NewAccount = {}): Promise<Person> {
  const user = await makeUser(services, account);
  const res = await createProfile(services, user, consumer);
  expect(res.status).toBe(200);
  // In plain mode the answer is `{success}` alone: the profile is then read as the product rules' GET /consumer answers it.
  const written = ((await res.json()) as { consumer?: Profile }).consumer;
  return { ...user, profile: written ?? (await json<Profile>(await callApi(services, "/consumer", user))) };
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
  /** The signal that ended it (exit code null), once it has ended; else null. */
  signal(): NodeJS.Signals | null;
}

/** Runs `script` (a path) with this Node (24), its environment only PATH and `env`. */
export function runMain(script: string, env: Record<string, string>): MainProcess {
  const child = spawn(process.execPath, [script], {
    env: childEnv(env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
  let signal: NodeJS.Signals | null = null;
  const exited = new Promise<number | null>((resolve) =>
    child.on("exit", (code, killedBy) => {
      signal = killedBy;
      resolve(code);
    }),
  );
  return { child, exited, out: () => stdout, err: () => stderr, signal: () => signal };
}

/**
 * Waits for the process's JSON log line `message` with its `"port"`, and answers
 * http://127.0.0.1:<port>.
 * @throws after `timeoutMs` (default 30 s) without that line, with what the process printed
 */
export function listeningUrl(p: MainProcess, message: string, timeoutMs = 30_000): Promise<string> {
  const line = new RegExp(`"port":(\\d+),.*"${message.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}"`);
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line: ${p.out()} ${p.err()}`)), timeoutMs);
    p.child.stdout.on("data", () => {
      const m = line.exec(p.out());
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${m[1]}`);
      }
    });
  });
}

/** Width and height, in pixels, from a JPEG's SOF marker. @throws Error when it has none. */
export function jpegSize(jpeg: Buffer): { width: number; height: number } {
  let at = 2;
  while (at < jpeg.length) {
    const marker = jpeg[at + 1]!;
    const length = jpeg.readUInt16BE(at + 2);
    if (marker >= 0xc0 && marker <= 0xc2) return { height: jpeg.readUInt16BE(at + 5), width: jpeg.readUInt16BE(at + 7) };
    at += 2 + length;
  }
  throw new Error("no SOF marker");
}

/**
 * Polls `check` every 50 ms until it returns a value other than undefined, and answers it.
 * @param ms the bound, for a stuck run rather than a speed: 20 s unless said
 * @throws Error("timed out waiting for <what>") past it
 */
export async function eventually<T>(what: string, check: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
