// Consumer API, test results (docs/product/data.md §3 test result and property value; docs/architecture/results-pipeline.md §5): one row
// per stored result with what was read from the PDF (so that a profile change can re-run
// matching), its property values, and page 1's JPEG in a table of its own so that lists never
// read it. Only SQL that PostgreSQL 13+ and PGlite both accept.
import { sql } from "kysely";
import type { Kysely } from "kysely";
import type { Migration } from "../../../lib/db/migrate.ts";

export const results: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable("consumer_test_results")
      .addColumn("id", "uuid", (c) => c.primaryKey())
      .addColumn("consumer_id", "uuid", (c) => c.notNull().references("consumer_profiles.id").onDelete("cascade"))
      // SHA-256 of the uploaded file, lower-case hex: the same file is stored once per consumer.
      .addColumn("file_sha256", "text", (c) => c.notNull().check(sql`file_sha256 ~ '^[0-9a-f]{64}$'`))
      .addColumn("file_size", "integer", (c) => c.notNull())
      .addColumn("lab_id", "text", (c) => c.notNull())
      .addColumn("testing_company_name", "text", (c) => c.notNull())
      .addColumn("public_name", "text", (c) => c.notNull())
      .addColumn("disease_name", "text", (c) => c.notNull())
      .addColumn("test_name", "text", (c) => c.notNull())
      .addColumn("method", "text", (c) => c.notNull().check(sql`method in ('NAAT', 'antigen')`))
      .addColumn("result", "text", (c) => c.notNull().check(sql`result in ('Negative', 'Positive', 'Inconclusive')`))
      .addColumn("result_text", "text", (c) => c.notNull())
      .addColumn("collected_at", "timestamptz", (c) => c.notNull())
      .addColumn("collected_text", "text", (c) => c.notNull())
      .addColumn("patient_given_names", "text", (c) => c.notNull())
      .addColumn("patient_last_name", "text", (c) => c.notNull())
      .addColumn("patient_dob", "date", (c) => c.notNull())
      .addColumn("valid", "boolean", (c) => c.notNull())
      // The window the result opens by the rules (negative results only); it counts while valid.
      .addColumn("strong_safety_date", "timestamptz")
      .addColumn("weak_safety_date", "timestamptz")
      .addColumn("window_description", "text", (c) => c.notNull())
      .addColumn("dispute_status", "smallint", (c) => c.notNull().defaultTo(0).check(sql`dispute_status in (0, 1)`))
      .addColumn("dispute_comment", "text", (c) => c.check(sql`char_length(dispute_comment) between 1 and 1000`))
      .addColumn("dispute_response_comment", "text")
      .addColumn("disputed_at", "timestamptz")
      .addColumn("created_at", "timestamptz", (c) => c.notNull())
      .addColumn("updated_at", "timestamptz", (c) => c.notNull())
      .addUniqueConstraint("consumer_test_results_file_key", ["consumer_id", "file_sha256"])
      .execute();
    await db.schema.createIndex("consumer_test_results_consumer_collected_idx").on("consumer_test_results").columns(["consumer_id", "collected_at"]).execute();

    await db.schema
      .createTable("consumer_test_result_property_values")
      .addColumn("id", "uuid", (c) => c.primaryKey())
      .addColumn("result_id", "uuid", (c) => c.notNull().references("consumer_test_results.id").onDelete("cascade"))
      .addColumn("name", "text", (c) => c.notNull().check(sql`name in ('First Name', 'Last Name', 'Date of Birth')`))
      .addColumn("match_info", "text")
      .addColumn("position", "smallint", (c) => c.notNull())
      .addUniqueConstraint("consumer_test_result_property_values_name_key", ["result_id", "name"])
      .execute();

    await db.schema
      .createTable("consumer_test_result_images")
      .addColumn("result_id", "uuid", (c) => c.primaryKey().references("consumer_test_results.id").onDelete("cascade"))
      .addColumn("jpeg", "bytea", (c) => c.notNull())
      .addColumn("width", "integer", (c) => c.notNull())
      .addColumn("height", "integer", (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable("consumer_test_result_images").ifExists().execute();
    await db.schema.dropTable("consumer_test_result_property_values").ifExists().execute();
    await db.schema.dropTable("consumer_test_results").ifExists().execute();
  },
};
