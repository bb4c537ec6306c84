// The SafeWindow Pass calls of the consumer API (docs/product/pass.md §11; contracts/consumer.ts issuePass,
// passKeys; extension group `pass`): a fresh pass of the signed-in user's open window, signed with
// the current pass key (keys.ts), and the published keys, open to anyone.
import express from "express";
import type { RequestHandler, Response, Router } from "express";
import type { Kysely } from "kysely";
import { consumerCalls, passRequestSchema } from "../../../contracts/consumer.ts";
import { passClaims, signPass } from "../../../contracts/pass.ts";
import type { AuthenticatedUser } from "../../shared/auth.ts";
import { parse, reply, requireContentType } from "../../shared/http.ts";
import { NoProfileError } from "../errors.ts";
import type { ConsumerDatabase } from "../schema/tables.ts";
import { loadPassKeys } from "./keys.ts";
import type { PassKeyOptions } from "./keys.ts";

/** The user's window is not open now: 409 no_window (no pass is issued). */
export class NoWindowError extends Error {
  constructor() {
    super("Your safe window is not open now, so there is no pass to show. Upload a recent negative test result to open one.");
    this.name = "NoWindowError";
  }
}

export interface PassRoutesDeps {
  db: Kysely<ConsumerDatabase>;
  /** The pass keys' secret and timings (keys.ts). */
  keys: PassKeyOptions;
  now: () => Date;
  authenticate: RequestHandler;
  userOf: (res: Response) => AuthenticatedUser;
}

/**
 * The router of POST /pass and GET /passkeys, mounted at /consumer before the routes that need a
 * token (GET /passkeys needs none).
 * @throws (to the error handler) NoProfileError (404), NoWindowError (409), BadRequestError (400) for an issuer that is not an address.
 */
export function passRoutes(deps: PassRoutesDeps): Router {
  const router = express.Router();

  router.get("/passkeys", async (_req, res) => {
    const keys = await loadPassKeys(deps.db, deps.now(), deps.keys);
    // Checkers may keep them a minute: a rotation's key is published longer than that before it signs.
    res.set("Cache-Control", "public, max-age=60");
    reply(res, consumerCalls.passKeys, keys.published as never);
  });

  router.post("/pass", deps.authenticate, async (req, res) => {
    requireContentType(req, "json");
    const { issuer } = parse(passRequestSchema, req.body);
    const now = deps.now();
    const profile = await deps.db
      .selectFrom("consumer_profiles")
      .select(["first_name", "last_name", "dob", "strong_safety_date", "weak_safety_date"])
      .where("identity_user_id", "=", deps.userOf(res).identityUserId)
      .executeTakeFirst();
    if (!profile) throw new NoProfileError();
    const claims = passClaims(issuer, { firstName: profile.first_name, lastName: profile.last_name, dob: profile.dob }, { strongSafetyDate: profile.strong_safety_date, weakSafetyDate: profile.weak_safety_date }, now);
    if (!claims) throw new NoWindowError();
    const keys = await loadPassKeys(deps.db, now, deps.keys);
    const pass = await signPass(claims, keys.signing);
    res.set("Cache-Control", "no-store");
    reply(res, consumerCalls.issuePass, {
      pass,
      issuer,
      initials: claims.n,
      birthMonthDay: claims.b,
      strongSafetyDate: new Date(claims.s * 1000).toISOString(),
      weakSafetyDate: new Date(claims.exp * 1000).toISOString(),
      issuedAt: new Date(claims.iat * 1000).toISOString(),
    });
  });

  return router;
}
