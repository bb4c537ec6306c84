// services/consumer's domain functions without HTTP (docs/architecture/conventions.md §9.5: plain values in and out): the
// profile rules on a pinned clock, calendar dates, product IDs (collision retry), the
// onProfileChanged hook and operator-managed permissions, on a real PGlite database.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase } from "../../lib/db/database.ts";
import { migrateToLatest } from "../../lib/db/migrate.ts";
import { ageOn } from "../../contracts/rules.ts";
import { parseCalendarDate } from "../../services/consumer/dates.ts";
import { NoProfileError, ProfileExistsError, ProfileRuleError } from "../../services/consumer/errors.ts";
import { getPermissions } from "../../services/consumer/permissions.ts";
import { checkCoreFields, createProfile, findProfile, modifyCore, newSafeWindowId } from "../../services/consumer/profiles.ts";
import type { CoreInput, ProfilesContext } from "../../services/consumer/profiles.ts";
import { getSafeWindow } from "../../services/consumer/safewindow.ts";
import { CONSUMER_MIGRATION_TABLE, consumerMigrations } from "../../services/consumer/schema/migrations.ts";
import type { ConsumerDatabase } from "../../services/consumer/schema/tables.ts";

const PRODUCT_ID = /^[0-9A-HJKMNP-TV-Z]{8}$/;
/** The pinned clock: 15 June 2026, 23:30 UTC (already 16 June east of UTC+0:30). */
const NOW = new Date("2026-06-15T23:30:00Z");
const good: CoreInput = { firstName: "Ada", lastName: "Lovelace", dob: "1990-12-10", postalCode: "94105" };

function ruleErrors(input: CoreInput, now = NOW): { field: string | null; message: string }[] {
  try {
    checkCoreFields(input, now);
    return [];
  } catch (err) {
    expect(err).toBeInstanceOf(ProfileRuleError);
    return (err as ProfileRuleError).errors;
  }
}

describe("calendar dates", () => {
  it("reads YYYY-MM-DD, ISO date-times (date part as written) and MM/DD/YYYY", () => {
    expect(parseCalendarDate("1990-12-10")).toEqual({ date: { year: 1990, month: 12, day: 10 } });
    expect(parseCalendarDate(" 12/10/1990 ")).toEqual({ date: { year: 1990, month: 12, day: 10 } });
    expect(parseCalendarDate("1990-12-10T00:00:00")).toEqual({ date: { year: 1990, month: 12, day: 10 } });
    expect(parseCalendarDate("1990-12-10T23:59:59.999-08:00")).toEqual({ date: { year: 1990, month: 12, day: 10 } });
    expect(parseCalendarDate("1990-12-10T00:00:00Z")).toEqual({ date: { year: 1990, month: 12, day: 10 } });
    expect(parseCalendarDate("2000-02-29")).toEqual({ date: { year: 2000, month: 2, day: 29 } });
  });

  it("tells a wrong form from an impossible date", () => {
    for (const text of ["", "1990-1-10", "90-12-10", "1/2/1990", "12/10/90", "1990.12.10", "1990-12-10T", "December 10, 1990", "+1990-12-10"]) {
      expect(parseCalendarDate(text), text).toEqual({ problem: "format" });
    }
    for (const text of ["02/30/2000", "13/01/2000", "00/10/2000", "1900-02-29", "2001-02-29", "1990-04-31", "1990-12-00", "1990-12-32"]) {
      expect(parseCalendarDate(text), text).toEqual({ problem: "calendar" });
    }
  });

  it("counts whole years, the birthday itself included; 29 February turns on 1 March", () => {
    expect(ageOn({ year: 2008, month: 6, day: 15 }, { year: 2026, month: 6, day: 15 })).toBe(18);
    expect(ageOn({ year: 2008, month: 6, day: 16 }, { year: 2026, month: 6, day: 15 })).toBe(17);
    expect(ageOn({ year: 2008, month: 2, day: 29 }, { year: 2026, month: 2, day: 28 })).toBe(17);
    expect(ageOn({ year: 2008, month: 2, day: 29 }, { year: 2026, month: 3, day: 1 })).toBe(18);
    expect(ageOn({ year: 2004, month: 2, day: 29 }, { year: 2024, month: 2, day: 29 })).toBe(20);
  });
});

describe("profile rules (checkCoreFields)", () => {
  it("normalises a valid profile", () => {
    expect(checkCoreFields({ firstName: "  Ada ", middleName: "   ", lastName: "Lovelace", dob: "12/10/1990", postalCode: " 94105-1234 " }, NOW)).toEqual({
      firstName: "Ada",
      middleName: null,
      lastName: "Lovelace",
      dob: "1990-12-10",
      postalCode: "94105-1234",
    });
    expect(checkCoreFields({ ...good, middleName: " Byron " }, NOW).middleName).toBe("Byron");
    expect(checkCoreFields({ ...good, firstName: "Zoë-Ana O'Brien", lastName: "Nguyễn" }, NOW).firstName).toBe("Zoë-Ana O'Brien");
  });

  it("applies the age rule on the date in UTC−12 (contracts/rules.ts)", () => {
    // At 23:30 UTC on 15 June 2026 it is 11:30 on 15 June in UTC−12: born on 15 June 2008, 18; a day later, 17.
    expect(ruleErrors({ ...good, dob: "2008-06-15" })).toEqual([]);
    expect(ruleErrors({ ...good, dob: "06/16/2008" })).toEqual([{ field: "dob", message: "Users must be at least 18 years of age to use the product." }]);
    // At 00:00 UTC on 16 June it is still 15 June in UTC−12; from 12:00 UTC the second is 18 too.
    expect(ruleErrors({ ...good, dob: "2008-06-16" }, new Date("2026-06-16T00:00:00Z"))).toHaveLength(1);
    expect(ruleErrors({ ...good, dob: "2008-06-16" }, new Date("2026-06-16T11:59:59Z"))).toHaveLength(1);
    expect(ruleErrors({ ...good, dob: "2008-06-16" }, new Date("2026-06-16T12:00:00Z"))).toEqual([]);
    // 29 February 2008: 17 on 28 February 2026, 18 on 1 March (in UTC−12).
    expect(ruleErrors({ ...good, dob: "2008-02-29" }, new Date("2026-03-01T11:59:59Z"))).toHaveLength(1);
    expect(ruleErrors({ ...good, dob: "2008-02-29" }, new Date("2026-03-01T12:00:00Z"))).toEqual([]);
  });

  it("refuses dates before 1900, in the future, and impossible ones", () => {
    expect(ruleErrors({ ...good, dob: "1900-01-01" })).toEqual([]);
    expect(ruleErrors({ ...good, dob: "1899-12-31" })[0]?.message).toMatch(/1900/);
    expect(ruleErrors({ ...good, dob: "2026-06-16" })[0]?.message).toMatch(/future/);
    expect(ruleErrors({ ...good, dob: "2026-06-15" })[0]?.message).toMatch(/at least 18/);
    expect(ruleErrors({ ...good, dob: "2007-02-29" })[0]?.message).toMatch(/real calendar date/);
    expect(ruleErrors({ ...good, dob: "29/02/2004" })[0]?.message).toMatch(/real calendar date/);
  });

  it("lists every broken rule with its field", () => {
    expect(ruleErrors({ firstName: " ", middleName: "x".repeat(101), lastName: "y".repeat(101), dob: "soon", postalCode: "AB_12" }).map((e) => e.field)).toEqual([
      "firstName",
      "middleName",
      "lastName",
      "dob",
      "postalCode",
    ]);
    expect(ruleErrors({}).map((e) => e.field)).toEqual(["firstName", "lastName", "dob", "postalCode"]);
    expect(ruleErrors({ ...good, postalCode: "x".repeat(12) })).toEqual([]);
    expect(ruleErrors({ ...good, firstName: "x".repeat(100) })).toEqual([]);
    expect(ruleErrors({ ...good, lastName: "Love\u0000lace" })[0]?.field).toBe("lastName");
    expect(ruleErrors({ ...good, lastName: "Love\u0085lace" })[0]?.field).toBe("lastName");
    for (const postalCode of ["12", "-1234", "1234-", "12_34"]) expect(ruleErrors({ ...good, postalCode }).map((e) => e.field), postalCode).toEqual(["postalCode"]);
  });
});

describe("newSafeWindowId", () => {
  it("draws 8 Crockford base32 characters", () => {
    const ids = Array.from({ length: 2000 }, () => newSafeWindowId());
    for (const id of ids) expect(id).toMatch(PRODUCT_ID);
    expect(new Set(ids).size).toBe(ids.length);
    // Every one of the 32 symbols turns up; none of I, L, O, U ever does.
    expect(new Set(ids.join("")).size).toBe(32);
  });
});

// ---------------------------------------------------------------- with a database

let dataDir: string;
let db: Kysely<ConsumerDatabase>;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "consumer-domain-"));
  db = await createDatabase<ConsumerDatabase>({ dataDir, name: "consumer" });
  expect(await migrateToLatest(db, consumerMigrations, CONSUMER_MIGRATION_TABLE)).toEqual(Object.keys(consumerMigrations).sort());
  expect(await migrateToLatest(db, consumerMigrations, CONSUMER_MIGRATION_TABLE)).toEqual([]);
});

afterAll(async () => {
  await db?.destroy();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

let userCounter = 0;
const newUserId = () => `user-${++userCounter}-${Math.random().toString(36).slice(2)}`;

describe("createProfile", () => {
  it("draws again when a product ID is taken, and gives up after 8 tries", async () => {
    const first = await createProfile({ db }, newUserId(), good, NOW);
    const taken = first.safeWindowId;
    const queue = [taken, taken, taken, "ZZZZ0000"];
    const collide: ProfilesContext = { db, newSafeWindowId: () => queue.shift() ?? newSafeWindowId() };
    const second = await createProfile(collide, newUserId(), good, NOW);
    expect(second.safeWindowId).toBe("ZZZZ0000");
    expect(queue).toEqual([]);

    const always: ProfilesContext = { db, newSafeWindowId: () => taken };
    const unlucky = newUserId();
    await expect(createProfile(always, unlucky, good, NOW)).rejects.toThrow(/no unused product ID after 8 tries/);
    expect(await findProfile({ db }, unlucky)).toBeNull();
  });

  it("keeps one profile per user, also when two requests race", async () => {
    const user = newUserId();
    const results = await Promise.allSettled([createProfile({ db }, user, good, NOW), createProfile({ db }, user, { ...good, firstName: "Twin" }, NOW)]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const rejected = results.find((r) => r.status === "rejected");
    expect(rejected?.reason).toBeInstanceOf(ProfileExistsError);
    await expect(createProfile({ db }, user, good, NOW)).rejects.toBeInstanceOf(ProfileExistsError);
    const rows = await db.selectFrom("consumer_profiles").select("id").where("identity_user_id", "=", user).execute();
    expect(rows).toHaveLength(1);
  });

  it("stores the coordinates and the creation time from now", async () => {
    const user = newUserId();
    await createProfile({ db }, user, { ...good, latitude: 40.7, longitude: -74 }, NOW);
    const row = await db.selectFrom("consumer_profiles").selectAll().where("identity_user_id", "=", user).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ latitude: 40.7, longitude: -74, created_at: NOW, updated_at: NOW, dob: "1990-12-10" });
  });
});

describe("modifyCore and onProfileChanged", () => {
  it("passes before and after to the hook inside the transaction; its writes show in the answer", async () => {
    const user = newUserId();
    const created = await createProfile({ db }, user, { ...good, middleName: "Byron" }, NOW);
    const later = new Date("2026-07-01T10:00:00Z");
    const seen: unknown[] = [];
    const ctx: ProfilesContext = {
      db,
      async onProfileChanged(trx, change) {
        seen.push(change);
        await trx.updateTable("consumer_profiles").set({ strong_safety_date: new Date("2026-07-03T10:00:00Z"), safe_window_description: "Strong" }).where("id", "=", change.consumerId).execute();
      },
    };
    const changed = await modifyCore(ctx, user, { firstName: "Augusta", middleName: "", lastName: "King", dob: "1990-12-10T00:00:00", postalCode: "10001" }, later);
    expect(seen).toEqual([
      {
        consumerId: created.sF_ConsumerId,
        identityUserId: user,
        before: { firstName: "Ada", middleName: "Byron", lastName: "Lovelace", dob: "1990-12-10", postalCode: "94105" },
        after: { firstName: "Augusta", middleName: null, lastName: "King", dob: "1990-12-10", postalCode: "10001" },
        now: later,
      },
    ]);
    expect(changed).toMatchObject({ firstName: "Augusta", middleName: null, strongSafetyDate: "2026-07-03T10:00:00.000Z", safeWindowDescription: "Strong", safeWindowId: created.safeWindowId });
    expect(await getSafeWindow(db, user)).toMatchObject({ firstName: "Augusta", strongSafetyDate: "2026-07-03T10:00:00.000Z", weakSafetyDate: null });
  });

  it("rolls the change back when the hook fails", async () => {
    const user = newUserId();
    const created = await createProfile({ db }, user, good, NOW);
    const failing: ProfilesContext = {
      db,
      async onProfileChanged() {
        throw new Error("matching failed");
      },
    };
    await expect(modifyCore(failing, user, { ...good, firstName: "Changed" }, NOW)).rejects.toThrow("matching failed");
    expect(await findProfile({ db }, user)).toEqual(created);
  });

  it("says NoProfile before checking rules", async () => {
    await expect(modifyCore({ db }, newUserId(), {}, NOW)).rejects.toBeInstanceOf(NoProfileError);
    const user = newUserId();
    await createProfile({ db }, user, good, NOW);
    await expect(modifyCore({ db }, user, {}, NOW)).rejects.toBeInstanceOf(ProfileRuleError);
  });
});

describe("permissions", () => {
  it("follows what an operator stores per consumer", async () => {
    const user = newUserId();
    expect(await getPermissions(db, user)).toEqual({ enabledScreens: ["Settings"] });
    const profile = await createProfile({ db }, user, good, NOW);
    expect(await getPermissions(db, user)).toEqual({ enabledScreens: ["SafeWindow", "MyTests", "MyFun", "Locations", "Friends", "Settings"] });

    await db.deleteFrom("consumer_screen_permissions").where("consumer_id", "=", profile.sF_ConsumerId).where("screen", "in", ["Friends", "Locations"]).execute();
    expect(await getPermissions(db, user)).toEqual({ enabledScreens: ["SafeWindow", "MyTests", "MyFun", "Settings"] });
    await db.insertInto("consumer_screen_permissions").values({ consumer_id: profile.sF_ConsumerId, screen: "Friends" }).execute();
    expect(await getPermissions(db, user)).toEqual({ enabledScreens: ["SafeWindow", "MyTests", "MyFun", "Friends", "Settings"] });

    await db.deleteFrom("consumer_screen_permissions").where("consumer_id", "=", profile.sF_ConsumerId).execute();
    expect(await getPermissions(db, user)).toEqual({ enabledScreens: [] });
    // The database refuses screen names docs/product/data.md §6 does not have.
    await expect(db.insertInto("consumer_screen_permissions").values({ consumer_id: profile.sF_ConsumerId, screen: "Admin" as never }).execute()).rejects.toThrow(/check constraint/);
  });
});
