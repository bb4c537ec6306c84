// The identity authority's migrations, in order. Names are permanent once deployed.
import type { Migration } from "../../../lib/db/migrate.ts";
import { initial } from "./0001_initial.ts";
import { outbox } from "./0002_outbox.ts";
import { notices } from "./0003_notices.ts";
import { resetRequests } from "./0004_reset_requests.ts";
import { outboxPurgeIndex } from "./0005_outbox_purge_index.ts";
import { accountDeleted } from "./0006_account_deleted.ts";
import { sealedSigningKeys } from "./0007_sealed_signing_keys.ts";
import { outboxDeletionIndexes } from "./0008_outbox_deletion_indexes.ts";
import { mailLanguage } from "./0009_mail_language.ts";

/** Migration table of the identity authority (kept apart from consumer_… in a shared database). */
export const IDENTITY_MIGRATION_TABLE = "identity_migration";

/** Every identity migration by name; pass to migrateToLatest with IDENTITY_MIGRATION_TABLE. */
export const identityMigrations: Record<string, Migration> = {
  "0001_initial": initial,
  "0002_outbox": outbox,
  "0003_notices": notices,
  "0004_reset_requests": resetRequests,
  "0005_outbox_purge_index": outboxPurgeIndex,
  "0006_account_deleted": accountDeleted,
  "0007_sealed_signing_keys": sealedSigningKeys,
  "0008_outbox_deletion_indexes": outboxDeletionIndexes,
  "0009_mail_language": mailLanguage,
};
