// Account takeover paths at the reference identity authority (issue 10), each written as the
// attack: what the attacker does, and what the owner or the attacker sees afterwards.
// services/identity/README.md has the contract ("Contract", "Mails").
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startIdentityService } from "../../services/identity/server.ts";
import type { IdentityService } from "../../services/identity/server.ts";
import { lineSink, requestToken } from "./support.ts";
import type { Authority } from "./support.ts";

const PUBLIC_URL = "http://localhost:3000";
const CLIENT = { clientId: "safewindow-web", clientSecret: "takeover-secret-0123456789" };
/** The lockout's window here: short, so a test can wait it out. */
const LOCKOUT = { limit: 5, windowMs: 3_000 };

let service: IdentityService;
let dataDir: string;
let authority: Authority;
const logLines: string[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "identity-takeover-"));
  service = await startIdentityService({
    dataDir,
    publicUrl: PUBLIC_URL,
    clients: [CLIENT],
    logger: pino({ level: "debug" }, lineSink(logLines)),
    tokenRateLimit: LOCKOUT,
  });
  authority = { identityUrl: service.url, client: CLIENT };
});

afterAll(async () => {
  await service?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

let counter = 0;
const newEmail = (tag: string) => `${tag}-${++counter}-${Math.random().toString(36).slice(2, 8)}@example.com`;
const PASSWORD = "Owner!pass1";

async function asClient(pathAndQuery: string, init: RequestInit = {}): Promise<Response> {
  const res = await requestToken(authority, { grant_type: "client_credentials" });
  const token = ((await res.json()) as { access_token: string }).access_token;
  const headers = new Headers(init.headers);
  headers.set("authorization", `Bearer ${token}`);
  return fetch(`${service.url}${pathAndQuery}`, { ...init, headers });
}

async function register(email: string, password = PASSWORD): Promise<void> {
  const res = await asClient("/api/account/register", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ userName: email, password }) });
  expect(res.status).toBe(200);
}

const signIn = (username: string, password: string) => requestToken(authority, { grant_type: "password", username, password });

// ---------------------------------------------------------------- lockout

describe("lockout after failed sign-ins", () => {
  it("answers 429 with Retry-After, the seconds until the window resets; after that wait the owner signs in", async () => {
    const email = newEmail("locked");
    await register(email);
    // The attacker guesses; the first failure starts the window.
    const started = Date.now();
    for (let i = 0; i < LOCKOUT.limit; i += 1) expect((await signIn(email, `Guess!${i}pass`)).status).toBe(400);

    const locked = await signIn(email, PASSWORD);
    expect(locked.status).toBe(429);
    expect(locked.headers.get("cache-control")).toBe("no-store");
    expect(await locked.json()).toEqual({ error: "too_many_requests", error_description: "Too many failed attempts. Try again later." });
    const retryAfter = locked.headers.get("retry-after");
    expect(retryAfter).toMatch(/^[1-9][0-9]*$/); // delta-seconds (RFC 9110 §10.2.3), never 0
    const seconds = Number(retryAfter);
    const left = Math.ceil((started + LOCKOUT.windowMs - Date.now()) / 1000);
    expect(seconds).toBeGreaterThanOrEqual(Math.max(1, left - 1));
    expect(seconds).toBeLessThanOrEqual(Math.ceil(LOCKOUT.windowMs / 1000));

    // Still locked a moment later, with a Retry-After that has not grown.
    const again = await signIn(email, PASSWORD);
    expect(again.status).toBe(429);
    expect(Number(again.headers.get("retry-after"))).toBeLessThanOrEqual(seconds);

    // Waiting as long as it said is enough.
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000 + 100));
    expect((await signIn(email, PASSWORD)).status).toBe(200);
  });
});
