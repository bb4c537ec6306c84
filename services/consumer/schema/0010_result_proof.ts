// Consumer API, signed results (docs/product/labs.md §10.9): each result records its proof, the strongest
// evidence the pipeline found: a verified SMART Health Card (with its issuer's name) or EU DCC (with the
// signer's country), the lab's own site (a result by link), or the document checks alone; a signature
// that could not be tied to a known issuer (its scheme); and where a verified signed code disagreed with
// the PDF's text, which keeps the result invalid through later profile changes and shows as the
// 'Signed QR Code' property value. The profile carries the proof of the result its window comes from,
// for the window's card (null until the window is next computed: the card then says nothing of it). Only SQL that PostgreSQL 13+ and PGlite both accept.
import { sql } from "kysely";
import type { Kysely } from "kysely";
import type { Migration } from "../../../lib/db/migrate.ts";

export const resultProof: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable("consumer_test_results")
      .addColumn("proof_kind", "text", (c) => c.notNull().defaultTo("document").check(sql`proof_kind in ('shc', 'dcc', 'link', 'document')`))
      .execute();
    await db.schema.alterTable("consumer_test_results").addColumn("proof_issuer", "text").execute();
    await db.schema
      .alterTable("consumer_test_results")
      .addColumn("proof_unverified", "text", (c) => c.check(sql`proof_unverified in ('SMART Health Card', 'EU DCC')`))
      .execute();
    await db.schema.alterTable("consumer_test_results").addColumn("proof_disagreement", "text").execute();
    await sql`update consumer_test_results set proof_kind = 'link' where fetched_from is not null`.execute(db);
    await sql`alter table consumer_test_result_property_values drop constraint consumer_test_result_property_values_name_check`.execute(db);
    await sql`alter table consumer_test_result_property_values add constraint consumer_test_result_property_values_name_check check (name in ('First Name', 'Last Name', 'Date of Birth', 'Manual Review', 'Signed QR Code'))`.execute(db);
    await db.schema.alterTable("consumer_profiles").addColumn("safe_window_proof", "text").execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable("consumer_profiles").dropColumn("safe_window_proof").execute();
    await sql`delete from consumer_test_result_property_values where name = 'Signed QR Code'`.execute(db);
    await sql`alter table consumer_test_result_property_values drop constraint consumer_test_result_property_values_name_check`.execute(db);
    await sql`alter table consumer_test_result_property_values add constraint consumer_test_result_property_values_name_check check (name in ('First Name', 'Last Name', 'Date of Birth', 'Manual Review'))`.execute(db);
    for (const column of ["proof_disagreement", "proof_unverified", "proof_issuer", "proof_kind"]) {
      await db.schema.alterTable("consumer_test_results").dropColumn(column).execute();
    }
  },
};
