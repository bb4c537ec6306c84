// The report's identity on both database engines (services/consumer/README.md; migration
// services/consumer/schema/0004_report_identity.ts): the migration keys the rows stored before
// it, keeping a copy of a report that was stored twice (the bug) without a key rather than
// deleting it, and the unique constraint then holds one row per report and consumer; on a real
// PostgreSQL server (tests/integration/postgres.ts) with a connection pool, uploads of one
// report in three different files at once store one result.
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase } from "../../lib/db/database.ts";
import { migrateToLatest } from "../../lib/db/migrate.ts";
import { REPORT_KEY_CONSTRAINT, reportIdentityKey } from "../../services/consumer/schema/0004_report_identity.ts";
import { CONSUMER_MIGRATION_TABLE, consumerMigrations } from "../../services/consumer/schema/migrations.ts";
import type { ConsumerDatabase } from "../../services/consumer/schema/tables.ts";
import { byteAppended, labPdf, resavedPdf } from "../fixtures/index.ts";
import { startPostgres } from "./postgres.ts";
import type { PostgresServer } from "./postgres.ts";
import { callApi, currentResults, json, makePerson, startServices } from "./support.ts";

const HOUR = 3600_000;
let pg: PostgresServer;
let dataDir: string;

beforeAll(async () => {
  [pg, dataDir] = await Promise.all([startPostgres(), mkdtemp(path.join(tmpdir(), "identity-key-"))]);
});

afterAll(async () => {
  await pg?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** The migrations before 0004, by name, and up to 0004. */
const before0004 = Object.fromEntries(Object.entries(consumerMigrations).filter(([name]) => name < "0004"));
const through0004 = Object.fromEntries(Object.entries(consumerMigrations).filter(([name]) => name < "0005"));

async function insertProfile(db: Kysely<any>, safeWindowId: string): Promise<string> {
  const id = randomUUID();
  const now = new Date();
  await db
    .insertInto("consumer_profiles")
    .values({ id, identity_user_id: randomUUID(), first_name: "Ada", last_name: "Lovelace", dob: "1990-12-10", postal_code: "94105", safe_window_id: safeWindowId, created_at: now, updated_at: now })
    .execute();
  return id;
}

/** A stored Harborview result of Ada collected at `collectedAt`, as 0002_results wrote rows. */
async function insertResult(db: Kysely<any>, consumerId: string, collectedAt: Date, createdAt: Date, extra: Record<string, unknown> = {}): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto("consumer_test_results")
    .values({
      id,
      consumer_id: consumerId,
      file_sha256: randomUUID().replaceAll("-", "").padEnd(64, "0"),
      file_size: 1000,
      lab_id: "harborview",
      testing_company_name: "Harborview Clinical Laboratories, LLC",
      public_name: "Harborview Labs",
      disease_name: "COVID-19",
      test_name: "SARS-CoV-2 RNA, Qualitative NAAT",
      method: "NAAT",
      result: "Negative",
      result_text: "NOT DETECTED",
      collected_at: collectedAt,
      collected_text: "collected",
      patient_given_names: "ADA",
      patient_last_name: "LOVELACE",
      patient_dob: "1990-12-10",
      valid: true,
      window_description: "PCR (NAAT)",
      created_at: createdAt,
      updated_at: createdAt,
      ...extra,
    })
    .execute();
  return id;
}

function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: unknown; constraint?: unknown; message?: unknown };
  return e.code === "23505" && (e.constraint === REPORT_KEY_CONSTRAINT || String(e.message).includes(REPORT_KEY_CONSTRAINT));
}

const engines: [string, () => Promise<Kysely<ConsumerDatabase>>][] = [
  ["PGlite", () => createDatabase<ConsumerDatabase>({ dataDir, name: "consumer" })],
  ["PostgreSQL", async () => createDatabase<ConsumerDatabase>({ databaseUrl: await pg.createDatabase("identity_key"), name: "consumer", poolSize: 4 })],
];

describe("migration 0004_report_identity", () => {
  for (const [engine, open] of engines) {
    it(`keys the rows stored before it and keeps a copy stored twice, without a key (${engine})`, async () => {
      const db = await open();
      try {
        expect(await migrateToLatest(db, before0004, CONSUMER_MIGRATION_TABLE)).toEqual(["0001_profiles", "0002_results", "0003_subscriptions"]);
        const ada = await insertProfile(db, "0ADA0ADA");
        const other = await insertProfile(db, "0THER000");
        const collected = new Date("2026-11-20T16:15:00Z");
        const first = await insertResult(db, ada, collected, new Date("2026-11-21T09:00:00Z"));
        // The same report stored again before the fix (another file), and a different report.
        const copy = await insertResult(db, ada, collected, new Date("2026-11-21T10:00:00Z"));
        const later = await insertResult(db, ada, new Date(collected.getTime() + HOUR), new Date("2026-11-21T11:00:00Z"));
        const theirs = await insertResult(db, other, collected, new Date("2026-11-21T12:00:00Z"));

        expect(await migrateToLatest(db, through0004, CONSUMER_MIGRATION_TABLE)).toEqual(["0004_report_identity"]);
        const rows = await db.selectFrom("consumer_test_results").select(["id", "report_key"]).execute();
        const keyOf = new Map(rows.map((r) => [r.id, r.report_key]));
        const key = reportIdentityKey({ labId: "harborview", lastName: "LOVELACE", givenNames: "ADA", dob: "1990-12-10", collectedAt: collected, testName: "SARS-CoV-2 RNA, Qualitative NAAT" });
        expect(keyOf.get(first)).toBe(key);
        expect(keyOf.get(copy)).toBeNull();
        expect(keyOf.get(later)).toMatch(/^[0-9a-f]{64}$/);
        expect(keyOf.get(later)).not.toBe(key);
        expect(keyOf.get(theirs)).toBe(key);
        // Nothing was deleted: the owner still sees both copies.
        expect(rows).toHaveLength(4);

        // From now on the database refuses a second row of the same report for one consumer.
        const refused = await insertResult(db, ada, collected, new Date(), { report_key: key }).then(
          () => null,
          (err: unknown) => err,
        );
        expect(isUniqueViolation(refused)).toBe(true);
        await expect(insertResult(db, ada, collected, new Date(), { report_key: "not a key" })).rejects.toThrow();
      } finally {
        await db.destroy();
      }
    });
  }
});

describe("one report uploaded three times at once, on PostgreSQL", () => {
  it("stores one result; the others are already uploaded", async () => {
    const services = await startServices({
      client: { clientId: "web", clientSecret: "identity-key-secret-0123456789" },
      tmpPrefix: "identity-key-pg-",
      databaseUrl: await pg.createDatabase("identity_key_services"),
    });
    try {
      const ada = await makePerson(services, { firstName: "Ada", lastName: "Lovelace", dob: "1990-12-10", postalCode: "94105" }, { tag: "identity-key" });
      const upload = async (bytes: Uint8Array) => {
        const form = new FormData();
        form.append("multipartData", new Blob([bytes.slice()], { type: "application/pdf" }), "result.pdf");
        const res = await callApi(services, "/testresult/addtestresultmultipart/", ada, { method: "POST", body: form });
        return { status: res.status, answer: await json(res) };
      };
      for (const lab of ["harborview", "meridian", "cascade"] as const) {
        const original = await labPdf(lab, { firstName: "Ada", lastName: "Lovelace", dob: "1990-12-10", collectedAt: new Date(Date.now() - 6 * HOUR) });
        const answers = await Promise.all([upload(original), upload(await resavedPdf(original)), upload(byteAppended(original, "\n"))]);
        expect(answers.map((a) => a.status).sort(), lab).toEqual([200, 422, 422]);
        for (const a of answers.filter((a) => a.status === 422)) expect(a.answer.reason, lab).toBe("duplicate");
      }
      expect(await currentResults(services, ada)).toHaveLength(3);
    } finally {
      await services.close();
    }
  });
});
