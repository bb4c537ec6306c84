// The identity authority's HTTP contract (docs/product/calls.md §7.1; contracts/identity.ts): one router
// per area, mounted at its path prefix like the consumer API's: /.well-known (discovery, JWKS) and
// /connect (the token endpoint) in tokens/routes.ts, /api/account (account calls) in
// accounts/routes.ts, /api/users in users/routes.ts; the bearer-token checks in bearer.ts. Routes
// stay thin: authorise, parse, call accounts.ts, answer. Errors are mapped to status and JSON in
// one handler at the end.
import express from "express";
import type { NextFunction, Request, Response } from "express";
import type { Logger } from "pino";
import { apiHeaders, bodyParsers, commonErrorAnswer, healthCheck, notFound, requestLogger, sendErrorAnswer, plainMode } from "../shared/http.ts";
import type { HttpAnswer } from "../shared/http.ts";
import type { ApiError, IdentityRefusal, TokenError } from "../../contracts/identity.ts";
import { identityCalls } from "../../contracts/identity.ts";
import type { AccountsContext } from "./accounts.ts";
import { accountRoutes } from "./accounts/routes.ts";
import { bearerAuth } from "./bearer.ts";
import { AccountError, MailDeliveryError, OAuthError } from "./errors.ts";
import type { SigningKeys } from "./tokens.ts";
import { discoveryRoutes, tokenRoutes } from "./tokens/routes.ts";
import type { IdentityClient, TokenRoutesDeps } from "./tokens/routes.ts";
import { userRoutes } from "./users/routes.ts";

export type { IdentityClient };

/** What the identity authority's app needs: what its token routes need, and a database check. */
export interface IdentityAppDeps extends TokenRoutesDeps {
  /** Resolves when the database answers, rejects otherwise (GET /healthz). */
  checkDatabase: () => Promise<void>;
  /** False: the reference services' plain mode (shared/http.ts plainMode). Default true. */
  extensions?: boolean;
}

/**
 * Builds the Express 5 app of the identity authority. All answers are JSON; unknown paths
 * 404; malformed input 400; bodies over 64 KB 413. Client-token calls need a bearer token from
 * client_credentials (scope identity.api); user-token calls a password-grant token with scope
 * identity.user, and act for its `sub` only (bearer.ts).
 */
export function createIdentityApp(deps: IdentityAppDeps): express.Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);

  app.use(requestLogger(deps.logger));
  app.use(apiHeaders);
  app.use(bodyParsers());

  app.get("/healthz", healthCheck(deps.checkDatabase));
  if (deps.extensions === false) app.use(plainMode(identityCalls));

  const bearer = bearerAuth(deps);
  app.use("/.well-known", discoveryRoutes(deps));
  app.use("/connect", tokenRoutes(deps));
  app.use("/api/account", accountRoutes({ accounts: deps.accounts, bearer }));
  app.use("/api/users", userRoutes({ bearer }));

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
  if (err instanceof AccountError) return { status: 400, body: { succeeded: false, errors: err.errors } satisfies IdentityRefusal };
  if (err instanceof OAuthError) {
    return {
      status: err.status,
      body: { error: err.error, error_description: err.message } satisfies TokenError,
      ...(err.status === 401 ? { authenticate: 'Basic realm="identity"' } : {}),
    };
  }
  if (err instanceof MailDeliveryError) {
    return { status: 502, body: { error: "mail_delivery_failed", error_description: "The e-mail could not be sent." } satisfies ApiError };
  }
  return commonErrorAnswer(err);
}
