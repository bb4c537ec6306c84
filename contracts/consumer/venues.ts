/**
 * The venue calls of the consumer API (docs/venues.md "Check-in"): the search for venues (asked of
 * the business API), check-in codes and checks, and the person's visits and their ratings.
 *
 * Part of the consumer API's contract (contracts/consumer.ts, which lists every call in one
 * `consumerCalls`); imported by Node's type stripping too: explicit `.ts` extensions only.
 */
import { z } from "zod";
import { locationHitSchema, searchLimit, searchMiles } from "../business.ts";
import type { CallContracts } from "../call.ts";
import { apiErrorSchema, id, instant, noProfile, safetyDate } from "./fields.ts";

/** How long a check-in code serves, in seconds (docs/venues.md "Check-in"). */
export const checkinCodeSeconds = 120;
/** The same, in minutes: what the pages say (the hints of /safewindow and /checkin, the privacy page). */
export const checkinCodeMinutes = checkinCodeSeconds / 60;
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

/** The venue calls, in the order of `consumerCalls`. */
export const venueCalls = {
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
} as const satisfies CallContracts;
