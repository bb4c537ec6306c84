// The consumer API on a real PostgreSQL server (a throwaway cluster of Debian's postgresql
// package, tests/integration/postgres.ts). Its migrations run over pg beside the identity
// authority's in one shared database, and a profile is created end to end with both services on
// DATABASE_URL.
import { sql } from "kysely";
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase } from "../../lib/db/database.ts";
import { migrateToLatest } from "../../lib/db/migrate.ts";
import { CONSUMER_MIGRATION_TABLE, consumerMigrations } from "../../services/consumer/schema/migrations.ts";
import type { ConsumerDatabase } from "../../services/consumer/schema/tables.ts";
import { startPostgres } from "./postgres.ts";
import type { PostgresServer } from "./postgres.ts";
import { callApi, contractFetch, createProfile, makeUser, modifyCore, startServices } from "./support.ts";

let pg: PostgresServer;
let pgDb: Kysely<ConsumerDatabase>;

beforeAll(async () => {
  pg = await startPostgres();
  pgDb = await createDatabase<ConsumerDatabase>({ databaseUrl: pg.databaseUrl, name: "consumer", poolSize: 4 });
});

afterAll(async () => {
  await pgDb?.destroy();
  await pg?.close();
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
    const services = await startServices({ client: CLIENT, tmpPrefix: "consumer-pg-", databaseUrl: pg.databaseUrl, pinIssuer: true });
    try {
      const user = await makeUser(services, { email: "pg-consumer@example.com", password: "Pg!passw0rd" });
      const api = (p: string) => callApi(services, p, user);

      expect(await (await contractFetch(`${services.consumer.url}/healthz`)).json()).toEqual({ ok: true });
      expect(await (await api("/consumer")).json()).toBeNull();
      const created = await createProfile(services, user, { firstName: "Pat", lastName: "Postgres", dob: "02/29/1996", postalCode: "02139" }, { latitude: 42.36, longitude: -71.09 });
      expect(created.status).toBe(200);
      const profile = ((await created.json()) as { consumer: { identityUserId: string; safeWindowId: string; dob: string } }).consumer;
      expect(profile.dob).toBe("1996-02-29");

      const changed = await modifyCore(services, user, { identityUserId: profile.identityUserId, firstName: "Pat", middleName: "Q", lastName: "Postgres", dob: "1996-03-01T00:00:00", postalCode: "02139" });
      expect(changed.status).toBe(200);
      expect(await (await api("/consumer/getsafewindow")).json()).toMatchObject({ middleName: "Q", dob: "1996-03-01", safeWindowId: profile.safeWindowId });
      expect(await (await api("/consumer/getpermissions")).json()).toEqual({ enabledScreens: ["SafeWindow", "MyTests", "MyFun", "Locations", "Friends", "Settings"] });

      // The rows over pg: the date as text, timestamps as Date, the user's identity id as owner.
      const row = await pgDb.selectFrom("consumer_profiles").selectAll().executeTakeFirstOrThrow();
      expect(row).toMatchObject({ identity_user_id: profile.identityUserId, dob: "1996-03-01", latitude: 42.36, longitude: -71.09 });
      expect(row.created_at).toBeInstanceOf(Date);
      const tables = await sql<{ tablename: string }>`select tablename from pg_tables where schemaname = 'public' order by tablename`.execute(pgDb);
      expect(tables.rows.map((r) => r.tablename)).toEqual(expect.arrayContaining(["identity_users", "identity_migration", "consumer_profiles", "consumer_migration"]));
    } finally {
      await services.close();
    }
  });
});
