// Bearer-token checks of the identity authority's own API calls (docs/product/calls.md §7.1): client
// calls need the app's client-credentials token, user calls a user's password-grant token. The
// routers (accounts/routes.ts, users/routes.ts) call these before anything else.
import type { Request } from "express";
import * as accounts from "./accounts.ts";
import type { AccountsContext, PublicUser } from "./accounts.ts";
import { InsufficientScopeError, InvalidTokenError } from "./errors.ts";
import { verifyAccessToken } from "./tokens.ts";
import type { AccessTokenClaims, SigningKeys } from "./tokens.ts";

export interface BearerDeps {
  accounts: AccountsContext;
  keys: SigningKeys;
  /** JWT `iss` of the tokens we issue and accept. */
  issuer: string;
  now: () => Date;
}

/** The two checks, bound to the service's keys and clock. */
export interface BearerAuth {
  /**
   * Client-token calls: a client_credentials token (no `sub`) with scope identity.api.
   * @throws InvalidTokenError (401) without a valid token; InsufficientScopeError (403) for a user token
   */
  requireClient(req: Request): Promise<void>;
  /**
   * User-token calls: a password-grant token with scope identity.user.
   * @returns the token's user
   * @throws InvalidTokenError (401) without a valid token or when its user no longer exists;
   *   InsufficientScopeError (403) for a client token
   */
  requireUser(req: Request): Promise<PublicUser>;
}

/** The bearer checks for tokens of `deps.issuer`, audience identity.api, verified at `deps.now()`. */
export function bearerAuth(deps: BearerDeps): BearerAuth {
  async function bearerClaims(req: Request): Promise<AccessTokenClaims> {
    const header = req.get("authorization");
    const m = header === undefined ? null : /^Bearer\s+([A-Za-z0-9._~+/-]+=*)\s*$/i.exec(header);
    if (!m?.[1]) throw new InvalidTokenError("A bearer access token is required.");
    return verifyAccessToken(deps.keys, m[1], { issuer: deps.issuer, audience: "identity.api", now: deps.now() });
  }

  return {
    async requireClient(req) {
      const claims = await bearerClaims(req);
      if (claims.sub !== undefined || !claims.scope.split(" ").includes("identity.api")) {
        throw new InsufficientScopeError("This call needs a client token with scope identity.api.");
      }
    },
    async requireUser(req) {
      const claims = await bearerClaims(req);
      if (claims.sub === undefined || !claims.scope.split(" ").includes("identity.user")) {
        throw new InsufficientScopeError("This call needs a user token with scope identity.user.");
      }
      const user = await accounts.findUserById(deps.accounts, claims.sub);
      if (!user) throw new InvalidTokenError("The token's user no longer exists.");
      return user;
    },
  };
}
