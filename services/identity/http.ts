// The identity authority's HTTP contract: every path of SPEC §7's identity table, plus
// POST /api/account/invite, discovery, JWKS and /healthz. Routes stay thin: parse, authorise,
// call accounts.ts, answer. Errors are mapped to status and JSON in one handler at the end.
import { createHash, timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";
import express from "express";
import type { NextFunction, Request, Response } from "express";
import { ipKeyGenerator, rateLimit } from "express-rate-limit";
import type { AugmentedRequest } from "express-rate-limit";
import type { Logger } from "pino";
import { z } from "zod";
import { apiHeaders, bodyParsers, commonErrorAnswer, notFound, parse, requestLogger, safeError, sendErrorAnswer } from "../shared/http.ts";
import type { HttpAnswer } from "../shared/http.ts";
import * as accounts from "./accounts.ts";
import type { AccountsContext, PublicUser } from "./accounts.ts";
import { AccountError, InsufficientScopeError, InvalidTokenError, MailDeliveryError, OAuthError } from "./errors.ts";
import { ACCESS_TOKEN_LIFETIME_SECONDS, CLIENT_SCOPES, USER_SCOPES, issueAccessToken, verifyAccessToken } from "./tokens.ts";
import type { AccessTokenClaims, SigningKeys } from "./tokens.ts";

export interface IdentityClient {
  clientId: string;
  clientSecret: string;
}

export interface IdentityAppDeps {
  accounts: AccountsContext;
  keys: SigningKeys;
  clients: IdentityClient[];
  /** JWT `iss` of the tokens we issue and accept. */
  issuer: string;
  /** This service's own base URL (discovery documents point here). */
  url: string;
  logger: Logger;
  now: () => Date;
  /** Resolves when the database answers, rejects otherwise (GET /healthz). */
  checkDatabase: () => Promise<void>;
  /** Failed /connect/token attempts allowed per client IP and username per window. */
  tokenRateLimit?: { limit: number; windowMs: number };
}

// ---------------------------------------------------------------- input parsing

const text = (max: number) => z.string().max(max);
const email = text(1024);
const password = text(1024);
const mailToken = text(512);
const optional = (max: number) => text(max).optional();

// ---------------------------------------------------------------- client and bearer auth

function sha256(value: string): Buffer {
  return createHash("sha256").update(value, "utf8").digest();
}

function secretsEqual(a: string, b: string): boolean {
  // Hash first so the comparison is constant-time whatever the lengths.
  return timingSafeEqual(sha256(a), sha256(b));
}

const tokenForm = z.record(z.string(), z.string().max(4096));

/** RFC 6749 §2.3.1: client_secret_basic or client_secret_post, never both. */
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

function grantedScopes(requested: string | undefined, allowed: readonly string[]): string[] {
  if (requested === undefined || requested.trim() === "") return [...allowed];
  const scopes = [...new Set(requested.split(" ").filter((s) => s !== ""))];
  const unknown = scopes.filter((s) => !allowed.includes(s));
  if (unknown.length > 0) throw new OAuthError(400, "invalid_scope", `Scope not allowed for this grant: ${unknown.join(" ")}`);
  return scopes;
}

// ---------------------------------------------------------------- the app

/**
 * Builds the Express 5 app of the identity authority. All answers are JSON; unknown paths
 * 404; malformed input 400; bodies over 64 KB 413. Client-token calls need a bearer token from
 * client_credentials (scope identity.api); user-token calls a password-grant token with scope
 * identity.user, and act for its `sub` only.
 */
export function createIdentityApp(deps: IdentityAppDeps): express.Express {
  const { keys, issuer, now } = deps;
  const ctx = deps.accounts;
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);

  app.use(requestLogger(deps.logger));
  app.use(apiHeaders);
  app.use(bodyParsers());

  async function bearerClaims(req: Request): Promise<AccessTokenClaims> {
    const header = req.get("authorization");
    const m = header === undefined ? null : /^Bearer\s+([A-Za-z0-9._~+/-]+=*)\s*$/i.exec(header);
    if (!m?.[1]) throw new InvalidTokenError("A bearer access token is required.");
    return verifyAccessToken(keys, m[1], { issuer, audience: "identity.api", now: now() });
  }

  /** Client-token calls: a client_credentials token with scope identity.api. */
  async function requireClient(req: Request): Promise<void> {
    const claims = await bearerClaims(req);
    if (claims.sub !== undefined || !claims.scope.split(" ").includes("identity.api")) {
      throw new InsufficientScopeError("This call needs a client token with scope identity.api.");
    }
  }

  /** User-token calls: a password-grant token with scope identity.user; returns its user. */
  async function requireUser(req: Request): Promise<PublicUser> {
    const claims = await bearerClaims(req);
    if (claims.sub === undefined || !claims.scope.split(" ").includes("identity.user")) {
      throw new InsufficientScopeError("This call needs a user token with scope identity.user.");
    }
    const user = await accounts.findUserById(ctx, claims.sub);
    if (!user) throw new InvalidTokenError("The token's user no longer exists.");
    return user;
  }

  // ---------------------------------------------------------- discovery, health

  app.get("/.well-known/openid-configuration", (_req, res) => {
    res.set("Cache-Control", "public, max-age=300");
    res.json({
      issuer,
      token_endpoint: `${deps.url}/connect/token`,
      jwks_uri: `${deps.url}/.well-known/jwks.json`,
      grant_types_supported: ["client_credentials", "password"],
      token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
      scopes_supported: [...new Set([...CLIENT_SCOPES, ...USER_SCOPES])],
      claims_supported: ["sub", "email", "email_verified"],
    });
  });

  app.get("/.well-known/jwks.json", (_req, res) => {
    res.set("Cache-Control", "public, max-age=300");
    res.json(keys.jwks);
  });

  app.get("/healthz", async (req, res) => {
    try {
      await deps.checkDatabase();
      res.json({ ok: true });
    } catch (err) {
      req.log.error({ err: safeError(err) }, "health check: database does not answer");
      res.status(503).json({ ok: false });
    }
  });

  // ---------------------------------------------------------- POST /connect/token

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
      return `${ipKeyGenerator(endUserAddress(req))}|${username}`;
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
    logger: { warn: (e, m) => deps.logger.warn({ err: safeError(e) }, m ?? "rate limiter"), error: (e, m) => deps.logger.error({ err: safeError(e) }, m ?? "rate limiter") },
  });

  app.post("/connect/token", tokenLimiter, async (req, res) => {
    res.set("Pragma", "no-cache");
    if (!req.is("application/x-www-form-urlencoded")) {
      throw new OAuthError(400, "invalid_request", "Send the token request as application/x-www-form-urlencoded.");
    }
    const parsed = tokenForm.safeParse(req.body ?? {});
    if (!parsed.success) throw new OAuthError(400, "invalid_request", "Each parameter must appear once, as text.");
    const form = parsed.data;
    const client = authenticateClient(req, form, deps.clients);
    const at = now();

    if (form.grant_type === "client_credentials") {
      const scopes = grantedScopes(form.scope, CLIENT_SCOPES);
      const accessToken = await issueAccessToken(keys, { issuer, clientId: client.clientId, scopes, now: at });
      res.json({ access_token: accessToken, token_type: "Bearer", expires_in: ACCESS_TOKEN_LIFETIME_SECONDS, scope: scopes.join(" ") });
      return;
    }
    if (form.grant_type === "password") {
      if (!form.username || form.password === undefined) {
        throw new OAuthError(400, "invalid_request", "username and password are required.");
      }
      const scopes = grantedScopes(form.scope, USER_SCOPES);
      const user = await accounts.authenticateUser(ctx, form.username, form.password);
      if (!user) throw new OAuthError(400, "invalid_grant", "The user name or password is incorrect.");
      const accessToken = await issueAccessToken(keys, { issuer, clientId: client.clientId, scopes, now: at, user });
      res.json({ access_token: accessToken, token_type: "Bearer", expires_in: ACCESS_TOKEN_LIFETIME_SECONDS, scope: scopes.join(" ") });
      return;
    }
    if (form.grant_type === undefined) throw new OAuthError(400, "invalid_request", "grant_type is required.");
    throw new OAuthError(400, "unsupported_grant_type", "Supported grant types: client_credentials, password.");
  });

  // ---------------------------------------------------------- client-token calls

  app.post("/api/account/register", async (req, res) => {
    await requireClient(req);
    const body = parse(z.object({ userName: email, password }), req.body);
    await accounts.registerUser(ctx, body);
    res.json({ succeeded: true, errors: [] });
  });

  app.get("/api/account/isavailable", async (req, res) => {
    await requireClient(req);
    const q = parse(z.object({ email }), req.query);
    res.json(await accounts.isUserNameAvailable(ctx, q.email));
  });

  app.get("/api/account/validaterequestedemail", async (req, res) => {
    await requireClient(req);
    const q = parse(z.object({ email }), req.query);
    res.json(await accounts.validateRequestedEmail(ctx, q.email));
  });

  app.get("/api/account/sendconfirmationemail", async (req, res) => {
    await requireClient(req);
    const q = parse(z.object({ email, applicationContext: optional(256), requestedUri: optional(2048) }), req.query);
    await accounts.sendEmailConfirmation(ctx, q.email, q.requestedUri);
    res.json(true);
  });

  app.get("/api/account/confirmemail", async (req, res) => {
    await requireClient(req);
    const q = parse(z.object({ email, token: mailToken }), req.query);
    await accounts.confirmEmail(ctx, q.email, q.token);
    res.json({ succeeded: true, errors: [] });
  });

  app.get("/api/account/requestpasswordchange", async (req, res) => {
    await requireClient(req);
    const q = parse(z.object({ email, applicationContext: optional(256), requestedUri: optional(2048) }), req.query);
    // Only queues the request, the same for every address: the lookup and the mail happen in
    // the outbox's sender, after this answer (README "Reset requests").
    await accounts.requestPasswordReset(ctx, q.email, q.requestedUri);
    res.json(true);
  });

  app.get("/api/account/changepasswordusingtoken", async (req, res) => {
    await requireClient(req);
    const q = parse(z.object({ email, newPassword: password, token: mailToken }), req.query);
    await accounts.resetPasswordWithToken(ctx, q);
    res.json({ succeeded: true, errors: [] });
  });

  app.post("/api/account/invite", async (req, res) => {
    await requireClient(req);
    const body = parse(z.object({ userName: email }), req.body);
    await accounts.inviteUser(ctx, body.userName);
    res.json({ succeeded: true, errors: [] });
  });

  app.get("/api/account/confirmaccount", async (req, res) => {
    await requireClient(req);
    const q = parse(z.object({ email, password, token: mailToken }), req.query);
    await accounts.confirmAccount(ctx, q);
    res.json({ succeeded: true, errors: [] });
  });

  // ---------------------------------------------------------- user-token calls

  app.get("/api/account/isemailconfirmed", async (req, res) => {
    const user = await requireUser(req);
    res.json(user.emailConfirmed);
  });

  app.get("/api/account/changeusername", async (req, res) => {
    const user = await requireUser(req);
    const q = parse(z.object({ userName: email, applicationContext: optional(256), requestedUri: optional(2048) }), req.query);
    res.json(await accounts.changeUserName(ctx, user.id, q.userName, q.requestedUri));
  });

  app.get("/api/account/changepasswordusingcurrent", async (req, res) => {
    const user = await requireUser(req);
    const q = parse(z.object({ currentPassword: password, newPassword: password, applicationContext: optional(256) }), req.query);
    res.json(await accounts.changePasswordWithCurrent(ctx, user.id, q));
  });

  app.get("/api/users", async (req, res) => {
    const user = await requireUser(req);
    res.json({ id: user.id, userName: user.userName, emailConfirmed: user.emailConfirmed });
  });

  // ---------------------------------------------------------- not found, errors

  app.use(notFound);

  app.use((err: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    sendErrorAnswer(req, res, err, toHttp(err));
  });

  return app;
}

/** The one place where errors become HTTP answers: the identity's own errors, then the shared ones. */
function toHttp(err: unknown): HttpAnswer {
  if (err instanceof AccountError) return { status: 400, body: { succeeded: false, errors: err.errors } };
  if (err instanceof OAuthError) {
    return {
      status: err.status,
      body: { error: err.error, error_description: err.message },
      ...(err.status === 401 ? { authenticate: 'Basic realm="identity"' } : {}),
    };
  }
  if (err instanceof MailDeliveryError) {
    return { status: 502, body: { error: "mail_delivery_failed", error_description: "The e-mail could not be sent." } };
  }
  return commonErrorAnswer(err);
}
