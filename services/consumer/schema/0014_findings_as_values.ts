// Consumer API: what a checked field found, and where a signed code disagrees with its PDF, stored as
// values (contracts/result-words.ts `Finding`, JSON text) instead of English sentences, so that the
// API words them when it answers: on the wire in its fixed English grammar, in the upload's own
// message in the request's language (docs/product/calls.md §7.4 "What the upstream writes").
// - consumer_test_result_property_values.match_info (text) becomes `finding` (JSON, null when the
//   field passed);
// - consumer_test_results.proof_disagreement (text) becomes `proof_disagreements` (JSON list).
// Existing sentences are read back with the grammar they were written in (readFinding); one that is
// not in it (none is known) keeps its words as the PDF's side of a difference, or as an accepted
// review without its time, so that no row is lost. Only SQL that PostgreSQL 13+ and PGlite both accept.
import type { Kysely } from "kysely";
import { findingIn, readFinding, resultWords } from "../../../contracts/result-words.ts";
import type { Finding } from "../../../contracts/result-words.ts";
import type { Migration } from "../../../lib/db/migrate.ts";

/** A stored sentence as values; what the grammar cannot read is kept rather than dropped. */
function findingOf(name: string, text: string): Finding {
  const finding = readFinding(name, text);
  if (finding) return finding;
  if (name === "Manual Review") return { kind: "accepted", at: null };
  if (name === "Signed QR Code") return { kind: "disagreement", items: [{ field: "Result", qr: text, pdf: "" }] };
  return { kind: "difference", pdf: text, profile: "" };
}

export const findingsAsValues: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable("consumer_test_result_property_values").addColumn("finding", "text").execute();
    const values: { id: string; name: string; match_info: string }[] = await db
      .selectFrom("consumer_test_result_property_values")
      .select(["id", "name", "match_info"])
      .where("match_info", "is not", null)
      .execute();
    for (const v of values) {
      await db
        .updateTable("consumer_test_result_property_values")
        .set({ finding: JSON.stringify(findingOf(v.name, v.match_info)) })
        .where("id", "=", v.id)
        .execute();
    }
    await db.schema.alterTable("consumer_test_result_property_values").dropColumn("match_info").execute();

    await db.schema.alterTable("consumer_test_results").addColumn("proof_disagreements", "text").execute();
    const results: { id: string; proof_disagreement: string }[] = await db
      .selectFrom("consumer_test_results")
      .select(["id", "proof_disagreement"])
      .where("proof_disagreement", "is not", null)
      .execute();
    for (const r of results) {
      const finding = findingOf("Signed QR Code", r.proof_disagreement);
      const items = finding.kind === "disagreement" ? finding.items : [];
      await db.updateTable("consumer_test_results").set({ proof_disagreements: JSON.stringify(items) }).where("id", "=", r.id).execute();
    }
    await db.schema.alterTable("consumer_test_results").dropColumn("proof_disagreement").execute();
  },
  // Back to the English sentences the API answers with (findingIn with resultWords.en).
  async down(db: Kysely<any>) {
    await db.schema.alterTable("consumer_test_results").addColumn("proof_disagreement", "text").execute();
    const results: { id: string; proof_disagreements: string }[] = await db
      .selectFrom("consumer_test_results")
      .select(["id", "proof_disagreements"])
      .where("proof_disagreements", "is not", null)
      .execute();
    for (const r of results) {
      const text = findingIn(resultWords.en, { kind: "disagreement", items: JSON.parse(r.proof_disagreements) });
      await db.updateTable("consumer_test_results").set({ proof_disagreement: text }).where("id", "=", r.id).execute();
    }
    await db.schema.alterTable("consumer_test_results").dropColumn("proof_disagreements").execute();

    await db.schema.alterTable("consumer_test_result_property_values").addColumn("match_info", "text").execute();
    const values: { id: string; finding: string }[] = await db.selectFrom("consumer_test_result_property_values").select(["id", "finding"]).where("finding", "is not", null).execute();
    for (const v of values) {
      await db
        .updateTable("consumer_test_result_property_values")
        .set({ match_info: findingIn(resultWords.en, JSON.parse(v.finding) as Finding) })
        .where("id", "=", v.id)
        .execute();
    }
    await db.schema.alterTable("consumer_test_result_property_values").dropColumn("finding").execute();
  },
};
