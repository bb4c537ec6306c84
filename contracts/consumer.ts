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
import { z } from "zod";
import { locationHitSchema, searchLimit, searchMiles } from "./business.ts";
import type { CallContracts } from "./call.ts";
import { extension, extensionValues } from "./extension.ts";
import { maxUploadBytes, uploadField } from "./limits.ts";

// ---------------------------------------------------------------- limits

// maxUploadBytes (10 MiB, in bytes) and uploadField ("multipartData") live in limits.ts, which
// imports nothing, so that app/limits.ts can share them without zod.
export { maxUploadBytes, uploadField } from "./limits.ts";

/** docs/product/data.md §6 screens, as identifiers, in tab order: the ones a consumer's profile stores. */
export const profileScreenNames = ["SafeWindow", "MyTests", "MyFun", "Locations", "Friends", "Settings"] as const;

/**
 * Extension (dispute reviews): the screen of the provider's dispute reviewers, in enabledScreens only
 * for a reviewer (granted by the API's reviewer list, never stored with a profile).
 */
export const reviewScreenName = "DisputeReviews";

/** Every screen name enabledScreens may carry: docs/product/data.md §6's, then the extension. */
export const screenNames = [...profileScreenNames, reviewScreenName] as const;

/** docs/product/data.md §3 test result outcomes (a lab's Void or Invalid is answered as Inconclusive). */
export const testOutcomes = ["Negative", "Positive", "Inconclusive"] as const;

// ---------------------------------------------------------------- fields

const id = (what: string) => z.string().min(1).meta({ description: `${what} (a uuid; opaque to clients).` });
/** An instant as ISO 8601 with its zone (the reference service answers UTC, `…Z`). */
const instant = z.iso.datetime({ offset: true });
/** A safety date: the window lasts until then; null without a valid result (docs/product/data.md §4 Safe window). */
const safetyDate = (strength: string) => instant.nullable().meta({ description: `ISO 8601 instant: the ${strength} window lasts until then; null without one.` });
const calendarDate = z.iso.date().meta({ description: "Date of birth, `YYYY-MM-DD`." });
const productId = z.string().min(1).meta({ description: "The product ID (docs/product/data.md §3 `{product}Id`): 8 characters of Crockford base32." });
const zeroOrOne = (meaning: string) => z.literal([0, 1]).meta({ description: meaning });

// ---------------------------------------------------------------- answers

/** Extension (docs/product/labs.md §10.9): the proof of the result a window comes from, on the window and on each follow relation. */
const safeWindowProofField = extension(
  z
    .string()
    .nullable()
    .optional()
    .meta({ description: "Extension (docs/product/labs.md §10.9): the proof of the result the window comes from, e.g. `signed (SMART Health Card, Harborview Labs)`, `fetched from the lab`, `document checks`; null without a window." }),
  "proof",
);

export const screenNameSchema = extensionValues(z.enum(screenNames), { [reviewScreenName]: "reviews" });
export type ScreenName = z.infer<typeof screenNameSchema>;

/** docs/product/data.md §3 Consumer (profile), as GET /consumer and the profile writes answer it. */
export const consumerSchema = z
  .object({
    sF_ConsumerId: id("The profile's id"),
    identityUserId: z.string().meta({ description: "The identity authority's user id (the token's `sub`)." }),
    firstName: z.string(),
    middleName: z.string().nullable(),
    lastName: z.string(),
    dob: calendarDate,
    postalCode: z.string(),
    marketingOptOut: z.boolean(),
    healthUpdatesOptOut: z.boolean(),
    safeWindowId: productId,
    strongSafetyDate: safetyDate("strong"),
    weakSafetyDate: safetyDate("weak"),
    safeWindowDescription: z.string().nullable().meta({ description: "What gave the window, e.g. `PCR (NAAT), collected 2026-11-20 16:15 UTC` (instants written `YYYY-MM-DD HH:MM UTC`)." }),
  })
  .meta({ description: "A consumer profile." });
export type Consumer = z.infer<typeof consumerSchema>;

/** The fields a person enters on the profile screens (docs/product/screens.md §2 /yourinfo, /personalinfo). */
export const profileFieldsSchema = consumerSchema.pick({ firstName: true, middleName: true, lastName: true, dob: true, postalCode: true });
export type ProfileFields = z.infer<typeof profileFieldsSchema>;

/** GET /consumer/getsafewindow: the owner's card (docs/product/screens.md §2 /safewindow; the owner's own card shows the date of birth, §6). */
export const safeWindowSchema = z
  .object({
    firstName: z.string(),
    middleName: z.string().nullable(),
    lastName: z.string(),
    dob: calendarDate,
    safeWindowId: productId,
    strongSafetyDate: safetyDate("strong"),
    weakSafetyDate: safetyDate("weak"),
    safeWindowDescription: z.string().nullable(),
    safeWindowProof: safeWindowProofField,
  })
  .meta({ description: "The signed-in user's safe window card." });
export type SafeWindowCard = z.infer<typeof safeWindowSchema>;

/** docs/product/data.md §3 "Permissions: enabledScreens (list)". */
export const permissionsSchema = z.object({
  enabledScreens: z.array(screenNameSchema).meta({ description: "The screens the user may use, in tab order." }),
});
export type Permissions = z.infer<typeof permissionsSchema>;

/** One failed profile rule: the input field (null when not about one field) and a sentence. */
export const fieldErrorSchema = z.object({
  field: z.string().nullable(),
  message: z.string(),
});
export type FieldError = z.infer<typeof fieldErrorSchema>;

/** The 200 answer of the profile writes (createprofile, modifycore): the profile as stored. */
export const writeAnswerSchema = z
  .object({
    success: z.literal(true).meta({ description: "docs/product/calls.md §7: the success flag the client reads." }),
    consumer: extension(consumerSchema, "ids"),
  })
  .meta({ description: "A profile written." });
export type WriteAnswer = z.infer<typeof writeAnswerSchema>;

/** A profile write refused by a rule (400) or because a profile exists (409, field null). */
export const profileRefusalSchema = z
  .object({
    success: z.literal(false),
    errors: z.array(fieldErrorSchema).min(1),
  })
  .meta({ description: "A refused profile write: every rule that failed." });
export type ProfileRefusal = z.infer<typeof profileRefusalSchema>;

/**
 * Every other refusal: `invalid_request` (400), `invalid_token` (401), `forbidden` /
 * `insufficient_scope` (403), `not_found` / `no_profile` (404), `payload_too_large` (413),
 * `temporarily_unavailable` (503, Retry-After), `server_error` (500). The follow calls and the
 * profile calls add `success: false`.
 */
export const apiErrorSchema = z
  .object({
    success: z.literal(false).optional(),
    error: z.string().meta({ description: "Stable code, e.g. invalid_request, invalid_token, forbidden, not_found, no_profile, self_follow, duplicate." }),
    error_description: z.string().meta({ description: "Plain English." }),
  })
  .meta({ description: "An error: a code and a sentence." });
export type ApiError = z.infer<typeof apiErrorSchema>;

/** The issuer a pass names (docs/product/pass.md §11.1 `iss`): the app's public address, http(s), no query, fragment or trailing slash. */
const passIssuer = z
  .string()
  .max(200)
  .regex(/^https?:\/\/[^\s?#]+[^\s?#/]$/, "an http(s) address without a query, a fragment or a trailing slash")
  .meta({ description: "The app's public address (origin and base path, no trailing slash): the pass's `iss`, whose /verify checks it." });

/** POST /consumer/pass request. */
export const passRequestSchema = z.object({ issuer: passIssuer }).meta({ id: "PassRequest" });

/** POST /consumer/pass answer: the pass and what it says, instants ISO 8601 UTC. */
export const passAnswerSchema = z
  .object({
    pass: z.string().meta({ description: "The pass: a compact JWS, ES256 (docs/product/pass.md §11.1)." }),
    issuer: passIssuer,
    initials: z.string(),
    birthMonthDay: z.string().meta({ description: "MM-DD." }),
    strongSafetyDate: z.string().meta({ description: "Strong until (in the past for a window that is weak only)." }),
    weakSafetyDate: z.string().meta({ description: "Weak until: the pass's expiry." }),
    issuedAt: z.string(),
  })
  .meta({ id: "Pass" });

/** GET /consumer/passkeys answer: a JWK Set of ES256 public keys (RFC 7517 §5). */
export const passKeySetSchema = z
  .object({
    keys: z.array(
      z.object({
        kty: z.literal("EC"),
        crv: z.literal("P-256"),
        x: z.string(),
        y: z.string(),
        kid: z.string().max(8),
        alg: z.literal("ES256"),
        use: z.literal("sig"),
      }),
    ),
  })
  .meta({ id: "PassKeySet" });

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

/** The answer of a change that returns nothing else: the follow changes and the dispute. */
export const successSchema = z.object({ success: z.literal(true) });

export const testOutcomeSchema = z.enum(testOutcomes);
export type TestOutcome = z.infer<typeof testOutcomeSchema>;

/** docs/product/data.md §3 Test result, as GET /testresult/getcurrentusertestresults/ lists it. */
export const testResultSchema = z
  .object({
    sF_TestResultId: id("The result's id"),
    valid: zeroOrOne("1 when the report matched the profile (docs/product/labs.md §10)."),
    disputeStatus: zeroOrOne("0 none, 1 submitted or disputed."),
    diseaseName: z.string(),
    testDate: instant.meta({ description: "When the specimen was collected, ISO 8601 instant." }),
    testingCompanyName: z.string(),
    publicName: z.string(),
    testName: z.string().meta({ description: "The test's name as the lab prints it." }),
    result: extension(testOutcomeSchema, "outcome"),
    strongSafetyDate: safetyDate("result's own strong").meta({ description: "The result's own strong window; null unless valid and negative." }),
    weakSafetyDate: safetyDate("result's own weak").meta({ description: "The result's own weak window; null unless valid and negative." }),
    disputeComment: z.string().nullable(),
    disputeResponseComment: z.string().nullable(),
    pageCount: extension(
      z
        .number()
        .int()
        .min(1)
        .optional()
        .meta({
          description:
            "Extension of docs/product/data.md §3: the pages of the result's PDF, each served by getImage's `page` parameter. Absent where the upstream serves page 1 only (SPEC's call, or a result stored before its PDF was kept).",
        }),
      "pages",
    ),
    fetchedFrom: extension(
      z
        .string()
        .nullable()
        .optional()
        .meta({ description: "Extension (results by link, docs/product/labs.md §10.8): the lab's host the result was fetched from; null or absent for an upload." }),
      "links",
    ),
    proof: extension(
      z
        .object({
          kind: z.enum(["shc", "dcc", "link", "document"]).meta({ description: "shc, dcc: a verified signed code; link: fetched from the lab; document: the document checks alone." }),
          label: z.string().meta({ description: "In words: `signed (SMART Health Card, <issuer>)`, `signed (EU DCC, <country>)`, `fetched from the lab`, `document checks`." }),
          unverifiedSignature: z
            .enum(["SMART Health Card", "EU DCC"])
            .nullable()
            .meta({ description: "A signed code whose signature could not be tied to a known issuer (the document checks decided); null otherwise." }),
          disagreement: z
            .string()
            .nullable()
            .optional()
            .meta({ description: "Where a verified signed code disagrees with the PDF's text (the result is then invalid), e.g. `Result (QR: Positive; PDF: Negative)`; null otherwise." }),
        })
        .optional()
        .meta({ description: "Extension (docs/product/labs.md §10.9): the strongest evidence the result carries." }),
      "proof",
    ),
  })
  .meta({ description: "A test result." });
export type TestResult = z.infer<typeof testResultSchema>;

/** docs/product/data.md §3 Test result property value: one checked field and what differed. */
export const propertyValueSchema = z
  .object({
    sF_TestResultPropertyValueId: id("The property value's id"),
    name: z.string().meta({ description: "`First Name`, `Last Name` or `Date of Birth`; ours, an extension: `Manual Review`, an accepted dispute (`Accepted on review by a reviewer at <UTC time>`: which reviewer is not said)." }),
    matchInfo: z.string().nullable().meta({ description: "Null when the field matched, else `PDF: <as printed>; profile: <as stored>`." }),
  })
  .meta({ description: "A checked field of a test result." });
export type PropertyValue = z.infer<typeof propertyValueSchema>;

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

/** Extension (the person's own data): a decision on one of the user's disputes, as the export tells it. */
export const exportedReviewSchema = z
  .object({
    decision: reviewDecisionSchema,
    responseComment: z.string(),
    reviewedAt: instant,
  })
  .meta({ description: "A decision on the user's dispute." });

// ---------------------------------------------------------------- check-in and visits

/** How long a check-in code serves, in seconds (docs/venues.md "Check-in"). */
export const checkinCodeSeconds = 120;
/** docs/venues.md: what a venue sees of a window: Strong or Weak while that window is open, else None. */
export const windowStates = ["Strong", "Weak", "None"] as const;
export const windowStateSchema = z.enum(windowStates);
export type WindowState = z.infer<typeof windowStateSchema>;

/** Extension: POST /checkin/issuecode/: a new code for the caller (any older one stops working). */
export const checkinCodeSchema = z
  .object({
    code: z.string().regex(/^[0-9A-HJKMNP-TV-Z]{6}$/).meta({ description: "6 characters of Crockford base32 (0-9, A-Z without I, L, O, U)." }),
    expiresAt: instant.meta({ description: `When it stops working: ${checkinCodeSeconds} s after it was issued.` }),
  })
  .meta({ description: "A check-in code." });
export type CheckinCode = z.infer<typeof checkinCodeSchema>;

/** Extension: POST /checkin/redeemcode/ body. `code` is read as Crockford base32: any case, spaces and dashes ignored, I and L as 1, O as 0. */
export const redeemCodeRequestSchema = z.object({
  code: z.string().max(20),
  locationId: z.string().min(1).max(64),
});

/** What a venue sees when it enters a code, and after Check in: the name and the window, never a date of birth. */
export const checkSchema = z
  .object({
    visitId: id("The visit's id"),
    firstName: z.string(),
    lastName: z.string(),
    windowState: windowStateSchema,
    strongSafetyDate: safetyDate("strong"),
    weakSafetyDate: safetyDate("weak"),
    locationId: z.string(),
    locationName: z.string(),
    checkedAt: instant,
    checkedInAt: instant.nullable().meta({ description: "When Check in was pressed; null until then." }),
  })
  .meta({ description: "A check of a visitor's window at a venue." });
export type Check = z.infer<typeof checkSchema>;

/** Extension: POST /checkin/checkin/ body. */
export const checkInRequestSchema = z.object({ visitId: z.string().min(1).max(64) });

/** GET /locationvisit/getcurrentuservisits/: one check made on the caller at a venue. */
export const visitSchema = z
  .object({
    visitId: id("The visit's id"),
    locationId: z.string(),
    locationName: z.string(),
    city: z.string(),
    state: z.string(),
    checkedAt: instant,
    windowState: windowStateSchema.meta({ description: "What the venue saw." }),
    checkedInAt: instant.nullable(),
    rating: z.int().min(1).max(5).nullable(),
  })
  .meta({ description: "A visit (a check at a venue)." });
export type Visit = z.infer<typeof visitSchema>;

/** POST /locationvisit/setrating/ body: 1 to 5 stars for one of the caller's own visits. */
export const setRatingRequestSchema = z.object({
  visitId: z.string().min(1).max(64),
  rating: z.int().min(1).max(5),
});

/** Extension (the person's own data): a result with everything stored about it. */
export const exportedResultSchema = testResultSchema
  .extend({
    uploadedAt: instant.meta({ description: "When the PDF was added." }),
    disputedAt: instant.nullable().meta({ description: "When the dispute was submitted; null without one." }),
    propertyValues: z.array(propertyValueSchema),
    reviews: z.array(exportedReviewSchema),
    originalPdf: z.boolean().meta({ description: "True when the original PDF is kept (getPdf serves it)." }),
  })
  .meta({ description: "A test result with its checks, its dispute's decisions and whether its PDF is kept." });

/** Extension (the person's own data): GET /consumer/export, everything the consumer API keeps about the user. */
export const dataExportSchema = z
  .object({
    exportedAt: instant,
    email: z.string().nullable().meta({ description: "The e-mail address the API last saw in the user's token (search by e-mail finds it); null when none." }),
    language: z
      .enum(["en", "es"])
      .nullable()
      .optional()
      .meta({ description: "The language the API writes the user's mail in, the last one their calls asked for (docs/product/calls.md §7.4 \"The mail's language\"); null when none said." }),
    profile: consumerSchema.nullable().meta({ description: "The profile; null when the user has none." }),
    results: z.array(exportedResultSchema),
    followers: z.array(subscriptionSchema).meta({ description: "People who follow the user or asked to (as subscribers/)." }),
    following: z.array(subscriptionSchema).meta({ description: "People the user follows or asked to follow (as publishers/)." }),
    visits: z.array(visitSchema).meta({ description: "Every check made on the user at a venue, newest first (as getcurrentuservisits/, all of them)." }),
  })
  .meta({ description: "The user's data: profile, results, disputes, follow relations and visits. The images and PDFs are served by getImage and getPdf." });
export type DataExport = z.infer<typeof dataExportSchema>;

/** docs/product/data.md §3 "Upload: success, consumerMessage": a result stored, valid or not. */
export const uploadAnswerSchema = z
  .object({
    success: z.literal(true),
    consumerMessage: z.string().meta({ description: "What to tell the user: validated or not, and what it means for the window. Instants in it are written `YYYY-MM-DD HH:MM UTC` (the app shows them in the user's zone)." }),
    sF_TestResultId: extension(id("The stored result's id"), "ids"),
  })
  .meta({ description: "A test result stored." });
export type UploadAnswer = z.infer<typeof uploadAnswerSchema>;

/**
 * Why a test-result call was refused. Uploads: no_file, too_large, not_pdf, archive, wrapped,
 * appended, javascript, launch, embedded_file, actions, corrupt, encrypted, too_many_pages,
 * too_complex, busy, duplicate, no_text, printed, changed, unknown_lab, unreadable, future.
 * Results by link, besides those: link_invalid, link_not_https, link_unknown_host, link_address,
 * link_redirect, link_unreachable, link_not_found, link_slow, link_type, link_wrong_lab, criteria.
 * Disputes: comment_required, comment_too_long, result_valid, already_disputed. Reviews (an
 * extension): response_required, response_too_long, already_reviewed. Images:
 * page_not_found. Any call: not_found, no_profile.
 */
export const resultRefusalSchema = z
  .object({
    success: z.literal(false),
    consumerMessage: z.string().meta({ description: "A sentence for the user: what went wrong and what to do (docs/product/messages.md §8 Upload fails). Instants in it are written `YYYY-MM-DD HH:MM UTC`." }),
    reason: extension(z.string().meta({ description: "A stable code for programs (see the list above)." }), "reasons"),
  })
  .meta({ description: "A refused test-result call." });
export type ResultRefusal = z.infer<typeof resultRefusalSchema>;

// ---------------------------------------------------------------- requests

// Text fields may be missing or null: the profile rules report those with a message.
const profileText = z.string().nullish();

/** POST /consumer/createprofile: the profile fields and where it was sent from (extra keys in `consumer` are ignored). */
export const createProfileRequestSchema = z.object({
  consumer: z.object({
    firstName: profileText,
    middleName: profileText,
    lastName: profileText,
    dob: profileText.meta({ description: "`YYYY-MM-DD` or `MM/DD/YYYY`." }),
    postalCode: profileText,
    marketingOptOut: z.boolean().nullish().meta({ description: "Default false." }),
    healthUpdatesOptOut: z.boolean().nullish().meta({ description: "Default false." }),
  }),
  latitude: z.number().nullish().meta({ description: "Degrees, -90..90, or null." }),
  longitude: z.number().nullish().meta({ description: "Degrees, -180..180, or null." }),
});

/** POST /consumer/modifycore/ as a URL-encoded form: each field once, as text (middleName empty: none). */
export const modifyCoreFormSchema = z.object({
  identityUserId: z.string().min(1, "is required").meta({ description: "Must be the token's user." }),
  firstName: z.string().optional(),
  middleName: z.string().optional(),
  lastName: z.string().optional(),
  dob: z.string().optional().meta({ description: "The database date: `YYYY-MM-DD` or an ISO date-time (its date part); `MM/DD/YYYY` is taken too." }),
  postalCode: z.string().optional(),
});

/** A query parameter that names a person or a relation: given once, not blank; trimmed. */
const requiredId = (description: string) => z.string().trim().min(1).meta({ description });

export const searchPublishersQuerySchema = z.object({
  searchString: z.string().meta({ description: "A name prefix, a product ID or an exact e-mail address; at least 3 non-blank characters, at most 320." }),
});
export const consumerIdQuerySchema = z.object({ sfConsumerId: requiredId("The other person's profile id.") });
export const subscriptionIdQuerySchema = z.object({ sfConsumerSubscriptionId: requiredId("The relation's id.") });
export const propertyValuesQuerySchema = z.object({ sfTestResultId: z.string().min(1, "is required") });
export const imageQuerySchema = z.object({
  testResultId: z.string().min(1, "is required"),
  page: extension(
    z
      .string()
      .regex(/^[1-9][0-9]{0,3}$/, "is a page number from 1")
      .transform(Number)
      .optional()
      .meta({ description: "Extension of docs/product/calls.md §7: the page to show, 1-based (default 1); up to the result's pageCount." }),
    "pages",
  ),
});

/** POST /testresult/addtestresultmultipart/: the PDF in field `multipartData` (at most maxUploadBytes). */
/** Extension: GET /testresult/getpdf/ query. */
export const pdfQuerySchema = z.object({ testResultId: z.string().min(1, "is required") });

export const uploadRequestSchema = z.object({
  [uploadField]: z.file().max(maxUploadBytes).meta({ description: "The test result PDF, exactly as the testing company issued it; at most 10 MiB." }),
});

/** Longest result link accepted, characters (docs/product/labs.md §10.8). */
export const maxResultLinkLength = 2048;

/** GET /testresult/addtestresulturl/ and /generatetestresulttextobjectsurl/ query: the lab's result link. */
export const resultLinkQuerySchema = z.object({
  url: z.string().meta({ description: `The result's link as the lab sent it: https, on a host an accepted lab declares (docs/product/labs.md §10.8); at most ${maxResultLinkLength} characters.` }),
});

/** What a criterion of addtestresultlink says where to read. */
export const criterionPropertySchema = z
  .enum(["name", "givenNames", "lastName", "dateOfBirth", "collectionTime", "testType", "result"])
  .meta({ description: "name: `LAST, GIVEN` in one field (labs that print it so); givenNames and lastName: two fields (the others)." });
export type CriterionProperty = z.infer<typeof criterionPropertySchema>;

/** POST /testresult/addtestresultlink/ body: the link and, per field, the text that labels it on the lab's page. */
export const resultLinkRequestSchema = z.object({
  url: z.string().meta({ description: "As resultLinkQuerySchema's url." }),
  criteria: z
    .array(
      z.object({
        property: criterionPropertySchema,
        label: z.string().max(200).meta({ description: "The text printed before the value (a text object of generatetestresulttextobjectsurl)." }),
      }),
    )
    .max(10)
    .meta({ description: "One per field the lab prints; each must name the label the lab prints that field after (they are checked, never trusted)." }),
});

/** GET /testresult/generatetestresulttextobjectsurl/: the text of the document at a lab's link, with positions. */
export const textObjectsAnswerSchema = z
  .object({
    success: z.literal(true),
    publicName: z.string().meta({ description: "The lab whose host the link is on." }),
    serves: z.enum(["pdf", "page"]).meta({ description: "pdf: the link served the report PDF (page 1 is read); page: an HTML result page." }),
    textObjects: z
      .array(
        z.object({
          text: z.string(),
          line: z.number().int().min(0).meta({ description: "The line, 0 at the top." }),
          column: z.number().int().min(0).meta({ description: "The run on its line, 0 at the left (a table cell, or text set apart by a column gap)." }),
        }),
      )
      .meta({ description: "Every run of text, top to bottom, left to right." }),
  })
  .meta({ description: "The text objects of a lab's document." });
export type TextObjectsAnswer = z.infer<typeof textObjectsAnswerSchema>;

/** The most open disputes one disputeQueue answer lists (default and maximum). */
export const disputeQueueMax = 200;

/** Extension: GET /testresult/disputequeue/ query: the whole queue (the oldest disputeQueueMax), or one dispute. */
export const disputeQueueQuerySchema = z.object({
  testResultId: z.string().min(1).optional().meta({ description: "Only this result's dispute: a list of one, or empty when it is not open." }),
});

/**
 * GET /search/ query (docs/product/calls.md §7.2): venues within `miles` of a US ZIP code's centre (`zip`) or
 * of a point (`latitude` and `longitude`); `zip` wins when both are given. Each parameter at most once.
 */
export const locationSearchQuerySchema = z.object({
  latitude: z.string().optional().meta({ description: "Degrees, -90 to 90, with longitude; unused when zip is given." }),
  longitude: z.string().optional().meta({ description: "Degrees, -180 to 180, with latitude." }),
  miles: z.string().meta({ description: `How far, ${searchMiles.min} to ${searchMiles.max} miles.` }),
  zip: z.string().optional().meta({ description: "A 5-digit US ZIP code." }),
});

/** GET /search/: the venues found, nearest first. */
export const locationSearchSchema = z.object({
  success: z.literal(true),
  locations: z.array(locationHitSchema).max(searchLimit),
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

// ---------------------------------------------------------------- the calls

const noProfile = { description: "no_profile: the user has no profile yet.", schema: apiErrorSchema };
const followRefused = (what: string) => ({
  400: { description: "invalid_request: the parameter is missing, blank or repeated.", schema: apiErrorSchema },
  403: { description: `forbidden: ${what}.`, schema: apiErrorSchema },
  404: { description: "not_found or no_profile: no such relation, or the caller has no profile.", schema: apiErrorSchema },
});
const resultNotFound = { description: "not_found or no_profile: no such result of this user.", schema: resultRefusalSchema };
const badQuery = { description: "invalid_request: the parameter is missing or repeated.", schema: apiErrorSchema };
const linkRefusals = {
  400: { description: "link_invalid or criteria (ResultRefusal); a malformed query or body (ApiError invalid_request).", schema: z.union([resultRefusalSchema, apiErrorSchema]) },
  404: { description: "no_profile: the user has no profile to match the result to.", schema: resultRefusalSchema },
  413: { description: "too_large: the document at the link is over 10 MiB.", schema: resultRefusalSchema },
  422: { description: "The link or what the lab's site answered was refused (reason says why; consumerMessage what to do); or the document, as an upload's.", schema: resultRefusalSchema },
  503: { description: "busy: too many uploads at once; try again in a minute.", schema: resultRefusalSchema },
};
const notReviewer = { description: "forbidden: the caller is not one of the provider's dispute reviewers.", schema: apiErrorSchema };
const notReviewerOrOwn = { description: "forbidden: the caller is not one of the provider's dispute reviewers, or the result is the caller's own (a reviewer never decides a dispute of their own results).", schema: apiErrorSchema };

/**
 * Every call of the consumer API, by the name the client uses: method, path (docs/product/calls.md §7),
 * request schema, answer schema and the error answers a client reads. All need a user's token.
 */
export const consumerCalls = {
  getProfile: {
    method: "GET",
    path: "/consumer",
    summary: "The signed-in user's profile, or null when they have none.",
    auth: "userToken",
    answer: consumerSchema.nullable(),
  },
  createProfile: {
    method: "POST",
    path: "/consumer/createprofile",
    summary: "Creates the signed-in user's profile with a new product ID (docs/product/data.md §5 profile rules, §6 minimum age).",
    auth: "userToken",
    json: createProfileRequestSchema,
    answer: writeAnswerSchema,
    errorAnswers: {
      400: { description: "A profile rule failed (ProfileRefusal), or the body is malformed (ApiError invalid_request).", schema: z.union([profileRefusalSchema, apiErrorSchema]) },
      409: { description: "The user already has a profile.", schema: profileRefusalSchema },
    },
  },
  modifyCore: {
    method: "POST",
    path: "/consumer/modifycore/",
    summary: "Saves the signed-in user's name, date of birth and postal code.",
    auth: "userToken",
    form: modifyCoreFormSchema,
    answer: writeAnswerSchema,
    errorAnswers: {
      400: { description: "A profile rule failed (ProfileRefusal), or the form is malformed (ApiError invalid_request).", schema: z.union([profileRefusalSchema, apiErrorSchema]) },
      403: { description: "forbidden: identityUserId is not the signed-in user.", schema: apiErrorSchema },
      404: noProfile,
    },
  },
  getPermissions: {
    method: "GET",
    path: "/consumer/getpermissions",
    summary: "The screens the signed-in user may use (docs/product/data.md §6).",
    auth: "userToken",
    answer: permissionsSchema,
  },
  getSafeWindow: {
    method: "GET",
    path: "/consumer/getsafewindow",
    summary: "The signed-in user's safe window card (docs/product/data.md §4 Safe window).",
    auth: "userToken",
    answer: safeWindowSchema,
    errorAnswers: { 404: noProfile },
  },
  deleteProfile: {
    method: "POST",
    path: "/consumer/deleteprofile",
    summary:
      "Extension (the person's own data): deletes everything the API keeps about the signed-in user: the profile, results, images, PDFs, checks, disputes, follow relations on both sides. Idempotent.",
    auth: "userToken",
    extension: "data",
    answer: successSchema,
  },
  issuePass: {
    method: "POST",
    path: "/consumer/pass",
    summary:
      "Extension (the SafeWindow Pass, docs/product/pass.md §11): signs a fresh pass of the signed-in user's open window, for the checker at `issuer`.",
    auth: "userToken",
    extension: "pass",
    json: passRequestSchema,
    answer: passAnswerSchema,
    errorAnswers: {
      404: noProfile,
      409: { description: "no_window: the user's safe window is not open now, so no pass can be issued.", schema: apiErrorSchema },
    },
  },
  passKeys: {
    method: "GET",
    path: "/consumer/passkeys",
    summary: "Extension (the SafeWindow Pass): the public keys that check passes, a JWK Set; open to anyone, cacheable for 60 s.",
    auth: "none",
    extension: "pass",
    answer: passKeySetSchema,
  },
  exportData: {
    method: "GET",
    path: "/consumer/export",
    summary: "Extension (the person's own data): everything the API keeps about the signed-in user, as JSON; the images and original PDFs by getImage and getPdf.",
    auth: "userToken",
    extension: "data",
    answer: dataExportSchema,
  },
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
  searchLocations: {
    method: "GET",
    path: "/search/",
    summary: `Venues within \`miles\` of a US ZIP code's centre or of a point, nearest first, at most ${searchLimit}, each with its distance (docs/venues.md).`,
    auth: "userToken",
    query: locationSearchQuerySchema,
    answer: locationSearchSchema,
    errorAnswers: {
      400: { description: "invalid_request (miles missing or out of range, no zip and no complete point, a parameter repeated) or unknown_postal_code.", schema: apiErrorSchema },
      403: { description: "insufficient_scope: the business API refused the caller's token (it needs business.api).", schema: apiErrorSchema },
      404: { description: "no_venues: this consumer API runs without a business API.", schema: apiErrorSchema },
      503: { description: "temporarily_unavailable: the business API, which keeps the venues, cannot be asked; Retry-After 5.", schema: apiErrorSchema },
    },
  },
  getCurrentUserVisits: {
    method: "GET",
    path: "/locationvisit/getcurrentuservisits/",
    summary: "Every check made on the signed-in user at a venue, newest first (at most 200), with whether they were checked in and their rating.",
    auth: "userToken",
    answer: z.array(visitSchema),
    errorAnswers: { 404: noProfile },
  },
  setRating: {
    method: "POST",
    path: "/locationvisit/setrating/",
    summary: "Rates one of the signed-in user's own visits, 1 to 5 (again to change it).",
    auth: "userToken",
    json: setRatingRequestSchema,
    answer: visitSchema,
    errorAnswers: {
      400: { description: "invalid_request: no visit id, or a rating that is not 1 to 5.", schema: apiErrorSchema },
      404: { description: "not_found or no_profile: no such visit of this user.", schema: apiErrorSchema },
      409: { description: "not_checked_in: the check did not end in a check-in.", schema: apiErrorSchema },
    },
  },
  issueCheckinCode: {
    method: "POST",
    path: "/checkin/issuecode/",
    summary: `Extension (venues): a check-in code for the signed-in user to show a venue: 6 characters, one use, ${checkinCodeSeconds} s; an older code stops working.`,
    auth: "userToken",
    extension: "venues",
    answer: checkinCodeSchema,
    errorAnswers: { 404: noProfile },
  },
  redeemCheckinCode: {
    method: "POST",
    path: "/checkin/redeemcode/",
    summary: "Extension (venues): a location administrator enters a visitor's code at a location: the visitor's name and window, recorded as a check. The code is used up.",
    auth: "userToken",
    extension: "venues",
    json: redeemCodeRequestSchema,
    answer: checkSchema,
    errorAnswers: {
      400: { description: "invalid_request: no code or location.", schema: apiErrorSchema },
      403: { description: "not_location_administrator: the caller does not administer this location (the business API says); insufficient_scope: the business API refused the caller's token.", schema: apiErrorSchema },
      404: { description: "code_not_found: no such code; no_venues: this consumer API runs without a business API.", schema: apiErrorSchema },
      409: { description: "code_expired or code_used: the code is too old, was replaced by a newer one, or was entered already.", schema: apiErrorSchema },
      429: {
        description:
          "too_many_attempts: too many codes that do not exist in this 10-minute window: 10 by this caller, 20 at this location or 40 at this hospitality group's locations (error_description says which). The Retry-After header gives the seconds until the window ends (1 to 600).",
        schema: apiErrorSchema,
      },
      503: { description: "temporarily_unavailable: the business API cannot be asked; Retry-After 5.", schema: apiErrorSchema },
    },
  },
  checkIn: {
    method: "POST",
    path: "/checkin/checkin/",
    summary: "Extension (venues): checks in the visitor of a check the caller made (again: answered as it is).",
    auth: "userToken",
    extension: "venues",
    json: checkInRequestSchema,
    answer: checkSchema,
    errorAnswers: {
      400: { description: "invalid_request: no visit id.", schema: apiErrorSchema },
      404: { description: "not_found: no check of this caller with that id.", schema: apiErrorSchema },
    },
  },
  getCurrentUserTestResults: {
    method: "GET",
    path: "/testresult/getcurrentusertestresults/",
    summary: "The signed-in user's test results, newest collection first.",
    auth: "userToken",
    answer: z.array(testResultSchema),
  },
  testResultPropertyValues: {
    method: "GET",
    path: "/testresult/testresultpropertyvalues/",
    summary: "A result's checked fields (first name, last name, date of birth) and what differed.",
    auth: "userToken",
    query: propertyValuesQuerySchema,
    answer: z.array(propertyValueSchema),
    errorAnswers: { 400: badQuery, 404: resultNotFound },
  },
  getImage: {
    method: "GET",
    path: "/testresult/getimage/",
    summary: "Page 1 of a result's PDF (or the `page` asked for, an extension) as a base64 JPEG (no `data:` prefix) that fits 1250x1000.",
    auth: "userToken",
    query: imageQuerySchema,
    answer: z.base64().meta({ description: "A JPEG, base64." }),
    errorAnswers: {
      400: badQuery,
      404: { description: "not_found, no_profile or page_not_found: no such result of this user, or no such page of it.", schema: resultRefusalSchema },
    },
  },
  getPdf: {
    method: "GET",
    path: "/testresult/getpdf/",
    summary: "Extension (the person's own data): the original PDF of one of the user's results, exactly as uploaded, base64.",
    auth: "userToken",
    extension: "data",
    query: pdfQuerySchema,
    answer: z.base64().meta({ description: "The PDF, base64." }),
    errorAnswers: {
      400: badQuery,
      404: { description: "not_found or no_profile: no such result of this user, or its PDF is not kept (a result stored before PDFs were kept).", schema: resultRefusalSchema },
    },
  },
  addTestResultMultipart: {
    method: "POST",
    path: "/testresult/addtestresultmultipart/",
    summary: "Uploads a test result PDF: checked, read, matched to the profile and stored (docs/architecture/results-pipeline.md §5).",
    auth: "userToken",
    multipart: uploadRequestSchema,
    answer: uploadAnswerSchema,
    errorAnswers: {
      400: { description: "no_file: no file in multipartData, not multipart, or malformed.", schema: resultRefusalSchema },
      404: { description: "no_profile: the user has no profile to match the result to.", schema: resultRefusalSchema },
      413: { description: "too_large: the file is over 10 MiB.", schema: resultRefusalSchema },
      422: { description: "The file was refused (reason says why; consumerMessage what to do).", schema: resultRefusalSchema },
      503: { description: "busy: too many uploads at once; try again in a minute.", schema: resultRefusalSchema },
    },
  },
  addTestResultUrl: {
    method: "GET",
    path: "/testresult/addtestresulturl/",
    summary: "Adds a test result by the lab's own link: fetched on the server from the lab's declared host, then checked like an upload (docs/product/labs.md §10.8).",
    auth: "userToken",
    query: resultLinkQuerySchema,
    answer: uploadAnswerSchema,
    errorAnswers: linkRefusals,
  },
  addTestResultLink: {
    method: "POST",
    path: "/testresult/addtestresultlink/",
    summary: "As addTestResultUrl, reading each field after the label its criterion names (checked against the lab's layout).",
    auth: "userToken",
    json: resultLinkRequestSchema,
    answer: uploadAnswerSchema,
    errorAnswers: linkRefusals,
  },
  generateTestResultTextObjectsUrl: {
    method: "GET",
    path: "/testresult/generatetestresulttextobjectsurl/",
    summary: "The text objects of the document at a lab's link (page 1 of a PDF, or an HTML result page): the material criteria are chosen from. Nothing is stored.",
    auth: "userToken",
    query: resultLinkQuerySchema,
    answer: textObjectsAnswerSchema,
    errorAnswers: linkRefusals,
  },
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

export type ConsumerCallName = keyof typeof consumerCalls;
