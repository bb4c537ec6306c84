// The language of the account mails (docs/product/calls.md §7.4 "The mail's language"): each mail
// is written in the language of the request that causes it, else the account's kept language, else
// English (services/shared/language.ts mailLanguageOf). A request of the account's holder
// (registration, sign-in, a mailed link redeemed, a signed-in change) keeps its language with the
// account; a request anyone may make (a reset, a confirmation mail, an invitation) does not.
import type { Kysely } from "kysely";
import type { MailLanguage } from "../shared/language.ts";
import type { IdentityDatabase } from "./schema/tables.ts";

/**
 * Keeps `language` as the account's mail language, through `executor` (a transaction, or the
 * database): the account's holder asked for it. Nothing when it is null (the request said none)
 * or already kept, so a sign-in in the same language writes nothing.
 */
export async function keepLanguage(executor: Kysely<IdentityDatabase>, userId: string, language: MailLanguage | null): Promise<void> {
  if (!language) return;
  await executor.updateTable("identity_users").set({ language }).where("id", "=", userId).where("language", "is distinct from", language).execute();
}
