// docs/product/data.md §6 "Permissions are fetched after login … Screens are enabled by name": which screens a
// user may use. Stored per consumer (one row per screen) so an operator can change them in the
// database; a new profile gets DEFAULT_SCREENS.
import type { Kysely } from "kysely";
import { reviewScreenName } from "../../contracts/consumer.ts";
import type { Permissions, ScreenName } from "../../contracts/consumer.ts";
import { SCREENS } from "./schema/tables.ts";
import type { ConsumerDatabase, Screen } from "./schema/tables.ts";

export { SCREENS };
export type { Screen };

/**
 * Screens a new profile gets: the bottom tabs of docs/product/screens.md §2 (safe window, my tests, people,
 * settings) and the venue screens of docs/venues.md (my fun, locations); migration 0008 granted the
 * venue screens to the profiles made before them.
 */
export const DEFAULT_SCREENS: readonly Screen[] = ["SafeWindow", "MyTests", "MyFun", "Locations", "Friends", "Settings"];

/** Screens of a user without a profile: only settings (docs/product/screens.md §2 sends them to /yourinfo first). */
export const NO_PROFILE_SCREENS: readonly Screen[] = ["Settings"];

/** docs/product/data.md §3 "Permissions: enabledScreens (list)": the contract's Permissions. */
export type { Permissions };

/**
 * Grants DEFAULT_SCREENS to a new consumer. Call inside the transaction that creates the profile.
 * @param consumerId the profile's id (uuid).
 */
export async function grantDefaultScreens(db: Kysely<ConsumerDatabase>, consumerId: string): Promise<void> {
  await db
    .insertInto("consumer_screen_permissions")
    .values(DEFAULT_SCREENS.map((screen) => ({ consumer_id: consumerId, screen })))
    .execute();
}

/**
 * The screens the user may use, in SCREENS order: the stored rows of their profile, or
 * NO_PROFILE_SCREENS when they have none. A profile whose rows were all removed gets []. A dispute
 * reviewer (results/reviews.ts isReviewer) gets the extension screen DisputeReviews last, with or
 * without a profile.
 * @param identityUserId the identity authority's user id (token `sub`).
 */
export async function getPermissions(db: Kysely<ConsumerDatabase>, identityUserId: string, reviewer = false): Promise<Permissions> {
  const profile = await db.selectFrom("consumer_profiles").select("id").where("identity_user_id", "=", identityUserId).executeTakeFirst();
  let enabledScreens: ScreenName[];
  if (!profile) {
    enabledScreens = [...NO_PROFILE_SCREENS];
  } else {
    const rows = await db.selectFrom("consumer_screen_permissions").select("screen").where("consumer_id", "=", profile.id).execute();
    const granted = new Set(rows.map((r) => r.screen));
    enabledScreens = SCREENS.filter((s) => granted.has(s));
  }
  return { enabledScreens: reviewer ? [...enabledScreens, reviewScreenName] : enabledScreens };
}
