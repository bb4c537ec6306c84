// Consumer API, every page of a result (docs/product/calls.md §7 GET /testresult/getimage/ and its `page`
// extension; docs/architecture/results-pipeline.md §5 step 6): the original PDF is kept beside the result, in a table
// of its own so that lists never read it, with the number of pages it has; the images table holds
// one JPEG per rendered page. Page 1 is drawn at upload; a later page is drawn on its first request
// from the kept PDF and stored. A result stored before this migration has no kept PDF and no page
// count: it serves page 1 only. Only SQL that PostgreSQL 13+ and PGlite both accept.
import { sql } from "kysely";
import type { Kysely } from "kysely";
import type { Migration } from "../../../lib/db/migrate.ts";

export const resultPages: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable("consumer_test_results")
      .addColumn("page_count", "smallint", (c) => c.check(sql`page_count >= 1`))
      .execute();
    await db.schema
      .createTable("consumer_test_result_files")
      .addColumn("result_id", "uuid", (c) => c.primaryKey().references("consumer_test_results.id").onDelete("cascade"))
      .addColumn("pdf", "bytea", (c) => c.notNull())
      .execute();
    await db.schema
      .alterTable("consumer_test_result_images")
      .addColumn("page", "smallint", (c) => c.notNull().defaultTo(1).check(sql`page >= 1`))
      .execute();
    await sql`alter table consumer_test_result_images drop constraint consumer_test_result_images_pkey`.execute(db);
    await sql`alter table consumer_test_result_images add constraint consumer_test_result_images_pkey primary key (result_id, page)`.execute(db);
  },
  async down(db: Kysely<any>) {
    await sql`delete from consumer_test_result_images where page <> 1`.execute(db);
    await sql`alter table consumer_test_result_images drop constraint consumer_test_result_images_pkey`.execute(db);
    await sql`alter table consumer_test_result_images add constraint consumer_test_result_images_pkey primary key (result_id)`.execute(db);
    await db.schema.alterTable("consumer_test_result_images").dropColumn("page").execute();
    await db.schema.dropTable("consumer_test_result_files").ifExists().execute();
    await db.schema.alterTable("consumer_test_results").dropColumn("page_count").execute();
  },
};
