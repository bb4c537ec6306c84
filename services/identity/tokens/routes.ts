// The token endpoint and discovery (docs/product/calls.md §7.1 POST /connect/token; contracts/identity.ts
// `identityCalls.token`): the client-credentials and password grants of OAuth 2.0 (RFC 6749 §4.3,
// §4.4), failed attempts limited per end user's address and user name, and the discovery document
// and JWKS the consumer API verifies tokens with. Refusals are thrown as OAuthError and answered
// by http.ts's one error handler.
import { createHash, timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";
import express from "express";
import type { Request, Router } from "express";
import { ipKeyGenerator, rateLimit } from "express-rate-limit";
import type { AugmentedRequest } from "express-rate-limit";
import type { Logger } from "pino";
import { identityCalls, passwordGrantSchema, tokenFormSchema } from "../../../contracts/identity.ts";
import { reply, safeError } from "../../shared/http.ts";
import { requestedMailLanguage } from "../../shared/language.ts";
import * as accounts from "../accounts.ts";
import type { AccountsContext } from "../accounts.ts";
import { OAuthError } from "../errors.ts";
import { ACCESS_TOKEN_LIFETIME_SECONDS, CLIENT_SCOPES, USER_SCOPES, issueAccessToken } from "../tokens.ts";
import type { SigningKeys } from "../tokens.ts";

/** A confidential client: the id and secret it authenticates with at /connect/token. */
export interface IdentityClient {
  clientId: string;
  clientSecret: string;
}

export interface TokenRoutesDeps {
  accounts: AccountsContext;
  keys: SigningKeys;
  clients: IdentityClient[];
  /** JWT `iss` of the tokens we issue and accept. */
  issuer: string;
  /** This service's own base URL (the discovery document points here). */
  url: string;
  logger: Logger;
  now: () => Date;
  /** Failed /connect/token attempts allowed per client IP and username per window; default 20 per 15 minutes. */
  tokenRateLimit?: { limit: number; windowMs: number };
}

// ---------------------------------------------------------------- client authentication

function sha256(value: string): Buffer {
  return createHash("sha256").update(value, "utf8").digest();
}

function secretsEqual(a: string, b: string): boolean {
  // Hash first so the comparison is constant-time whatever the lengths.
  return timingSafeEqual(sha256(a), sha256(b));
}

/**
 * RFC 6749 §2.3.1: client_secret_basic or client_secret_post, never both.
 * @returns the client that authenticated
 * @throws OAuthError 401 invalid_client (missing, malformed or wrong), 400 invalid_request (both methods)
 */
function authenticateClient(req: Request, form: Record<string, string>, clients: IdentityClient[]): IdentityClient {
  let id: string | undefined;
  let secret: string | undefined;
  const header = req.get("authorization");
  if (header !== undefined) {
    const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
    if (!m?.[1]) throw new OAuthError(401, "invalid_client", "Malformed Basic authorization header.");
    if (form.client_id !== undefined || form.client_secret !== undefined) {
      throw new OAuthError(400, "invalid_request", "Use one client authentication method, not two.");
    }
    const decoded = Buffer.from(m[1], "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon === -1) throw new OAuthError(401, "invalid_client", "Malformed Basic authorization header.");
    try {
      id = decodeURIComponent(decoded.slice(0, colon).replaceAll("+", " "));
      secret = decodeURIComponent(decoded.slice(colon + 1).replaceAll("+", " "));
    } catch {
      throw new OAuthError(401, "invalid_client", "Malformed Basic authorization header.");
    }
  } else {
    id = form.client_id;
    secret = form.client_secret;
  }
  if (!id || secret === undefined) throw new OAuthError(401, "invalid_client", "Client authentication is required.");
  let match: IdentityClient | undefined;
  for (const client of clients) {
    // Check every client so the time taken does not depend on which id matched.
    if (secretsEqual(client.clientId, id) && secretsEqual(client.clientSecret, secret)) match = client;
  }
  if (!match) throw new OAuthError(401, "invalid_client", "Client authentication failed.");
  return match;
}

/**
 * The scopes to grant: every allowed one when none are requested, else the requested ones.
 * @throws OAuthError 400 invalid_scope when one is not allowed for the grant
 */
function grantedScopes(requested: string | undefined, allowed: readonly string[]): string[] {
  if (requested === undefined || requested.trim() === "") return [...allowed];
  const scopes = [...new Set(requested.split(" ").filter((s) => s !== ""))];
  const unknown = scopes.filter((s) => !allowed.includes(s));
  if (unknown.length > 0) throw new OAuthError(400, "invalid_scope", `Scope not allowed for this grant: ${unknown.join(" ")}`);
  return scopes;
}

/**
 * The address failed sign-ins are counted for: the end user's, as the calling client states it
 * in X-Forwarded-For (one plain IP), else the caller's own. Behind the web app every call comes
 * from the app's address, so counting by it would let anyone lock an account for everyone with
 * a few wrong passwords. Stating another address helps nobody guess: the password grant needs
 * the client's secret.
 */
function endUserAddress(req: Request): string {
  const stated = req.get("x-forwarded-for")?.split(",")[0]?.trim();
  return stated && isIP(stated) ? stated : (req.ip ?? "");
}

// ---------------------------------------------------------------- routers

/**
 * GET /.well-known/openid-configuration and /.well-known/jwks.json (mounted at /.well-known):
 * the issuer, the token endpoint and the public keys, cacheable for 5 minutes.
 */
export function discoveryRoutes(deps: Pick<TokenRoutesDeps, "issuer" | "url" | "keys">): Router {
  const router = express.Router();
  router.get("/openid-configuration", (_req, res) => {
    res.set("Cache-Control", "public, max-age=300");
    res.json({
      issuer: deps.issuer,
      token_endpoint: `${deps.url}/connect/token`,
      jwks_uri: `${deps.url}/.well-known/jwks.json`,
      grant_types_supported: ["client_credentials", "password"],
      token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
      scopes_supported: [...new Set([...CLIENT_SCOPES, ...USER_SCOPES])],
      claims_supported: ["sub", "email", "email_verified"],
    });
  });
  router.get("/jwks.json", (_req, res) => {
    res.set("Cache-Control", "public, max-age=300");
    res.json(deps.keys.jwks);
  });
  return router;
}

/**
 * POST /connect/token (mounted at /connect): a URL-encoded form (contracts/identity.ts
 * tokenFormSchema: each parameter once, as text), the client authenticated, then the
 * client-credentials grant (scope identity.api) or the password grant (user scopes). Answers
 * TokenAnswer; refusals 400 / 401 as TokenError, and 429 too_many_requests with Retry-After
 * (seconds) after `tokenRateLimit.limit` failures per end user's address and user name.
 */
export function tokenRoutes(deps: TokenRoutesDeps): Router {
  const { keys, issuer, now } = deps;
  const router = express.Router();
  const limits = deps.tokenRateLimit ?? { limit: 20, windowMs: 15 * 60 * 1000 };

  /**
   * Seconds until the locked key's window resets (its first counted failure + windowMs), at
   * least 1: the lockout's `Retry-After`, so a client can say when to try again.
   */
  function secondsUntilReset(req: Request): number {
    const resetTime = (req as AugmentedRequest).rateLimit?.resetTime;
    const resetAt = resetTime?.getTime() ?? Date.now() + limits.windowMs;
    return Math.max(1, Math.ceil((resetAt - Date.now()) / 1000));
  }
  const tokenLimiter = rateLimit({
    windowMs: limits.windowMs,
    limit: limits.limit,
    skipSuccessfulRequests: true, // count failures only
    standardHeaders: "draft-8",
    legacyHeaders: false,
    keyGenerator(req) {
      const username = typeof req.body?.username === "string" ? req.body.username.trim().toLowerCase().slice(0, 256) : "";
      // An IPv6 address counts by its /64, as the web app's own sign-in limit (docs/security/limits.md "Limits").
      return `${ipKeyGenerator(endUserAddress(req), 64)}|${username}`;
    },
    // Also the header's value: the library would write 0 in the last second of a window.
    retryAfter: secondsUntilReset,
    handler(req, res, _next, options) {
      res.set("Cache-Control", "no-store");
      res.set("Retry-After", String(secondsUntilReset(req)));
      res.status(options.statusCode).json({
        error: "too_many_requests",
        error_description: "Too many failed attempts. Try again later.",
      });
    },
    // Express's trust proxy stays off: the header is read only by endUserAddress, for this key.
    validate: { xForwardedForHeader: false },
    logger: {
      warn: (e, m) => deps.logger.warn({ err: safeError(e) }, m ?? "rate limiter"),
      error: (e, m) => deps.logger.error({ err: safeError(e) }, m ?? "rate limiter"),
    },
  });

  router.post("/token", tokenLimiter, async (req, res) => {
    res.set("Pragma", "no-cache");
    if (!req.is("application/x-www-form-urlencoded")) {
      throw new OAuthError(400, "invalid_request", "Send the token request as application/x-www-form-urlencoded.");
    }
    const parsed = tokenFormSchema.safeParse(req.body ?? {});
    if (!parsed.success) throw new OAuthError(400, "invalid_request", "Each parameter must appear once, as text.");
    const form = parsed.data;
    const client = authenticateClient(req, form, deps.clients);
    const at = now();

    if (form.grant_type === "client_credentials") {
      const scopes = grantedScopes(form.scope, CLIENT_SCOPES);
      const accessToken = await issueAccessToken(keys, { issuer, clientId: client.clientId, scopes, now: at });
      reply(res, identityCalls.token, { access_token: accessToken, token_type: "Bearer", expires_in: ACCESS_TOKEN_LIFETIME_SECONDS, scope: scopes.join(" ") });
      return;
    }
    if (form.grant_type === "password") {
      const grant = passwordGrantSchema.safeParse(form);
      if (!grant.success) throw new OAuthError(400, "invalid_request", "username and password are required.");
      const scopes = grantedScopes(grant.data.scope, USER_SCOPES);
      // A sign-in keeps the request's language with the account (docs/product/calls.md §7.4 "The mail's language").
      const user = await accounts.authenticateUser(deps.accounts, grant.data.username, grant.data.password, requestedMailLanguage(req.get("accept-language")));
      if (!user) throw new OAuthError(400, "invalid_grant", "The user name or password is incorrect.");
      const accessToken = await issueAccessToken(keys, { issuer, clientId: client.clientId, scopes, now: at, user });
      reply(res, identityCalls.token, { access_token: accessToken, token_type: "Bearer", expires_in: ACCESS_TOKEN_LIFETIME_SECONDS, scope: scopes.join(" ") });
      return;
    }
    if (form.grant_type === undefined) throw new OAuthError(400, "invalid_request", "grant_type is required.");
    throw new OAuthError(400, "unsupported_grant_type", "Supported grant types: client_credentials, password.");
  });

  return router;
}
