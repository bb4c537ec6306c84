/**
 * The pieces every area of the consumer API's contract shares: the field shapes (ids, instants,
 * safety dates, the date of birth, the product ID), the error answer `ApiError`, the bare success
 * answer and the error answers several calls give.
 *
 * Part of the consumer API's contract (contracts/consumer.ts, which lists every call in one
 * `consumerCalls`); imported by Node's type stripping too: explicit `.ts` extensions only.
 */
import { z } from "zod";
import { extension } from "../extension.ts";

/** A non-empty id, described as `what` (a uuid; opaque to clients). */
export const id = (what: string) => z.string().min(1).meta({ description: `${what} (a uuid; opaque to clients).` });
/** An instant as ISO 8601 with its zone (the reference service answers UTC, `…Z`). */
export const instant = z.iso.datetime({ offset: true });
/** A safety date: the window lasts until then; null without a valid result (docs/product/data.md §4 Safe window). */
export const safetyDate = (strength: string) => instant.nullable().meta({ description: `ISO 8601 instant: the ${strength} window lasts until then; null without one.` });
/** A date of birth, `YYYY-MM-DD`. */
export const calendarDate = z.iso.date().meta({ description: "Date of birth, `YYYY-MM-DD`." });
/** The product ID (`safeWindowId`). */
export const productId = z.string().min(1).meta({ description: "The product ID (docs/product/data.md §3 `{product}Id`): 8 characters of Crockford base32." });
/** 0 or 1, described as `meaning` (the flags docs/product/data.md §3 writes as numbers). */
export const zeroOrOne = (meaning: string) => z.literal([0, 1]).meta({ description: meaning });

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

/** The answer of a change that returns nothing else: the follow changes and the dispute. */
export const successSchema = z.object({ success: z.literal(true) });

/** Extension (docs/product/labs.md §10.9): the proof of the result a window comes from, on the window and on each follow relation. */
export const safeWindowProofField = extension(
  z
    .string()
    .nullable()
    .optional()
    .meta({ description: "Extension (docs/product/labs.md §10.9): the proof of the result the window comes from, e.g. `signed (SMART Health Card, Harborview Labs)`, `fetched from the lab`, `document checks`; null without a window." }),
  "proof",
);

/** The 404 of a call that needs a profile. */
export const noProfile = { description: "no_profile: the user has no profile yet.", schema: apiErrorSchema };
/** The 400 of a call whose query parameter is missing or repeated. */
export const badQuery = { description: "invalid_request: the parameter is missing or repeated.", schema: apiErrorSchema };
