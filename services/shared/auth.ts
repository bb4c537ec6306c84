// Bearer tokens on the consumer API and the business API (docs/product/data.md §6 "each action re-checks
// the login", §7 "A bearer user token is added"): RS256 JWTs of the identity authority, checked
// against its published keys and for the API's audience. Every call then acts only for the token's `sub`.
import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, errors, jwtVerify } from "jose";
import type { JWTPayload, JWTVerifyGetKey } from "jose";
import { LRUCache } from "lru-cache";
import { AuthorityUnavailableError, InsufficientScopeError, InvalidTokenError } from "./errors.ts";

/** The API name (JWT `aud`) the identity authority puts in tokens with scope consumer.api. */
export const CONSUMER_AUDIENCE = "consumer.api";
/** The API name (JWT `aud`) the identity authority puts in tokens with scope business.api. */
export const BUSINESS_AUDIENCE = "business.api";
const ALGORITHMS = ["RS256"];
/** Seconds of clock difference tolerated for exp / nbf / iat. */
const CLOCK_TOLERANCE_SECONDS = 5;
/** Longest wait for the identity authority's discovery document or keys. */
const AUTHORITY_TIMEOUT_MS = 5_000;
const MAX_SUBJECT_LENGTH = 255;
/**
 * Tokens whose signature and issuer were verified, kept by their exact text for at most this long
 * (ms), at most VERIFIED_MAX of them: a page's calls carry the same token, and the signature check
 * was the largest piece of a call's own work after the database (bench/cpu.results.md). The expiry
 * and not-before claims are checked again on every call; a key the authority withdraws stops
 * verifying a kept token within this time, as jose's key cache already allows.
 */
const VERIFIED_TTL_MS = 60_000;
const VERIFIED_MAX = 10_000;

/** Whom a verified token speaks for. */
export interface AuthenticatedUser {
  /** The identity authority's user id (JWT `sub`). */
  identityUserId: string;
  /** The token's `email` claim (the user name at the authority), when it has one. */
  email?: string;
  /** The token's `email_verified` claim: true only when the authority says the address was confirmed. */
  emailVerified: boolean;
}

export interface TokenVerifierOptions {
  /** The identity authority's base URL, no trailing slash; keys at `${identityUrl}/.well-known/jwks.json`. */
  identityUrl: string;
  /** Expected `iss`. Default: `issuer` of `${identityUrl}/.well-known/openid-configuration`, read on first use. */
  issuer?: string;
  /** The clock for exp / nbf. */
  now: () => Date;
  /** The API's name, which the token's `aud` must include; default CONSUMER_AUDIENCE. */
  audience?: string;
}

export interface TokenVerifier {
  /**
   * Verifies an `Authorization` header value: `Bearer <JWT>`, RS256, signed by a key of the
   * identity authority's JWKS, `iss` as expected, `aud` including the API's audience, unexpired
   * (5 s tolerance), with a `sub`.
   * @throws InvalidTokenError (401) when the header or token is missing, malformed, forged,
   *   expired, from another issuer or for another API; InsufficientScopeError (403) for a
   *   valid token without a user (client credentials); AuthorityUnavailableError (503) when
   *   the authority's discovery document or keys cannot be read (nothing is cached, so the
   *   next call asks again).
   */
  verify(authorization: string | undefined): Promise<AuthenticatedUser>;
}

function errorCode(err: unknown): string {
  return typeof err === "object" && err !== null && "code" in err ? String((err as { code: unknown }).code) : "";
}

/**
 * Builds the verifier. Nothing is fetched until the first token arrives, so the consumer API
 * may start before the identity authority. Keys are cached by jose (10 min; refetched at most
 * every 30 s when a token names an unknown key id); the issuer is cached once read.
 */
export function createTokenVerifier(opts: TokenVerifierOptions): TokenVerifier {
  const audience = opts.audience ?? CONSUMER_AUDIENCE;
  const remoteKeys = createRemoteJWKSet(new URL(`${opts.identityUrl}/.well-known/jwks.json`), { timeoutDuration: AUTHORITY_TIMEOUT_MS });
  // Only "no key with this kid" is the token's fault; a JWKS that cannot be fetched or read is the authority's.
  const getKey: JWTVerifyGetKey = async (header, token) => {
    try {
      return await remoteKeys(header, token);
    } catch (err) {
      if (err instanceof errors.JWKSNoMatchingKey || err instanceof errors.JWKSMultipleMatchingKeys) throw err;
      throw new AuthorityUnavailableError("The identity authority's signing keys could not be read.", { cause: err });
    }
  };

  let issuer: string | undefined = opts.issuer;
  let discovering: Promise<string> | undefined;
  async function expectedIssuer(): Promise<string> {
    if (issuer !== undefined) return issuer;
    discovering ??= discoverIssuer(opts.identityUrl).then(
      (found) => {
        issuer = found;
        return found;
      },
      (err: unknown) => {
        discovering = undefined; // ask again on the next request
        throw err;
      },
    );
    return discovering;
  }

  const verified = new LRUCache<string, JWTPayload>({ max: VERIFIED_MAX, ttl: VERIFIED_TTL_MS });
  /** A kept token's payload while its exp (and nbf) allow it now, with the same tolerance as jwtVerify. */
  const keptPayload = (token: string): JWTPayload | undefined => {
    const payload = verified.get(token);
    if (!payload) return undefined;
    const nowS = opts.now().getTime() / 1000;
    if (typeof payload.exp !== "number" || payload.exp <= nowS - CLOCK_TOLERANCE_SECONDS) return undefined;
    if (typeof payload.nbf === "number" && payload.nbf > nowS + CLOCK_TOLERANCE_SECONDS) return undefined;
    return payload;
  };

  return {
    async verify(authorization) {
      const m = authorization === undefined ? null : /^Bearer\s+([A-Za-z0-9._~+/-]+=*)\s*$/i.exec(authorization);
      const token = m?.[1];
      if (!token) throw new InvalidTokenError("A bearer access token is required.");
      // Refuse what is not even a JWT before asking the authority anything.
      try {
        decodeProtectedHeader(token);
        decodeJwt(token);
      } catch {
        throw new InvalidTokenError("The access token is invalid.");
      }
      let payload = keptPayload(token);
      if (!payload) {
        const iss = await expectedIssuer();
        try {
          ({ payload } = await jwtVerify(token, getKey, {
            algorithms: ALGORITHMS,
            issuer: iss,
            currentDate: opts.now(),
            clockTolerance: CLOCK_TOLERANCE_SECONDS,
            requiredClaims: ["exp"],
          }));
        } catch (err) {
          if (err instanceof AuthorityUnavailableError) throw err;
          throw new InvalidTokenError(errorCode(err) === "ERR_JWT_EXPIRED" ? "The access token expired." : "The access token is invalid.");
        }
        verified.set(token, payload);
      }
      // A genuine token of this authority: now say precisely what is missing.
      if (typeof payload.sub !== "string" || payload.sub === "") {
        throw new InsufficientScopeError("This call needs a user's token; a client token has no user.");
      }
      if (payload.sub.length > MAX_SUBJECT_LENGTH) throw new InvalidTokenError("The access token is invalid.");
      const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
      if (!audiences.includes(audience)) throw new InvalidTokenError(`The access token is not for ${audience}.`);
      return {
        identityUserId: payload.sub,
        ...(typeof payload.email === "string" ? { email: payload.email } : {}),
        emailVerified: payload.email_verified === true,
      };
    },
  };
}

/**
 * Reads `issuer` from the authority's OpenID discovery document.
 * @throws AuthorityUnavailableError when it cannot be fetched in time or has no issuer.
 */
async function discoverIssuer(identityUrl: string): Promise<string> {
  let body: unknown;
  try {
    const res = await fetch(`${identityUrl}/.well-known/openid-configuration`, {
      headers: { accept: "application/json" },
      redirect: "error",
      signal: AbortSignal.timeout(AUTHORITY_TIMEOUT_MS),
    });
    if (res.status !== 200) throw new Error(`discovery answered ${res.status}`);
    body = await res.json();
  } catch (err) {
    throw new AuthorityUnavailableError("The identity authority's discovery document could not be read.", { cause: err });
  }
  const found = typeof body === "object" && body !== null ? (body as { issuer?: unknown }).issuer : undefined;
  if (typeof found !== "string" || found === "") {
    throw new AuthorityUnavailableError("The identity authority's discovery document names no issuer.");
  }
  return found;
}

/**
 * The identity authority's base URL as a service takes it: absolute http(s), without credentials,
 * query or fragment, trailing slashes dropped.
 * @throws Error naming `service` and what is wrong
 */
export function checkIdentityUrl(service: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${service}: identityUrl is not an absolute URL: ${JSON.stringify(value)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`${service}: identityUrl must be http(s)`);
  if (url.search || url.hash || url.username || url.password) throw new Error(`${service}: identityUrl must not have credentials, a query or a fragment`);
  return value.replace(/\/+$/, "");
}
