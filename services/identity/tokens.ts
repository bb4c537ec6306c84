// Access tokens of the identity authority (docs/product.md §7 POST /connect/token): RS256 JWTs signed
// with a key pair generated once and kept in the database, so restarts and replicas share it.
import { randomUUID } from "node:crypto";
import { SignJWT, calculateJwkThumbprint, createLocalJWKSet, exportJWK, generateKeyPair, importJWK, jwtVerify } from "jose";
import type { CryptoKey, JWK, JWTPayload } from "jose";
import type { Kysely } from "kysely";
import { InvalidTokenError } from "./errors.ts";
import type { IdentityDatabase } from "./schema/tables.ts";

export const ACCESS_TOKEN_ALG = "RS256";
/** docs/product.md §3 "Token: access_token, expires_in": seconds. */
export const ACCESS_TOKEN_LIFETIME_SECONDS = 3600;
/** RFC 9068 media type: our verifier accepts nothing else signed with the same key. */
const ACCESS_TOKEN_TYP = "at+jwt";

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
}

/**
 * Loads the signing keys, generating and storing an RS256 pair on first start. When several
 * processes start at once each may insert one; all of them then sign with the oldest
 * (created_at, kid), and the JWKS lists every stored key.
 * @param now creation time stamp for a new key.
 */
export async function loadSigningKeys(db: Kysely<IdentityDatabase>, now: Date): Promise<SigningKeys> {
  let rows = await db.selectFrom("identity_signing_keys").selectAll().orderBy("created_at").orderBy("kid").execute();
  if (rows.length === 0) {
    const { privateKey, publicKey } = await generateKeyPair(ACCESS_TOKEN_ALG, { extractable: true });
    const publicJwk = await exportJWK(publicKey);
    const kid = await calculateJwkThumbprint(publicJwk);
    const privateJwk = await exportJWK(privateKey);
    await db
      .insertInto("identity_signing_keys")
      .values({
        kid,
        alg: ACCESS_TOKEN_ALG,
        private_jwk: JSON.stringify({ ...privateJwk, kid, alg: ACCESS_TOKEN_ALG }),
        public_jwk: JSON.stringify({ ...publicJwk, kid, alg: ACCESS_TOKEN_ALG, use: "sig" }),
        created_at: now,
      })
      .onConflict((oc) => oc.column("kid").doNothing())
      .execute();
    rows = await db.selectFrom("identity_signing_keys").selectAll().orderBy("created_at").orderBy("kid").execute();
  }
  const current = rows[0];
  if (!current) throw new Error("identity: no signing key could be stored");
  const privateKey = await importJWK(JSON.parse(current.private_jwk) as JWK, ACCESS_TOKEN_ALG);
  if (privateKey instanceof Uint8Array) throw new Error("identity: stored signing key is not an RSA key");
  const jwks = { keys: rows.map((r) => JSON.parse(r.public_jwk) as JWK) };
  return { kid: current.kid, privateKey, jwks, keySet: createLocalJWKSet(jwks) };
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
