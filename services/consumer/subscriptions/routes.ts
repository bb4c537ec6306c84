// SPEC §7 /consumersubscription/ calls: all GET, query parameters, answers with a success flag.
// Thin: read the parameter, call subscriptions.ts for the token's user, answer. Refusals are
// thrown (SubscriptionError, NoProfileError) and answered by http.ts's one error handler.
import express from "express";
import type { Request, RequestHandler, Response, Router } from "express";
import type { Kysely } from "kysely";
import type { AuthenticatedUser } from "../auth.ts";
import type { ConsumerDatabase } from "../schema/tables.ts";
import {
  SubscriptionError,
  cancelSubscriptionRequest,
  confirmSubscriptionRequest,
  declineSubscriptionRequest,
  deleteSubscription,
  listPublishers,
  listSubscribers,
  requestSubscription,
  searchPublishers,
  subscriptionStatus,
} from "../subscriptions.ts";

export interface SubscriptionRoutesDeps {
  db: Kysely<ConsumerDatabase>;
  now: () => Date;
  /** http.ts's bearer-token middleware. */
  authenticate: RequestHandler;
  /** The authenticated user of the request (after `authenticate`). */
  userOf: (res: Response) => AuthenticatedUser;
}

/** A query parameter given once and not blank, trimmed. @throws SubscriptionError 400 otherwise. */
function requiredParam(req: Request, name: string): string {
  const value = (req.query as Record<string, unknown>)[name];
  if (typeof value !== "string" || value.trim() === "") {
    throw new SubscriptionError(400, "invalid_request", `${name} is required${Array.isArray(value) ? " once" : ""}.`);
  }
  return value.trim();
}

/** The /consumersubscription router: every call needs a user's bearer token and a profile. */
export function subscriptionRoutes(deps: SubscriptionRoutesDeps): Router {
  const router = express.Router();
  router.use(deps.authenticate);
  const me = (res: Response) => deps.userOf(res).identityUserId;

  router.get("/subscribers", async (_req, res) => {
    res.json({ success: true, subscriptions: await listSubscribers(deps.db, me(res)) });
  });

  router.get("/publishers", async (_req, res) => {
    res.json({ success: true, subscriptions: await listPublishers(deps.db, me(res)) });
  });

  router.get("/searchpublishers", async (req, res) => {
    const value = (req.query as Record<string, unknown>).searchString;
    // A blank string is "too short" (SPEC §5), not missing; searchPublishers says so.
    if (typeof value !== "string") throw new SubscriptionError(400, "invalid_request", "searchString is required once.");
    res.json({ success: true, consumers: await searchPublishers(deps.db, me(res), value) });
  });

  router.get("/requestsubscription", async (req, res) => {
    const id = await requestSubscription(deps.db, me(res), requiredParam(req, "sfConsumerId"), deps.now());
    res.json({ success: true, sF_ConsumerSubscriptionId: id });
  });

  router.get("/cancelsubscriptionrequest", async (req, res) => {
    await cancelSubscriptionRequest(deps.db, me(res), requiredParam(req, "sfConsumerSubscriptionId"));
    res.json({ success: true });
  });

  router.get("/confirmsubscriptionrequest", async (req, res) => {
    await confirmSubscriptionRequest(deps.db, me(res), requiredParam(req, "sfConsumerSubscriptionId"), deps.now());
    res.json({ success: true });
  });

  router.get("/declinesubscriptionrequest", async (req, res) => {
    await declineSubscriptionRequest(deps.db, me(res), requiredParam(req, "sfConsumerSubscriptionId"));
    res.json({ success: true });
  });

  router.get("/deletesubscription", async (req, res) => {
    await deleteSubscription(deps.db, me(res), requiredParam(req, "sfConsumerSubscriptionId"));
    res.json({ success: true });
  });

  router.get("/subscriptionstatus", async (req, res) => {
    const status = await subscriptionStatus(deps.db, me(res), requiredParam(req, "sfConsumerId"));
    res.json({ success: true, ...status });
  });

  return router;
}
