/**
 * The identity authority's contract (docs/product/calls.md §7.1): every call's request, as
 * the reference service (services/identity/) reads it, and its answers, as the service sends them
 * and the app's client (app/server/upstream/identity.server.ts) reads them. docs/openapi/identity.json
 * is generated from this module (`npm run openapi`).
 *
 * Answers follow ASP.NET Identity and OAuth 2.0: account changes answer `IdentityResult`
 * (`{succeeded, errors:[{code, description}]}`, docs/product/data.md §3 "Register"), refused with 400
 * and the same shape; the token endpoint answers RFC 6749 §5.1 / §5.2; a refused bearer token
 * answers 401 `invalid_token` or 403 `insufficient_scope` (RFC 6750 §3.1) as `ApiError`.
 *
 * Calls and fields beyond docs/product/calls.md §7 are marked with their extension group
 * (contracts/extension.ts): the account deletion and the invitation, the token answer's
 * `token_type` and `scope`, the user info's `id` and `emailConfirmed`, changeusername's
 * `requestedUri`.
 *
 * Imported by Node's type stripping too (`npm run openapi`): explicit `.ts` extensions only.
 */
import { z } from "zod";
import type { CallContracts } from "./call.ts";
import { extension } from "./extension.ts";

// ---------------------------------------------------------------- request fields

/** Text of at most `max` characters. */
const text = (max: number) => z.string().max(max);
/** An e-mail address as a request carries it: the service normalises and checks it (400 `InvalidEmail` when wrong). */
const email = text(1024).meta({ description: "E-mail address (the user name); trimmed and lower-cased by the service." });
const password = text(1024).meta({ description: "A password; new ones must meet docs/product/data.md §5 (checked by the service)." });
const mailToken = text(512).meta({ description: "The token from the link in the e-mail." });
const applicationContext = text(256).optional().meta({ description: "The calling application's name (the web app sends `SafeWindow`); not used." });
const requestedUri = text(2048)
  .optional()
  .meta({ description: "Absolute URL of the page the e-mail's link opens; `email` and `token` are added to its query." });

// ---------------------------------------------------------------- answers

/** One ASP.NET Identity error: a stable code (`DuplicateUserName`, `PasswordTooShort`, `InvalidToken`, ...) and a sentence. */
export const identityErrorSchema = z.object({
  code: z.string().meta({ description: "Stable code, e.g. DuplicateUserName, InvalidEmail, PasswordRequiresUpper, InvalidToken." }),
  description: z.string().meta({ description: "Plain English." }),
});
export type IdentityError = z.infer<typeof identityErrorSchema>;

/**
 * docs/product/data.md §3 "Register: succeeded, errors": the answer of every account change. 200 with
 * `succeeded: true` and no errors; 400 with `succeeded: false` and the rules that failed.
 */
export const identityResultSchema = z
  .object({
    succeeded: z.boolean(),
    errors: z.array(identityErrorSchema),
  })
  .meta({ description: "ASP.NET Identity's IdentityResult: succeeded, and the errors when it did not." });
export type IdentityResult = z.infer<typeof identityResultSchema>;

/** An account change refused by a rule: 400 `{succeeded: false, errors}`. */
export const identityRefusalSchema = z
  .object({
    succeeded: z.literal(false),
    errors: z.array(identityErrorSchema).min(1),
  })
  .meta({ description: "A refused account change: the rules that failed." });
export type IdentityRefusal = z.infer<typeof identityRefusalSchema>;

/**
 * Every other refusal (RFC 6749 §5.2, RFC 6750 §3.1): `invalid_request` (400, malformed input),
 * `invalid_token` (401), `insufficient_scope` (403), `not_found` (404), `payload_too_large` (413),
 * `mail_delivery_failed` (502), `server_error` (500).
 */
export const apiErrorSchema = z
  .object({
    error: z.string().meta({ description: "Stable code, e.g. invalid_request, invalid_token, insufficient_scope, mail_delivery_failed." }),
    error_description: z.string().meta({ description: "Plain English; never quotes a secret." }),
  })
  .meta({ description: "An OAuth-style error: a code and a sentence." });
export type ApiError = z.infer<typeof apiErrorSchema>;

/** RFC 6749 §5.1: a successful token answer. */
export const tokenAnswerSchema = z
  .object({
    access_token: z.string().min(1).meta({ description: "An RS256 JWT; send it as `Authorization: Bearer <token>`." }),
    token_type: extension(z.string().meta({ description: "`Bearer`." }), "oauth"),
    expires_in: z.number().int().positive().meta({ description: "Seconds until the token expires (3600)." }),
    scope: extension(z.string().optional().meta({ description: "The granted scopes, space-separated." }), "oauth"),
  })
  .meta({ description: "An access token (docs/product/data.md §3 Token: access_token, expires_in)." });

/**
 * RFC 6749 §5.2: a refused token request. 400 `invalid_request`, `invalid_grant` (wrong user name
 * or password), `unsupported_grant_type`, `invalid_scope`; 401 `invalid_client`; 429
 * `too_many_requests` (with Retry-After, seconds) after too many failed attempts.
 */
export const tokenErrorSchema = z
  .object({
    error: z.string().meta({ description: "invalid_request, invalid_client, invalid_grant, unsupported_grant_type, invalid_scope or too_many_requests." }),
    error_description: z.string().optional().meta({ description: "Plain English." }),
  })
  .meta({ description: "A refused token request (RFC 6749 §5.2)." });
export type TokenError = z.infer<typeof tokenErrorSchema>;

/** docs/product/data.md §3 "E-mail validation: available, valid". */
export const emailValidationSchema = z.object({
  available: z.boolean().meta({ description: "No account uses the address." }),
  valid: z.boolean().meta({ description: "The address is well formed." }),
});
export type EmailValidation = z.infer<typeof emailValidationSchema>;

/** docs/product/data.md §3 "User info from the identity service: userName (which is the e-mail)". */
export const userInfoSchema = z.object({
  id: extension(z.string().meta({ description: "The identity user id (the tokens' `sub`)." }), "account"),
  userName: z.string().meta({ description: "The e-mail address." }),
  emailConfirmed: extension(z.boolean(), "account"),
});
export type UserInfo = z.infer<typeof userInfoSchema>;

// ---------------------------------------------------------------- requests

/**
 * POST /connect/token as the service first reads it: a URL-encoded form whose every parameter
 * appears once, as text of at most 4096 characters (else 400 `invalid_request`).
 */
export const tokenFormSchema = z.record(z.string(), z.string().max(4096));

/** Client authentication in the form (client_secret_post); or HTTP Basic instead, never both (RFC 6749 §2.3.1). */
const clientFields = {
  client_id: z.string().max(4096).optional(),
  client_secret: z.string().max(4096).optional(),
};

/** The client-credentials grant: the app's own token for the client-token calls (scope `identity.api`). */
export const clientCredentialsGrantSchema = z.object({
  grant_type: z.literal("client_credentials"),
  scope: z.string().max(4096).optional().meta({ description: "Space-separated; default every client scope (identity.api)." }),
  ...clientFields,
});

/** The password grant: a user's token (scopes `openid profile consumer.api business.api identity.user`). 400 `invalid_request` without username or password. */
export const passwordGrantSchema = z.object({
  grant_type: z.literal("password"),
  username: z.string().min(1).max(4096).meta({ description: "The e-mail address." }),
  password: z.string().max(4096),
  scope: z.string().max(4096).optional().meta({ description: "Space-separated; default every user scope." }),
  ...clientFields,
});

/** docs/product/calls.md §7 POST /connect/token: either grant. */
export const tokenRequestSchema = z.discriminatedUnion("grant_type", [clientCredentialsGrantSchema, passwordGrantSchema]);

export const registerRequestSchema = z.object({ userName: email, password });
export const inviteRequestSchema = z.object({ userName: email });
/** Extension: POST /api/account/delete. */
export const deleteAccountRequestSchema = z.object({ password: password.meta({ description: "The account's current password." }) });
export const emailQuerySchema = z.object({ email });
export const mailLinkQuerySchema = z.object({ email, applicationContext, requestedUri });
export const confirmEmailQuerySchema = z.object({ email, token: mailToken });
export const changePasswordUsingTokenQuerySchema = z.object({ email, newPassword: password, token: mailToken });
export const confirmAccountQuerySchema = z.object({ email, password, token: mailToken });
export const changeUserNameQuerySchema = z.object({
  userName: email.meta({ description: "The new user name (e-mail address)." }),
  applicationContext,
  requestedUri: extension(requestedUri, "mail"),
});
export const changePasswordUsingCurrentQuerySchema = z.object({ currentPassword: password, newPassword: password, applicationContext });

// ---------------------------------------------------------------- the calls

const badInput = { description: "Malformed input (a missing or repeated parameter, wrong type, bad JSON).", schema: apiErrorSchema };
const accountRefused = {
  description: "A rule failed (`IdentityResult` with succeeded false), or the input is malformed (`ApiError` invalid_request).",
  schema: z.union([identityRefusalSchema, apiErrorSchema]),
};

/**
 * Every call of the identity authority, by the name the client uses: method, path (docs/product/calls.md
 * §7), who may call, request schema, answer schema and the error answers a client reads.
 * Not listed: discovery (/.well-known/openid-configuration), JWKS and /healthz, which only the
 * consumer API and operators read.
 */
export const identityCalls = {
  token: {
    method: "POST",
    path: "/connect/token",
    summary: "OAuth 2.0 token endpoint: the client-credentials grant or the password grant.",
    auth: "clientSecret",
    form: tokenRequestSchema,
    answer: tokenAnswerSchema,
    errorAnswers: {
      400: { description: "invalid_request, invalid_grant (wrong user name or password), unsupported_grant_type or invalid_scope.", schema: tokenErrorSchema },
      401: { description: "invalid_client: client authentication failed.", schema: tokenErrorSchema },
      429: { description: "too_many_requests: too many failed attempts for this address and user name; Retry-After says when to try again.", schema: tokenErrorSchema },
    },
  },
  register: {
    method: "POST",
    path: "/api/account/register",
    summary: "Registers a user with a password (docs/product/data.md §4 Registration).",
    auth: "clientToken",
    json: registerRequestSchema,
    answer: identityResultSchema,
    errorAnswers: { 400: accountRefused },
  },
  isAvailable: {
    method: "GET",
    path: "/api/account/isavailable",
    summary: "Whether no account uses the address.",
    auth: "clientToken",
    query: emailQuerySchema,
    answer: z.boolean(),
    errorAnswers: { 400: badInput },
  },
  sendConfirmationEmail: {
    method: "GET",
    path: "/api/account/sendconfirmationemail",
    summary: "Queues the e-mail-confirmation mail (nothing for an unknown or confirmed address) and answers true; the mail is sent after the answer.",
    auth: "clientToken",
    query: mailLinkQuerySchema,
    answer: z.boolean(),
    errorAnswers: { 400: badInput, 500: { description: "server_error: the mail could not be queued.", schema: apiErrorSchema } },
  },
  requestPasswordChange: {
    method: "GET",
    path: "/api/account/requestpasswordchange",
    summary: "Queues a password-reset mail; answers true for every address, known or not.",
    auth: "clientToken",
    query: mailLinkQuerySchema,
    answer: z.boolean(),
    errorAnswers: { 400: badInput },
  },
  changePasswordUsingToken: {
    method: "GET",
    path: "/api/account/changepasswordusingtoken",
    summary: "Sets a new password with the reset mail's token (docs/product/data.md §4 Password reset).",
    auth: "clientToken",
    query: changePasswordUsingTokenQuerySchema,
    answer: identityResultSchema,
    errorAnswers: { 400: accountRefused },
  },
  confirmAccount: {
    method: "GET",
    path: "/api/account/confirmaccount",
    summary: "Sets the password of an invited account with the invitation's token (docs/product/data.md §4 Account confirmation).",
    auth: "clientToken",
    query: confirmAccountQuerySchema,
    answer: identityResultSchema,
    errorAnswers: { 400: accountRefused },
  },
  confirmEmail: {
    method: "GET",
    path: "/api/account/confirmemail",
    summary: "Confirms the address with the confirmation mail's token.",
    auth: "clientToken",
    query: confirmEmailQuerySchema,
    answer: identityResultSchema,
    errorAnswers: { 400: accountRefused },
  },
  validateRequestedEmail: {
    method: "GET",
    path: "/api/account/validaterequestedemail",
    summary: "Whether an address is free and well formed (docs/product/data.md §5 New username).",
    auth: "clientToken",
    query: emailQuerySchema,
    answer: emailValidationSchema,
    errorAnswers: { 400: badInput },
  },
  invite: {
    method: "POST",
    path: "/api/account/invite",
    summary: "Extension (invite): creates an account without a password and mails the invitation (not called by the web app).",
    auth: "clientToken",
    extension: "invite",
    keptWhenOff: "The business side's way to make the account that /confirmaccount completes (docs/product/data.md §4 Account confirmation); the end-to-end tests use it.",
    json: inviteRequestSchema,
    answer: identityResultSchema,
    errorAnswers: { 400: accountRefused },
  },
  isEmailConfirmed: {
    method: "GET",
    path: "/api/account/isemailconfirmed",
    summary: "Whether the signed-in user's address is confirmed (docs/product/data.md §4 Registration, the confirmation poll).",
    auth: "userToken",
    answer: z.boolean(),
  },
  changeUserName: {
    method: "GET",
    path: "/api/account/changeusername",
    summary: "Changes the signed-in user's user name (e-mail address); false when it is taken or not an address.",
    auth: "userToken",
    query: changeUserNameQuerySchema,
    answer: z.boolean(),
    errorAnswers: { 400: badInput },
  },
  changePasswordUsingCurrent: {
    method: "GET",
    path: "/api/account/changepasswordusingcurrent",
    summary: "Changes the signed-in user's password; false when the current one is wrong or the new one breaks the rule.",
    auth: "userToken",
    query: changePasswordUsingCurrentQuerySchema,
    answer: z.boolean(),
    errorAnswers: { 400: badInput },
  },
  deleteAccount: {
    method: "POST",
    path: "/api/account/delete",
    summary:
      "Extension (the person's own data): deletes the signed-in user's account after checking the current password, and mails the address a confirmation; false for a wrong password.",
    auth: "userToken",
    extension: "data",
    json: deleteAccountRequestSchema,
    answer: z.boolean(),
    errorAnswers: { 400: badInput },
  },
  getUserInfo: {
    method: "GET",
    path: "/api/users/",
    summary: "The signed-in user: id, userName (the e-mail address), emailConfirmed.",
    auth: "userToken",
    answer: userInfoSchema,
  },
} as const satisfies CallContracts;

export type IdentityCallName = keyof typeof identityCalls;
