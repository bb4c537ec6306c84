/**
 * The consumer API's contract (docs/product/calls.md §7.2): every call's request, as the
 * reference service (services/consumer/) reads it, and its answers, as the service sends them and
 * the app's client (app/server/upstream/consumer.server.ts) reads them. Field names are those of
 * docs/product/data.md §3 in .NET camelCase; the product ID (`{product}Id`) is `safeWindowId`.
 * docs/openapi/consumer.json is generated from this module (`npm run openapi`).
 *
 * Every call needs a user's bearer token: 401 `invalid_token`, 403 `insufficient_scope`, 503
 * `temporarily_unavailable` (the identity authority could not be asked) answer `ApiError`.
 * Refusals of the test-result calls answer `ResultRefusal` (`{success:false, consumerMessage,
 * reason}`, docs/product/messages.md §8 "Upload fails: the server's consumerMessage is shown"); of the
 * profile writes, `ProfileRefusal` (`{success:false, errors:[{field, message}]}`); of everything
 * else, `ApiError`.
 *
 * GET /search/ finds venues: the consumer API asks the business API (contracts/business.ts
 * searchLocations) with the caller's token. /locationvisit/ lists a person's visits and rates one;
 * the check-in calls (/checkin/, extensions) issue and redeem the codes that make visits
 * (docs/venues.md "Check-in"). The test-result URL and link calls add a result by the lab's own
 * link (docs/product/labs.md §10.8).
 *
 * Calls, fields and the screen name beyond docs/product/calls.md §7 / §3 are marked with their extension
 * group (contracts/extension.ts; the list in docs/product/calls.md §7 "Extensions"): the person's own
 * data, check-in codes and dispute reviews (calls); a result's outcome, pages, lab link and proof,
 * the window's proof, the ids in write answers, the product ID of follow relations and search hits,
 * the refusals' reason, getImage's `page` (fields); `DisputeReviews` (a screen name).
 *
 * Imported by Node's type stripping too (server.ts, `npm run openapi`): explicit `.ts` extensions only.
 */
import type { CallContracts } from "./call.ts";
import { disputeCalls } from "./consumer/disputes.ts";
import { exportCalls } from "./consumer/export.ts";
import { followCalls } from "./consumer/follows.ts";
import { profileCalls } from "./consumer/profile.ts";
import { resultCalls } from "./consumer/results.ts";
import { venueCalls } from "./consumer/venues.ts";

// The schemas live by area in contracts/consumer/; this module lists every call in one table and
// re-exports the schemas, so that importers name one module.
export { apiErrorSchema, successSchema } from "./consumer/fields.ts";
export type { ApiError } from "./consumer/fields.ts";
export * from "./consumer/profile.ts";
export * from "./consumer/follows.ts";
export * from "./consumer/venues.ts";
export * from "./consumer/results.ts";
export * from "./consumer/disputes.ts";
export * from "./consumer/export.ts";

// maxUploadBytes (10 MiB, in bytes) and uploadField ("multipartData") live in limits.ts, which
// imports nothing, so that app/limits.ts can share them without zod.
export { maxUploadBytes, uploadField } from "./limits.ts";

/**
 * Every call of the consumer API, by the name the client uses: method, path (docs/product/calls.md §7),
 * request schema, answer schema and the error answers a client reads. All need a user's token.
 */
export const consumerCalls = {
  ...profileCalls,
  ...exportCalls,
  ...followCalls,
  ...venueCalls,
  ...resultCalls,
  ...disputeCalls,
} as const satisfies CallContracts;

export type ConsumerCallName = keyof typeof consumerCalls;
