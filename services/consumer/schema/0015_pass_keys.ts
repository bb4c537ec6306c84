// Consumer API: the keys that sign SafeWindow Passes (docs/product/pass.md §11; services/consumer/pass/keys.ts;
// docs/decisions/0019-pass-signing-key.md). One row per ES256 key: its id (at most 8 characters, the
// pass header's `kid`), its public JWK (published from `created_at`), its private JWK sealed with
// DATA_DIR/consumer-pass-secret (lib/sealed-key.ts), and the instant it signs from (a rotation's key is
// published before it signs anything). Only SQL that PostgreSQL 13+ and PGlite both accept.
import { sql } from "kysely";
import type { Kysely } from "kysely";
import type { Migration } from "../../../lib/db/migrate.ts";

export const passKeys: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable("consumer_pass_keys")
      .addColumn("kid", "text", (c) => c.primaryKey().check(sql`length(kid) between 1 and 8`))
      .addColumn("public_jwk", "text", (c) => c.notNull())
      .addColumn("sealed_private_jwk", "text", (c) => c.notNull())
      .addColumn("created_at", "timestamptz", (c) => c.notNull())
      .addColumn("signs_from", "timestamptz", (c) => c.notNull())
      .execute();
    // The keys are read in signing order on every load.
    await db.schema.createIndex("consumer_pass_keys_signs_from").on("consumer_pass_keys").columns(["signs_from", "kid"]).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable("consumer_pass_keys").execute();
  },
};
