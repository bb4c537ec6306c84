// The /consumersubscription/ calls (docs/product/calls.md §7.2; contracts/consumer.ts consumerCalls): all
// GET, query parameters, answers with a success flag. Thin: read the parameter with the contract's
// query schema, call subscriptions.ts for the token's user, answer what the contract says. Refusals
// are thrown (SubscriptionError, NoProfileError) and answered by http.ts's one error handler.
import express from "express";
import type { Request, RequestHandler, Response, Router } from "express";
import type { Kysely } from "kysely";
import type { z } from "zod";
import { consumerCalls, consumerIdQuerySchema, searchPublishersQuerySchema, subscriptionIdQuerySchema } from "../../../contracts/consumer.ts";
import { reply } from "../../shared/http.ts";
import type { AuthenticatedUser } from "../../shared/auth.ts";
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

/**
 * The one query parameter of `schema` (a contract query schema: given once, not blank), trimmed.
 * @throws SubscriptionError 400 invalid_request "<name> is required." ("required once." when repeated)
 */
function requiredParam<K extends string>(req: Request, schema: z.ZodObject<Record<K, z.ZodType<string>>>): string {
  const name = Object.keys(schema.shape)[0] as K;
  const parsed = schema.safeParse(req.query);
  if (parsed.success) return (parsed.data as Record<K, string>)[name];
  const value = (req.query as Record<string, unknown>)[name];
  throw new SubscriptionError(400, "invalid_request", `${name} is required${Array.isArray(value) ? " once" : ""}.`);
}

/** The /consumersubscription router: every call needs a user's bearer token and a profile. */
export function subscriptionRoutes(deps: SubscriptionRoutesDeps): Router {
  const router = express.Router();
  router.use(deps.authenticate);
  const me = (res: Response) => deps.userOf(res).identityUserId;

  router.get("/subscribers", async (_req, res) => {
    reply(res, consumerCalls.subscribers, { success: true, subscriptions: await listSubscribers(deps.db, me(res)) });
  });

  router.get("/publishers", async (_req, res) => {
    reply(res, consumerCalls.publishers, { success: true, subscriptions: await listPublishers(deps.db, me(res)) });
  });

  router.get("/searchpublishers", async (req, res) => {
    const query = searchPublishersQuerySchema.safeParse(req.query);
    // A blank string is "too short" (docs/product/data.md §5), not missing; searchPublishers says so.
    if (!query.success) throw new SubscriptionError(400, "invalid_request", "searchString is required once.");
    reply(res, consumerCalls.searchPublishers, { success: true, consumers: await searchPublishers(deps.db, me(res), query.data.searchString) });
  });

  router.get("/requestsubscription", async (req, res) => {
    const id = await requestSubscription(deps.db, me(res), requiredParam(req, consumerIdQuerySchema), deps.now());
    reply(res, consumerCalls.requestSubscription, { success: true, sF_ConsumerSubscriptionId: id });
  });

  router.get("/cancelsubscriptionrequest", async (req, res) => {
    await cancelSubscriptionRequest(deps.db, me(res), requiredParam(req, subscriptionIdQuerySchema));
    reply(res, consumerCalls.cancelSubscriptionRequest, { success: true });
  });

  router.get("/confirmsubscriptionrequest", async (req, res) => {
    await confirmSubscriptionRequest(deps.db, me(res), requiredParam(req, subscriptionIdQuerySchema), deps.now());
    reply(res, consumerCalls.confirmSubscriptionRequest, { success: true });
  });

  router.get("/declinesubscriptionrequest", async (req, res) => {
    await declineSubscriptionRequest(deps.db, me(res), requiredParam(req, subscriptionIdQuerySchema));
    reply(res, consumerCalls.declineSubscriptionRequest, { success: true });
  });

  router.get("/deletesubscription", async (req, res) => {
    await deleteSubscription(deps.db, me(res), requiredParam(req, subscriptionIdQuerySchema));
    reply(res, consumerCalls.deleteSubscription, { success: true });
  });

  router.get("/subscriptionstatus", async (req, res) => {
    const status = await subscriptionStatus(deps.db, me(res), requiredParam(req, consumerIdQuerySchema));
    reply(res, consumerCalls.subscriptionStatus, { success: true, ...status });
  });

  return router;
}
