/**
 * The follow calls of the consumer API (docs/product/calls.md §7.2): the follow relations, the
 * search for people, and the requests, confirmations and ends of following.
 *
 * Part of the consumer API's contract (contracts/consumer.ts, which lists every call in one
 * `consumerCalls`); imported by Node's type stripping too: explicit `.ts` extensions only.
 */
import { z } from "zod";
import type { CallContracts } from "../call.ts";
import { extension } from "../extension.ts";
import { apiErrorSchema, badQuery, id, noProfile, productId, safeWindowProofField, safetyDate, successSchema, zeroOrOne } from "./fields.ts";

/** docs/product/data.md §3 Consumer subscription (follow relation), from the other person's side. */
export const subscriptionSchema = z
  .object({
    sF_ConsumerSubscriptionId: id("The relation's id"),
    sF_ConsumerId: id("The other person's profile id"),
    firstName: z.string(),
    lastName: z.string(),
    safeWindowId: extension(productId, "ids"),
    confirmed: zeroOrOne("0 pending, 1 confirmed."),
    strongSafetyDate: safetyDate("other person's strong").meta({
      description: "The other person's strong window (ISO 8601 instant), only when the relation is confirmed and the caller follows them; else null.",
    }),
    weakSafetyDate: safetyDate("other person's weak").meta({
      description: "The other person's weak window (ISO 8601 instant), only when the relation is confirmed and the caller follows them; else null.",
    }),
    safeWindowProof: safeWindowProofField,
  })
  .meta({ description: "A follow relation." });
export type Subscription = z.infer<typeof subscriptionSchema>;

/** The follow lists: GET subscribers/ and publishers/. */
export const subscriptionListSchema = z.object({
  success: z.literal(true),
  subscriptions: z.array(subscriptionSchema),
});

/** A search hit (docs/product/data.md §5 Search): names and product ID only, never an e-mail or a date of birth. */
export const publisherHitSchema = z
  .object({
    sF_ConsumerId: id("The person's profile id"),
    firstName: z.string(),
    lastName: z.string(),
    safeWindowId: extension(productId, "ids"),
  })
  .meta({ description: "A person found by a search." });
export type PublisherHit = z.infer<typeof publisherHitSchema>;

/** GET searchpublishers/: at most 20 hits, by last name then first name. */
export const publisherSearchSchema = z.object({
  success: z.literal(true),
  consumers: z.array(publisherHitSchema),
});

/** GET requestsubscription/: the new pending relation. */
export const subscriptionRequestedSchema = z.object({
  success: z.literal(true),
  sF_ConsumerSubscriptionId: extension(id("The new relation's id"), "ids"),
});

/** docs/product/data.md §3 "Subscription status: success, pending, subscribed": the caller's relation toward one person. */
export const subscriptionStatusSchema = z.object({
  success: z.literal(true),
  pending: z.boolean().meta({ description: "The caller asked to follow and the person has not answered." }),
  subscribed: z.boolean().meta({ description: "The caller follows the person (confirmed)." }),
});
export type SubscriptionStatus = z.infer<typeof subscriptionStatusSchema>;

/** A query parameter that names a person or a relation: given once, not blank; trimmed. */
const requiredId = (description: string) => z.string().trim().min(1).meta({ description });

export const searchPublishersQuerySchema = z.object({
  searchString: z.string().meta({ description: "A name prefix, a product ID or an exact e-mail address; at least 3 non-blank characters, at most 320." }),
});
export const consumerIdQuerySchema = z.object({ sfConsumerId: requiredId("The other person's profile id.") });
export const subscriptionIdQuerySchema = z.object({ sfConsumerSubscriptionId: requiredId("The relation's id.") });

const followRefused = (what: string) => ({
  400: { description: "invalid_request: the parameter is missing, blank or repeated.", schema: apiErrorSchema },
  403: { description: `forbidden: ${what}.`, schema: apiErrorSchema },
  404: { description: "not_found or no_profile: no such relation, or the caller has no profile.", schema: apiErrorSchema },
});

/** The follow calls, in the order of `consumerCalls`. */
export const followCalls = {
  subscribers: {
    method: "GET",
    path: "/consumersubscription/subscribers/",
    summary: "People who follow the signed-in user or asked to.",
    auth: "userToken",
    answer: subscriptionListSchema,
    errorAnswers: { 404: noProfile },
  },
  publishers: {
    method: "GET",
    path: "/consumersubscription/publishers/",
    summary: "People the signed-in user follows or asked to follow.",
    auth: "userToken",
    answer: subscriptionListSchema,
    errorAnswers: { 404: noProfile },
  },
  searchPublishers: {
    method: "GET",
    path: "/consumersubscription/searchpublishers/",
    summary: "Finds people to follow by name prefix, product ID or exact e-mail address (docs/product/data.md §5 Search).",
    auth: "userToken",
    query: searchPublishersQuerySchema,
    answer: publisherSearchSchema,
    errorAnswers: {
      400: { description: "invalid_request: searchString missing, repeated, shorter than 3 non-blank characters or over 320.", schema: apiErrorSchema },
      404: noProfile,
    },
  },
  requestSubscription: {
    method: "GET",
    path: "/consumersubscription/requestsubscription/",
    summary: "Asks to follow a person: a pending relation (docs/product/data.md §4 Follow relation).",
    auth: "userToken",
    query: consumerIdQuerySchema,
    answer: subscriptionRequestedSchema,
    errorAnswers: {
      400: { description: "invalid_request (missing parameter), self_follow or duplicate.", schema: apiErrorSchema },
      404: { description: "not_found or no_profile: no such person, or the caller has no profile.", schema: apiErrorSchema },
    },
  },
  cancelSubscriptionRequest: {
    method: "GET",
    path: "/consumersubscription/cancelsubscriptionrequest/",
    summary: "Withdraws the caller's pending request.",
    auth: "userToken",
    query: subscriptionIdQuerySchema,
    answer: successSchema,
    errorAnswers: followRefused("not the caller's pending request"),
  },
  confirmSubscriptionRequest: {
    method: "GET",
    path: "/consumersubscription/confirmsubscriptionrequest/",
    summary: "Confirms a pending request to follow the caller.",
    auth: "userToken",
    query: subscriptionIdQuerySchema,
    answer: successSchema,
    errorAnswers: followRefused("only the followed person confirms a pending request"),
  },
  declineSubscriptionRequest: {
    method: "GET",
    path: "/consumersubscription/declinesubscriptionrequest/",
    summary: "Declines a pending request to follow the caller.",
    auth: "userToken",
    query: subscriptionIdQuerySchema,
    answer: successSchema,
    errorAnswers: followRefused("only the followed person declines a pending request"),
  },
  deleteSubscription: {
    method: "GET",
    path: "/consumersubscription/deletesubscription/",
    summary: "Ends a confirmed relation; either side may.",
    auth: "userToken",
    query: subscriptionIdQuerySchema,
    answer: successSchema,
    errorAnswers: followRefused("not a confirmed relation of the caller"),
  },
  subscriptionStatus: {
    method: "GET",
    path: "/consumersubscription/subscriptionstatus/",
    summary: "The caller's relation toward one person: pending, subscribed.",
    auth: "userToken",
    query: consumerIdQuerySchema,
    answer: subscriptionStatusSchema,
    errorAnswers: { 400: badQuery, 404: noProfile },
  },
} as const satisfies CallContracts;
