// Business users (docs/venues.md "The business side"; contracts/business.ts getUserInfo,
// saveUserInfoPartial): the business side's record of a person, keyed by the identity authority's
// user id. Their e-mail address and whether it is confirmed come from their tokens; names and a
// mobile number are what they saved.
import type { Kysely } from "kysely";
import type { SaveUserInfoPartialRequest, UserInfo } from "../../contracts/business.ts";
import type { AuthenticatedUser } from "../shared/auth.ts";
import type { BusinessDatabase } from "./schema/tables.ts";

/**
 * The address whose roles the user holds: the token's e-mail, lower case, only when the identity
 * authority says it is confirmed (a role given to an address is never held by someone who merely
 * registered it). Undefined otherwise.
 */
export function heldEmail(user: AuthenticatedUser): string | undefined {
  return user.emailVerified && user.email ? user.email.toLowerCase() : undefined;
}

/** Records the token's e-mail and its confirmation for the user (one upsert, on every authenticated call). */
export async function touchUser(db: Kysely<BusinessDatabase>, user: AuthenticatedUser, now: Date): Promise<void> {
  await db
    .insertInto("business_users")
    .values({ identity_user_id: user.identityUserId, email: user.email ?? null, email_verified: user.emailVerified, updated_at: now })
    .onConflict((oc) =>
      oc.column("identity_user_id").doUpdateSet({ email: user.email ?? null, email_verified: user.emailVerified, updated_at: now }).where((eb) =>
        // Write only when something changed: most calls change nothing.
        eb.or([eb("business_users.email", "is distinct from", user.email ?? null), eb("business_users.email_verified", "<>", user.emailVerified)]),
      ),
    )
    .execute();
}

/** GET getuserinfo: the user's info (null fields until saved). */
export async function getUserInfo(db: Kysely<BusinessDatabase>, user: AuthenticatedUser): Promise<UserInfo> {
  const row = await db.selectFrom("business_users").selectAll().where("identity_user_id", "=", user.identityUserId).executeTakeFirst();
  return {
    identityUserId: user.identityUserId,
    userName: user.email ?? null,
    firstName: row?.first_name ?? null,
    lastName: row?.last_name ?? null,
    mobileNumber: row?.mobile_number ?? null,
  };
}

/** POST saveuserinfopartial: writes the fields given, keeps the others, answers the whole info. */
export async function saveUserInfoPartial(db: Kysely<BusinessDatabase>, user: AuthenticatedUser, changes: SaveUserInfoPartialRequest, now: Date): Promise<UserInfo> {
  const set = {
    ...(changes.firstName !== undefined ? { first_name: changes.firstName } : {}),
    ...(changes.lastName !== undefined ? { last_name: changes.lastName } : {}),
    ...(changes.mobileNumber !== undefined ? { mobile_number: changes.mobileNumber } : {}),
    updated_at: now,
  };
  await db
    .insertInto("business_users")
    .values({ identity_user_id: user.identityUserId, email: user.email ?? null, email_verified: user.emailVerified, ...set })
    .onConflict((oc) => oc.column("identity_user_id").doUpdateSet(set))
    .execute();
  return getUserInfo(db, user);
}

/** POST deleteuserinfo (extension): deletes the user's record; a later call records the token's e-mail again, and nothing else. */
export async function deleteUserInfo(db: Kysely<BusinessDatabase>, user: AuthenticatedUser): Promise<void> {
  await db.deleteFrom("business_users").where("identity_user_id", "=", user.identityUserId).execute();
}
