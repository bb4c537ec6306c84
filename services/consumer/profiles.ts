// Consumer profiles (docs/product/data.md §3 Consumer; §5 "Profile screens"; §6 "Only users at least 18 may
// register or edit the profile"): the rules, createProfile (which issues the product ID),
// modifyCore and the profile as the API answers it. Plain values in, plain values out.
import { randomBytes, randomUUID } from "node:crypto";
import { base32crockford } from "@scure/base";
import type { Kysely, Transaction } from "kysely";
import type { Consumer } from "../../contracts/consumer.ts";
import { ageRuleDate, compareDates, hasControlCharacters, isOldEnough, isPostalCode, minimumAge, nameMaxLength, postalCodeMaxLength } from "../../contracts/rules.ts";
import { formatDate, parseCalendarDate } from "./dates.ts";
import { NoProfileError, ProfileExistsError, ProfileRuleError } from "./errors.ts";
import type { FieldError } from "./errors.ts";
import { grantDefaultScreens } from "./permissions.ts";
import type { ConsumerDatabase, ProfileRow } from "./schema/tables.ts";

/** Dates of birth before this year are refused as typing mistakes. */
export const EARLIEST_BIRTH_YEAR = 1900;

/**
 * The profile as the API answers it: the contract's Consumer (contracts/consumer.ts; docs/product/data.md
 * §3 names in .NET camelCase, {product}Id is safeWindowId; dob 'YYYY-MM-DD'; safety dates ISO
 * 8601 UTC or null).
 */
export type ConsumerProfile = Consumer;

/** The fields modifycore changes and every rule checks, after validation. */
export interface CoreFields {
  firstName: string;
  /** null when not given or blank. */
  middleName: string | null;
  lastName: string;
  /** 'YYYY-MM-DD'. */
  dob: string;
  postalCode: string;
}

/** Core fields as received; missing or null fields are reported by the rules, not by the parser. */
export interface CoreInput {
  firstName?: string | null;
  middleName?: string | null;
  lastName?: string | null;
  /** 'YYYY-MM-DD', an ISO date-time (its date part), or 'MM/DD/YYYY'. */
  dob?: string | null;
  postalCode?: string | null;
}

/** createprofile's input: the core fields, the opt-outs (default false) and where it was sent from. */
export interface NewProfileInput extends CoreInput {
  marketingOptOut?: boolean;
  healthUpdatesOptOut?: boolean;
  /** Degrees, -90..90, or null. */
  latitude?: number | null;
  /** Degrees, -180..180, or null. */
  longitude?: number | null;
}

/** What changed in a modifyCore call, for the onProfileChanged hook. */
export interface ProfileChange {
  consumerId: string;
  identityUserId: string;
  before: CoreFields;
  after: CoreFields;
  now: Date;
}

/**
 * Runs inside modifyCore's transaction, after the update and before the answer is read, so what
 * it writes (e.g. re-matched test results and a new safe window, docs/architecture/results-pipeline.md §5 step 8) commits or
 * rolls back with the profile change and shows in the answer.
 */
export type ProfileChangedHook = (trx: Transaction<ConsumerDatabase>, change: ProfileChange) => Promise<void>;

export interface ProfilesContext {
  db: Kysely<ConsumerDatabase>;
  /** Product ID generator; default newSafeWindowId. Tests inject collisions here. */
  newSafeWindowId?: () => string;
  /** See ProfileChangedHook. server.ts sets results/store.ts#rematchResults. */
  onProfileChanged?: ProfileChangedHook;
}

// ---------------------------------------------------------------- product ID

/**
 * A fresh product ID: 40 random bits (crypto.randomBytes(5)) as 8 characters of Crockford
 * base32 (0-9, A-Z without I, L, O, U), encoded by @scure/base. Uniqueness is the database's
 * job (createProfile retries on a collision).
 */
export function newSafeWindowId(): string {
  return base32crockford.encode(randomBytes(5));
}

// ---------------------------------------------------------------- rules

// Control characters (tabs, newlines, NUL, C1, …) have no place in a name or postal code (contracts/rules.ts).
function requiredText(value: string | null | undefined, field: string, label: string, max: number, errors: FieldError[]): string {
  const text = (value ?? "").trim();
  if (text === "") errors.push({ field, message: `${label} is required.` });
  else if (text.length > max) errors.push({ field, message: `${label} must be at most ${max} characters.` });
  else if (hasControlCharacters(text)) errors.push({ field, message: `${label} contains characters that are not allowed.` });
  return text;
}

function checkDob(value: string | null | undefined, now: Date, errors: FieldError[]): string {
  const field = "dob";
  if (value == null || value.trim() === "") {
    errors.push({ field, message: "Date of birth is required." });
    return "";
  }
  const parsed = parseCalendarDate(value);
  if ("problem" in parsed) {
    errors.push({
      field,
      message: parsed.problem === "format" ? "Date of birth must be a date in YYYY-MM-DD or MM/DD/YYYY form." : "Date of birth is not a real calendar date.",
    });
    return "";
  }
  const dob = parsed.date;
  if (dob.year < EARLIEST_BIRTH_YEAR) errors.push({ field, message: `Date of birth must be in ${EARLIEST_BIRTH_YEAR} or later.` });
  else if (compareDates(dob, ageRuleDate(now)) > 0) errors.push({ field, message: "Date of birth cannot be in the future." });
  else if (!isOldEnough(dob, now)) errors.push({ field, message: `Users must be at least ${minimumAge} years of age to use the product.` });
  return formatDate(dob);
}

/**
 * Checks and normalises the core fields (docs/product/data.md §5 profile rules, §6 minimum age): first name,
 * last name and postal code required, trimmed, at most 100 / 100 / 12 characters, no control
 * characters; the postal code 3 to 12 letters, digits, spaces or hyphens, starting and ending with
 * a letter or digit; middle name optional (blank becomes null); date of birth a real calendar date
 * from 1900 on, and the user at least 18 at `now` by the age rule (the date in UTC−12; the 18th
 * birthday itself counts). The rules are contracts/rules.ts's, which the app's forms check too
 * (docs/product/shared-rules.md).
 * @returns the normalised fields; dob as 'YYYY-MM-DD'.
 * @throws ProfileRuleError listing every failed rule.
 */
export function checkCoreFields(input: CoreInput, now: Date): CoreFields {
  const errors: FieldError[] = [];
  const firstName = requiredText(input.firstName, "firstName", "First name", nameMaxLength, errors);
  const middle = (input.middleName ?? "").trim();
  if (middle.length > nameMaxLength) errors.push({ field: "middleName", message: `Middle name must be at most ${nameMaxLength} characters.` });
  else if (hasControlCharacters(middle)) errors.push({ field: "middleName", message: "Middle name contains characters that are not allowed." });
  const lastName = requiredText(input.lastName, "lastName", "Last name", nameMaxLength, errors);
  const dob = checkDob(input.dob, now, errors);
  const postalCode = requiredText(input.postalCode, "postalCode", "Postal code", postalCodeMaxLength, errors);
  if (postalCode !== "" && postalCode.length <= postalCodeMaxLength && !hasControlCharacters(postalCode) && !isPostalCode(postalCode)) {
    errors.push({ field: "postalCode", message: "Postal code must be 3 to 12 letters, digits, spaces or hyphens, starting and ending with a letter or digit." });
  }
  if (errors.length > 0) throw new ProfileRuleError(errors);
  return { firstName, middleName: middle === "" ? null : middle, lastName, dob, postalCode };
}

function checkCoordinates(input: NewProfileInput): { latitude: number | null; longitude: number | null } {
  const errors: FieldError[] = [];
  const latitude = input.latitude ?? null;
  const longitude = input.longitude ?? null;
  if (latitude !== null && !(Number.isFinite(latitude) && latitude >= -90 && latitude <= 90)) {
    errors.push({ field: "latitude", message: "Latitude must be between -90 and 90 degrees." });
  }
  if (longitude !== null && !(Number.isFinite(longitude) && longitude >= -180 && longitude <= 180)) {
    errors.push({ field: "longitude", message: "Longitude must be between -180 and 180 degrees." });
  }
  if (errors.length > 0) throw new ProfileRuleError(errors);
  return { latitude, longitude };
}

// ---------------------------------------------------------------- reading

/** The API form of a profile row. */
export function toConsumerProfile(row: ProfileRow): ConsumerProfile {
  return {
    sF_ConsumerId: row.id,
    identityUserId: row.identity_user_id,
    firstName: row.first_name,
    middleName: row.middle_name,
    lastName: row.last_name,
    dob: row.dob,
    postalCode: row.postal_code,
    marketingOptOut: row.marketing_opt_out,
    healthUpdatesOptOut: row.health_updates_opt_out,
    safeWindowId: row.safe_window_id,
    strongSafetyDate: row.strong_safety_date?.toISOString() ?? null,
    weakSafetyDate: row.weak_safety_date?.toISOString() ?? null,
    safeWindowDescription: row.safe_window_description,
  };
}

/**
 * The user's profile (docs/product/calls.md §7 GET /consumer), or null when they have none.
 * @param identityUserId the identity authority's user id (token `sub`).
 */
export async function findProfile(ctx: ProfilesContext, identityUserId: string): Promise<ConsumerProfile | null> {
  const row = await ctx.db.selectFrom("consumer_profiles").selectAll().where("identity_user_id", "=", identityUserId).executeTakeFirst();
  return row ? toConsumerProfile(row) : null;
}

// ---------------------------------------------------------------- writing

/** How many fresh product IDs createProfile tries before giving up (40 bits: collisions are rare). */
const PRODUCT_ID_ATTEMPTS = 8;

function uniqueViolation(err: unknown): string | undefined {
  if (typeof err !== "object" || err === null) return undefined;
  const { code, constraint } = err as { code?: unknown; constraint?: unknown };
  return code === "23505" ? String(constraint ?? "") : undefined;
}

/**
 * Creates the user's profile (docs/product/calls.md §7 POST /consumer/createprofile) with a new product ID and
 * the default screens, in one transaction.
 * @param identityUserId the token's `sub`: the profile belongs to this user.
 * @param now the clock for the age rule and the creation time.
 * @throws ProfileRuleError when a rule fails (checkCoreFields, coordinates out of range);
 *   ProfileExistsError when the user already has a profile (also when two requests race);
 *   Error when no unused product ID was found in 8 tries.
 */
export async function createProfile(ctx: ProfilesContext, identityUserId: string, input: NewProfileInput, now: Date): Promise<ConsumerProfile> {
  const core = checkCoreFields(input, now);
  const { latitude, longitude } = checkCoordinates(input);
  if (await findProfile(ctx, identityUserId)) throw new ProfileExistsError();
  const generate = ctx.newSafeWindowId ?? newSafeWindowId;
  for (let attempt = 1; attempt <= PRODUCT_ID_ATTEMPTS; attempt += 1) {
    try {
      // One transaction per attempt: a failed insert aborts the transaction it ran in.
      const row = await ctx.db.transaction().execute(async (trx) => {
        const inserted = await trx
          .insertInto("consumer_profiles")
          .values({
            id: randomUUID(),
            identity_user_id: identityUserId,
            first_name: core.firstName,
            middle_name: core.middleName,
            last_name: core.lastName,
            dob: core.dob,
            postal_code: core.postalCode,
            marketing_opt_out: input.marketingOptOut ?? false,
            health_updates_opt_out: input.healthUpdatesOptOut ?? false,
            safe_window_id: generate(),
            latitude,
            longitude,
            strong_safety_date: null,
            weak_safety_date: null,
            safe_window_description: null,
            created_at: now,
            updated_at: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await grantDefaultScreens(trx, inserted.id);
        return inserted;
      });
      return toConsumerProfile(row);
    } catch (err) {
      const constraint = uniqueViolation(err);
      if (constraint === "consumer_profiles_safe_window_id_key") continue;
      if (constraint === "consumer_profiles_identity_user_id_key") throw new ProfileExistsError();
      throw err;
    }
  }
  throw new Error(`consumer: no unused product ID after ${PRODUCT_ID_ATTEMPTS} tries`);
}

/**
 * Changes the core fields of the user's profile (docs/product/calls.md §7 POST /consumer/modifycore/, §2
 * Personal Info). The product ID, opt-outs and safe window stay; onProfileChanged runs in the
 * same transaction.
 * @param identityUserId the token's `sub` (the caller has checked the form's identityUserId).
 * @param now the clock for the age rule and updated_at.
 * @throws NoProfileError when the user has no profile (checked before the rules);
 *   ProfileRuleError when a rule fails.
 */
export async function modifyCore(ctx: ProfilesContext, identityUserId: string, input: CoreInput, now: Date): Promise<ConsumerProfile> {
  const row = await ctx.db.transaction().execute(async (trx) => {
    const current = await trx.selectFrom("consumer_profiles").selectAll().where("identity_user_id", "=", identityUserId).forUpdate().executeTakeFirst();
    if (!current) throw new NoProfileError();
    const after = checkCoreFields(input, now);
    const updated = await trx
      .updateTable("consumer_profiles")
      .set({
        first_name: after.firstName,
        middle_name: after.middleName,
        last_name: after.lastName,
        dob: after.dob,
        postal_code: after.postalCode,
        updated_at: now,
      })
      .where("id", "=", current.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    if (!ctx.onProfileChanged) return updated;
    const before: CoreFields = {
      firstName: current.first_name,
      middleName: current.middle_name,
      lastName: current.last_name,
      dob: current.dob,
      postalCode: current.postal_code,
    };
    await ctx.onProfileChanged(trx, { consumerId: current.id, identityUserId, before, after, now });
    return trx.selectFrom("consumer_profiles").selectAll().where("id", "=", current.id).executeTakeFirstOrThrow();
  });
  return toConsumerProfile(row);
}

/**
 * Deletes everything the consumer API keeps about `identityUserId` (an extension of docs/product/calls.md §7; README "The
 * person's own data"): the profile, and with it, by the schema's cascades, its results, their images,
 * original PDFs, checks, dispute decisions and pending mails, its follow relations on both sides (the
 * other people's lists no longer show it) and its screen permissions; then the e-mail address kept for
 * search. One transaction; a user without a profile loses only that address. Idempotent.
 * @returns true when a profile was deleted.
 */
export async function deleteProfile(db: Kysely<ConsumerDatabase>, identityUserId: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const deleted = await trx.deleteFrom("consumer_profiles").where("identity_user_id", "=", identityUserId).executeTakeFirst();
    await trx.deleteFrom("consumer_identity_emails").where("identity_user_id", "=", identityUserId).execute();
    return deleted.numDeletedRows > 0n;
  });
}
