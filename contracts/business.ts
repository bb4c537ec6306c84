/**
 * The business API's contract (docs/product/calls.md §7.3; docs/venues.md): every call's request, as the
 * reference service (services/business/) reads it, and its answers, as the service sends them and
 * the app's client (app/server/upstream/business.server.ts) reads them. docs/product/calls.md §7 gives the
 * business calls' names and no payload shapes; the shapes here are ours, in the consumer API's
 * .NET camelCase. docs/openapi/business.json is generated from this module (`npm run openapi`).
 *
 * The entities (docs/venues.md "The business side"):
 * - a **hospitality group**: a business that runs venues (name, address, phone), created with its
 *   first subscription by whoever subscribes, who becomes its licensed administrator;
 * - its **locations** (the venues): name, address, city, state, postal code, phone and a position;
 * - an **application** (this product, by name) and its **application roles**: `Licensed
 *   Administrator` of a whole group, `Location Administrator` of one location;
 * - **user role locations**: a role given to a person, named by e-mail address, in a group and
 *   (for a location role) at one location. A person holds it once signed in with that address
 *   confirmed (the token's `email_verified`);
 * - a **subscription** of a group (a plan, a status) with its **invoices** (records with states:
 *   no payment provider is called), and the group's **billing details**.
 *
 * Every call needs a user's bearer token with the `business.api` audience: 401 `invalid_token`,
 * 403 `insufficient_scope`, 503 `temporarily_unavailable` (the identity authority could not be
 * asked) answer `ApiError`. A call about a group the caller has no role in answers 404
 * `not_found`, as for a group that does not exist, so that ids cannot be probed; a caller with
 * a role too small for the call gets 403 `forbidden`.
 *
 * docs/product/calls.md §7.3 names every call here but two, marked as extensions (contracts/extension.ts):
 * deleteuserinfo (the person's own data) and /location/search/ (venues; kept in plain mode,
 * because the consumer API's GET /search/ asks it). Their shapes being ours, no field is marked.
 *
 * Imported by Node's type stripping too (server.ts, `npm run openapi`): explicit `.ts` extensions only.
 */
import { z } from "zod";
import type { CallContracts } from "./call.ts";
import { noControlCharacters } from "./rules.ts";

// ---------------------------------------------------------------- constants

/** docs/venues.md: the application this product is, by the name GET /application/getbyname finds. */
export const applicationName = "SafeWindow";

/** The application roles, by name (docs/venues.md "The business side"). */
export const roleNames = { licensedAdministrator: "Licensed Administrator", locationAdministrator: "Location Administrator" } as const;

/** What a role covers: the whole hospitality group, or one location of it. */
export const roleScopes = ["hospitalityGroup", "location"] as const;

/** The plans a subscription may have, and their price per period in US cents (docs/venues.md "Subscriptions"). */
export const plans = {
  monthly: { priceCents: 4900, months: 1 },
  annual: { priceCents: 49_000, months: 12 },
} as const;
export const planNames = ["monthly", "annual"] as const;

/**
 * A subscription's states: `active`; `past_due` while an invoice failed (an invoice retry that
 * succeeds makes it active again); `paused` and back by updatestatus; `canceled`, final.
 */
export const subscriptionStatuses = ["active", "past_due", "paused", "canceled"] as const;
/** The states updatestatus may set (past_due is the invoices' doing). */
export const settableSubscriptionStatuses = ["active", "paused", "canceled"] as const;

/** An invoice's states: `paid`, `failed` (a retry may pay it), `void` (its subscription was canceled unpaid). */
export const invoiceStatuses = ["paid", "failed", "void"] as const;

/** The US state and territory codes a location's state may be (USPS two-letter codes). */
export const usStates = [
  "AK", "AL", "AR", "AZ", "CA", "CO", "CT", "DC", "DE", "FL", "GA", "HI", "IA", "ID", "IL", "IN", "KS", "KY", "LA", "MA", "MD", "ME",
  "MI", "MN", "MO", "MS", "MT", "NC", "ND", "NE", "NH", "NJ", "NM", "NV", "NY", "OH", "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX",
  "UT", "VA", "VT", "WA", "WI", "WV", "WY", "AS", "GU", "MP", "PR", "VI",
] as const;

// ---------------------------------------------------------------- fields

const id = (what: string) => z.string().min(1).max(64).meta({ description: `${what} (a uuid; opaque to clients).` });
const instant = z.iso.datetime({ offset: true });
/** One line of text a person typed: trimmed, 1-200 characters, no control characters. */
const line = (what: string, max = 200) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .regex(noControlCharacters, "must not contain control characters")
    .meta({ description: `${what} (1-${max} characters, one line).` });
/** docs/product/data.md §5: a phone is stored as 10 digits. */
const phone = z.string().regex(/^\d{10}$/, "must be 10 digits").meta({ description: "A US phone number as 10 digits (docs/product/data.md §5)." });
const postalCode = z.string().regex(/^\d{5}$/, "must be a 5-digit US ZIP code").meta({ description: "A 5-digit US ZIP code." });
const state = z.enum(usStates).meta({ description: "A USPS two-letter state code." });
const latitude = z.number().min(-90).max(90);
const longitude = z.number().min(-180).max(180);
const email = z.email().max(320).meta({ description: "An e-mail address (compared without regard to case)." });
const cents = z.int().nonnegative().meta({ description: "US cents." });

// ---------------------------------------------------------------- answers

export const apiErrorSchema = z
  .object({
    success: z.literal(false).optional(),
    error: z.string().meta({
      description:
        "Stable code: invalid_request, invalid_token, insufficient_scope, forbidden, not_found, email_unverified, duplicate, last_administrator, unknown_postal_code, invalid_transition, temporarily_unavailable, server_error.",
    }),
    error_description: z.string().meta({ description: "Plain English." }),
  })
  .meta({ description: "An error: a code and a sentence." });
export type ApiError = z.infer<typeof apiErrorSchema>;

export const successSchema = z.object({ success: z.literal(true) });

/** GET getuserinfo: the business side's record of the signed-in person; null fields until saved. */
export const userInfoSchema = z
  .object({
    identityUserId: z.string().meta({ description: "The identity authority's user id (the token's `sub`)." }),
    userName: z.string().nullable().meta({ description: "The e-mail address the token carries (docs/product/calls.md §7: get user info returns userName)." }),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    mobileNumber: z.string().nullable().meta({ description: "10 digits, or null." }),
  })
  .meta({ description: "A business user's info." });
export type UserInfo = z.infer<typeof userInfoSchema>;

/** A location (a venue) of a hospitality group. */
export const locationSchema = z
  .object({
    locationId: id("The location's id"),
    hospitalityGroupId: id("Its hospitality group's id"),
    name: z.string(),
    address: z.string(),
    city: z.string(),
    state: z.string(),
    postalCode: z.string(),
    phone: z.string().meta({ description: "10 digits." }),
    latitude: z.number(),
    longitude: z.number(),
  })
  .meta({ description: "A location (venue)." });
export type Location = z.infer<typeof locationSchema>;

/** A location found by a search, with its distance from the point searched. */
export const locationHitSchema = locationSchema
  .extend({ distanceMiles: z.number().nonnegative().meta({ description: "Miles from the point searched (great circle), to 0.1 mile." }) })
  .meta({ description: "A location near a point." });
export type LocationHit = z.infer<typeof locationHitSchema>;

/** How far a search reaches, in miles. */
export const searchMiles = { min: 1, max: 100 } as const;
/** How many locations a search answers at most, nearest first. */
export const searchLimit = 50;

/** A hospitality group with its locations (by name). */
export const hospitalityGroupSchema = z
  .object({
    hospitalityGroupId: id("The group's id"),
    name: z.string().meta({ description: "The business name." }),
    address: z.string(),
    city: z.string(),
    state: z.string(),
    postalCode: z.string(),
    phone: z.string(),
    locations: z.array(locationSchema),
  })
  .meta({ description: "A hospitality group." });
export type HospitalityGroup = z.infer<typeof hospitalityGroupSchema>;

export const applicationSchema = z.object({
  applicationId: id("The application's id"),
  name: z.string(),
  description: z.string(),
});
export type Application = z.infer<typeof applicationSchema>;

export const applicationRoleSchema = z
  .object({
    applicationRoleId: id("The role's id"),
    name: z.string(),
    scope: z.enum(roleScopes).meta({ description: "hospitalityGroup: the whole group; location: one location." }),
  })
  .meta({ description: "An application role." });
export type ApplicationRole = z.infer<typeof applicationRoleSchema>;

/** One role given to one person in a group (and at one location for a location role). */
export const userRoleLocationSchema = z
  .object({
    applicationUserRoleLocationId: id("The assignment's id"),
    hospitalityGroupId: id("The group's id"),
    email: z.string().meta({ description: "Who holds the role: the e-mail address it was given to, lower case." }),
    firstName: z.string().nullable().meta({ description: "From the holder's user info, once they have signed in and saved it." }),
    lastName: z.string().nullable(),
    applicationRoleId: id("The role's id"),
    roleName: z.string(),
    locationId: z.string().nullable().meta({ description: "The location of a location role; null for a group role." }),
    locationName: z.string().nullable(),
    createdAt: instant,
  })
  .meta({ description: "A user role location." });
export type UserRoleLocation = z.infer<typeof userRoleLocationSchema>;

/** The location administrator check: whether the caller administers a location, and which ones. */
export const locationAdministratorSchema = z.object({
  isLocationAdministrator: z.boolean(),
  locations: z.array(locationSchema).meta({ description: "Every location the caller may check visitors in at (a licensed administrator: all of the group's), by name." }),
});
export type LocationAdministrator = z.infer<typeof locationAdministratorSchema>;

export const licensedAdministratorSchema = z.object({
  isLicensedAdministrator: z.boolean(),
  hospitalityGroupIds: z.array(z.string()).meta({ description: "The groups the caller is a licensed administrator of." }),
});
export type LicensedAdministrator = z.infer<typeof licensedAdministratorSchema>;

export const invoiceSchema = z
  .object({
    invoiceId: id("The invoice's id"),
    subscriptionId: id("Its subscription's id"),
    amountCents: cents,
    status: z.enum(invoiceStatuses),
    attempts: z.int().nonnegative().meta({ description: "Charges tried, the first one included." }),
    periodStart: instant,
    periodEnd: instant,
    createdAt: instant,
    paidAt: instant.nullable(),
  })
  .meta({ description: "An invoice (a record; no payment provider is called)." });
export type Invoice = z.infer<typeof invoiceSchema>;

export const subscriptionSchema = z
  .object({
    subscriptionId: id("The subscription's id"),
    hospitalityGroupId: id("Its group's id"),
    plan: z.enum(planNames),
    status: z.enum(subscriptionStatuses),
    currentPeriodEnd: instant,
    createdAt: instant,
    updatedAt: instant,
  })
  .meta({ description: "A subscription of a hospitality group." });
export type Subscription = z.infer<typeof subscriptionSchema>;

export const billingDetailsSchema = z
  .object({
    hospitalityGroupId: id("The group's id"),
    billingName: z.string(),
    billingEmail: z.string(),
    address: z.string(),
    city: z.string(),
    state: z.string(),
    postalCode: z.string(),
    subscription: subscriptionSchema.nullable().meta({ description: "The group's latest subscription." }),
    invoices: z.array(invoiceSchema).meta({ description: "Newest first, at most 24." }),
  })
  .meta({ description: "A group's billing details." });
export type BillingDetails = z.infer<typeof billingDetailsSchema>;

// ---------------------------------------------------------------- requests

/** The fields a location is built from; the position is the ZIP code's centre when not given. */
export const locationFieldsSchema = z.object({
  name: line("The location's name"),
  address: line("Street address"),
  city: line("City", 100),
  state,
  postalCode,
  phone,
  latitude: latitude.optional(),
  longitude: longitude.optional(),
});
export type LocationFields = z.infer<typeof locationFieldsSchema>;

export const saveUserInfoPartialRequestSchema = z
  .object({
    firstName: line("First name", 100).optional(),
    lastName: line("Last name", 100).optional(),
    mobileNumber: phone.optional(),
  })
  .refine((body) => Object.keys(body).length > 0, "Name at least one field to save.");

export const createSubscriptionRequestSchema = z.object({
  businessName: line("The business name"),
  address: line("Street address"),
  city: line("City", 100),
  state,
  postalCode,
  phone,
  plan: z.enum(planNames),
});

export type NewSubscriptionRequest = z.infer<typeof createSubscriptionRequestSchema>;

export const updateStatusRequestSchema = z.object({
  subscriptionId: id("The subscription's id"),
  status: z.enum(settableSubscriptionStatuses),
});

export const retryInvoiceRequestSchema = z.object({ invoiceId: id("The failed invoice's id") });

export const buildAndCreateRequestSchema = z
  .object({
    hospitalityGroupId: id("The group's id"),
    applicationRoleId: id("The role to give"),
    email,
    locationId: id("An existing location of the group, for a location role").optional(),
    location: locationFieldsSchema.optional().meta({ description: "A new location to build, for a location role." }),
  })
  .refine((body) => !(body.locationId !== undefined && body.location !== undefined), "Give locationId or location, not both.");

export type BuildAndCreateRequest = z.infer<typeof buildAndCreateRequestSchema>;

export const updateRoleLocationRequestSchema = z
  .object({
    applicationUserRoleLocationId: id("The assignment's id"),
    applicationRoleId: id("The new role").optional(),
    locationId: id("The new location, for a location role").optional(),
    location: locationFieldsSchema.partial().optional().meta({ description: "Changes to the assignment's location's fields." }),
  })
  .refine((body) => body.applicationRoleId !== undefined || body.locationId !== undefined || body.location !== undefined, "Name something to change.");

export type UpdateRoleLocationRequest = z.infer<typeof updateRoleLocationRequestSchema>;
export type SaveUserInfoPartialRequest = z.infer<typeof saveUserInfoPartialRequestSchema>;

export const deleteRoleLocationRequestSchema = z.object({ applicationUserRoleLocationId: id("The assignment's id") });

const groupQuery = z.object({ hospitalityGroupId: id("The group's id") });

/** A coordinate or a radius as query text: up to 3 digits, up to 10 decimals, e.g. "-122.33" (the consumer API reads its /search/ query with it too). */
export const decimalText = /^-?\d{1,3}(\.\d{1,10})?$/;

/** A number in a query parameter (text), e.g. "47.61". */
const queryNumber = (what: string, min: number, max: number) =>
  z
    .string()
    .regex(decimalText, `${what} must be a number`)
    .transform(Number)
    .pipe(z.number().min(min).max(max))
    .meta({ description: `${what}, ${min} to ${max}.` });

export const locationSearchQuerySchema = z.object({
  latitude: queryNumber("latitude", -90, 90),
  longitude: queryNumber("longitude", -180, 180),
  miles: queryNumber("miles", searchMiles.min, searchMiles.max),
});

// ---------------------------------------------------------------- calls

const badRequest = { description: "invalid_request: a parameter is missing, repeated or invalid.", schema: apiErrorSchema };
const noGroup = { description: "not_found: no such group, or the caller has no role in it.", schema: apiErrorSchema };
const notLicensed = { description: "forbidden: the caller is not a licensed administrator of the group.", schema: apiErrorSchema };

/** Every call of the business API, by the name the client uses. All need a user's token (audience business.api). */
export const businessCalls = {
  getUserInfo: {
    method: "GET",
    path: "/applicationsecurity/getuserinfo/",
    summary: "The signed-in person's business user info (user name from the token; names and mobile number once saved).",
    auth: "userToken",
    answer: userInfoSchema,
  },
  saveUserInfoPartial: {
    method: "POST",
    path: "/applicationsecurity/saveuserinfopartial/",
    summary: "Saves the fields given of the signed-in person's user info; the others stay as they are.",
    auth: "userToken",
    json: saveUserInfoPartialRequestSchema,
    answer: userInfoSchema,
    errorAnswers: { 400: badRequest },
  },
  deleteUserInfo: {
    method: "POST",
    path: "/applicationsecurity/deleteuserinfo/",
    summary:
      "Extension (the person's own data): forgets the signed-in person's business user info (names, mobile number, the e-mail seen). Roles given to their address stay: they are the group's records, for its administrators to take back. Idempotent.",
    auth: "userToken",
    extension: "data",
    answer: successSchema,
  },
  isUserLicensedAdministrator: {
    method: "GET",
    path: "/applicationsecurity/isuserlicensedadministrator/",
    summary: "Whether the signed-in person is a licensed administrator of a hospitality group, and of which.",
    auth: "userToken",
    answer: licensedAdministratorSchema,
  },
  isUserLocationAdministrator: {
    method: "GET",
    path: "/applicationsecurity/isuserlocationadministrator/",
    summary: "Whether the signed-in person administers a location (a location administrator there, or a licensed administrator of its group), and which.",
    auth: "userToken",
    query: z.object({ locationId: id("Ask about this location only").optional() }),
    answer: locationAdministratorSchema,
    errorAnswers: { 400: badRequest },
  },
  getHospitalityGroup: {
    method: "GET",
    path: "/hospitalitygroup/",
    summary: "A hospitality group with its locations; for anyone with a role in it.",
    auth: "userToken",
    query: groupQuery,
    answer: hospitalityGroupSchema,
    errorAnswers: { 400: badRequest, 404: noGroup },
  },
  getAdministratorHospitalityGroups: {
    method: "GET",
    path: "/hospitalitygroup/getadministratorhospitalitygroups/",
    summary: "The groups the signed-in person is a licensed administrator of, by name, with their locations.",
    auth: "userToken",
    answer: z.array(hospitalityGroupSchema),
  },
  getUsersAndRoles: {
    method: "GET",
    path: "/hospitalitygroup/getusersandroles/",
    summary: "Every role given in a group, by e-mail then role; for its licensed administrators.",
    auth: "userToken",
    query: groupQuery,
    answer: z.array(userRoleLocationSchema),
    errorAnswers: { 400: badRequest, 403: notLicensed, 404: noGroup },
  },
  getApplicationByName: {
    method: "GET",
    path: "/application/getbyname",
    summary: "An application by its name (exact, case-insensitive).",
    auth: "userToken",
    query: z.object({ applicationName: line("The application's name") }),
    answer: applicationSchema,
    errorAnswers: { 400: badRequest, 404: { description: "not_found: no application of that name.", schema: apiErrorSchema } },
  },
  getApplicationRoles: {
    method: "GET",
    path: "/application/getapplicationroles/",
    summary: "The roles of an application.",
    auth: "userToken",
    query: z.object({ applicationId: id("The application's id") }),
    answer: z.array(applicationRoleSchema),
    errorAnswers: { 400: badRequest, 404: { description: "not_found: no such application.", schema: apiErrorSchema } },
  },
  buildAndCreateRoleLocation: {
    method: "POST",
    path: "/applicationuserrolelocation/buildandcreate/",
    summary:
      "Gives a role to a person (by e-mail) in a group; for a location role, at an existing location (locationId) or at a new one built from `location`. Licensed administrators only.",
    auth: "userToken",
    json: buildAndCreateRequestSchema,
    answer: userRoleLocationSchema,
    errorAnswers: {
      400: { description: "invalid_request (a location role without a location, a group role with one), or unknown_postal_code.", schema: apiErrorSchema },
      403: notLicensed,
      404: { description: "not_found: no such group, role or location of the group.", schema: apiErrorSchema },
      409: { description: "duplicate: the person already holds this role there.", schema: apiErrorSchema },
    },
  },
  updateRoleLocation: {
    method: "POST",
    path: "/applicationuserrolelocation/update/",
    summary: "Changes an assignment's role or location, or its location's fields. Licensed administrators of its group only.",
    auth: "userToken",
    json: updateRoleLocationRequestSchema,
    answer: userRoleLocationSchema,
    errorAnswers: {
      400: { description: "invalid_request or unknown_postal_code.", schema: apiErrorSchema },
      403: notLicensed,
      404: { description: "not_found: no such assignment, role or location in a group the caller administers.", schema: apiErrorSchema },
      409: { description: "duplicate (the person holds the new role there already), or last_administrator (the group's only licensed administrator).", schema: apiErrorSchema },
    },
  },
  deleteRoleLocation: {
    method: "POST",
    path: "/applicationuserrolelocation/delete/",
    summary: "Takes a role back. Licensed administrators of its group only; the last licensed administrator stays.",
    auth: "userToken",
    json: deleteRoleLocationRequestSchema,
    answer: successSchema,
    errorAnswers: {
      400: badRequest,
      403: notLicensed,
      404: { description: "not_found: no such assignment in a group the caller has a role in.", schema: apiErrorSchema },
      409: { description: "last_administrator: the group's only licensed administrator.", schema: apiErrorSchema },
    },
  },
  createSubscription: {
    method: "POST",
    path: "/subscription/create/",
    summary:
      "Subscribes a new hospitality group: the group, its subscription and its first invoice (paid), with the caller as its licensed administrator. Needs a confirmed e-mail address.",
    auth: "userToken",
    json: createSubscriptionRequestSchema,
    answer: z.object({ success: z.literal(true), hospitalityGroup: hospitalityGroupSchema, subscription: subscriptionSchema }),
    errorAnswers: {
      400: badRequest,
      403: { description: "email_unverified: the caller's e-mail address is not confirmed.", schema: apiErrorSchema },
    },
  },
  updateSubscriptionStatus: {
    method: "POST",
    path: "/subscription/updatestatus/",
    summary: "Pauses, resumes or cancels a subscription (canceling voids its failed invoices). Licensed administrators only.",
    auth: "userToken",
    json: updateStatusRequestSchema,
    answer: subscriptionSchema,
    errorAnswers: {
      400: badRequest,
      403: notLicensed,
      404: { description: "not_found: no such subscription of a group the caller has a role in.", schema: apiErrorSchema },
      409: { description: "invalid_transition: e.g. anything from canceled, or active while an invoice is unpaid.", schema: apiErrorSchema },
    },
  },
  retryInvoice: {
    method: "POST",
    path: "/subscription/retryinvoice/",
    summary: "Charges a failed invoice again: it is paid, and a past-due subscription with nothing else unpaid is active. A paid invoice is answered as it is (idempotent). Licensed administrators only.",
    auth: "userToken",
    json: retryInvoiceRequestSchema,
    answer: z.object({ invoice: invoiceSchema, subscription: subscriptionSchema }),
    errorAnswers: {
      400: badRequest,
      403: notLicensed,
      404: { description: "not_found: no such invoice of a group the caller has a role in.", schema: apiErrorSchema },
      409: { description: "invalid_transition: the invoice is void.", schema: apiErrorSchema },
    },
  },
  searchLocations: {
    method: "GET",
    path: "/location/search/",
    summary: `Extension (venues): every location within \`miles\` of a point, nearest first, at most ${searchLimit}; for any signed-in person (the consumer API's GET /search/ asks it).`,
    auth: "userToken",
    extension: "venues",
    keptWhenOff: "The consumer API's GET /search/ (docs/product/calls.md §7.2) asks it for the venues.",
    query: locationSearchQuerySchema,
    answer: z.array(locationHitSchema).max(searchLimit),
    errorAnswers: { 400: badRequest },
  },
  getBillingDetails: {
    method: "GET",
    path: "/subscription/getbillingdetails/",
    summary: "A group's billing contact and address, its subscription and its invoices. Licensed administrators only.",
    auth: "userToken",
    query: groupQuery,
    answer: billingDetailsSchema,
    errorAnswers: { 400: badRequest, 403: notLicensed, 404: noGroup },
  },
} as const satisfies CallContracts;

export type BusinessCallName = keyof typeof businessCalls;
