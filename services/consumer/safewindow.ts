// The safe window card's data (docs/product/screens.md §2 /safewindow, §4 "Safe window", §7 GET
// /consumer/getsafewindow). The dates are stored on the profile by the test-result pipeline
// (docs/architecture/results-pipeline.md §5 step 9, results/store.ts#refreshConsumerWindow) whenever a result is stored or
// re-matched: those of the most recent valid result by collection time, null without one.
// Reading them never consults the clock: whether a window is still valid is the caller's
// comparison with its own `now`.
import type { Kysely } from "kysely";
import type { SafeWindowCard } from "../../contracts/consumer.ts";
import type { ConsumerDatabase } from "./schema/tables.ts";

/** The owner's safe window card: the contract's SafeWindowCard (contracts/consumer.ts), dates ISO 8601 UTC or null. */
export type SafeWindow = SafeWindowCard;

/** The profile columns a window is read from (getSafeWindow; the relation lists read them joined). */
export interface WindowColumns {
  strong_safety_date: Date | null;
  weak_safety_date: Date | null;
  safe_window_proof: SafeWindowCard["safeWindowProof"];
}

/**
 * The window's dates and proof as the contract gives them: ISO 8601 UTC or null; a proof only
 * beside a window (a profile whose window closed keeps its last proof stored).
 */
export function windowOf(row: WindowColumns): Pick<SafeWindow, "strongSafetyDate" | "weakSafetyDate" | "safeWindowProof"> {
  return {
    strongSafetyDate: row.strong_safety_date?.toISOString() ?? null,
    weakSafetyDate: row.weak_safety_date?.toISOString() ?? null,
    safeWindowProof: row.strong_safety_date ? row.safe_window_proof : null,
  };
}

/**
 * The user's safe window, or null when they have no profile.
 * @param identityUserId the identity authority's user id (token `sub`).
 */
export async function getSafeWindow(db: Kysely<ConsumerDatabase>, identityUserId: string): Promise<SafeWindow | null> {
  const row = await db
    .selectFrom("consumer_profiles")
    .select(["first_name", "middle_name", "last_name", "dob", "safe_window_id", "strong_safety_date", "weak_safety_date", "safe_window_description", "safe_window_proof"])
    .where("identity_user_id", "=", identityUserId)
    .executeTakeFirst();
  if (!row) return null;
  const window = windowOf(row);
  return {
    firstName: row.first_name,
    middleName: row.middle_name,
    lastName: row.last_name,
    dob: row.dob,
    safeWindowId: row.safe_window_id,
    strongSafetyDate: window.strongSafetyDate,
    weakSafetyDate: window.weakSafetyDate,
    safeWindowDescription: row.safe_window_description,
    safeWindowProof: window.safeWindowProof,
  };
}
