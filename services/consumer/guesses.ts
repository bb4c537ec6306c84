// Check-in code guesses (docs/venues.md "Check-in", docs/security/limits.md "Check-in code guesses"). A code
// is 30 random bits and lives 2 minutes, so the only way to find one is to enter codes until one
// exists; these counters make that hopeless. The codes entered that do not exist are counted per
// caller (identity user), per location and per hospitality group, so that more administrator
// accounts do not mean more guesses, in the database (consumer_checkin_guesses), so that every
// consumer API process shares one count and a restart keeps it.
//
// Windows are fixed (GUESS_WINDOW_MS, aligned on the epoch): a refusal waits for the window's end,
// which the answer's Retry-After gives in seconds. Across a window's edge a scope can use its limit
// twice in a row, so over any 10 minutes it gets at most twice its limit.
//
// An attempt counts from the moment it starts, before the code is looked up, by an atomic
// INSERT … ON CONFLICT … DO UPDATE … RETURNING on each of its rows in turn (caller, location, group;
// each its own statement, so no statement waits holding another row): attempts sent at once cannot
// all pass before the first miss is known. An attempt refused, or whose code exists (used or not),
// is then taken back from the rows it counted in. Codes not found are also counted over all venues: past
// `ceiling` in a window each raises safewindow_checkin_guesses_over_ceiling_total and the first logs
// a warning, but nothing is refused, since a global refusal would let one attacker stop every venue.
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import { counter } from "../../lib/metrics.ts";
import { VenueError } from "./errors.ts";
import type { ConsumerDatabase, ConsumerCheckinGuessesTable } from "./schema/tables.ts";

type Db = Kysely<ConsumerDatabase>;
type Scope = ConsumerCheckinGuessesTable["scope"];

/** Length of a counting window, ms (10 minutes). */
export const GUESS_WINDOW_MS = 10 * 60 * 1000;

/** Codes not found allowed per window (GUESS_WINDOW_MS), by scope. */
export interface GuessLimits {
  /** By one caller (identity user), wherever they enter codes. */
  perCaller: number;
  /** At one location, by all its administrators together. */
  perLocation: number;
  /** At all the locations of one hospitality group together. */
  perGroup: number;
  /** Over all venues: beyond it a metric and a log line, never a refusal. */
  ceiling: number;
}

/** The limits of docs/security/limits.md "Check-in code guesses". */
export const GUESS_LIMITS: GuessLimits = { perCaller: 10, perLocation: 20, perGroup: 40, ceiling: 1000 };

/** Who enters a code where: the caller's identity user id, the location and its group (business API ids). */
export interface GuessKeys {
  caller: string;
  locationId: string;
  hospitalityGroupId: string;
}

/** One attempt counted by GuessCounter.begin; settle it once (later calls do nothing). */
export interface GuessAttempt {
  /** No code was tried (not a code, refused, failed), or the code exists: takes the attempt back. */
  notAMiss(): Promise<void>;
  /** The code does not exist: the attempt stays counted, and counts toward the global ceiling. */
  missed(): Promise<void>;
}

const refusals: Record<Exclude<Scope, "all">, string> = {
  caller: "You entered too many codes that do not exist. Wait a few minutes.",
  location: "Too many codes that do not exist were entered at this location. Wait a few minutes.",
  group: "Too many codes that do not exist were entered at this hospitality group's locations. Wait a few minutes.",
};

const refusedTotal = counter("safewindow_checkin_guesses_refused_total", "Check-in codes refused before lookup because a guess limit was reached, by the scope that refused (caller, location, group).", ["scope"]);
const overCeilingTotal = counter(
  "safewindow_checkin_guesses_over_ceiling_total",
  "Check-in codes not found beyond the global ceiling of their window (docs/security/README.md); counted, never refused.",
  [],
);

/** The start of the window holding `now`. */
function windowOf(now: Date): Date {
  return new Date(Math.floor(now.getTime() / GUESS_WINDOW_MS) * GUESS_WINDOW_MS);
}

/** Counts check-in code guesses in the database (consumer_checkin_guesses), shared by every process on it. */
export class GuessCounter {
  readonly #db: Db;
  readonly #logger: Logger;
  readonly #limits: GuessLimits;
  /** Windows before this one were purged by this process. */
  #purgedBefore = 0;

  /** `limits` default to GUESS_LIMITS, each one given replacing its default. */
  constructor(db: Db, logger: Logger, limits: Partial<GuessLimits> = {}) {
    this.#db = db;
    this.#logger = logger;
    this.#limits = { ...GUESS_LIMITS, ...limits };
  }

  /**
   * Refuses at once a caller already at perCaller in the current window: read only, before the
   * route asks the business API anything, so that a caller who must wait costs no call there.
   * `begin` still counts (and decides) atomically.
   * @throws VenueError 429 too_many_attempts with retryAfterSeconds, as `begin`
   */
  async refuseWaitingCaller(caller: string, now: Date): Promise<void> {
    const windowStart = windowOf(now);
    const row = await this.#db.selectFrom("consumer_checkin_guesses").select("misses").where("scope", "=", "caller").where("key", "=", caller).where("window_start", "=", windowStart).executeTakeFirst();
    if (row && row.misses >= this.#limits.perCaller) throw this.#refusal("caller", windowStart, now);
  }

  /** The 429 of `scope`: wait until the window that began at `windowStart` ends (1 s at least). */
  #refusal(scope: Exclude<Scope, "all">, windowStart: Date, now: Date): VenueError {
    refusedTotal.inc({ scope });
    const retryAfter = Math.max(1, Math.ceil((windowStart.getTime() + GUESS_WINDOW_MS - now.getTime()) / 1000));
    return new VenueError(429, "too_many_attempts", refusals[scope], retryAfter);
  }

  /**
   * Counts an attempt of `keys.caller` at `keys.locationId` at `now`, in the caller's, the location's
   * and the group's rows of the current window, and purges the rows of past windows (once per window
   * per process).
   * @returns the attempt, to settle once the code is known
   * @throws VenueError 429 too_many_attempts with retryAfterSeconds (1 to 600: until the window's end)
   *   when the attempt would exceed perCaller, perLocation or perGroup; a refused attempt is not counted
   */
  async begin(keys: GuessKeys, now: Date): Promise<GuessAttempt> {
    const windowStart = windowOf(now);
    if (windowStart.getTime() > this.#purgedBefore) {
      this.#purgedBefore = windowStart.getTime();
      await this.#db.deleteFrom("consumer_checkin_guesses").where("window_start", "<", windowStart).execute();
    }
    const rows: [Exclude<Scope, "all">, string][] = [
      ["caller", keys.caller],
      ["location", keys.locationId],
      ["group", keys.hospitalityGroupId],
    ];
    // One row at a time, narrowest first: an attempt refused by its caller's limit never counts at
    // the location, nor one refused at the location in the group, even for the moment before it is
    // taken back.
    const allowed = { caller: this.#limits.perCaller, location: this.#limits.perLocation, group: this.#limits.perGroup };
    const counted: (typeof rows)[number][] = [];
    let settled = false;
    const takeBack = async () => {
      if (settled) return;
      settled = true;
      for (const [scope, key] of counted) {
        await this.#db
          .updateTable("consumer_checkin_guesses")
          .set((eb) => ({ misses: eb("misses", "-", 1) }))
          .where("scope", "=", scope)
          .where("key", "=", key)
          .where("window_start", "=", windowStart)
          .where("misses", ">", 0)
          .execute();
      }
    };
    for (const row of rows) {
      let misses: number;
      try {
        misses = await this.#raise(row[0], row[1], windowStart);
      } catch (err) {
        await takeBack().catch(() => {}); // the database failed: nothing was tried
        throw err;
      }
      counted.push(row);
      if (misses > allowed[row[0]]) {
        await takeBack();
        throw this.#refusal(row[0], windowStart, now);
      }
    }
    return {
      notAMiss: takeBack,
      missed: async () => {
        if (settled) return;
        settled = true;
        await this.#countOverAll(keys, windowStart);
      },
    };
  }

  /** Adds 1 to the row of `scope`, `key` and `windowStart` (made at 1 when missing), atomically; its new count. */
  async #raise(scope: Scope, key: string, windowStart: Date): Promise<number> {
    const { misses } = await this.#db
      .insertInto("consumer_checkin_guesses")
      .values({ scope, key, window_start: windowStart, misses: 1 })
      .onConflict((oc) => oc.columns(["scope", "key", "window_start"]).doUpdateSet((eb) => ({ misses: eb("consumer_checkin_guesses.misses", "+", 1) })))
      .returning("misses")
      .executeTakeFirstOrThrow();
    return misses;
  }

  /** Counts a code not found over all venues; past the ceiling: the metric, and a warning for the first. */
  async #countOverAll(keys: GuessKeys, windowStart: Date): Promise<void> {
    const misses = await this.#raise("all", "", windowStart);
    if (misses <= this.#limits.ceiling) return;
    overCeilingTotal.inc();
    if (misses === this.#limits.ceiling + 1) {
      this.#logger.warn(
        { ceiling: this.#limits.ceiling, windowStart: windowStart.toISOString(), caller: keys.caller, locationId: keys.locationId, hospitalityGroupId: keys.hospitalityGroupId },
        "check-in codes not found over all venues passed the global ceiling: someone may be guessing codes with many hospitality groups",
      );
    }
  }
}
