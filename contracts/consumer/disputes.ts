/**
 * The dispute calls of the consumer API: a user's dispute of a result (docs/product/calls.md §7.2)
 * and, an extension, the reviewers' queue, their decisions and the audit trail.
 *
 * Part of the consumer API's contract (contracts/consumer.ts, which lists every call in one
 * `consumerCalls`); imported by Node's type stripping too: explicit `.ts` extensions only.
 */
import { z } from "zod";
import type { CallContracts } from "../call.ts";
import { apiErrorSchema, badQuery, id, instant, successSchema, zeroOrOne } from "./fields.ts";
import { imageQuerySchema, propertyValueSchema, resultNotFound, resultRefusalSchema, testOutcomeSchema } from "./results.ts";

/** Extension (dispute reviews): a reviewer's decision on a dispute. */
export const reviewDecisionSchema = z.enum(["accept", "decline"]).meta({ description: "accept: the result becomes valid; decline: it stays as it is." });
export type ReviewDecision = z.infer<typeof reviewDecisionSchema>;

/** Extension (dispute reviews): one open dispute in the reviewers' queue. */
export const disputeQueueEntrySchema = z
  .object({
    sF_TestResultId: id("The disputed result's id"),
    firstName: z.string(),
    lastName: z.string(),
    safeWindowId: z.string().meta({ description: "The owner's product ID." }),
    publicName: z.string(),
    testingCompanyName: z.string(),
    testName: z.string(),
    result: testOutcomeSchema,
    testDate: instant.meta({ description: "When the specimen was collected." }),
    disputeComment: z.string(),
    disputedAt: instant.meta({ description: "When the dispute was submitted (the review promise runs from here)." }),
    pageCount: z.number().int().min(1).optional(),
    propertyValues: z.array(propertyValueSchema),
  })
  .meta({ description: "An open dispute, with what the reviewer needs to decide it." });
export type DisputeQueueEntry = z.infer<typeof disputeQueueEntrySchema>;

/** Extension (dispute reviews): one decision of the audit trail. */
export const disputeReviewSchema = z
  .object({
    sF_DisputeReviewId: id("The decision's id"),
    sF_TestResultId: id("The result's id"),
    reviewerEmail: z.string(),
    decision: reviewDecisionSchema,
    responseComment: z.string(),
    validBefore: zeroOrOne("The result's valid before the decision."),
    validAfter: zeroOrOne("The result's valid after it."),
    reviewedAt: instant,
  })
  .meta({ description: "A dispute decision: who, when, what changed." });
export type DisputeReview = z.infer<typeof disputeReviewSchema>;

/** The most open disputes one disputeQueue answer lists (default and maximum). */
export const disputeQueueMax = 200;

/** Extension: GET /testresult/disputequeue/ query: the whole queue (the oldest disputeQueueMax), or one dispute. */
export const disputeQueueQuerySchema = z.object({
  testResultId: z.string().min(1).optional().meta({ description: "Only this result's dispute: a list of one, or empty when it is not open." }),
});

/** Extension: POST /testresult/reviewdispute/: a reviewer decides an open dispute. */
export const reviewDisputeRequestSchema = z.object({
  sF_TestResultId: z.string().min(1, "is required"),
  decision: reviewDecisionSchema,
  responseComment: z.string().meta({ description: "What the user reads (disputeResponseComment): required, at most 1000 characters." }),
});

/** POST /testresult/dispute/: docs/product/calls.md §7 "the test result detail including disputeComment"; other keys are ignored. */
export const disputeRequestSchema = z.object({
  sF_TestResultId: z.string().min(1, "is required"),
  disputeComment: z.string().nullish().meta({ description: "Required by the rule (400 comment_required), at most 1000 characters." }),
});

const notReviewer = { description: "forbidden: the caller is not one of the provider's dispute reviewers.", schema: apiErrorSchema };
const notReviewerOrOwn = { description: "forbidden: the caller is not one of the provider's dispute reviewers, or the result is the caller's own (a reviewer never decides a dispute of their own results).", schema: apiErrorSchema };

/** The dispute calls, in the order of `consumerCalls`. */
export const disputeCalls = {
  dispute: {
    method: "POST",
    path: "/testresult/dispute/",
    summary: "Disputes a result that did not validate (docs/product/data.md §4 Dispute status, §5 Dispute comment).",
    auth: "userToken",
    json: disputeRequestSchema,
    answer: successSchema,
    errorAnswers: {
      400: {
        description: "comment_required, comment_too_long, result_valid or already_disputed (ResultRefusal); a malformed body (ApiError invalid_request).",
        schema: z.union([resultRefusalSchema, apiErrorSchema]),
      },
      404: resultNotFound,
    },
  },
  disputeQueue: {
    method: "GET",
    path: "/testresult/disputequeue/",
    summary: "Extension (dispute reviews): the open disputes, oldest first (at most 200), or the one named; never the caller's own. Reviewers only.",
    auth: "userToken",
    extension: "reviews",
    query: disputeQueueQuerySchema,
    answer: z.array(disputeQueueEntrySchema).max(disputeQueueMax),
    errorAnswers: { 400: badQuery, 403: notReviewerOrOwn },
  },
  disputeImage: {
    method: "GET",
    path: "/testresult/disputeimage/",
    summary: "Extension (dispute reviews): a page of a disputed result, like getImage. Reviewers only, and only for results under dispute.",
    auth: "userToken",
    extension: "reviews",
    query: imageQuerySchema,
    answer: z.base64().meta({ description: "A JPEG, base64." }),
    errorAnswers: { 400: badQuery, 403: notReviewer, 404: { description: "not_found or page_not_found: no such result under dispute, or no such page.", schema: resultRefusalSchema } },
  },
  reviewDispute: {
    method: "POST",
    path: "/testresult/reviewdispute/",
    summary: "Extension (dispute reviews): accepts or declines an open dispute with a response. Reviewers only, never on their own results.",
    auth: "userToken",
    extension: "reviews",
    json: reviewDisputeRequestSchema,
    answer: successSchema,
    errorAnswers: {
      400: { description: "response_required, response_too_long or already_reviewed (ResultRefusal); a malformed body (ApiError invalid_request).", schema: z.union([resultRefusalSchema, apiErrorSchema]) },
      403: notReviewerOrOwn,
      404: { description: "not_found: no such result under dispute.", schema: resultRefusalSchema },
    },
  },
  disputeReviews: {
    method: "GET",
    path: "/testresult/disputereviews/",
    summary: "Extension (dispute reviews): the audit trail of decisions, newest first (at most 200). Reviewers only.",
    auth: "userToken",
    extension: "reviews",
    answer: z.array(disputeReviewSchema),
    errorAnswers: { 403: notReviewer },
  },
} as const satisfies CallContracts;
