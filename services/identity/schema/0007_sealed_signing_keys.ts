// Identity authority, seventh schema: the private signing key is stored sealed (services/identity/tokens.ts,
// docs/decisions/0015-owner-only-data-dir.md). The keys stored so far were plain JWKs in files other
// local users could read (DATA_DIR was 0755 and PGlite's files 0666): they are deleted, not sealed, and
// the next start makes a new key, so tokens signed with them are refused and everyone signs in again.
// Only SQL that PostgreSQL 13+ and PGlite accept.
import type { Kysely } from "kysely";
import type { Migration } from "../../../lib/db/migrate.ts";

export const sealedSigningKeys: Migration = {
  async up(db: Kysely<any>) {
    await db.deleteFrom("identity_signing_keys").execute();
    await db.schema.alterTable("identity_signing_keys").dropColumn("private_jwk").execute();
    await db.schema.alterTable("identity_signing_keys").addColumn("sealed_private_jwk", "text", (c) => c.notNull()).execute();
  },
  async down(db: Kysely<any>) {
    await db.deleteFrom("identity_signing_keys").execute();
    await db.schema.alterTable("identity_signing_keys").dropColumn("sealed_private_jwk").execute();
    await db.schema.alterTable("identity_signing_keys").addColumn("private_jwk", "text", (c) => c.notNull()).execute();
  },
};
