// Consumer API, the identity of a stored report (services/consumer/README.md "The pipeline",
// steps 1 and 5: a duplicate upload is found by the file's hash and by the report's identity;
// docs/decisions/0010-forged-originals.md).
// The same report saved again, or with white space appended, is another file with another
// SHA-256; its identity (lab, the person's name and date of birth, the specimen collection time,
// the test) is not. Each result row gets `report_key`, a SHA-256 of that identity, unique per
// consumer, so two uploads of one report that race cannot both be stored. Only SQL that
// PostgreSQL 13+ and PGlite both accept.
import { createHash } from "node:crypto";
import { sql } from "kysely";
import type { Kysely } from "kysely";
import type { Migration } from "../../../lib/db/migrate.ts";

/** What identifies a lab report, as the pipeline reads it (results/extract.ts Extracted). */
export interface ReportIdentity {
  /** labs/ id of the issuer. */
  labId: string;
  lastName: string;
  /** Given names as printed (first name, then any middle names). */
  givenNames: string;
  /** 'YYYY-MM-DD'. */
  dob: string;
  /** Specimen collection, as an instant. */
  collectedAt: Date;
  /** The test's name as the lab data spells it. */
  testName: string;
}

/** Unicode NFC, white space runs made one space, trimmed, lower case. */
function folded(text: string): string {
  return text.normalize("NFC").replace(/\s+/gu, " ").trim().toLowerCase();
}

/**
 * The report's identity key: SHA-256, lower-case hex, of the lab id, the folded last name and
 * given names, the date of birth, the collection instant (ISO 8601 UTC) and the folded test name.
 * This is the definition the rows were keyed with by this migration; the pipeline keys new rows
 * with it too. Changing it needs a new migration that re-keys the stored rows.
 */
export function reportIdentityKey(r: ReportIdentity): string {
  const identity = [r.labId, folded(r.lastName), folded(r.givenNames), r.dob, r.collectedAt.toISOString(), folded(r.testName)];
  return createHash("sha256").update(JSON.stringify(identity), "utf8").digest("hex");
}

/** The unique constraint that holds one row per report and consumer. */
export const REPORT_KEY_CONSTRAINT = "consumer_test_results_report_key";

export const reportIdentity: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable("consumer_test_results")
      .addColumn("report_key", "text", (c) => c.check(sql`report_key ~ '^[0-9a-f]{64}$'`))
      .execute();
    // Key the rows already stored, oldest first. A copy of a report stored before this migration
    // (the bug it fixes) stays, visible to its owner as before, without a key: NULLs are distinct
    // under a unique constraint, and nothing is deleted from anyone's list.
    const rows = await db
      .selectFrom("consumer_test_results")
      .select(["id", "consumer_id", "lab_id", "patient_last_name", "patient_given_names", "patient_dob", "collected_at", "test_name"])
      .orderBy("created_at")
      .orderBy("id")
      .execute();
    const keyed = new Set<string>();
    for (const row of rows) {
      const dob = row.patient_dob instanceof Date ? row.patient_dob.toISOString().slice(0, 10) : String(row.patient_dob);
      const key = reportIdentityKey({
        labId: row.lab_id,
        lastName: row.patient_last_name,
        givenNames: row.patient_given_names,
        dob,
        collectedAt: new Date(row.collected_at),
        testName: row.test_name,
      });
      if (keyed.has(`${row.consumer_id} ${key}`)) continue;
      keyed.add(`${row.consumer_id} ${key}`);
      await db.updateTable("consumer_test_results").set({ report_key: key }).where("id", "=", row.id).execute();
    }
    await db.schema.alterTable("consumer_test_results").addUniqueConstraint(REPORT_KEY_CONSTRAINT, ["consumer_id", "report_key"]).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable("consumer_test_results").dropConstraint(REPORT_KEY_CONSTRAINT).ifExists().execute();
    await db.schema.alterTable("consumer_test_results").dropColumn("report_key").execute();
  },
};
