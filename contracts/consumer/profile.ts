/**
 * The profile calls of the consumer API (docs/product/calls.md §7.2): the profile, its screens
 * (permissions), the owner's safe window card, the profile writes and their refusals, and the
 * SafeWindow Pass.
 *
 * Part of the consumer API's contract (contracts/consumer.ts, which lists every call in one
 * `consumerCalls`); imported by Node's type stripping too: explicit `.ts` extensions only.
 */
import { z } from "zod";
import type { CallContracts } from "../call.ts";
import { extension, extensionValues } from "../extension.ts";
import { apiErrorSchema, calendarDate, id, noProfile, productId, safeWindowProofField, safetyDate, successSchema } from "./fields.ts";

/** docs/product/data.md §6 screens, as identifiers, in tab order: the ones a consumer's profile stores. */
export const profileScreenNames = ["SafeWindow", "MyTests", "MyFun", "Locations", "Friends", "Settings"] as const;

/**
 * Extension (dispute reviews): the screen of the provider's dispute reviewers, in enabledScreens only
 * for a reviewer (granted by the API's reviewer list, never stored with a profile).
 */
export const reviewScreenName = "DisputeReviews";

/** Every screen name enabledScreens may carry: docs/product/data.md §6's, then the extension. */
export const screenNames = [...profileScreenNames, reviewScreenName] as const;

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

/** The profile calls, in the order of `consumerCalls`. */
export const profileCalls = {
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
} as const satisfies CallContracts;
