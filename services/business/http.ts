// The business API's HTTP contract (docs/product/calls.md §7.3; contracts/business.ts businessCalls), by
// path prefix: /applicationsecurity (the person and their checks), /hospitalitygroup, /location (the
// search, an extension), /application, /applicationuserrolelocation, /subscription. Routes stay thin:
// parse with the contract's request schema, call the domain module for the token's user, answer
// what the contract says. Errors become status and JSON in one handler at the end.
import express from "express";
import type { NextFunction, Request, RequestHandler, Response, Router } from "express";
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import {
  buildAndCreateRequestSchema,
  businessCalls,
  createSubscriptionRequestSchema,
  deleteRoleLocationRequestSchema,
  retryInvoiceRequestSchema,
  saveUserInfoPartialRequestSchema,
  updateRoleLocationRequestSchema,
  updateStatusRequestSchema,
} from "../../contracts/business.ts";
import type { ApiError } from "../../contracts/business.ts";
import type { AuthenticatedUser, TokenVerifier } from "../shared/auth.ts";
import { AuthorityUnavailableError, BadRequestError } from "../shared/errors.ts";
import { apiHeaders, bodyParsers, commonErrorAnswer, healthCheck, notFound, parse, reply, requestLogger, sendErrorAnswer, plainMode } from "../shared/http.ts";
import type { HttpAnswer } from "../shared/http.ts";
import { billingDetails, createSubscription, retryInvoice, updateSubscriptionStatus } from "./billing.ts";
import { BusinessError } from "./errors.ts";
import {
  administratorGroups,
  applicationByName,
  applicationRoles,
  buildAndCreate,
  deleteRoleLocation,
  getHospitalityGroup,
  licensedAdministrator,
  locationAdministrator,
  searchLocations,
  updateRoleLocation,
  usersAndRoles,
} from "./groups.ts";
import { isUuid } from "../shared/ids.ts";
import type { BusinessDatabase } from "./schema/tables.ts";
import { deleteUserInfo, getUserInfo, saveUserInfoPartial, touchUser } from "./users.ts";

export interface BusinessAppDeps {
  db: Kysely<BusinessDatabase>;
  verifier: TokenVerifier;
  logger: Logger;
  now: () => Date;
  /** False: plain mode (shared/http.ts plainMode). Default true. */
  extensions?: boolean;
  /** Resolves when the database answers, rejects otherwise (GET /healthz). */
  checkDatabase: () => Promise<void>;
}

/** Verifies the bearer token, records the token's e-mail (users.ts touchUser), keeps the user for the route. */
function authenticate(deps: BusinessAppDeps): RequestHandler {
  return async (req, res, next) => {
    const user = await deps.verifier.verify(req.get("authorization"));
    await touchUser(deps.db, user, deps.now());
    res.locals.user = user;
    next();
  };
}

function userOf(res: Response): AuthenticatedUser {
  const user = res.locals.user as AuthenticatedUser | undefined;
  if (!user) throw new Error("business: route mounted without authenticate()");
  return user;
}

function requireJson(req: Request): void {
  if (!req.is("json")) throw new BadRequestError("Send the body as application/json.");
}

/** A group id from the query: a malformed one names no group (404), as an unknown one. */
function groupIdOf(req: Request): string {
  const { hospitalityGroupId } = parse(businessCalls.getHospitalityGroup.query, req.query);
  if (!isUuid(hospitalityGroupId)) throw new BusinessError("not_found", "No such hospitality group.");
  return hospitalityGroupId;
}

function routes(deps: BusinessAppDeps): Router {
  const { db, now } = deps;
  const router = express.Router();
  router.use(authenticate(deps));

  // ---------------------------------------------------------- /location (extension)
  // One route for every spelling: Express routers match without regard to case or a trailing slash
  // (contracts/business.ts spells it /location/search/).
  router.get("/location/search", async (req, res) => {
    const { latitude, longitude, miles } = parse(businessCalls.searchLocations.query, req.query);
    reply(res, businessCalls.searchLocations, await searchLocations(db, { latitude, longitude }, miles));
  });

  // ---------------------------------------------------------- /applicationsecurity
  router.get("/applicationsecurity/getuserinfo", async (_req, res) => {
    reply(res, businessCalls.getUserInfo, await getUserInfo(db, userOf(res)));
  });
  router.post("/applicationsecurity/saveuserinfopartial", async (req, res) => {
    requireJson(req);
    reply(res, businessCalls.saveUserInfoPartial, await saveUserInfoPartial(db, userOf(res), parse(saveUserInfoPartialRequestSchema, req.body), now()));
  });
  router.post("/applicationsecurity/deleteuserinfo", async (_req, res) => {
    await deleteUserInfo(db, userOf(res));
    reply(res, businessCalls.deleteUserInfo, { success: true });
  });
  router.get("/applicationsecurity/isuserlicensedadministrator", async (_req, res) => {
    reply(res, businessCalls.isUserLicensedAdministrator, await licensedAdministrator(db, userOf(res)));
  });
  router.get("/applicationsecurity/isuserlocationadministrator", async (req, res) => {
    const { locationId } = parse(businessCalls.isUserLocationAdministrator.query, req.query);
    if (locationId !== undefined && !isUuid(locationId)) {
      reply(res, businessCalls.isUserLocationAdministrator, { isLocationAdministrator: false, locations: [] });
      return;
    }
    reply(res, businessCalls.isUserLocationAdministrator, await locationAdministrator(db, userOf(res), locationId));
  });

  // ---------------------------------------------------------- /hospitalitygroup
  router.get("/hospitalitygroup", async (req, res) => {
    reply(res, businessCalls.getHospitalityGroup, await getHospitalityGroup(db, userOf(res), groupIdOf(req)));
  });
  router.get("/hospitalitygroup/getadministratorhospitalitygroups", async (_req, res) => {
    reply(res, businessCalls.getAdministratorHospitalityGroups, await administratorGroups(db, userOf(res)));
  });
  router.get("/hospitalitygroup/getusersandroles", async (req, res) => {
    reply(res, businessCalls.getUsersAndRoles, await usersAndRoles(db, userOf(res), groupIdOf(req)));
  });

  // ---------------------------------------------------------- /application
  router.get("/application/getbyname", async (req, res) => {
    const { applicationName } = parse(businessCalls.getApplicationByName.query, req.query);
    reply(res, businessCalls.getApplicationByName, await applicationByName(db, applicationName));
  });
  router.get("/application/getapplicationroles", async (req, res) => {
    const { applicationId } = parse(businessCalls.getApplicationRoles.query, req.query);
    reply(res, businessCalls.getApplicationRoles, await applicationRoles(db, applicationId));
  });

  // ---------------------------------------------------------- /applicationuserrolelocation
  router.post("/applicationuserrolelocation/buildandcreate", async (req, res) => {
    requireJson(req);
    reply(res, businessCalls.buildAndCreateRoleLocation, await buildAndCreate(db, userOf(res), parse(buildAndCreateRequestSchema, req.body), now()));
  });
  router.post("/applicationuserrolelocation/update", async (req, res) => {
    requireJson(req);
    reply(res, businessCalls.updateRoleLocation, await updateRoleLocation(db, userOf(res), parse(updateRoleLocationRequestSchema, req.body), now()));
  });
  router.post("/applicationuserrolelocation/delete", async (req, res) => {
    requireJson(req);
    const { applicationUserRoleLocationId } = parse(deleteRoleLocationRequestSchema, req.body);
    await deleteRoleLocation(db, userOf(res), applicationUserRoleLocationId);
    reply(res, businessCalls.deleteRoleLocation, { success: true });
  });

  // ---------------------------------------------------------- /subscription
  router.post("/subscription/create", async (req, res) => {
    requireJson(req);
    const created = await createSubscription(db, userOf(res), parse(createSubscriptionRequestSchema, req.body), now());
    reply(res, businessCalls.createSubscription, { success: true, ...created });
  });
  router.post("/subscription/updatestatus", async (req, res) => {
    requireJson(req);
    const { subscriptionId, status } = parse(updateStatusRequestSchema, req.body);
    reply(res, businessCalls.updateSubscriptionStatus, await updateSubscriptionStatus(db, userOf(res), subscriptionId, status, now()));
  });
  router.post("/subscription/retryinvoice", async (req, res) => {
    requireJson(req);
    const { invoiceId } = parse(retryInvoiceRequestSchema, req.body);
    reply(res, businessCalls.retryInvoice, await retryInvoice(db, userOf(res), invoiceId, now()));
  });
  router.get("/subscription/getbillingdetails", async (req, res) => {
    reply(res, businessCalls.getBillingDetails, await billingDetails(db, userOf(res), groupIdOf(req)));
  });

  return router;
}

/**
 * Builds the Express 5 app of the business API. All answers are JSON; every path except /healthz
 * needs a user's bearer token with the business.api audience; unknown paths 404; malformed input
 * 400 invalid_request; bodies over 64 KB 413.
 */
export function createBusinessApp(deps: BusinessAppDeps): express.Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.use(requestLogger(deps.logger));
  app.use(apiHeaders);

  app.get("/healthz", healthCheck(deps.checkDatabase));

  app.use(bodyParsers());
  if (deps.extensions === false) app.use(plainMode(businessCalls));
  app.use(routes(deps));
  app.use(notFound);
  app.use((err: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    if (err instanceof AuthorityUnavailableError) res.set("Retry-After", "5");
    sendErrorAnswer(req, res, err, toHttp(err));
  });
  return app;
}

/** The one place where errors become HTTP answers: the business API's own, then the shared ones. */
function toHttp(err: unknown): HttpAnswer {
  if (err instanceof BusinessError) return { status: err.status, body: { success: false, error: err.code, error_description: err.message } satisfies ApiError };
  if (err instanceof AuthorityUnavailableError) {
    return { status: 503, body: { error: "temporarily_unavailable", error_description: "The identity authority cannot be reached to verify the token." } satisfies ApiError };
  }
  return commonErrorAnswer(err);
}
