// The keys that sign SafeWindow Passes (services/consumer/pass/keys.ts; docs/decisions/0019-pass-signing-key.md),
// on a real PGlite and on a real PostgreSQL shared by two replicas: the first key signs at once; a
// rotation's key is published before it signs; a pass signed before a rotation checks until it
// expires, and its key is deleted only after; the key rotates by age; a tightening start replaces
// every key and old passes stop checking; another secret cannot open the key; replicas agree.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkPass, passClaims, signPass } from "../../contracts/pass.ts";
import { createDatabase } from "../../lib/db/database.ts";
import { migrateToLatest } from "../../lib/db/migrate.ts";
import { PASS_KEY_LEAD_MS, PASS_MAX_LIFE_MS, PassKeySealError, loadPassKeys } from "../../services/consumer/pass/keys.ts";
import { CONSUMER_MIGRATION_TABLE, consumerMigrations } from "../../services/consumer/schema/migrations.ts";
import type { ConsumerDatabase } from "../../services/consumer/schema/tables.ts";
import { startPostgres } from "./postgres.ts";
import type { PostgresServer } from "./postgres.ts";

const iss = "https://safewindow.example.com";
const secret = "pass-secret-0123456789-0123456789-0123";
const t0 = new Date("2026-11-28T12:00:00Z");
const at = (ms: number) => new Date(t0.getTime() + ms);
const HOUR = 3600_000;
const ada = { firstName: "Ada", lastName: "Lovelace", dob: "1990-12-10" };

/** A pass issued at `now` for a window that is weak until the longest a pass can live. */
async function passAt(keys: Awaited<ReturnType<typeof loadPassKeys>>, now: Date): Promise<string> {
  const claims = passClaims(iss, ada, { strongSafetyDate: new Date(now.getTime() + HOUR), weakSafetyDate: new Date(now.getTime() + PASS_MAX_LIFE_MS) }, now)!;
  return signPass(claims, keys.signing);
}

describe("pass keys on PGlite", () => {
  let dataDir: string;
  let db: Kysely<ConsumerDatabase>;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "pass-keys-"));
    db = await createDatabase<ConsumerDatabase>({ dataDir, name: "consumer" });
    await migrateToLatest(db, consumerMigrations, CONSUMER_MIGRATION_TABLE);
  });

  afterAll(async () => {
    await db?.destroy();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("makes a first key that signs at once, sealed in the database, and keeps it", async () => {
    const first = await loadPassKeys(db, t0, { secret });
    expect(first.made).toHaveLength(1);
    expect(first.signing.kid).toMatch(/^[A-Za-z0-9_-]{8}$/);
    expect(first.published.keys).toEqual([expect.objectContaining({ kty: "EC", crv: "P-256", kid: first.signing.kid, alg: "ES256", use: "sig" })]);
    expect(JSON.stringify(first.published)).not.toContain('"d"');
    const [row] = await db.selectFrom("consumer_pass_keys").selectAll().execute();
    expect(row!.sealed_private_jwk).toMatch(/^v1\./);
    expect(row!.sealed_private_jwk).not.toContain('"d"');
    const again = await loadPassKeys(db, at(HOUR), { secret });
    expect(again).toMatchObject({ made: [], deleted: [], signing: { kid: first.signing.kid } });
    await expect(loadPassKeys(db, at(HOUR), { secret: "another-secret-0123456789-0123456789" })).rejects.toThrow(PassKeySealError);
  });

  it("rotates: the new key is published before it signs; a pass signed before checks until it expires, and only then is its key gone", async () => {
    const before = await loadPassKeys(db, at(2 * HOUR), { secret });
    const oldPass = await passAt(before, at(2 * HOUR));
    const rotated = await loadPassKeys(db, at(2 * HOUR), { secret, rotate: true });
    expect(rotated.made).toHaveLength(1);
    const next = rotated.made[0]!;
    // Published at once, signing only after the lead.
    expect(rotated.signing.kid).toBe(before.signing.kid);
    expect(rotated.published.keys.map((k) => k.kid)).toEqual([before.signing.kid, next]);
    const switched = at(2 * HOUR + PASS_KEY_LEAD_MS);
    const after = await loadPassKeys(db, switched, { secret });
    expect(after.signing.kid).toBe(next);
    // The pass of the retired key checks until its own expiry, against what is published then.
    const nearEnd = new Date(at(2 * HOUR).getTime() + PASS_MAX_LIFE_MS - 60_000);
    const stillPublished = await loadPassKeys(db, nearEnd, { secret });
    expect(stillPublished.published.keys.map((k) => k.kid)).toContain(before.signing.kid);
    expect(await checkPass(oldPass, stillPublished.published, iss, nearEnd)).toMatchObject({ ok: true, window: "weak" });
    // Once every pass it signed has expired (the clock tolerance too), the retired key is deleted.
    const gone = new Date(switched.getTime() + PASS_MAX_LIFE_MS + 5 * 60_000 + 1000);
    const cleaned = await loadPassKeys(db, gone, { secret });
    expect(cleaned.deleted).toEqual([before.signing.kid]);
    expect(cleaned.published.keys.map((k) => k.kid)).toEqual([next]);
    // It had expired anyway; a checker now knows no key of it.
    expect(await checkPass(oldPass, stillPublished.published, iss, gone)).toEqual({ ok: false, reason: "expired" });
    expect(await checkPass(oldPass, cleaned.published, iss, gone)).toEqual({ ok: false, reason: "unknown_key" });
  });

  it("rotates by age, and a tightening start replaces every key: old passes stop checking", async () => {
    const current = await loadPassKeys(db, at(200 * HOUR), { secret });
    const aged = await loadPassKeys(db, at(200 * HOUR), { secret, rotateAfterMs: HOUR });
    expect(aged.made).toHaveLength(1);
    expect(aged.signing.kid).toBe(current.signing.kid);
    const pass = await passAt(current, at(200 * HOUR));
    const replaced = await loadPassKeys(db, at(200 * HOUR + 1000), { secret, replace: true });
    expect(replaced.deleted.sort()).toEqual([current.signing.kid, aged.made[0]!].sort());
    expect(replaced.published.keys.map((k) => k.kid)).toEqual([replaced.signing.kid]);
    expect(replaced.made).toEqual([replaced.signing.kid]);
    expect(await checkPass(pass, replaced.published, iss, at(200 * HOUR + 2000))).toEqual({ ok: false, reason: "unknown_key" });
    expect(await checkPass(await passAt(replaced, at(200 * HOUR + 2000)), replaced.published, iss, at(200 * HOUR + 3000))).toMatchObject({ ok: true });
  });
});

describe("pass keys on PostgreSQL, two replicas", () => {
  let pg: PostgresServer;
  let a: Kysely<ConsumerDatabase>;
  let b: Kysely<ConsumerDatabase>;

  beforeAll(async () => {
    pg = await startPostgres();
    a = await createDatabase<ConsumerDatabase>({ databaseUrl: pg.databaseUrl, name: "consumer", poolSize: 2 });
    b = await createDatabase<ConsumerDatabase>({ databaseUrl: pg.databaseUrl, name: "consumer", poolSize: 2 });
    await migrateToLatest(a, consumerMigrations, CONSUMER_MIGRATION_TABLE);
  });

  afterAll(async () => {
    await a?.destroy();
    await b?.destroy();
    await pg?.close();
  });

  it("share the keys: both sign with the same key, and check each other's passes, through a rotation made by both at once", async () => {
    const [ka, kb] = await Promise.all([loadPassKeys(a, t0, { secret }), loadPassKeys(b, t0, { secret })]);
    // Both may have made a first key at once; both sign with the same one.
    expect(ka.signing.kid).toBe((await loadPassKeys(b, t0, { secret })).signing.kid);
    const passA = await passAt(ka, t0);
    const fromB = await loadPassKeys(b, t0, { secret });
    expect(await checkPass(passA, fromB.published, iss, t0)).toMatchObject({ ok: true, window: "strong" });
    expect(kb.published.keys.length).toBeGreaterThanOrEqual(1);
    // Both find the key old at the same moment: each may make one; after the lead they agree on one.
    const old = { secret, rotateAfterMs: HOUR };
    await Promise.all([loadPassKeys(a, at(2 * HOUR), old), loadPassKeys(b, at(2 * HOUR), old)]);
    const later = at(2 * HOUR + PASS_KEY_LEAD_MS);
    const [la, lb] = await Promise.all([loadPassKeys(a, later, { secret }), loadPassKeys(b, later, { secret })]);
    expect(la.signing.kid).toBe(lb.signing.kid);
    expect(la.signing.kid).not.toBe(ka.signing.kid);
    expect(await checkPass(await passAt(lb, later), la.published, iss, later)).toMatchObject({ ok: true });
    expect(await checkPass(passA, lb.published, iss, later)).toMatchObject({ ok: true });
  });
});
