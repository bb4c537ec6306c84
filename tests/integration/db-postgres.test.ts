// lib/db on a real PostgreSQL server: `pg` talks to a throwaway cluster of Debian's
// postgresql package (tests/integration/postgres.ts). Proves the DATABASE_URL path: the pinned
// type parsers match the PGlite path, migrations run with per-service tables, and the identity
// authority registers and logs a user in over `pg`.
import { createHash } from "node:crypto";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import type { Kysely } from "kysely";
import { pino } from "pino";
import PostalMime from "postal-mime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, parseTimestamp } from "../../lib/db/database.ts";
import { migrateToLatest } from "../../lib/db/migrate.ts";
import { IDENTITY_MIGRATION_TABLE, identityMigrations } from "../../services/identity/schema/migrations.ts";
import type { IdentityDatabase } from "../../services/identity/schema/tables.ts";
import { startIdentityService } from "../../services/identity/server.ts";
import { startPostgres } from "./postgres.ts";
import type { PostgresServer } from "./postgres.ts";
import { requestToken } from "./support.ts";

let pg: PostgresServer;
let databaseUrl: string;
let dataDir: string;
let pgDb: Kysely<IdentityDatabase>;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "db-pg-"));
  pg = await startPostgres();
  databaseUrl = pg.databaseUrl;
  pgDb = await createDatabase<IdentityDatabase>({ databaseUrl, name: "identity", poolSize: 4 });
});

afterAll(async () => {
  await pgDb?.destroy();
  await pg?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const probe = sql<{ n: number; d: string; t: Date; plain: Date; neg: Date; nothing: null }>`
  select 9007199254740991::int8 as n,
         '2024-02-29'::date as d,
         '2024-01-02 03:04:05.678+05:30'::timestamptz as t,
         '2024-01-02 03:04:05'::timestamp as plain,
         '1999-12-31 23:00:00-08'::timestamptz as neg,
         null::int8 as nothing`;

describe("createDatabase", () => {
  it("parses int8, date and timestamptz the same on pg and on PGlite", async () => {
    const overPg = (await probe.execute(pgDb)).rows[0];
    const embedded = await createDatabase({ dataDir, name: "probe" });
    try {
      const overPglite = (await probe.execute(embedded)).rows[0];
      expect(overPg).toEqual({
        n: 9007199254740991,
        d: "2024-02-29",
        t: new Date("2024-01-01T21:34:05.678Z"),
        plain: new Date("2024-01-02T03:04:05Z"),
        neg: new Date("2000-01-01T07:00:00Z"),
        nothing: null,
      });
      expect(overPglite).toEqual(overPg);
    } finally {
      await embedded.destroy();
    }
  });

  it("gives an embedded database a 16 MB buffer cache, on its first start and when reopened", async () => {
    for (const start of ["first", "reopened"]) {
      const embedded = await createDatabase({ dataDir, name: "buffers" });
      try {
        const { rows } = await sql<{ shared_buffers: string }>`show shared_buffers`.execute(embedded);
        expect(rows[0]?.shared_buffers, start).toBe("16MB");
      } finally {
        await embedded.destroy();
      }
    }
  });

  it("parses PostgreSQL timestamp text in its ISO forms", () => {
    expect(parseTimestamp("2024-01-02 03:04:05+00").toISOString()).toBe("2024-01-02T03:04:05.000Z");
    expect(parseTimestamp("2024-01-02 03:04:05.123456-03:30").toISOString()).toBe("2024-01-02T06:34:05.123Z");
    expect(parseTimestamp("0044-03-15 12:00:00+00 BC").getUTCFullYear()).toBe(-43);
    expect(parseTimestamp("infinity").getTime()).toBe(8.64e15);
    expect(() => parseTimestamp("01/02/2024 03:04")).toThrow(/Unexpected timestamp/);
  });

  it("fails fast with a clear message when the database does not answer", async () => {
    await expect(createDatabase({ databaseUrl: "postgresql://postgres:s3cret@127.0.0.1:1/postgres", name: "nowhere" })).rejects.toThrow(
      /Database "nowhere" does not answer/,
    );
    await expect(createDatabase({ name: "nowhere" })).rejects.toThrow(/dataDir/);
  });
});

describe("migrateToLatest", () => {
  it("runs the identity migrations once, beside another service's migrations", async () => {
    expect(await migrateToLatest(pgDb, identityMigrations, IDENTITY_MIGRATION_TABLE)).toEqual(Object.keys(identityMigrations).sort());
    expect(Object.keys(identityMigrations)).toContain("0001_initial");
    expect(await migrateToLatest(pgDb, identityMigrations, IDENTITY_MIGRATION_TABLE)).toEqual([]);
    const other = {
      "0001_things": {
        async up(db: Kysely<any>) {
          await db.schema.createTable("consumer_things").addColumn("id", "integer", (c) => c.primaryKey()).execute();
        },
      },
    };
    expect(await migrateToLatest(pgDb, other, "consumer_migration")).toEqual(["0001_things"]);
    const tables = await sql<{ tablename: string }>`select tablename from pg_tables where schemaname = 'public' order by tablename`.execute(pgDb);
    expect(tables.rows.map((r) => r.tablename)).toEqual(
      expect.arrayContaining(["identity_migration", "identity_migration_lock", "consumer_migration", "consumer_things", "identity_users"]),
    );
  });

  it("names the failing migration", async () => {
    const broken = {
      "0001_ok": { async up(db: Kysely<any>) { await db.schema.createTable("broken_a").addColumn("id", "integer").execute(); } },
      "0002_bad": { async up(db: Kysely<any>) { await sql`select * from no_such_table`.execute(db); } },
    };
    await expect(migrateToLatest(pgDb, broken, "broken_migration")).rejects.toThrow(/broken_migration failed at migration "0002_bad": .*no_such_table/);
  });
});

describe("identity authority on PostgreSQL (pg)", () => {
  it("registers and logs in over pg; stores argon2id hashes and only token hashes", async () => {
    const CLIENT = { clientId: "web", clientSecret: "pg-test-secret-0123456789" };
    const service = await startIdentityService({
      dataDir,
      databaseUrl,
      publicUrl: "http://localhost:3000",
      clients: [CLIENT],
      logger: pino({ level: "silent" }),
    });
    try {
      const form = (fields: Record<string, string>) => requestToken({ identityUrl: service.url, client: CLIENT }, fields);
      const client = ((await (await form({ grant_type: "client_credentials" })).json()) as { access_token: string }).access_token;
      const email = "pg-user@example.com";
      const password = "Pg!passw0rd";
      const reg = await fetch(`${service.url}/api/account/register`, {
        method: "POST",
        headers: { authorization: `Bearer ${client}`, "content-type": "application/json" },
        body: JSON.stringify({ userName: email, password }),
      });
      expect(reg.status).toBe(200);
      const login = await form({ grant_type: "password", username: email, password });
      expect(login.status).toBe(200);
      const user = ((await login.json()) as { access_token: string }).access_token;
      expect(await (await fetch(`${service.url}/api/users/`, { headers: { authorization: `Bearer ${user}` } })).json()).toMatchObject({
        userName: email,
        emailConfirmed: false,
      });
      expect((await form({ grant_type: "password", username: email, password: "Wrong!pass1" })).status).toBe(400);

      const sent = await fetch(`${service.url}/api/account/sendconfirmationemail?email=${encodeURIComponent(email)}`, { headers: { authorization: `Bearer ${client}` } });
      expect(await sent.json()).toBe(true);

      const row = await pgDb.selectFrom("identity_users").selectAll().where("user_name", "=", email).executeTakeFirstOrThrow();
      expect(row.password_hash).toMatch(/^\$argon2id\$/);
      expect(row.created_at).toBeInstanceOf(Date);
      const tokens = await pgDb.selectFrom("identity_user_tokens").selectAll().where("user_id", "=", row.id).execute();
      expect(tokens).toHaveLength(1);
      expect(tokens[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(tokens[0]?.expires_at.getTime()).toBeGreaterThan(Date.now() + 23 * 3600_000);

      // The hash is SHA-256 of the mailed token (read from the outbox, where the mail is written
      // right after the call answered: it queues the mail).
      let files: string[] = [];
      for (const deadline = Date.now() + 20_000; files.length === 0 && Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 100))) {
        files = await readdir(path.join(dataDir, "outbox")).catch(() => []);
      }
      const mail = await PostalMime.parse(await readFile(path.join(dataDir, "outbox", files[0] as string)));
      const token = new URL(/https?:\/\/\S+/.exec(mail.text ?? "")?.[0] ?? "http://x").searchParams.get("token") ?? "";
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(createHash("sha256").update(token).digest("hex")).toBe(tokens[0]?.token_hash);
    } finally {
      await service.close();
    }
  });
});
