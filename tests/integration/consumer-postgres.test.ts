// The consumer API on PostgreSQL: `pg` talks to a PGlite socket server on an ephemeral port (no
// PostgreSQL install needed). Its migrations run over pg beside the identity authority's in one
// shared database, and a profile is created end to end with both services on DATABASE_URL.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { sql } from "kysely";
import type { Kysely } from "kysely";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase } from "../../services/db/database.ts";
import { migrateToLatest } from "../../services/db/migrate.ts";
import { CONSUMER_MIGRATION_TABLE, consumerMigrations } from "../../services/consumer/schema/migrations.ts";
import type { ConsumerDatabase } from "../../services/consumer/schema/tables.ts";
import { startConsumerService } from "../../services/consumer/server.ts";
import { startIdentityService } from "../../services/identity/server.ts";

let pglite: PGlite;
let socketServer: PGLiteSocketServer;
let databaseUrl: string;
let dataDir: string;
let pgDb: Kysely<ConsumerDatabase>;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "consumer-pg-"));
  pglite = new PGlite();
  socketServer = new PGLiteSocketServer({ db: pglite, host: "127.0.0.1", port: 0, maxConnections: 32 });
  await socketServer.start();
  databaseUrl = `postgresql://postgres@${socketServer.getServerConn()}/postgres`;
  pgDb = await createDatabase<ConsumerDatabase>({ databaseUrl, name: "consumer", poolSize: 4 });
});

afterAll(async () => {
  await pgDb?.destroy();
  await socketServer?.stop();
  await pglite?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe("consumer API on PostgreSQL (pg)", () => {
  it("migrates over pg once, with consumer_ tables and its own migration table", async () => {
    expect(await migrateToLatest(pgDb, consumerMigrations, CONSUMER_MIGRATION_TABLE)).toEqual(Object.keys(consumerMigrations).sort());
    expect(await migrateToLatest(pgDb, consumerMigrations, CONSUMER_MIGRATION_TABLE)).toEqual([]);
    const tables = await sql<{ tablename: string }>`select tablename from pg_tables where schemaname = 'public' order by tablename`.execute(pgDb);
    expect(tables.rows.map((r) => r.tablename)).toEqual(expect.arrayContaining(["consumer_migration", "consumer_migration_lock", "consumer_profiles", "consumer_screen_permissions", "consumer_subscriptions", "consumer_identity_emails"]));
    expect(tables.rows.every((r) => r.tablename.startsWith("consumer_"))).toBe(true);
  });

  it("creates, changes and reads a profile with both services on one shared database", async () => {
    const CLIENT = { clientId: "web", clientSecret: "pg-consumer-secret-0123456789" };
    const logger = pino({ level: "silent" });
    const identity = await startIdentityService({ dataDir, databaseUrl, publicUrl: "http://localhost:3000", clients: [CLIENT], logger });
    const consumer = await startConsumerService({ dataDir, databaseUrl, identityUrl: identity.url, identityIssuer: identity.url, logger });
    try {
      const form = (fields: Record<string, string>) =>
        fetch(`${identity.url}/connect/token`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ client_id: CLIENT.clientId, client_secret: CLIENT.clientSecret, ...fields }).toString(),
        });
      const client = ((await (await form({ grant_type: "client_credentials" })).json()) as { access_token: string }).access_token;
      const email = "pg-consumer@example.com";
      const password = "Pg!passw0rd";
      const reg = await fetch(`${identity.url}/api/account/register`, {
        method: "POST",
        headers: { authorization: `Bearer ${client}`, "content-type": "application/json" },
        body: JSON.stringify({ userName: email, password }),
      });
      expect(reg.status).toBe(200);
      const token = ((await (await form({ grant_type: "password", username: email, password })).json()) as { access_token: string }).access_token;
      const auth = { authorization: `Bearer ${token}` };

      expect(await (await fetch(`${consumer.url}/healthz`)).json()).toEqual({ ok: true });
      expect(await (await fetch(`${consumer.url}/consumer`, { headers: auth })).json()).toBeNull();
      const created = await fetch(`${consumer.url}/consumer/createprofile`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ consumer: { firstName: "Pat", lastName: "Postgres", dob: "02/29/1996", postalCode: "02139" }, latitude: 42.36, longitude: -71.09 }),
      });
      expect(created.status).toBe(200);
      const profile = ((await created.json()) as { consumer: { identityUserId: string; safeWindowId: string; dob: string } }).consumer;
      expect(profile.dob).toBe("1996-02-29");

      const changed = await fetch(`${consumer.url}/consumer/modifycore/`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ identityUserId: profile.identityUserId, firstName: "Pat", middleName: "Q", lastName: "Postgres", dob: "1996-03-01T00:00:00", postalCode: "02139" }).toString(),
      });
      expect(changed.status).toBe(200);
      expect(await (await fetch(`${consumer.url}/consumer/getsafewindow`, { headers: auth })).json()).toMatchObject({ middleName: "Q", dob: "1996-03-01", safeWindowId: profile.safeWindowId });
      expect(await (await fetch(`${consumer.url}/consumer/getpermissions`, { headers: auth })).json()).toEqual({ enabledScreens: ["SafeWindow", "MyTests", "Friends", "Settings"] });

      // The rows over pg: the date as text, timestamps as Date, the user's identity id as owner.
      const row = await pgDb.selectFrom("consumer_profiles").selectAll().executeTakeFirstOrThrow();
      expect(row).toMatchObject({ identity_user_id: profile.identityUserId, dob: "1996-03-01", latitude: 42.36, longitude: -71.09 });
      expect(row.created_at).toBeInstanceOf(Date);
      const tables = await sql<{ tablename: string }>`select tablename from pg_tables where schemaname = 'public' order by tablename`.execute(pgDb);
      expect(tables.rows.map((r) => r.tablename)).toEqual(expect.arrayContaining(["identity_users", "identity_migration", "consumer_profiles", "consumer_migration"]));
    } finally {
      await consumer.close();
      await identity.close();
    }
  });
});
