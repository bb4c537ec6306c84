// Access tokens of the identity authority (docs/product/calls.md §7 POST /connect/token): RS256 JWTs signed
// with a key pair generated once and kept in the database, so restarts and replicas share it. The
// private key is stored sealed (AES-256-GCM) with a secret kept outside the database, in
// DATA_DIR/identity-signing-secret (0600): a reader of the database's files, a dump or a backup of
// the database alone learns no key (docs/decisions/0015-owner-only-data-dir.md).
import { randomUUID } from "node:crypto";
import { SignJWT, calculateJwkThumbprint, createLocalJWKSet, exportJWK, generateKeyPair, importJWK, jwtVerify } from "jose";
import type { CryptoKey, JWK, JWTPayload } from "jose";
import type { Kysely } from "kysely";
import { SealError, seal, unseal } from "../../lib/sealed-key.ts";
import { InvalidTokenError } from "./errors.ts";
import type { IdentityDatabase } from "./schema/tables.ts";

export const ACCESS_TOKEN_ALG = "RS256";
/** docs/product/data.md §3 "Token: access_token, expires_in": seconds. */
export const ACCESS_TOKEN_LIFETIME_SECONDS = 3600;
/** RFC 9068 media type: our verifier accepts nothing else signed with the same key. */
const ACCESS_TOKEN_TYP = "at+jwt";
/** The file in DATA_DIR holding the secret the private signing keys are sealed with. */
export const SIGNING_SECRET_FILE = "identity-signing-secret";

/** Scopes a client may ask for with client_credentials. */
export const CLIENT_SCOPES = ["identity.api"] as const;
/** Scopes a client may ask for with the password grant (the default is all of them). */
export const USER_SCOPES = ["openid", "profile", "consumer.api", "business.api", "identity.user"] as const;

/** The API (JWT `aud`) each scope grants access to. openid/profile name no API. */
const SCOPE_AUDIENCE: Record<string, string> = {
  "identity.api": "identity.api",
  "identity.user": "identity.api",
  "consumer.api": "consumer.api",
  "business.api": "business.api",
};

/** The distinct APIs named by `scopes`, for the `aud` claim. */
export function audiencesFor(scopes: readonly string[]): string[] {
  return [...new Set(scopes.map((s) => SCOPE_AUDIENCE[s]).filter((a): a is string => a !== undefined))];
}

/** The signing key and the public set that verifies our own tokens. */
export interface SigningKeys {
  kid: string;
  privateKey: CryptoKey;
  /** Public JWKS as served at /.well-known/jwks.json. */
  jwks: { keys: JWK[] };
  /** Verification key set built from `jwks` (kid lookup). */
  keySet: ReturnType<typeof createLocalJWKSet>;
  /** The kids of the keys this load deleted (`rotate`); empty otherwise. */
  replaced: string[];
}

/** A stored private key that the signing secret given cannot unseal (another secret, or changed bytes). */
export class SigningKeySealError extends Error {
  constructor(kid: string) {
    super(
      `identity: the signing key ${kid} in the database was sealed with another ${SIGNING_SECRET_FILE} than this DATA_DIR's. ` +
        `Put back the file it was sealed with (a backup of DATA_DIR holds it), or delete the rows of identity_signing_keys ` +
        `to start with a new key (everyone signs in again).`,
    );
    this.name = "SigningKeySealError";
  }
}

/** The purpose the identity's private keys are sealed for (lib/sealed-key.ts). */
const SEAL_PURPOSE = "safewindow identity signing key seal v1";

/**
 * Seals `privateJwk` (JSON text) under `secret`, bound to `kid`.
 * @returns `v1.<iv>.<ciphertext>.<tag>` (base64url parts; 12-byte IV, 16-byte GCM tag)
 */
export function sealPrivateKey(privateJwk: string, kid: string, secret: string): string {
  return seal(privateJwk, kid, secret, SEAL_PURPOSE);
}

/**
 * The private JWK text sealed by `sealPrivateKey`.
 * @throws SigningKeySealError when `sealed` is not format 1, or `secret` or `kid` is not the one it was sealed with
 */
export function unsealPrivateKey(sealed: string, kid: string, secret: string): string {
  try {
    return unseal(sealed, kid, secret, SEAL_PURPOSE);
  } catch (err) {
    if (err instanceof SealError) throw new SigningKeySealError(kid);
    throw err;
  }
}

/**
 * Loads the signing keys, generating and storing an RS256 pair (its private half sealed with
 * `opts.sealingSecret`) on first start. When several processes start at once each may insert one;
 * all of them then sign with the oldest (created_at, kid), and the JWKS lists every stored key.
 * With `opts.rotate`, every stored key is deleted first and a new one made, in one transaction:
 * tokens signed with an old key are refused from then on, by us and by every API that fetches
 * our JWKS afresh (the start after DATA_DIR was found open to other users, docs/security/data.md "DATA_DIR").
 * @param now creation time stamp for a new key.
 * @throws SigningKeySealError when the current key was sealed with another secret
 */
export async function loadSigningKeys(
  db: Kysely<IdentityDatabase>,
  now: Date,
  opts: { sealingSecret: string; rotate?: boolean },
): Promise<SigningKeys> {
  const stored = () => db.selectFrom("identity_signing_keys").selectAll().orderBy("created_at").orderBy("kid").execute();
  let replaced: string[] = [];
  let rows = opts.rotate ? [] : await stored();
  if (rows.length === 0) {
    const { privateKey, publicKey } = await generateKeyPair(ACCESS_TOKEN_ALG, { extractable: true });
    const publicJwk = await exportJWK(publicKey);
    const kid = await calculateJwkThumbprint(publicJwk);
    const privateJwk = JSON.stringify({ ...(await exportJWK(privateKey)), kid, alg: ACCESS_TOKEN_ALG });
    await db.transaction().execute(async (trx) => {
      if (opts.rotate) replaced = (await trx.deleteFrom("identity_signing_keys").returning("kid").execute()).map((row) => row.kid);
      await trx
        .insertInto("identity_signing_keys")
        .values({
          kid,
          alg: ACCESS_TOKEN_ALG,
          sealed_private_jwk: sealPrivateKey(privateJwk, kid, opts.sealingSecret),
          public_jwk: JSON.stringify({ ...publicJwk, kid, alg: ACCESS_TOKEN_ALG, use: "sig" }),
          created_at: now,
        })
        .onConflict((oc) => oc.column("kid").doNothing())
        .execute();
    });
    rows = await stored();
  }
  const current = rows[0];
  if (!current) throw new Error("identity: no signing key could be stored");
  const privateKey = await importJWK(JSON.parse(unsealPrivateKey(current.sealed_private_jwk, current.kid, opts.sealingSecret)) as JWK, ACCESS_TOKEN_ALG);
  if (privateKey instanceof Uint8Array) throw new Error("identity: stored signing key is not an RSA key");
  const jwks = { keys: rows.map((r) => JSON.parse(r.public_jwk) as JWK) };
  return { kid: current.kid, privateKey, jwks, keySet: createLocalJWKSet(jwks), replaced };
}

/** Claims of our access tokens after verification. */
export interface AccessTokenClaims extends JWTPayload {
  /** Space-separated granted scopes (RFC 9068 §2.2.3). */
  scope: string;
  client_id: string;
  /** Set for user tokens (password grant): the user id. Absent for client tokens. */
  sub?: string;
  email?: string;
  email_verified?: boolean;
}

/**
 * Signs an access token valid for ACCESS_TOKEN_LIFETIME_SECONDS from `now`. `aud` lists the APIs
 * of `scopes`; user tokens carry `sub` (user id), `email` (the user name) and `email_verified`.
 */
export async function issueAccessToken(
  keys: SigningKeys,
  input: {
    issuer: string;
    clientId: string;
    scopes: readonly string[];
    now: Date;
    user?: { id: string; userName: string; emailConfirmed: boolean };
  },
): Promise<string> {
  const iat = Math.floor(input.now.getTime() / 1000);
  const claims: Record<string, unknown> = { scope: input.scopes.join(" "), client_id: input.clientId };
  if (input.user) {
    claims.email = input.user.userName;
    claims.email_verified = input.user.emailConfirmed;
  }
  const jwt = new SignJWT(claims)
    .setProtectedHeader({ alg: ACCESS_TOKEN_ALG, kid: keys.kid, typ: ACCESS_TOKEN_TYP })
    .setIssuer(input.issuer)
    .setAudience(audiencesFor(input.scopes))
    .setIssuedAt(iat)
    .setNotBefore(iat)
    .setExpirationTime(iat + ACCESS_TOKEN_LIFETIME_SECONDS)
    .setJti(randomUUID());
  if (input.user) jwt.setSubject(input.user.id);
  return jwt.sign(keys.privateKey);
}

/**
 * Verifies one of our own access tokens (signature against our JWKS, RS256 only, `typ`,
 * issuer, audience, exp/nbf at `now` with 5 s tolerance).
 * @throws InvalidTokenError with a short reason (never the token itself).
 */
export async function verifyAccessToken(
  keys: SigningKeys,
  token: string,
  expect: { issuer: string; audience: string; now: Date },
): Promise<AccessTokenClaims> {
  try {
    const { payload } = await jwtVerify(token, keys.keySet, {
      algorithms: [ACCESS_TOKEN_ALG],
      typ: ACCESS_TOKEN_TYP,
      issuer: expect.issuer,
      audience: expect.audience,
      currentDate: expect.now,
      clockTolerance: 5,
    });
    if (typeof payload.scope !== "string" || typeof payload.client_id !== "string") {
      throw new InvalidTokenError("The access token lacks scope or client_id.");
    }
    return payload as AccessTokenClaims;
  } catch (err) {
    if (err instanceof InvalidTokenError) throw err;
    const code = typeof err === "object" && err !== null && "code" in err ? String((err as { code: unknown }).code) : "";
    throw new InvalidTokenError(code === "ERR_JWT_EXPIRED" ? "The access token expired." : "The access token is invalid.");
  }
}
