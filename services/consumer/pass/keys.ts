// The keys that sign SafeWindow Passes (docs/product/pass.md §11; docs/decisions/0019-pass-signing-key.md):
// the consumer API's own ES256 keys, not the identity authority's token key. They live in the
// database (consumer_pass_keys), so replicas and restarts share them, with the private half sealed
// with a secret kept outside it: CONSUMER_PASS_SECRET, or DATA_DIR/consumer-pass-secret (0600).
//
// A key's life:
// - **made**: the first key, and the one a tightening start makes, sign at once (no earlier key is
//   trusted, so there is nothing to wait for); a rotation's key is published PASS_KEY_LEAD_MS before
//   it signs anything, longer than any checker caches the published keys (the /verify page, 60 s);
// - **rotated**: once the newest key is PASS_KEY_ROTATE_AFTER_MS old, the next load (a start, an
//   issued pass, or a read of the published keys) makes a new one;
// - **retired**: when a newer key signs, the older signs nothing more, and stays published until the
//   last pass it signed has expired (the longest window, docs/product/labs.md §10.7, plus the
//   checkers' clock tolerance), then it is deleted;
// - **replaced**: a start that found DATA_DIR open to other users deletes every key and makes one:
//   passes signed before, printed ones too, stop checking (docs/security/data.md "DATA_DIR").
import { randomBytes } from "node:crypto";
import { exportJWK, generateKeyPair, importJWK } from "jose";
import type { CryptoKey, JWK, JSONWebKeySet } from "jose";
import { sql } from "kysely";
import type { Kysely } from "kysely";
import { passAlgorithm, passClockToleranceSeconds } from "../../../contracts/pass.ts";
import { SealError, seal, unseal } from "../../../lib/sealed-key.ts";
import { COLLECTION_CLOCK_SKEW_MS, WINDOW_RULES } from "../labs/rules.ts";
import type { ConsumerDatabase } from "../schema/tables.ts";

/** The file in DATA_DIR holding the secret the pass keys are sealed with (unless CONSUMER_PASS_SECRET). */
export const PASS_SECRET_FILE = "consumer-pass-secret";
/** How long a rotation's key is published before it signs, in ms: twice the 60 s the page cache holds /verify. */
export const PASS_KEY_LEAD_MS = 2 * 60_000;
/** The age of the newest key at which a load makes the next one, in ms (30 days). */
export const PASS_KEY_ROTATE_AFTER_MS = 30 * 24 * 3600_000;
/**
 * The longest a pass lives after it is issued, in ms: its `exp` is its window's weak-until, at most
 * the longest weak window after a collection that may be COLLECTION_CLOCK_SKEW_MS ahead of our clock.
 */
export const PASS_MAX_LIFE_MS = Math.max(...Object.values(WINDOW_RULES).map((rule) => rule.weakHours)) * 3600_000 + COLLECTION_CLOCK_SKEW_MS;
/** The purpose the pass keys are sealed for (lib/sealed-key.ts). */
const SEAL_PURPOSE = "safewindow pass signing key seal v1";

/** A stored pass key that the secret given cannot unseal (another secret, or changed bytes). */
export class PassKeySealError extends Error {
  constructor(kid: string) {
    super(
      `consumer: the pass key ${kid} in the database was sealed with another ${PASS_SECRET_FILE} (or CONSUMER_PASS_SECRET) than this one. ` +
        `Put back the secret it was sealed with (a backup of DATA_DIR holds the file), or delete the rows of consumer_pass_keys ` +
        `to start with a new key (every pass issued before stops checking).`,
    );
    this.name = "PassKeySealError";
  }
}

/** The keys as a load found them: the one that signs now, and every public key a checker needs. */
export interface PassKeys {
  /** The key that signs passes now. */
  signing: { kid: string; privateKey: CryptoKey };
  /** Every published key (signing, retired but still needed, and a rotation's next), as a JWK Set. */
  published: JSONWebKeySet;
  /** The kids this load made, and those it deleted (a tightening start's, or retired ones whose passes have all expired). */
  made: string[];
  deleted: string[];
}

export interface PassKeyOptions {
  /** The secret the private halves are sealed with. */
  secret: string;
  /** Delete every key and make a new one that signs at once (a start that found DATA_DIR open). */
  replace?: boolean;
  /** Make a rotation's key now, whatever the newest key's age (tests; no command rotates a running service's key). */
  rotate?: boolean;
  /** Overrides PASS_KEY_LEAD_MS and PASS_KEY_ROTATE_AFTER_MS (tests). */
  leadMs?: number;
  rotateAfterMs?: number;
}

/** Private keys already unsealed and imported, by sealed text (a key's row never changes), with the secret that opened each. */
const imported = new Map<string, { secret: string; privateKey: CryptoKey }>();

/** A new ES256 key's row, with a random 8-character kid (48 bits, base64url). */
async function newKeyRow(now: Date, signsFrom: Date, secret: string) {
  const kid = randomBytes(6).toString("base64url");
  const { privateKey, publicKey } = await generateKeyPair(passAlgorithm, { extractable: true });
  const publicJwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: passAlgorithm, use: "sig" };
  const privateJwk = JSON.stringify({ ...(await exportJWK(privateKey)), kid, alg: passAlgorithm });
  return { kid, public_jwk: JSON.stringify(publicJwk), sealed_private_jwk: seal(privateJwk, kid, secret, SEAL_PURPOSE), created_at: now, signs_from: signsFrom };
}

/** A stored key's row, as loadPassKeys reads it. */
type PassKeyRow = Awaited<ReturnType<typeof storedKeys>>[number];

/** Every stored key, oldest signs_from first (ties: kid, in the database's order). */
function storedKeys(db: Kysely<ConsumerDatabase>) {
  return db.selectFrom("consumer_pass_keys").selectAll().orderBy("signs_from").orderBy("kid").execute();
}

/** What a load must change: make a key (first, replacing, or rotating), or delete retired keys whose passes have all expired. */
function changesDue(rows: PassKeyRow[], now: Date, opts: PassKeyOptions, rotateAfterMs: number) {
  const newest = rows.reduce<Date | null>((latest, r) => (latest === null || r.created_at > latest ? r.created_at : latest), null);
  const make = opts.replace === true || newest === null || opts.rotate === true || now.getTime() - newest.getTime() >= rotateAfterMs;
  return { make, firstKey: opts.replace === true || newest === null, gone: retiredGone(rows, now) };
}

/** The index of the key that signs at `now`: the latest signs_from not after now (ties: the last in order); -1 when none. */
function signingIndexOf(rows: PassKeyRow[], now: Date): number {
  return rows.findLastIndex((r) => r.signs_from.getTime() <= now.getTime());
}

/** Retired keys whose last pass has expired: signed nothing since a successor signed more than a pass's life ago. */
function retiredGone(rows: PassKeyRow[], now: Date): PassKeyRow[] {
  const signingIndex = signingIndexOf(rows, now);
  // A retired key's last pass was signed before its successor signed; it is kept until that pass has expired.
  const keepAfterSuccessorMs = PASS_MAX_LIFE_MS + passClockToleranceSeconds * 1000;
  return rows.filter((_, i) => {
    const successor = rows[i + 1];
    return i < signingIndex && successor !== undefined && successor.signs_from.getTime() + keepAfterSuccessorMs < now.getTime();
  });
}

/**
 * Loads the pass keys at `now`, making and deleting keys as their life says (the module's comment):
 * a first key, a rotation's key when the newest is old (or `opts.rotate`), a new set on
 * `opts.replace`; retired keys whose passes have all expired are deleted. A load that changes keys
 * does so in one transaction holding the pass keys' advisory lock, deciding again on what it reads
 * there: replicas (or calls) that find the newest key old at once make one key, not one each.
 * @throws PassKeySealError when the signing key was sealed with another secret
 */
export async function loadPassKeys(db: Kysely<ConsumerDatabase>, now: Date, opts: PassKeyOptions): Promise<PassKeys> {
  const leadMs = opts.leadMs ?? PASS_KEY_LEAD_MS;
  const rotateAfterMs = opts.rotateAfterMs ?? PASS_KEY_ROTATE_AFTER_MS;
  const made: string[] = [];
  const deleted: string[] = [];

  let rows = await storedKeys(db);
  const due = changesDue(rows, now, opts, rotateAfterMs);
  if (due.make || due.gone.length > 0) {
    rows = await db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtextextended('consumer_pass_keys', 0))`.execute(trx);
      let locked = await storedKeys(trx);
      // Another load may have made the key while this one waited: decide again on what is stored now.
      const again = changesDue(locked, now, opts, rotateAfterMs);
      if (opts.replace) {
        deleted.push(...(await trx.deleteFrom("consumer_pass_keys").returning("kid").execute()).map((r) => r.kid));
        locked = [];
      }
      if (again.make) {
        // The first key, and a replacing one, sign at once; a rotation's is published first.
        const row = await newKeyRow(now, again.firstKey ? now : new Date(now.getTime() + leadMs), opts.secret);
        await trx.insertInto("consumer_pass_keys").values(row).execute();
        made.push(row.kid);
      }
      const gone = retiredGone(await storedKeys(trx), now).map((r) => r.kid);
      if (gone.length > 0) {
        await trx.deleteFrom("consumer_pass_keys").where("kid", "in", gone).execute();
        deleted.push(...gone);
      }
      return storedKeys(trx);
    });
  }

  const signing = rows[signingIndexOf(rows, now)];
  if (!signing) throw new Error("consumer: no pass key signs yet");

  const cached = imported.get(signing.sealed_private_jwk);
  let privateKey = cached?.secret === opts.secret ? cached.privateKey : undefined;
  if (!privateKey) {
    let privateJwk: string;
    try {
      privateJwk = unseal(signing.sealed_private_jwk, signing.kid, opts.secret, SEAL_PURPOSE);
    } catch (err) {
      if (err instanceof SealError) throw new PassKeySealError(signing.kid);
      throw err;
    }
    const key = await importJWK(JSON.parse(privateJwk) as JWK, passAlgorithm);
    if (key instanceof Uint8Array) throw new Error("consumer: a stored pass key is not an EC key");
    privateKey = key;
    imported.set(signing.sealed_private_jwk, { secret: opts.secret, privateKey });
  }
  const published = { keys: rows.map((r) => JSON.parse(r.public_jwk) as JWK) };
  return { signing: { kid: signing.kid, privateKey }, published, made, deleted };
}
