/**
 * Deleting an account leaves no trace of it (docs/security/accounts.md "Deleting an account"), written as the
 * audit after the fact:
 * - the session stores: every session of the account goes at once, in the database and in Redis,
 *   however many browsers held one, and no other account's session goes with it (an id that moved to
 *   another address by an e-mail change stays);
 * - server.ts as operators run it, once with sessions in PostgreSQL and once in Redis: a person signed
 *   in on two browsers deletes the account on one (My Settings, "Delete my account"); afterwards no
 *   session of the account remains in the store (the other browser is signed out, its access token
 *   gone), no .eml file under DATA_DIR/outbox names the person but the deletion notice, and no
 *   identity or consumer outbox row names them (the notice's own row went once it was sent). Another
 *   person's sessions and mails stay.
 *
 * Needs Debian's postgresql and redis-server (.ci/run installs them) and `npm run build`.
 */
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql, type Kysely } from "kysely";
import PostalMime from "postal-mime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectRedis, type RedisClient } from "../../app/server/redis.server";
import {
  databaseSessionStore,
  migrateSessionTable,
  redisGenerationKeyPrefix,
  redisSessionKeyPrefix,
  redisSessionStore,
  redisUserSessionsKeyPrefix,
  userKey,
  type SessionDataStore,
} from "../../app/server/session-store.server";
import { createDatabase } from "../../lib/db/database";
import { password, signUp } from "./app-journey";
import { startPostgres, type PostgresServer } from "./postgres";
import { freePort, startRedis, stopProcess } from "./redis-server";
import { form, sessionCookieOf, startServer, type Running } from "./server-process";

const tempDirs: string[] = [];
function tempDir(name: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `sw-deletion-${name}-`));
  tempDirs.push(dir);
  return dir;
}

let postgres: PostgresServer;
let redisServer: ChildProcess;
let redisUrl: string;

beforeAll(async () => {
  postgres = await startPostgres({ database: "deletion" });
  const port = await freePort();
  redisServer = await startRedis(port);
  redisUrl = `redis://127.0.0.1:${port}`;
}, 60_000);

afterAll(async () => {
  if (redisServer) await stopProcess(redisServer);
  await postgres?.close();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
}, 30_000);

/**
 * Every key of the session store in Redis (sessions, users' session sets, generations) with its value
 * (a set as its members). The rate-limit counters beside them are not the session store's.
 */
async function redisContents(redis: RedisClient): Promise<Map<string, string>> {
  const contents = new Map<string, string>();
  for await (const keys of redis.scanIterator({ MATCH: "safewindow:*session*", COUNT: 100 })) {
    for (const key of keys) {
      const type = await redis.type(key);
      contents.set(key, type === "set" ? (await redis.sMembers(key)).join(",") : String(await redis.get(key)));
    }
  }
  return contents;
}

/** An hour from now. */
const expires = () => new Date(Date.now() + 3_600_000);
/** The two stores of deleteUserSessions and readSession, each opened on a new database (named `database`) or connection. */
const stores: [string, (database: string) => Promise<{ store: SessionDataStore; close: () => Promise<void>; leftovers: (userName: string) => Promise<string[]> }>][] = [
  [
    "PostgreSQL",
    async (database) => {
      const db: Kysely<any> = await createDatabase({ databaseUrl: await postgres.createDatabase(database), name: "app", poolSize: 2 });
      await migrateSessionTable(db);
      return {
        store: databaseSessionStore(db),
        close: () => db.destroy(),
        // Rows whose data or key names the user, expired or not.
        leftovers: async (userName) => [
          ...(await db.selectFrom("app_session").select("id").where(sql<string>`lower(data)`, "like", `%${userName.toLowerCase()}%`).execute()).map((r) => `session ${r.id}`),
          ...(await db.selectFrom("app_user_generation").select("user_key").where("user_key", "=", userKey(userName)).execute()).map((r) => `generation ${r.user_key}`),
        ],
      };
    },
  ],
  [
    "Redis",
    async () => {
      const redis = await connectRedis(redisUrl, { error() {} });
      // redisContents' pattern finds every key of the session store.
      for (const prefix of [redisSessionKeyPrefix, redisGenerationKeyPrefix, redisUserSessionsKeyPrefix]) expect(prefix).toMatch(/^safewindow:.*session/);
      return {
        store: redisSessionStore(redis),
        close: async () => void (await redis.close()),
        leftovers: async (userName) =>
          [...(await redisContents(redis))]
            .filter(([key, value]) => value.toLowerCase().includes(userName.toLowerCase()) || key.endsWith(userKey(userName)))
            .map(([key]) => key),
      };
    },
  ],
];

describe("deleteUserSessions in both session stores", () => {
  it.each(stores)("%s: every session of the user goes with its generation, another user's and a moved one stay", async (_name, open) => {
    const { store, close, leftovers } = await open("store_deletion");
    try {
      const ada = `ada-${Date.now()}@example.com`;
      const other = `grace-${Date.now()}@example.com`;
      const phone = await store.createData({ userName: ada, accessToken: "token-phone" }, expires());
      const laptop = await store.createData({ userName: ada, accessToken: "token-laptop" });
      // A session that began anonymous and was signed in later (an update) is the user's too.
      const tablet = await store.createData({ __flash_notice__: "hello" }, expires());
      await store.updateData(tablet, { userName: ada.toUpperCase(), accessToken: "token-tablet" }, expires());
      // A session of the user that moved to another address (an e-mail change) is no longer theirs.
      const moved = await store.createData({ userName: ada, accessToken: "token-moved" }, expires());
      const movedTo = `ada-new-${Date.now()}@example.com`;
      await store.updateData(moved, { userName: movedTo, accessToken: "token-moved" }, expires());
      const stranger = await store.createData({ userName: other, accessToken: "token-other" }, expires());
      await store.nextUserGeneration(ada);
      await store.nextUserGeneration(other);
      expect((await leftovers(ada)).length).toBeGreaterThanOrEqual(4);

      expect(await store.deleteUserSessions(ada)).toBe(3);
      for (const id of [phone, laptop, tablet]) expect(await store.readData(id), id).toBeNull();
      expect(await leftovers(ada)).toEqual([]);
      expect(await store.userGeneration(ada)).toBe(0);
      // Nobody else's.
      expect(await store.readData(moved)).toEqual({ userName: movedTo, accessToken: "token-moved" });
      expect(await store.readData(stranger)).toEqual({ userName: other, accessToken: "token-other" });
      expect(await store.userGeneration(other)).toBe(1);
      // A request of a deleted session still in flight cannot write it back, and a second deletion is harmless.
      await store.updateData(phone, { userName: ada, accessToken: "token-phone" }, expires());
      expect(await store.readData(phone)).toBeNull();
      expect(await store.deleteUserSessions(ada)).toBe(0);
    } finally {
      await close();
    }
  });
});

describe("readSession in both session stores", () => {
  it.each(stores)("%s: a session with its user's current generation in one call, none for a session that is gone", async (_name, open) => {
    const { store, close } = await open("store_reads");
    try {
      const ada = `ada-read-${Date.now()}@example.com`;
      const anonymous = await store.createData({ __flash_notice__: "hello" }, expires());
      expect(await store.readSession(anonymous)).toEqual({ data: { __flash_notice__: "hello" }, userGeneration: 0 });
      const phone = await store.createData({ userName: ada, accessToken: "token-phone" }, expires());
      expect(await store.readSession(phone)).toEqual({ data: { userName: ada, accessToken: "token-phone" }, userGeneration: 0 });
      // Sign out everywhere (twice): the session read answers the new generation at once.
      await store.nextUserGeneration(ada);
      expect(await store.nextUserGeneration(ada)).toBe(2);
      expect((await store.readSession(phone))?.userGeneration).toBe(2);
      // The user's key ignores case: a session naming the address in capitals has the same generation.
      const laptop = await store.createData({ userName: ada.toUpperCase(), accessToken: "token-laptop" }, expires());
      expect((await store.readSession(laptop))?.userGeneration).toBe(2);
      // Another user's generation is not this one's.
      const other = await store.createData({ userName: `grace-read-${Date.now()}@example.com`, accessToken: "t" }, expires());
      expect((await store.readSession(other))?.userGeneration).toBe(0);
      await store.deleteData(phone);
      expect(await store.readSession(phone)).toBeNull();
      expect(await store.readSession("no-such-id")).toBeNull();
      // A deleted account: its sessions read as none.
      await store.deleteUserSessions(ada);
      expect(await store.readSession(laptop)).toBeNull();
    } finally {
      await close();
    }
  });
});

/** The .eml files of `outbox` that name `address` anywhere (headers, subject, text, HTML), with their subjects. */
async function mailsNaming(outbox: string, address: string): Promise<{ file: string; subject: string }[]> {
  let files: string[] = [];
  try {
    files = readdirSync(outbox).filter((f) => f.endsWith(".eml"));
  } catch {
    return [];
  }
  const named: { file: string; subject: string }[] = [];
  for (const file of files) {
    const raw = readFileSync(path.join(outbox, file), "utf8");
    const mail = await PostalMime.parse(raw);
    const text = [raw, mail.subject, mail.text, mail.html, ...mail.headers.map((h) => h.value)].join("\n").toLowerCase();
    if (text.includes(address.toLowerCase())) named.push({ file, subject: mail.subject ?? "" });
  }
  return named;
}

/** Polls `check` every 200 ms until it returns true, for at most `ms`. */
async function eventually(check: () => Promise<boolean>, ms = 20_000): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > until) return false;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe.each(["database", "redis"] as const)("server.ts with sessions in %s: a person deletes their account from one of two browsers", (where) => {
  let server: Running;
  let dataDir: string;
  let db: Kysely<any>;
  let redis: RedisClient | undefined;

  beforeAll(async () => {
    dataDir = tempDir(where);
    const databaseUrl = await postgres.createDatabase(`app_${where}`);
    db = await createDatabase({ databaseUrl, name: "audit", poolSize: 2 });
    if (where === "redis") {
      redis = await connectRedis(redisUrl, { error() {} });
      await redis.flushAll();
    }
    server = await startServer({
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      SESSION_SECRET: "a-session-secret-for-the-deletion-test-0123",
      ...(where === "redis" ? { REDIS_URL: redisUrl } : {}),
    });
  }, 120_000);

  afterAll(async () => {
    if (server) await stopProcess(server.child);
    await redis?.close();
    await db?.destroy();
  }, 30_000);

  /** Every session (id and data) the store holds that names `email`. */
  async function sessionsNaming(email: string): Promise<string[]> {
    if (where === "redis") {
      return [...(await redisContents(redis!))].filter(([key, value]) => value.toLowerCase().includes(email) || key.endsWith(userKey(email))).map(([key]) => key);
    }
    const rows = await db.selectFrom("app_session").select("id").where(sql<string>`lower(data)`, "like", `%${email}%`).execute();
    const generations = await db.selectFrom("app_user_generation").select("user_key").where("user_key", "=", userKey(email)).execute();
    return [...rows.map((r: { id: string }) => `session ${r.id}`), ...generations.map((r: { user_key: string }) => `generation ${r.user_key}`)];
  }

  /** The identity and consumer outbox rows that name `email`. */
  async function outboxRowsNaming(email: string): Promise<unknown[]> {
    const identity = await db
      .selectFrom("identity_outbox")
      .select(["kind", "status", "recipient"])
      .where((eb) => eb.or([eb(sql<string>`lower(recipient)`, "=", email), eb(sql<string>`lower(coalesce(new_address, ''))`, "=", email)]))
      .execute();
    const consumer = await db.selectFrom("consumer_outbox").select(["kind", "status", "recipient"]).where(sql<string>`lower(recipient)`, "=", email).execute();
    return [...identity, ...consumer];
  }

  it("leaves no session, no mail file and no outbox row naming them but the deletion notice's file", async () => {
    const email = `deleted-${where}-${Date.now()}@example.com`;
    const stranger = `stays-${where}-${Date.now()}@example.com`;
    const base = server.url;
    const outbox = path.join(dataDir, "outbox");

    // Browser 1 signs up (mails: the confirmation); browser 2 signs in too; someone else is signed in as well.
    const phone = await signUp(base, dataDir, email);
    const signedIn = await fetch(`${base}/login`, form({ email, password }, base));
    expect(signedIn.status).toBe(302);
    const laptop = sessionCookieOf(signedIn)!;
    const strangerCookie = await signUp(base, dataDir, stranger);
    // A forgotten-password request leaves a request row and a reset mail naming the person.
    expect((await fetch(`${base}/requestpasswordchange`, form({ email }, base))).status).toBeLessThan(400);
    expect(await eventually(async () => (await mailsNaming(outbox, email)).some((m) => /reset/i.test(m.subject)))).toBe(true);
    const laptopPage = await fetch(`${base}/settings`, { headers: { cookie: laptop }, redirect: "manual" });
    expect(laptopPage.status).toBe(200);
    expect((await sessionsNaming(email)).length).toBeGreaterThanOrEqual(2);
    expect(await outboxRowsNaming(email)).not.toEqual([]);

    // Delete my account, from the phone.
    const deleted = await fetch(`${base}/settings?panel=delete`, form({ intent: "deleteAccount", currentPassword: password }, base, phone));
    expect(deleted.status).toBe(302);
    expect(deleted.headers.get("location")).toBe("/login");

    // No session of the account is left in the store, the laptop's (with its access token) included.
    expect(await sessionsNaming(email)).toEqual([]);
    const laptopAfter = await fetch(`${base}/settings`, { headers: { cookie: laptop }, redirect: "manual" });
    expect(laptopAfter.status).toBe(302);
    expect(laptopAfter.headers.get("location")).toMatch(/^\/login/);

    // The mails: only the deletion notice names the person.
    expect(await eventually(async () => (await mailsNaming(outbox, email)).length === 1)).toBe(true);
    expect((await mailsNaming(outbox, email)).map((m) => m.subject)).toEqual(["Your SafeWindow account was deleted"]);
    // The outbox rows: none, once the notice is sent (at once here).
    expect(await eventually(async () => (await outboxRowsNaming(email)).length === 0)).toBe(true);

    // The other person keeps their session and their mails.
    expect((await sessionsNaming(stranger)).length).toBeGreaterThanOrEqual(1);
    expect((await mailsNaming(outbox, stranger)).length).toBeGreaterThanOrEqual(1);
    const strangerPage = await fetch(`${base}/settings`, { headers: { cookie: strangerCookie }, redirect: "manual" });
    expect(strangerPage.status).toBe(200);
  }, 120_000);

  it("the privacy page says what a backup still holds and for as long as docs/operating.md keeps backups", async () => {
    const retention = /keep no backup longer than (\d+) days/.exec(readFileSync(path.join(import.meta.dirname, "../../docs/operating.md"), "utf8"))?.[1];
    expect(retention).toBeDefined();
    const page = (await (await fetch(`${server.url}/privacy`)).text()).replace(/<[^>]+>/g, "").replace(/\s+/g, " ");
    expect(page).toContain("Backups of this service made before you deleted your account still hold what was in it then");
    expect(page).toContain(`each is deleted within ${retention} days of being made`);
  });
});
