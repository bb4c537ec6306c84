// Migration 0014_findings_as_values (services/consumer/schema/0014_findings_as_values.ts): the
// sentences a consumer API stored before, each checked field's matchInfo and a signed code's
// disagreement, become values (contracts/result-words.ts Finding), and the API answers the same
// words for them as before; down() writes the sentences back. A database at 0013 with rows as the
// API wrote them, on a real PGlite.
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Kysely } from "kysely";
import { createDatabase } from "../../lib/db/database.ts";
import { migrateToLatest } from "../../lib/db/migrate.ts";
import { listPropertyValues, listResults } from "../../services/consumer/results/store.ts";
import { CONSUMER_MIGRATION_TABLE, consumerMigrations } from "../../services/consumer/schema/migrations.ts";

/** Sentences as the API wrote them before 0014, by checked field; the last one of no known shape. */
const before = [
  ["First Name", "PDF: ADDA MARIA; profile: Ada"],
  ["Last Name", null],
  ["Date of Birth", "PDF: 12/10/1990; profile: 12/11/1990"],
  ["Signed QR Code", "Result (QR: Positive; PDF: Negative), Name (QR: Grace Hopper; PDF: ADDA LOVELACE)"],
  ["Manual Review", "Accepted on review by a reviewer at 2025-03-04 05:06 UTC"],
] as const;
/** Two signed codes' disagreements as they were once joined, with a result code no scheme defines. */
const proofDisagreement = "Result (QR: Positive; PDF: Negative); Result (QR: unknown code 99; PDF: Negative)";

let dataDir: string;
let db: Kysely<any>;
const identityUserId = randomUUID();
const resultId = randomUUID();

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "findings-migration-"));
  db = await createDatabase<any>({ dataDir, name: "consumer" });
  await migrateToLatest(db, Object.fromEntries(Object.entries(consumerMigrations).filter(([name]) => name < "0014")), CONSUMER_MIGRATION_TABLE);
  const now = new Date();
  const consumerId = randomUUID();
  await db
    .insertInto("consumer_profiles")
    .values({ id: consumerId, identity_user_id: identityUserId, first_name: "Ada", last_name: "Lovelace", dob: "1990-12-11", postal_code: "94105", safe_window_id: "0ADA0ADB", created_at: now, updated_at: now })
    .execute();
  await db
    .insertInto("consumer_test_results")
    .values({
      id: resultId, consumer_id: consumerId, file_sha256: "f".repeat(64), file_size: 1000, lab_id: "harborview",
      testing_company_name: "Harborview Clinical Laboratories, LLC", public_name: "Harborview Labs", disease_name: "COVID-19",
      test_name: "SARS-CoV-2 RNA, Qualitative NAAT", method: "NAAT", result: "Negative", result_text: "NOT DETECTED",
      collected_at: now, collected_text: "collected", patient_given_names: "ADDA MARIA", patient_last_name: "LOVELACE", patient_dob: "1990-12-10",
      valid: true, window_description: "PCR (NAAT)", created_at: now, updated_at: now, proof_kind: "shc", proof_issuer: "Harborview Labs", proof_disagreement: proofDisagreement,
    })
    .execute();
  await db
    .insertInto("consumer_test_result_property_values")
    .values(before.map(([name, matchInfo], position) => ({ id: randomUUID(), result_id: resultId, position, name, match_info: matchInfo })))
    .execute();
});

afterAll(async () => {
  await db?.destroy();
  await rm(dataDir, { recursive: true, force: true });
});

describe("migration 0014_findings_as_values", () => {
  it("stores every sentence as values, and the API answers the same words for them", async () => {
    expect(await migrateToLatest(db, consumerMigrations, CONSUMER_MIGRATION_TABLE)).toContain("0014_findings_as_values");
    const stored = await db.selectFrom("consumer_test_result_property_values").select(["name", "finding"]).where("result_id", "=", resultId).orderBy("position").execute();
    expect(stored.map((v) => [v.name, v.finding === null ? null : JSON.parse(v.finding)])).toEqual([
      ["First Name", { kind: "difference", pdf: "ADDA MARIA", profile: "Ada" }],
      ["Last Name", null],
      ["Date of Birth", { kind: "difference", pdf: "12/10/1990", profile: "12/11/1990" }],
      ["Signed QR Code", { kind: "disagreement", items: [{ field: "Result", qr: "Positive", pdf: "Negative" }, { field: "Name", qr: "Grace Hopper", pdf: "ADDA LOVELACE" }] }],
      ["Manual Review", { kind: "accepted", at: "2025-03-04T05:06:00.000Z" }],
    ]);
    const [result] = await db.selectFrom("consumer_test_results").select("proof_disagreements").where("id", "=", resultId).execute();
    expect(JSON.parse(result!.proof_disagreements)).toEqual([
      { field: "Result", qr: "Positive", pdf: "Negative" },
      { field: "Result", qr: { unknownCode: "99" }, pdf: "Negative" },
    ]);

    // The API's answers: the same sentences (several codes' disagreements now joined as one list).
    expect((await listPropertyValues(db, identityUserId, resultId)).map((v) => [v.name, v.matchInfo])).toEqual(before);
    expect((await listResults(db, identityUserId))[0]!.proof).toMatchObject({ label: "signed (SMART Health Card, Harborview Labs)", disagreement: proofDisagreement.replace("); ", "), ") });
  });

  it("writes the sentences back when undone", async () => {
    await consumerMigrations["0014_findings_as_values"]!.down!(db);
    const values = await db.selectFrom("consumer_test_result_property_values").select(["name", "match_info"]).where("result_id", "=", resultId).orderBy("position").execute();
    expect(values.map((v) => [v.name, v.match_info])).toEqual(before);
    const [result] = await db.selectFrom("consumer_test_results").select("proof_disagreement").where("id", "=", resultId).execute();
    expect(result!.proof_disagreement).toBe(proofDisagreement.replace("); ", "), "));
  });
});
