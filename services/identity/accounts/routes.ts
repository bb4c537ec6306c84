// The account calls (docs/product/calls.md §7.1 /api/account/..., contracts/identity.ts identityCalls),
// mounted at /api/account by http.ts: registration, availability, confirmation and reset mails,
// token links, invitations (client token), and the signed-in user's own changes (user token).
// Thin: authorise, parse with the contract's request schema, call accounts.ts, answer what the
// contract says. Every call that mails passes the request's language (Accept-Language,
// docs/product/calls.md §7.4 "The mail's language") to accounts.ts. Refusals are thrown (AccountError, MailDeliveryError, the bearer errors) and
// answered by http.ts's one error handler.
import express from "express";
import type { Router } from "express";
import {
  changePasswordUsingCurrentQuerySchema,
  changePasswordUsingTokenQuerySchema,
  changeUserNameQuerySchema,
  confirmAccountQuerySchema,
  confirmEmailQuerySchema,
  deleteAccountRequestSchema,
  emailQuerySchema,
  identityCalls,
  inviteRequestSchema,
  mailLinkQuerySchema,
  registerRequestSchema,
} from "../../../contracts/identity.ts";
import { parse, reply } from "../../shared/http.ts";
import { requestedMailLanguage } from "../../shared/language.ts";
import * as accounts from "../accounts.ts";
import type { AccountsContext } from "../accounts.ts";
import type { BearerAuth } from "../bearer.ts";

export interface AccountRoutesDeps {
  accounts: AccountsContext;
  /** bearer.ts's checks. */
  bearer: BearerAuth;
}

/** An account change that succeeded (ASP.NET Identity's IdentityResult). */
const succeeded = { succeeded: true, errors: [] };

/** The /api/account router. Client-token calls first, then user-token calls. */
export function accountRoutes(deps: AccountRoutesDeps): Router {
  const router = express.Router();
  const ctx = deps.accounts;
  const { requireClient, requireUser } = deps.bearer;
  /** The mail language the request asks for; null when it says none. */
  const language = (req: express.Request) => requestedMailLanguage(req.get("accept-language"));

  // ---------------------------------------------------------- client-token calls

  router.post("/register", async (req, res) => {
    await requireClient(req);
    const body = parse(registerRequestSchema, req.body);
    await accounts.registerUser(ctx, body, language(req));
    reply(res, identityCalls.register, succeeded);
  });

  router.get("/isavailable", async (req, res) => {
    await requireClient(req);
    const q = parse(emailQuerySchema, req.query);
    reply(res, identityCalls.isAvailable, await accounts.isUserNameAvailable(ctx, q.email));
  });

  router.get("/validaterequestedemail", async (req, res) => {
    await requireClient(req);
    const q = parse(emailQuerySchema, req.query);
    reply(res, identityCalls.validateRequestedEmail, await accounts.validateRequestedEmail(ctx, q.email));
  });

  router.get("/sendconfirmationemail", async (req, res) => {
    await requireClient(req);
    const q = parse(mailLinkQuerySchema, req.query);
    // Only queues the mail, with the same steps for every address: it is sent right after this
    // answer, so the answer's time does not wait for it (README "Sending the confirmation mail").
    await accounts.sendEmailConfirmation(ctx, q.email, q.requestedUri, language(req));
    reply(res, identityCalls.sendConfirmationEmail, true);
  });

  router.get("/confirmemail", async (req, res) => {
    await requireClient(req);
    const q = parse(confirmEmailQuerySchema, req.query);
    await accounts.confirmEmail(ctx, q.email, q.token, language(req));
    reply(res, identityCalls.confirmEmail, succeeded);
  });

  router.get("/requestpasswordchange", async (req, res) => {
    await requireClient(req);
    const q = parse(mailLinkQuerySchema, req.query);
    // Only queues the request, the same for every address: the lookup and the mail happen in
    // the outbox's sender, after this answer (README "Reset requests").
    await accounts.requestPasswordReset(ctx, q.email, q.requestedUri, language(req));
    reply(res, identityCalls.requestPasswordChange, true);
  });

  router.get("/changepasswordusingtoken", async (req, res) => {
    await requireClient(req);
    const q = parse(changePasswordUsingTokenQuerySchema, req.query);
    await accounts.resetPasswordWithToken(ctx, q, language(req));
    reply(res, identityCalls.changePasswordUsingToken, succeeded);
  });

  router.post("/invite", async (req, res) => {
    await requireClient(req);
    const body = parse(inviteRequestSchema, req.body);
    await accounts.inviteUser(ctx, body.userName, language(req));
    reply(res, identityCalls.invite, succeeded);
  });

  router.get("/confirmaccount", async (req, res) => {
    await requireClient(req);
    const q = parse(confirmAccountQuerySchema, req.query);
    await accounts.confirmAccount(ctx, q, language(req));
    reply(res, identityCalls.confirmAccount, succeeded);
  });

  // ---------------------------------------------------------- user-token calls

  router.get("/isemailconfirmed", async (req, res) => {
    const user = await requireUser(req);
    reply(res, identityCalls.isEmailConfirmed, user.emailConfirmed);
  });

  router.get("/changeusername", async (req, res) => {
    const user = await requireUser(req);
    const q = parse(changeUserNameQuerySchema, req.query);
    reply(res, identityCalls.changeUserName, await accounts.changeUserName(ctx, user.id, q.userName, q.requestedUri, language(req)));
  });

  router.get("/changepasswordusingcurrent", async (req, res) => {
    const user = await requireUser(req);
    const q = parse(changePasswordUsingCurrentQuerySchema, req.query);
    reply(res, identityCalls.changePasswordUsingCurrent, await accounts.changePasswordWithCurrent(ctx, user.id, q, language(req)));
  });

  router.post("/delete", async (req, res) => {
    const user = await requireUser(req);
    const body = parse(deleteAccountRequestSchema, req.body);
    reply(res, identityCalls.deleteAccount, await accounts.deleteAccount(ctx, user.id, body.password, language(req)));
  });

  return router;
}
