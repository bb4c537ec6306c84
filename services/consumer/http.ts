// The consumer API's HTTP contract (docs/product/calls.md §7.2; contracts/consumer.ts consumerCalls). One
// router per area, mounted at its path prefix: /consumer (profiles, permissions, safe window),
// /consumersubscription (follows, subscriptions/routes.ts), /testresult (the PDF pipeline,
// results/routes.ts), /search (venues, asked of the business API: venues.ts), /checkin (the
// check-in codes, extensions) and /locationvisit (visits: visits.ts). Routes stay thin: parse with the contract's request schema, authorise,
// call, answer what the contract says. Errors are mapped to status and JSON in one handler at the end.
import express from "express";
import type { NextFunction, Request, RequestHandler, Response, Router } from "express";
import type { Logger } from "pino";
import {
  checkInRequestSchema,
  consumerCalls,
  createProfileRequestSchema,
  locationSearchQuerySchema,
  modifyCoreFormSchema,
  redeemCodeRequestSchema,
  setRatingRequestSchema,
} from "../../contracts/consumer.ts";
import type { ApiError, ProfileRefusal } from "../../contracts/consumer.ts";
import { BadRequestError } from "../shared/errors.ts";
import { apiHeaders, bodyParsers, commonErrorAnswer, healthCheck, notFound, parse, reply, requestLogger, requireContentType, sendErrorAnswer, plainMode } from "../shared/http.ts";
import type { HttpAnswer } from "../shared/http.ts";
import { answerLanguage, requestedMailLanguage, type MailLanguage } from "../shared/language.ts";
import type { AuthenticatedUser, TokenVerifier } from "../shared/auth.ts";
import type { ConsumerOutbox } from "./outbox.ts";
import { AuthorityUnavailableError, BusinessUnavailableError, ForbiddenError, NoProfileError, ProfileExistsError, ProfileRuleError, VenueError } from "./errors.ts";
import { exportConsumerData } from "./export.ts";
import { getPermissions } from "./permissions.ts";
import { createProfile, deleteProfile, findProfile, modifyCore } from "./profiles.ts";
import type { ProfilesContext } from "./profiles.ts";
import { testResultErrorAnswer } from "./results/errors.ts";
import type { ResultsContext } from "./results/pipeline.ts";
import { isReviewer, reviewerList } from "./results/reviews.ts";
import { windowDescriptionIn } from "./results/windows.ts";
import type { Reviewers } from "./results/reviews.ts";
import { testResultRoutes } from "./results/routes.ts";
import { getSafeWindow } from "./safewindow.ts";
import { EmailMemory, SubscriptionError } from "./subscriptions.ts";
import { searchCentre } from "./venues.ts";
import { checkIn, currentUserVisits, issueCheckinCode, redeemCheckinCode, setRating } from "./visits.ts";
import { GuessCounter } from "./guesses.ts";
import type { GuessLimits } from "./guesses.ts";
import type { BusinessClient } from "./venues.ts";
import { subscriptionRoutes } from "./subscriptions/routes.ts";
import type { PassKeyOptions } from "./pass/keys.ts";
import { NoWindowError, passRoutes } from "./pass/routes.ts";

export interface ConsumerAppDeps {
  profiles: ProfilesContext;
  verifier: TokenVerifier;
  logger: Logger;
  now: () => Date;
  /** Resolves when the database answers, rejects otherwise (GET /healthz). */
  checkDatabase: () => Promise<void>;
  /** The test-result pipeline: database and PDF worker pool (results/). */
  results: ResultsContext;
  /** Who may review disputes (results/reviews.ts); default nobody. */
  reviewers?: Reviewers;
  /** False: plain mode (shared/http.ts plainMode). Default true. */
  extensions?: boolean;
  /** The mail outbox (outbox.ts): a decided dispute's mail. */
  outbox: ConsumerOutbox;
  /** The business API, which keeps the venues (venues.ts). */
  business: BusinessClient;
  /** How long an e-mail stored for search is trusted before a call writes it again, ms (subscriptions.ts EmailMemory); default EMAIL_MEMORY_TTL_MS. */
  emailMemoryMs?: number;
  /** The check-in code guess limits (guesses.ts); default GUESS_LIMITS. */
  checkinLimits?: Partial<GuessLimits>;
  /** The SafeWindow Pass keys' secret and timings (pass/keys.ts). */
  passKeys: PassKeyOptions;
}

// ---------------------------------------------------------------- authentication

/**
 * Verifies the bearer token and keeps its user for the route (see `userOf`). Also keeps the
 * token's e-mail for search by exact e-mail (subscriptions.ts#rememberEmail, through EmailMemory): the consumer API
 * learns it from no other source.
 */
function authenticate(deps: ConsumerAppDeps, emails: EmailMemory): RequestHandler {
  return async (req, res, next) => {
    const user = await deps.verifier.verify(req.get("authorization"));
    // The address and the mail language a later mail uses (docs/product/calls.md §7.4 "The mail's language").
    if (user.email !== undefined) await emails.remember(user.identityUserId, user.email, deps.now(), requestedMailLanguage(req.get("accept-language")));
    res.locals.user = user;
    next();
  };
}

/** The token's user; every route acts for this user only. */
function userOf(res: Response): AuthenticatedUser {
  const user = res.locals.user as AuthenticatedUser | undefined;
  if (!user) throw new Error("consumer: route mounted without authenticate()");
  return user;
}

// ---------------------------------------------------------------- /consumer

/** docs/product/calls.md §7.2: GET /consumer, POST createprofile, POST modifycore/, GET getpermissions, GET getsafewindow. */
function profileRoutes(deps: ConsumerAppDeps, auth: RequestHandler, emails: EmailMemory): Router {
  const router = express.Router();
  router.use(auth);

  router.get("/", async (req, res) => {
    const profile = await findProfile(deps.profiles, userOf(res).identityUserId);
    reply(res, consumerCalls.getProfile, profile && { ...profile, safeWindowDescription: windowDescriptionIn(profile.safeWindowDescription, answerLanguage(req.get("accept-language"))) });
  });

  router.post("/createprofile", async (req, res) => {
    const user = userOf(res);
    requireContentType(req, "json");
    const body = parse(createProfileRequestSchema, req.body);
    const consumer = await createProfile(
      deps.profiles,
      user.identityUserId,
      {
        ...body.consumer,
        marketingOptOut: body.consumer.marketingOptOut ?? false,
        healthUpdatesOptOut: body.consumer.healthUpdatesOptOut ?? false,
        latitude: body.latitude ?? null,
        longitude: body.longitude ?? null,
      },
      deps.now(),
    );
    reply(res, consumerCalls.createProfile, { success: true, consumer });
  });

  router.post("/modifycore", async (req, res) => {
    const user = userOf(res);
    requireContentType(req, "application/x-www-form-urlencoded");
    const { identityUserId, ...core } = parse(modifyCoreFormSchema, req.body);
    if (identityUserId !== user.identityUserId) throw new ForbiddenError("identityUserId is not the signed-in user.");
    const consumer = await modifyCore(deps.profiles, user.identityUserId, core, deps.now());
    reply(res, consumerCalls.modifyCore, { success: true, consumer });
  });

  router.get("/getpermissions", async (_req, res) => {
    const user = userOf(res);
    reply(res, consumerCalls.getPermissions, await getPermissions(deps.profiles.db, user.identityUserId, isReviewer(deps.reviewers ?? reviewerList([]), user)));
  });

  router.post("/deleteprofile", async (_req, res) => {
    const user = userOf(res);
    await deleteProfile(deps.profiles.db, user.identityUserId);
    // The address went with the profile: the next call of this user stores it again.
    emails.forget(user.identityUserId);
    // The person's mails kept as files go too (their rows went with the results).
    if (user.email) {
      await deps.outbox.forgetMails([user.email]).catch((err: unknown) => {
        deps.logger.error({ err: { type: (err as Error).name, message: (err as Error).message } }, "profile deleted; its mails in the outbox directory could not be deleted");
      });
    }
    reply(res, consumerCalls.deleteProfile, { success: true });
  });

  router.get("/export", async (_req, res) => {
    reply(res, consumerCalls.exportData, await exportConsumerData(deps.profiles.db, userOf(res).identityUserId, deps.now()));
  });

  router.get("/getsafewindow", async (req, res) => {
    const window = await getSafeWindow(deps.profiles.db, userOf(res).identityUserId);
    if (!window) throw new NoProfileError();
    reply(res, consumerCalls.getSafeWindow, { ...window, safeWindowDescription: windowDescriptionIn(window.safeWindowDescription, answerLanguage(req.get("accept-language"))) });
  });

  return router;
}

// ---------------------------------------------------------------- venues: check-in and visits

/** Extensions (docs/venues.md "Check-in"): POST issuecode/ (the visitor), redeemcode/ and checkin/ (a location administrator). */
function checkinRoutes(deps: ConsumerAppDeps, auth: RequestHandler): Router {
  const router = express.Router();
  const guesses = new GuessCounter(deps.profiles.db, deps.logger, deps.checkinLimits);
  router.use(auth);

  router.post("/issuecode", async (_req, res) => {
    reply(res, consumerCalls.issueCheckinCode, await issueCheckinCode(deps.profiles.db, userOf(res).identityUserId, deps.now()));
  });

  router.post("/redeemcode", async (req, res) => {
    requireContentType(req, "json");
    const { code, locationId } = parse(redeemCodeRequestSchema, req.body);
    const caller = userOf(res).identityUserId;
    await guesses.refuseWaitingCaller(caller, deps.now());
    // The business API keeps who administers which location, and its group: asked with the caller's own token.
    const answer = await deps.business.locationAdministrator(req.get("authorization") as string, locationId);
    const location = answer.locations.find((l) => l.locationId === locationId);
    if (!answer.isLocationAdministrator || !location) throw new VenueError(403, "not_location_administrator", "You do not administer this location.");
    // Counted before the code is looked up, for the caller, the location and its group (guesses.ts); 429 past a limit.
    const attempt = await guesses.begin({ caller, locationId, hospitalityGroupId: location.hospitalityGroupId }, deps.now());
    try {
      reply(res, consumerCalls.redeemCheckinCode, await redeemCheckinCode(deps.profiles.db, caller, code, location, deps.now(), attempt));
    } catch (err) {
      // The database failed: no code was tried. (A VenueError has settled the attempt already.)
      if (!(err instanceof VenueError)) await attempt.notAMiss().catch(() => {});
      throw err;
    }
  });

  router.post("/checkin", async (req, res) => {
    requireContentType(req, "json");
    const { visitId } = parse(checkInRequestSchema, req.body);
    reply(res, consumerCalls.checkIn, await checkIn(deps.profiles.db, userOf(res).identityUserId, visitId, deps.now()));
  });
  return router;
}

/** docs/product/calls.md §7.2: GET getcurrentuservisits/, POST setrating/. */
function visitRoutes(deps: ConsumerAppDeps, auth: RequestHandler): Router {
  const router = express.Router();
  router.use(auth);
  router.get("/getcurrentuservisits", async (_req, res) => {
    reply(res, consumerCalls.getCurrentUserVisits, await currentUserVisits(deps.profiles.db, userOf(res).identityUserId));
  });
  router.post("/setrating", async (req, res) => {
    requireContentType(req, "json");
    const { visitId, rating } = parse(setRatingRequestSchema, req.body);
    reply(res, consumerCalls.setRating, await setRating(deps.profiles.db, userOf(res).identityUserId, visitId, rating, deps.now()));
  });
  return router;
}

// ---------------------------------------------------------------- the app

/**
 * Builds the Express 5 app of the consumer API. All answers are JSON; every path except
 * /healthz needs a user's bearer token (auth.ts); unknown paths 404; malformed input 400
 * invalid_request; bodies over 64 KB 413.
 */
export function createConsumerApp(deps: ConsumerAppDeps): express.Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.use(requestLogger(deps.logger));
  app.use(apiHeaders);
  app.use(bodyParsers());

  app.get("/healthz", healthCheck(deps.checkDatabase));
  if (deps.extensions === false) app.use(plainMode(consumerCalls));

  // One memory of the stored e-mail addresses for every route (authenticate).
  const emails = new EmailMemory(deps.profiles.db, deps.emailMemoryMs);
  const auth = authenticate(deps, emails);
  // Before the profile routes, which all need a token: the published pass keys need none.
  app.use("/consumer", passRoutes({ db: deps.profiles.db, keys: deps.passKeys, now: deps.now, authenticate: auth, userOf }));
  app.use("/consumer", profileRoutes(deps, auth, emails));
  app.use("/checkin", checkinRoutes(deps, auth));
  app.use("/locationvisit", visitRoutes(deps, auth));
  app.get("/search", auth, async (req, res) => {
    const { centre, miles } = searchCentre(parse(locationSearchQuerySchema, req.query));
    const locations = await deps.business.searchLocations(req.get("authorization") as string, centre, miles);
    reply(res, consumerCalls.searchLocations, { success: true, locations });
  });
  app.use("/testresult", testResultRoutes({ results: deps.results, reviewers: deps.reviewers ?? reviewerList([]), outbox: deps.outbox, now: deps.now, authenticate: auth, userOf }));
  app.use("/consumersubscription", subscriptionRoutes({ db: deps.profiles.db, now: deps.now, authenticate: auth, userOf }));

  app.use(notFound);
  app.use((err: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    if (err instanceof AuthorityUnavailableError || err instanceof BusinessUnavailableError) res.set("Retry-After", "5");
    if (err instanceof VenueError && err.retryAfterSeconds !== undefined) res.set("Retry-After", String(err.retryAfterSeconds));
    sendErrorAnswer(req, res, err, toHttp(err, answerLanguage(req.get("accept-language"))));
  });

  return app;
}

/** The one place where errors become HTTP answers: the consumer's own errors (an upload's refusal in `language`), then the shared ones. */
function toHttp(err: unknown, language: MailLanguage): HttpAnswer {
  const testResultAnswer = testResultErrorAnswer(err, language);
  if (testResultAnswer) return testResultAnswer;
  if (err instanceof ProfileRuleError) return { status: 400, body: { success: false, errors: err.errors } satisfies ProfileRefusal };
  if (err instanceof ProfileExistsError) return { status: 409, body: { success: false, errors: [{ field: null, message: err.message }] } satisfies ProfileRefusal };
  if (err instanceof NoProfileError) return { status: 404, body: { success: false, error: "no_profile", error_description: err.message } satisfies ApiError };
  if (err instanceof NoWindowError) return { status: 409, body: { success: false, error: "no_window", error_description: err.message } satisfies ApiError };
  if (err instanceof SubscriptionError) return { status: err.status, body: { success: false, error: err.code, error_description: err.message } satisfies ApiError };
  if (err instanceof VenueError) return { status: err.status, body: { success: false, error: err.code, error_description: err.message } satisfies ApiError };
  if (err instanceof BusinessUnavailableError) {
    return { status: 503, body: { error: "temporarily_unavailable", error_description: "The business API, which keeps the venues, cannot be reached." } satisfies ApiError };
  }
  if (err instanceof ForbiddenError) return { status: 403, body: { success: false, error: "forbidden", error_description: err.message } satisfies ApiError };
  if (err instanceof AuthorityUnavailableError) {
    // Not 401: the token may be fine, and a 401 would end the user's session in the web app.
    return { status: 503, body: { error: "temporarily_unavailable", error_description: "The identity authority cannot be reached to verify the token." } satisfies ApiError };
  }
  return commonErrorAnswer(err);
}
