// GET /api/users/ (docs/product/calls.md §7.1 "returns userName"; contracts/identity.ts
// identityCalls.getUserInfo), mounted at /api/users by http.ts: the signed-in user as the
// authority knows them. Needs a user token.
import express from "express";
import type { Router } from "express";
import { identityCalls } from "../../../contracts/identity.ts";
import { reply } from "../../shared/http.ts";
import type { BearerAuth } from "../bearer.ts";

/** The /api/users router: `{id, userName, emailConfirmed}` of the token's user (bearer.ts requireUser). */
export function userRoutes(deps: { bearer: BearerAuth }): Router {
  const router = express.Router();
  router.get("/", async (req, res) => {
    const user = await deps.bearer.requireUser(req);
    reply(res, identityCalls.getUserInfo, { id: user.id, userName: user.userName, emailConfirmed: user.emailConfirmed });
  });
  return router;
}
