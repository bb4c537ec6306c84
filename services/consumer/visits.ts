// Check-in codes and visits (docs/venues.md "Check-in", "My Fun"; contracts/consumer.ts issueCheckinCode,
// redeemCheckinCode, checkIn, getCurrentUserVisits, setRating).
//
// Only a code the person chose to show lets a venue see their window: nobody can look a person up by
// product ID or name. A code is 6 characters of Crockford base32 (30 random bits), serves once, for
// 2 minutes, and asking for a new one ends the older. Entering it is a check, recorded as a visit with
// what the venue saw; Check in marks the visit. Codes entered that do not exist are counted in the
// database by guesses.ts, per caller (10), per location (20) and per hospitality group (40) in 10
// minutes, shared by every consumer API process and kept across restarts; past a limit the answer is
// 429 with Retry-After. A group, whatever its number of administrators, finds a given live code
// among 2^30 after about 2^29 / 40 windows of 10 minutes on average: about 250 years.
import { randomInt, randomUUID } from "node:crypto";
import type { Kysely, Selectable } from "kysely";
import { checkinCodeSeconds } from "../../contracts/consumer.ts";
import type { Check, CheckinCode, Visit, WindowState } from "../../contracts/consumer.ts";
import type { Location } from "../../contracts/business.ts";
import { isUuid } from "../shared/ids.ts";
import { NoProfileError, VenueError } from "./errors.ts";
import type { GuessAttempt } from "./guesses.ts";
import type { ConsumerDatabase, ConsumerVisitsTable } from "./schema/tables.ts";

type Db = Kysely<ConsumerDatabase>;

/** Crockford base32's alphabet: digits and upper-case letters without I, L, O, U. */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const CODE_LENGTH = 6;
/** Codes older than this are deleted when a new one is issued. */
const CODE_KEPT_MS = 24 * 60 * 60 * 1000;
/** Most visits listed. */
export const VISITS_LISTED = 200;

/** A fresh code: 6 characters drawn uniformly from ALPHABET by crypto.randomInt. */
function newCode(): string {
  let code = "";
  for (let i = 0; i < CODE_LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return code;
}

/**
 * A code as typed, read the Crockford way: any case, spaces and dashes dropped, I and L as 1, O as 0;
 * undefined when it is not 6 characters of the alphabet then.
 */
export function normalizeCode(typed: string): string | undefined {
  const code = typed.toUpperCase().replace(/[\s-]/g, "").replace(/[IL]/g, "1").replace(/O/g, "0");
  return code.length === CODE_LENGTH && [...code].every((c) => ALPHABET.includes(c)) ? code : undefined;
}

/** What a venue sees of a window at `now`: Strong while the strong window is open, else Weak while the weak one is, else None. */
export function windowStateAt(strong: Date | null, weak: Date | null, now: Date): WindowState {
  if (strong && strong > now) return "Strong";
  if (weak && weak > now) return "Weak";
  return "None";
}

async function profileIdOf(db: Db, identityUserId: string): Promise<string> {
  const row = await db.selectFrom("consumer_profiles").select("id").where("identity_user_id", "=", identityUserId).executeTakeFirst();
  if (!row) throw new NoProfileError();
  return row.id;
}

/**
 * POST /checkin/issuecode/: a new code for the user; their older codes stop working (withdrawn), and
 * codes older than a day are deleted.
 * @throws NoProfileError
 */
export async function issueCheckinCode(db: Db, identityUserId: string, now: Date): Promise<CheckinCode> {
  const consumerId = await profileIdOf(db, identityUserId);
  const expiresAt = new Date(now.getTime() + checkinCodeSeconds * 1000);
  return db.transaction().execute(async (trx) => {
    await trx.deleteFrom("consumer_checkin_codes").where("created_at", "<", new Date(now.getTime() - CODE_KEPT_MS)).execute();
    await trx.updateTable("consumer_checkin_codes").set({ withdrawn_at: now }).where("consumer_id", "=", consumerId).where("used_at", "is", null).where("withdrawn_at", "is", null).execute();
    // 2^30 codes: a collision with a code of the last day is rare; draw again then.
    for (;;) {
      const code = newCode();
      const inserted = await trx
        .insertInto("consumer_checkin_codes")
        .values({ code, consumer_id: consumerId, created_at: now, expires_at: expiresAt, used_at: null, withdrawn_at: null })
        .onConflict((oc) => oc.column("code").doNothing())
        .returning("code")
        .executeTakeFirst();
      if (inserted) return { code, expiresAt: expiresAt.toISOString() };
    }
  });
}

function checkOf(row: Selectable<ConsumerVisitsTable>, person: { first_name: string; last_name: string }): Check {
  return {
    visitId: row.id,
    firstName: person.first_name,
    lastName: person.last_name,
    windowState: row.window_state,
    strongSafetyDate: row.strong_safety_date?.toISOString() ?? null,
    weakSafetyDate: row.weak_safety_date?.toISOString() ?? null,
    locationId: row.location_id,
    locationName: row.location_name,
    checkedAt: row.checked_at.toISOString(),
    checkedInAt: row.checked_in_at?.toISOString() ?? null,
  };
}

/**
 * POST /checkin/redeemcode/ at `location` (which the caller administers: the route asked the business
 * API): uses the code up and records the check, in one statement each, so that two venues entering
 * one code at once see it once. `attempt` (guesses.ts, begun by the route) is settled here: a miss
 * when no such code exists, else taken back, after the transaction (PGlite has one connection).
 * @throws VenueError 400 invalid_request (not a code), 404 code_not_found, 409 code_expired / code_used
 */
export async function redeemCheckinCode(db: Db, caller: string, typed: string, location: Location, now: Date, attempt: GuessAttempt): Promise<Check> {
  const code = normalizeCode(typed);
  if (!code) {
    await attempt.notAMiss(); // not a guess at a code
    throw new VenueError(400, "invalid_request", "A check-in code is 6 letters and digits.");
  }
  const outcome = await db.transaction().execute(async (trx) => {
    const used = await trx
      .updateTable("consumer_checkin_codes")
      .set({ used_at: now })
      .where("code", "=", code)
      .where("used_at", "is", null)
      .where("withdrawn_at", "is", null)
      .where("expires_at", ">", now)
      .returning("consumer_id")
      .executeTakeFirst();
    if (!used) {
      const row = await trx.selectFrom("consumer_checkin_codes").select(["used_at"]).where("code", "=", code).executeTakeFirst();
      return { refused: !row ? ("code_not_found" as const) : row.used_at ? ("code_used" as const) : ("code_expired" as const) };
    }
    const person = await trx
      .selectFrom("consumer_profiles")
      .select(["first_name", "last_name", "strong_safety_date", "weak_safety_date"])
      .where("id", "=", used.consumer_id)
      .executeTakeFirstOrThrow();
    const visit = await trx
      .insertInto("consumer_visits")
      .values({
        id: randomUUID(),
        consumer_id: used.consumer_id,
        location_id: location.locationId,
        location_name: location.name,
        location_city: location.city,
        location_state: location.state,
        checked_by: caller,
        checked_at: now,
        window_state: windowStateAt(person.strong_safety_date, person.weak_safety_date, now),
        strong_safety_date: person.strong_safety_date,
        weak_safety_date: person.weak_safety_date,
        checked_in_at: null,
        rating: null,
        rated_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { check: checkOf(visit, person) };
  });
  if (outcome.check) {
    await attempt.notAMiss();
    return outcome.check;
  }
  if (outcome.refused === "code_not_found") {
    await attempt.missed();
    throw new VenueError(404, "code_not_found", "There is no such check-in code. Check the code with the visitor.");
  }
  await attempt.notAMiss();
  if (outcome.refused === "code_used") throw new VenueError(409, "code_used", "This check-in code was already used. Ask the visitor for a new one.");
  throw new VenueError(409, "code_expired", "This check-in code has expired. Ask the visitor for a new one.");
}

/**
 * POST /checkin/checkin/: marks a check the caller made as checked in (a second time: as it is).
 * @throws VenueError 404 not_found for a visit the caller did not check
 */
export async function checkIn(db: Db, caller: string, visitId: string, now: Date): Promise<Check> {
  const missing = () => new VenueError(404, "not_found", "No such check of yours.");
  if (!isUuid(visitId)) throw missing();
  await db.updateTable("consumer_visits").set({ checked_in_at: now }).where("id", "=", visitId).where("checked_by", "=", caller).where("checked_in_at", "is", null).execute();
  const row = await db
    .selectFrom("consumer_visits as v")
    .innerJoin("consumer_profiles as p", "p.id", "v.consumer_id")
    .selectAll("v")
    .select(["p.first_name", "p.last_name"])
    .where("v.id", "=", visitId)
    .where("v.checked_by", "=", caller)
    .executeTakeFirst();
  if (!row) throw missing();
  return checkOf(row, row);
}

function visitOf(row: Selectable<ConsumerVisitsTable>): Visit {
  return {
    visitId: row.id,
    locationId: row.location_id,
    locationName: row.location_name,
    city: row.location_city,
    state: row.location_state,
    checkedAt: row.checked_at.toISOString(),
    windowState: row.window_state,
    checkedInAt: row.checked_in_at?.toISOString() ?? null,
    rating: row.rating,
  };
}

/**
 * GET /locationvisit/getcurrentuservisits/: the user's visits, newest first, at most VISITS_LISTED.
 * @throws NoProfileError
 */
export async function currentUserVisits(db: Db, identityUserId: string): Promise<Visit[]> {
  return allVisits(db, await profileIdOf(db, identityUserId), VISITS_LISTED);
}

/** Every visit of the profile `consumerId`, newest first (at most `limit`): the list, and the data export's. */
export async function allVisits(db: Db, consumerId: string, limit?: number): Promise<Visit[]> {
  let query = db.selectFrom("consumer_visits").selectAll().where("consumer_id", "=", consumerId).orderBy("checked_at", "desc").orderBy("id");
  if (limit !== undefined) query = query.limit(limit);
  return (await query.execute()).map(visitOf);
}

/**
 * POST /locationvisit/setrating/: 1-5 on one of the user's own visits that ended in a check-in.
 * @throws NoProfileError; VenueError 404 not_found (not theirs), 409 not_checked_in
 */
export async function setRating(db: Db, identityUserId: string, visitId: string, rating: number, now: Date): Promise<Visit> {
  const consumerId = await profileIdOf(db, identityUserId);
  const missing = () => new VenueError(404, "not_found", "No such visit of yours.");
  if (!isUuid(visitId)) throw missing();
  const row = await db.selectFrom("consumer_visits").selectAll().where("id", "=", visitId).where("consumer_id", "=", consumerId).executeTakeFirst();
  if (!row) throw missing();
  if (!row.checked_in_at) throw new VenueError(409, "not_checked_in", "Only a visit you were checked in at can be rated.");
  const updated = await db.updateTable("consumer_visits").set({ rating, rated_at: now }).where("id", "=", visitId).returningAll().executeTakeFirstOrThrow();
  return visitOf(updated);
}
