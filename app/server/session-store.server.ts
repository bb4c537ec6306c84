/**
 * Where session data lives (docs/architecture/request-path.md "Sessions"; docs/architecture/behaviour.md §4: sessions on the
 * server, the cookie holds only a signed id).
 *
 * Two stores with one shape, the four functions of React Router's `createSessionStorage`:
 * - `databaseSessionStore`: a row per session in the `app_session` table of the embedded database
 *   (the identity authority's PGlite in the embedded default, so no extra database instance) or of
 *   PostgreSQL with DATABASE_URL. Each call is one SQL statement, so a read never sees half a write
 *   and two writes never interleave. `purgeExpired` deletes rows whose expiry has passed.
 * - `redisSessionStore`: JSON under `safewindow:session:<id>`, expiring with the session, for
 *   several replicas (REDIS_URL).
 *
 * Both never resurrect a deleted session: an update of an id that no longer exists changes
 * nothing (so a request that overlaps a logout cannot undo it). Data that cannot be read back
 * (not JSON, not an object) reads as no session.
 *
 * Both also keep a generation number per user (docs/security/accounts.md "Sessions"): a session records the
 * generation current when it began, and one from an older generation is no longer signed in. A
 * password change, reset or e-mail change, or "sign out everywhere", increments it, which signs out
 * every other browser of that user at once, on every replica. Users are keyed by a SHA-256 of
 * their lower-cased e-mail (no address in keys).
 * `readSession` answers a session with its user's current generation in one call (in the database
 * store one statement, the session row joined with its user's generation row), so that a signed-in
 * request costs one read of the store.
 *
 * Both index sessions by that user key (the `user_key` column; a set `safewindow:user-sessions:<key>`
 * in Redis), so that `deleteUserSessions` removes every session of an account at once, with its
 * generation, when the account is deleted (docs/security/accounts.md "Deleting an account").
 *
 * server.ts builds the store and hands it to the app through the load context; this file is
 * imported only by server.ts and tests (run by Node's type stripping), so it imports nothing from
 * the app bundle.
 */
import { createHash, randomBytes } from "node:crypto";
import { sql, type Kysely } from "kysely";
import { migrateToLatest, type Migration } from "../../lib/db/migrate.ts";
import type { RedisClient } from "./redis.server.ts";

/** Session data as React Router's session storage reads and writes it (values are JSON). */
export type StoredSessionData = Record<string, unknown>;

/** A session as the session middleware reads it per request: its data and its user's current generation. */
export interface StoredSession {
  data: StoredSessionData;
  /**
   * The current session generation of the user the data names (`userName`), as `userGeneration`
   * answers it: 0 for an anonymous session and for a user whose generation was never incremented.
   */
  userGeneration: number;
}

/**
 * The storage strategy of React Router's `createSessionStorage`, without the cookie.
 * `expires` is when the session ends (the cookie's expiry); undefined means `defaultSessionTtlMs`.
 */
export interface SessionDataStore {
  /** Stores `data` under a new random id (128 bits, hex) and answers the id. */
  createData(data: StoredSessionData, expires?: Date): Promise<string>;
  /** The data of an unexpired session, or null (unknown id, expired, or unreadable data). */
  readData(id: string): Promise<StoredSessionData | null>;
  /**
   * `readData` and the `userGeneration` of the user the data names, in one call: what the session
   * middleware needs for every signed-in request (docs/security/accounts.md "Sessions"). One SQL statement in
   * the database store (so the generation is the one current when the session was read).
   * @returns null when `readData` would answer null
   */
  readSession(id: string): Promise<StoredSession | null>;
  /** Replaces an existing session's data; does nothing when the id no longer exists. */
  updateData(id: string, data: StoredSessionData, expires?: Date): Promise<void>;
  /** Removes the session (no error when it does not exist). */
  deleteData(id: string): Promise<void>;
  /** The user's current session generation (0 until the first increment). */
  userGeneration(userName: string): Promise<number>;
  /** Increments the user's session generation and answers the new one. */
  nextUserGeneration(userName: string): Promise<number>;
  /**
   * Deletes every session whose data names `userName` (any case), expired or not, and the user's
   * generation: nothing of the user is left in the store (a deleted account). A request of such a
   * session still in flight cannot write it back (updates never resurrect a session).
   * @returns how many sessions were deleted
   */
  deleteUserSessions(userName: string): Promise<number>;
}

/** The key a user's generation is kept under: a SHA-256 of the lower-cased, trimmed e-mail. */
export function userKey(userName: string): string {
  return createHash("sha256").update(userName.trim().toLowerCase()).digest("hex");
}

/** The user key of the session `data` (its `userName`), or null for an anonymous session. */
function userKeyOf(data: StoredSessionData): string | null {
  return typeof data.userName === "string" && data.userName.trim() !== "" ? userKey(data.userName) : null;
}

/** Lifetime of a session stored without an expiry: 12 hours, in ms (the cookie's max age). */
export const defaultSessionTtlMs = 12 * 60 * 60 * 1000;

/** A new session id: 128 random bits as 32 hex characters. */
function newSessionId(): string {
  return randomBytes(16).toString("hex");
}

/** Parses stored JSON; anything but a JSON object reads as null (no session). */
function parseStored(json: string | null | undefined): StoredSessionData | null {
  if (!json) return null;
  try {
    const data: unknown = JSON.parse(json);
    return data && typeof data === "object" && !Array.isArray(data) ? (data as StoredSessionData) : null;
  } catch {
    return null;
  }
}

/** The session table, as Kysely sees it. */
export interface SessionTables {
  app_session: {
    id: string;
    /** The session data as JSON text. */
    data: string;
    expires_at: Date;
    /** `userKey` of the data's userName; null for an anonymous session. */
    user_key: string | null;
  };
  app_user_generation: {
    user_key: string;
    generation: number;
  };
}

/** Migration table of the app's own tables (kept apart from identity_… and consumer_…). */
export const APP_MIGRATION_TABLE = "app_migration";

const sessionMigrations: Record<string, Migration> = {
  "0001_sessions": {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("app_session")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("data", "text", (c) => c.notNull())
        .addColumn("expires_at", "timestamptz", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("app_session_expires_at").on("app_session").column("expires_at").execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable("app_session").execute();
    },
  },
  "0002_user_generations": {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("app_user_generation")
        .addColumn("user_key", "text", (c) => c.primaryKey())
        .addColumn("generation", "integer", (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable("app_user_generation").execute();
    },
  },
  "0003_session_users": {
    async up(db: Kysely<any>) {
      await db.schema.alterTable("app_session").addColumn("user_key", "text").execute();
      await db.schema.createIndex("app_session_user_key").on("app_session").column("user_key").execute();
      // Sessions that began before this migration get their user too (at most 12 hours of them).
      const rows = await db.selectFrom("app_session").select(["id", "data"]).execute();
      for (const row of rows as { id: string; data: string }[]) {
        const data = parseStored(row.data);
        const key = data ? userKeyOf(data) : null;
        if (key) await db.updateTable("app_session").set({ user_key: key }).where("id", "=", row.id).execute();
      }
    },
    async down(db: Kysely<any>) {
      await db.schema.dropIndex("app_session_user_key").execute();
      await db.schema.alterTable("app_session").dropColumn("user_key").execute();
    },
  },
};

/**
 * Creates or updates the `app_session` table in `db` (PGlite or PostgreSQL).
 * @returns the names of the migrations applied now (empty when up to date)
 * @throws Error naming the failing migration
 */
export function migrateSessionTable(db: Kysely<any>): Promise<string[]> {
  return migrateToLatest(db, sessionMigrations, APP_MIGRATION_TABLE);
}

/** A database session store, plus the purge of expired rows. */
export interface DatabaseSessionStore extends SessionDataStore {
  /**
   * Deletes the sessions that expired before now.
   * @returns how many rows were deleted
   */
  purgeExpired(): Promise<number>;
}

/**
 * Sessions in the `app_session` table of `db` (call `migrateSessionTable` first).
 * @param now the clock (tests pin it)
 */
export function databaseSessionStore(anyDb: Kysely<any>, now: () => Date = () => new Date()): DatabaseSessionStore {
  const db = anyDb as Kysely<SessionTables>;
  const expiry = (expires: Date | undefined) => expires ?? new Date(now().getTime() + defaultSessionTtlMs);
  const store: DatabaseSessionStore = {
    async createData(data, expires) {
      for (;;) {
        const id = newSessionId();
        const inserted = await db
          .insertInto("app_session")
          .values({ id, data: JSON.stringify(data), expires_at: expiry(expires), user_key: userKeyOf(data) })
          .onConflict((c) => c.column("id").doNothing())
          .returning("id")
          .executeTakeFirst();
        if (inserted) return id;
      }
    },
    async readData(id) {
      const row = await db.selectFrom("app_session").select("data").where("id", "=", id).where("expires_at", ">", now()).executeTakeFirst();
      return parseStored(row?.data);
    },
    async readSession(id) {
      // The row's user_key is userKeyOf(data), written with the data: the join finds that user's generation.
      const row = await db
        .selectFrom("app_session")
        .leftJoin("app_user_generation", "app_user_generation.user_key", "app_session.user_key")
        .select(["app_session.data", "app_session.user_key", "app_user_generation.generation"])
        .where("app_session.id", "=", id)
        .where("app_session.expires_at", ">", now())
        .executeTakeFirst();
      const data = parseStored(row?.data);
      if (!row || !data) return null;
      const key = userKeyOf(data);
      if (key === null) return { data, userGeneration: 0 };
      // A row whose key does not match its data (written by hand, say) is not trusted: its user is asked for.
      if (row.user_key !== key) return { data, userGeneration: await store.userGeneration(data.userName as string) };
      return { data, userGeneration: row.generation ?? 0 };
    },
    async updateData(id, data, expires) {
      await db
        .updateTable("app_session")
        .set({ data: JSON.stringify(data), expires_at: expiry(expires), user_key: userKeyOf(data) })
        .where("id", "=", id)
        .execute();
    },
    async deleteData(id) {
      if (!id) return;
      await db.deleteFrom("app_session").where("id", "=", id).execute();
    },
    async userGeneration(userName) {
      const row = await db.selectFrom("app_user_generation").select("generation").where("user_key", "=", userKey(userName)).executeTakeFirst();
      return row?.generation ?? 0;
    },
    async nextUserGeneration(userName) {
      // One statement: two changes at once each get their own number.
      const row = await db
        .insertInto("app_user_generation")
        .values({ user_key: userKey(userName), generation: 1 })
        .onConflict((c) => c.column("user_key").doUpdateSet({ generation: sql<number>`app_user_generation.generation + 1` }))
        .returning("generation")
        .executeTakeFirstOrThrow();
      return row.generation;
    },
    async deleteUserSessions(userName) {
      const key = userKey(userName);
      return db.transaction().execute(async (trx) => {
        const deleted = await trx.deleteFrom("app_session").where("user_key", "=", key).executeTakeFirst();
        await trx.deleteFrom("app_user_generation").where("user_key", "=", key).execute();
        return Number(deleted.numDeletedRows);
      });
    },
    async purgeExpired() {
      const result = await db.deleteFrom("app_session").where("expires_at", "<=", now()).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
  return store;
}

/** Prefix of the session keys in Redis. */
export const redisSessionKeyPrefix = "safewindow:session:";
/** Prefix of the users' session generations in Redis. */
export const redisGenerationKeyPrefix = "safewindow:session-generation:";
/** Prefix of the set of a user's session ids in Redis (it expires with the user's last session). */
export const redisUserSessionsKeyPrefix = "safewindow:user-sessions:";

/**
 * Sessions in Redis under `safewindow:session:<id>` as JSON, expiring with the session
 * (`defaultSessionTtlMs` when no expiry is given). Updates use `XX`, so a deleted session stays
 * deleted. A signed-in session's id is also in its user's set `safewindow:user-sessions:<user key>`,
 * which lives as long as the user's longest session; an id whose session ended or moved to another
 * address (an e-mail change) may stay there until then, so `deleteUserSessions` deletes only the
 * sessions whose data still names the user.
 * @throws whatever the client throws while Redis is down (commands fail at once, see redis.server.ts)
 */
export function redisSessionStore(redis: RedisClient): SessionDataStore {
  const expiration = (expires: Date | undefined) =>
    expires ? ({ type: "PXAT", value: expires.getTime() } as const) : ({ type: "PX", value: defaultSessionTtlMs } as const);
  /** Adds `id` to its user's set, which then lives at least until `expires`. */
  const index = async (id: string, data: StoredSessionData, expires: Date | undefined) => {
    const key = userKeyOf(data);
    if (!key) return;
    const setKey = redisUserSessionsKeyPrefix + key;
    const until = expires?.getTime() ?? Date.now() + defaultSessionTtlMs;
    // NX gives a new set its expiry; GT only ever lengthens it.
    await redis.multi().sAdd(setKey, id).pExpireAt(setKey, until, "NX").pExpireAt(setKey, until, "GT").exec();
  };
  const store: SessionDataStore = {
    async createData(data, expires) {
      for (;;) {
        const id = newSessionId();
        const created = await redis.set(redisSessionKeyPrefix + id, JSON.stringify(data), { expiration: expiration(expires), condition: "NX" });
        if (created) {
          await index(id, data, expires);
          return id;
        }
      }
    },
    async readData(id) {
      const json = await redis.get(redisSessionKeyPrefix + id);
      return parseStored(typeof json === "string" ? json : null);
    },
    async readSession(id) {
      // Two GETs in one call: the generation's key comes from the session's data (a SHA-256 Redis
      // cannot compute), and both are reads of this thread's own connection (no other thread).
      const data = await store.readData(id);
      if (!data) return null;
      return { data, userGeneration: typeof data.userName === "string" && userKeyOf(data) ? await store.userGeneration(data.userName) : 0 };
    },
    async updateData(id, data, expires) {
      const updated = await redis.set(redisSessionKeyPrefix + id, JSON.stringify(data), { expiration: expiration(expires), condition: "XX" });
      if (updated) await index(id, data, expires);
    },
    async deleteData(id) {
      if (!id) return;
      await redis.del(redisSessionKeyPrefix + id);
    },
    async userGeneration(userName) {
      return Number((await redis.get(redisGenerationKeyPrefix + userKey(userName))) ?? 0);
    },
    async nextUserGeneration(userName) {
      return Number(await redis.incr(redisGenerationKeyPrefix + userKey(userName)));
    },
    async deleteUserSessions(userName) {
      const key = userKey(userName);
      const setKey = redisUserSessionsKeyPrefix + key;
      const ids = await redis.sMembers(setKey);
      const sessionKeys = ids.map((id) => redisSessionKeyPrefix + id);
      const stored = sessionKeys.length > 0 ? await redis.mGet(sessionKeys) : [];
      // Only sessions that still name the user: an id may have moved to another address since.
      const doomed = sessionKeys.filter((_, i) => {
        const data = parseStored(typeof stored[i] === "string" ? stored[i] : null);
        return data !== null && userKeyOf(data) === key;
      });
      const deleted = doomed.length > 0 ? Number(await redis.del(doomed)) : 0;
      await redis.del([setKey, redisGenerationKeyPrefix + key]);
      return deleted;
    },
  };
  return store;
}
