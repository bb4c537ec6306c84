// The consumer API's memory of the e-mail addresses it stored for search (services/consumer/subscriptions.ts
// EmailMemory): an authenticated call stores the token's address once, and skips the statement while this
// process stored the same address for the same user within its time bound; a new address, `forget` and
// the end of the bound store it again; with it, the mail language a call names. The database is a real in-memory PGlite with the consumer
// API's migrations; "another process deleted the row" is a DELETE by hand.
import { PGlite } from "@electric-sql/pglite";
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseOn } from "../../lib/db/database.ts";
import { migrateToLatest } from "../../lib/db/migrate.ts";
import { CONSUMER_MIGRATION_TABLE, consumerMigrations } from "../../services/consumer/schema/migrations.ts";
import type { ConsumerDatabase } from "../../services/consumer/schema/tables.ts";
import { EmailMemory } from "../../services/consumer/subscriptions.ts";

const pglite = new PGlite();
const db = databaseOn<ConsumerDatabase>(pglite) as Kysely<ConsumerDatabase>;

beforeAll(async () => {
  await migrateToLatest(db, consumerMigrations, CONSUMER_MIGRATION_TABLE);
}, 60_000);

afterAll(async () => {
  await db.destroy();
});

/** The address stored for `user`, or undefined. */
async function stored(user: string): Promise<string | undefined> {
  return (await db.selectFrom("consumer_identity_emails").select("email").where("identity_user_id", "=", user).executeTakeFirst())?.email;
}

/** Deletes the address of `user` behind the memory's back (as another process of the consumer API would). */
async function deleteBehind(user: string): Promise<void> {
  await db.deleteFrom("consumer_identity_emails").where("identity_user_id", "=", user).execute();
}

describe("EmailMemory", () => {
  it("stores an address once, skips the same address within its bound, and stores a new one at once", async () => {
    const memory = new EmailMemory(db, 60_000);
    await memory.remember("user-1", "ada@example.com", new Date());
    expect(await stored("user-1")).toBe("ada@example.com");
    await deleteBehind("user-1");
    await memory.remember("user-1", "ada@example.com", new Date());
    // No statement: the row deleted behind its back is not written again within the bound.
    expect(await stored("user-1")).toBeUndefined();
    await memory.remember("user-1", "ada.new@example.com", new Date());
    expect(await stored("user-1")).toBe("ada.new@example.com");
  });

  it("forget (this process deleted the address) and the end of the bound store it again", async () => {
    const memory = new EmailMemory(db, 60_000);
    await memory.remember("user-2", "grace@example.com", new Date());
    await deleteBehind("user-2");
    memory.forget("user-2");
    await memory.remember("user-2", "grace@example.com", new Date());
    expect(await stored("user-2")).toBe("grace@example.com");

    const bounded = new EmailMemory(db, 50);
    await bounded.remember("user-3", "linus@example.com", new Date());
    await deleteBehind("user-3");
    await new Promise((resolve) => setTimeout(resolve, 80));
    await bounded.remember("user-3", "linus@example.com", new Date());
    expect(await stored("user-3")).toBe("linus@example.com");
  });

  it("keeps the language a call names with the address, keeps it through calls that name none, and writes a new one at once", async () => {
    const memory = new EmailMemory(db, 60_000);
    const language = async (user: string) =>
      (await db.selectFrom("consumer_identity_emails").select("language").where("identity_user_id", "=", user).executeTakeFirst())?.language;
    await memory.remember("user-7", "ada@example.com", new Date());
    expect(await language("user-7")).toBeNull();
    await memory.remember("user-7", "ada@example.com", new Date(), "es");
    expect(await language("user-7")).toBe("es");
    // A call that names no language keeps Spanish, also when the address changes.
    await memory.remember("user-7", "ada.new@example.com", new Date(), null);
    expect([await stored("user-7"), await language("user-7")]).toEqual(["ada.new@example.com", "es"]);
    await memory.remember("user-7", "ada.new@example.com", new Date(), "en");
    expect(await language("user-7")).toBe("en");
    // The same pair again within the bound: no statement (a hand-made change stays).
    await db.updateTable("consumer_identity_emails").set({ language: "es" }).where("identity_user_id", "=", "user-7").execute();
    await memory.remember("user-7", "ada.new@example.com", new Date(), "en");
    expect(await language("user-7")).toBe("es");
  });

  it("keeps at most its number of users, the oldest going first", async () => {
    const memory = new EmailMemory(db, 60_000, 2);
    for (const n of [4, 5, 6]) await memory.remember(`user-${n}`, `u${n}@example.com`, new Date());
    for (const n of [4, 5, 6]) await deleteBehind(`user-${n}`);
    // user-6 is still known (not written); user-4 was dropped for it and 5 (written again).
    await memory.remember("user-6", "u6@example.com", new Date());
    await memory.remember("user-4", "u4@example.com", new Date());
    expect([await stored("user-4"), await stored("user-6")]).toEqual(["u4@example.com", undefined]);
  });
});
