// The embedded database's statement cache (lib/db/prepared.ts): a statement Kysely runs outside a
// transaction is parsed once under a name, and answers what PGlite's own query answers. On an
// in-memory PGlite; what the backend holds is read from pg_prepared_statements.
import { PGlite } from "@electric-sql/pglite";
import fc from "fast-check";
import { type Generated, type Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseOn } from "../../lib/db/database.ts";

interface Db {
  item: {
    id: Generated<string>;
    code: string;
    n: Generated<number>;
    at: Generated<Date>;
    born: string | null;
    doc: unknown;
    photo: Uint8Array | null;
    tags: Generated<string[]>;
    ok: Generated<boolean>;
    big: Generated<number>;
  };
}

const pglite = new PGlite();
const db: Kysely<Db> = databaseOn<Db>(pglite);

/** The named statements the backend holds, by SQL text. */
async function held(): Promise<string[]> {
  const { rows } = await pglite.query<{ statement: string }>("select statement from pg_prepared_statements where not from_sql");
  return rows.map((row) => row.statement);
}

beforeAll(async () => {
  await pglite.exec(`create table item (
    id uuid primary key default gen_random_uuid(), code text unique not null, n int not null default 0,
    at timestamptz not null default now(), born date, doc jsonb, photo bytea, tags text[] not null default '{}',
    ok boolean not null default true, big int8 not null default 0)`);
});

afterAll(async () => {
  await db.destroy();
});

describe("a statement outside a transaction", () => {
  it("is parsed once and bound on every later call", async () => {
    await db.insertInto("item").values({ code: "once" }).execute();
    const before = (await held()).length;
    for (let i = 0; i < 5; i++) expect(await db.selectFrom("item").select("code").where("code", "=", "once").executeTakeFirst()).toEqual({ code: "once" });
    const statements = await held();
    expect(statements.length).toBe(before + 1);
    expect(statements.filter((text) => text.includes('where "code" = $1'))).toHaveLength(1);
  });

  it("answers the same rows as PGlite's own query, for every type the schemas use", async () => {
    const values = { code: "types", n: -7, at: new Date("2026-03-04T05:06:07.089Z"), born: "1990-02-28", doc: { a: [1, "two", null], b: { c: true } }, photo: new Uint8Array([0, 1, 254, 255]), tags: ["x", "y z", 'q"uote'], ok: false, big: 2 ** 40 };
    await db.insertInto("item").values(values).execute();
    const text = 'select "code", "n", "at", "born", "doc", "photo", "tags", "ok", "big" from "item" where "code" = $1';
    const own = (await pglite.query(text, ["types"])).rows[0];
    const cached = await db.selectFrom("item").select(["code", "n", "at", "born", "doc", "photo", "tags", "ok", "big"]).where("code", "=", "types").executeTakeFirstOrThrow();
    expect(cached).toEqual(own);
    // An in-memory PGlite has PGlite's default parsers: a date is a Date here.
    expect(cached).toEqual({ ...values, born: new Date("1990-02-28T00:00:00Z") });
  });

  it("counts the rows an update or delete touched", async () => {
    await db.insertInto("item").values([{ code: "count-1" }, { code: "count-2" }]).execute();
    const updated = await db.updateTable("item").set({ n: 3 }).where("code", "like", "count-%").executeTakeFirst();
    expect(updated.numUpdatedRows).toBe(2n);
    const deleted = await db.deleteFrom("item").where("code", "=", "count-1").executeTakeFirst();
    expect(deleted.numDeletedRows).toBe(1n);
  });

  it("fails as PGlite fails, with the code and constraint, and the next statement runs", async () => {
    await db.insertInto("item").values({ code: "unique" }).execute();
    const error = await db.insertInto("item").values({ code: "unique" }).execute().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "23505", constraint: "item_code_key" });
    expect(await db.selectFrom("item").select("code").where("code", "=", "unique").execute()).toEqual([{ code: "unique" }]);
  });

  it("keeps no statement that did not parse", async () => {
    const before = await held();
    await expect(sql`select nothing_here from item`.execute(db)).rejects.toMatchObject({ code: "42703" });
    expect(await held()).toEqual(before);
  });

  it("reads a column added by DDL through Kysely, and one added behind its back", async () => {
    await db.insertInto("item").values({ code: "ddl" }).execute();
    const all = () => sql<Record<string, unknown>>`select * from item where code = ${"ddl"}`.execute(db).then((r) => r.rows[0]);
    expect(await all()).not.toHaveProperty("extra");
    await sql`alter table item add column extra text default 'through kysely'`.execute(db);
    expect(await all()).toMatchObject({ extra: "through kysely" });
    // PGlite's own query: the cached statement's result type changes under it (PostgreSQL's 0A000).
    await pglite.query("alter table item add column more text default 'behind its back'");
    expect(await all()).toMatchObject({ extra: "through kysely", more: "behind its back" });
    await pglite.query("deallocate all");
    expect(await all()).toMatchObject({ code: "ddl" });
  });

  it("keeps at most 200 statements, closing the least recently used", async () => {
    for (let i = 0; i < 260; i++) await sql`select ${i}::int + ${sql.lit(i)} as n`.execute(db);
    const statements = await held();
    expect(statements.length).toBeLessThanOrEqual(200);
    expect(statements.some((text) => text.includes("+ 259"))).toBe(true);
    expect(statements.some((text) => text.includes("+ 0 as"))).toBe(false);
    expect((await sql<{ n: number }>`select ${5}::int + ${sql.lit(0)} as n`.execute(db)).rows).toEqual([{ n: 5 }]);
  });

  it("answers each of many statements at once with its own rows", async () => {
    await db.insertInto("item").values(Array.from({ length: 40 }, (_, i) => ({ code: `many-${i}`, n: i }))).execute();
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => db.selectFrom("item").select(["code", "n"]).where("code", "=", `many-${i}`).executeTakeFirstOrThrow()));
    expect(answers).toEqual(Array.from({ length: 40 }, (_, i) => ({ code: `many-${i}`, n: i })));
  });

  it("gives any text, number and instant back as PGlite's own query does", async () => {
    const text = "select $1::text as t, $2::int8 as n, $3::timestamptz as at, $4::jsonb as j";
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: "grapheme", maxLength: 40 }).filter((s) => !s.includes("\0")),
        fc.integer(),
        fc.date({ min: new Date("1900-01-01T00:00:00Z"), max: new Date("2200-01-01T00:00:00Z"), noInvalidDate: true }),
        fc.jsonValue({ maxDepth: 2 }).filter((v) => !JSON.stringify(v).includes("\\u0000")),
        async (t, n, at, j) => {
          const own = (await pglite.query(text, [t, n, at, JSON.stringify(j)])).rows[0];
          const cached = (await sql`select ${t}::text as t, ${n}::int8 as n, ${at}::timestamptz as at, ${JSON.stringify(j)}::jsonb as j`.execute(db)).rows[0];
          expect(cached).toEqual(own);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe("a transaction", () => {
  it("runs its statements uncached, and a write made beside it outlives its rollback", async () => {
    const before = await held();
    let release!: () => void;
    const held_ = new Promise<void>((resolve) => (release = resolve));
    const rolledBack = db
      .transaction()
      .execute(async (trx) => {
        await trx.insertInto("item").values({ code: "in-transaction" }).execute();
        await trx.selectFrom("item").select("id").where("code", "=", "in-transaction-only").execute();
        await held_;
        throw new Error("roll back");
      })
      .catch((error: Error) => error.message);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const beside = db.insertInto("item").values({ code: "beside" }).execute();
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    expect(await rolledBack).toBe("roll back");
    await beside;
    const codes = (await db.selectFrom("item").select("code").where("code", "in", ["in-transaction", "beside"]).execute()).map((row) => row.code);
    expect(codes).toEqual(["beside"]);
    expect((await held()).filter((text) => text.includes("in-transaction-only") || !before.includes(text)).some((text) => text.includes('"id" from "item" where "code" = $1'))).toBe(false);
  });

  it("commits what it wrote", async () => {
    await db.transaction().execute(async (trx) => {
      await trx.insertInto("item").values({ code: "committed" }).execute();
    });
    expect(await db.selectFrom("item").select("code").where("code", "=", "committed").execute()).toEqual([{ code: "committed" }]);
  });
});
