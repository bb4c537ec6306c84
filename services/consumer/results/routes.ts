// The test result calls (docs/product/calls.md §7.2; contracts/consumer.ts consumerCalls), mounted at
// /testresult by http.ts: upload (multipart, streamed), the user's results, a result's property
// values, its page images, and disputes. Thin: parse with the contract's request schema, authorise,
// call, answer what the contract says. Every call acts for the token's user only; another user's result
// reads as not found. Errors are answered by http.ts (errors.ts testResultErrorAnswer).
import express from "express";
import type { Request, RequestHandler, Response, Router } from "express";
import { consumerCalls, resultLinkQuerySchema, resultLinkRequestSchema, disputeQueueQuerySchema, disputeRequestSchema, imageQuerySchema, pdfQuerySchema, propertyValuesQuerySchema, reviewDisputeRequestSchema } from "../../../contracts/consumer.ts";
import { BadRequestError } from "../../shared/errors.ts";
import { parse, reply } from "../../shared/http.ts";
import { answerLanguage } from "../../shared/language.ts";
import { counter } from "../../../lib/metrics.ts";
import type { AuthenticatedUser } from "../../shared/auth.ts";
import type { ConsumerOutbox } from "../outbox.ts";
import { UploadRejectedError } from "./errors.ts";
import { readUpload } from "./intake.ts";
import { addTestResult, addTestResultByLink, linkTextObjects } from "./pipeline.ts";
import type { ResultsContext } from "./pipeline.ts";
import { OwnDisputeError, disputeImage, disputeQueue, disputeReviews, requireReviewer, reviewDispute } from "./reviews.ts";
import type { Reviewers } from "./reviews.ts";
import { disputeResult, listPropertyValues, listResults, resultImage, resultOwner, resultPdf } from "./store.ts";

export interface TestResultRoutesDeps {
  results: ResultsContext;
  /** Who may make the review calls (reviews.ts). */
  reviewers: Reviewers;
  /** Where a decided dispute's mail is queued (../outbox.ts). */
  outbox: ConsumerOutbox;
  now: () => Date;
  /** http.ts's bearer-token check. */
  authenticate: RequestHandler;
  /** The token's user, set by authenticate. */
  userOf: (res: Response) => AuthenticatedUser;
}

/** GET /metrics: every upload's outcome, a stored result (`valid`, `invalid`) or a refusal's reason (`busy`, `printed`, `unknown_lab`, …). */
const uploadOutcomes = counter("safewindow_pdf_uploads_total", "Test result uploads by outcome: valid, invalid, or the refusal's reason.", ["outcome"]);

/**
 * Uploads handled at once (reading, checking, storing); more are turned away as busy, so that
 * at most this many 10 MB bodies are held in memory.
 */
export const MAX_CONCURRENT_UPLOADS = 32;

/** The /testresult router. */
export function testResultRoutes(deps: TestResultRoutesDeps): Router {
  const router = express.Router();
  router.use(deps.authenticate);
  const { db } = deps.results;
  let uploading = 0;

  /**
   * Runs `work` as one of the uploads handled at once (MAX_CONCURRENT_UPLOADS: a file, or a
   * document fetched by link, held in memory), counting its outcome; `busy` beyond.
   * @param turnAway called when busy, before the refusal (an upload's body is drained).
   * @param counted whether the outcome is an upload's (the text objects of a link are not).
   */
  async function asUpload<T>(work: () => Promise<T>, turnAway?: () => void, counted = true): Promise<T> {
    if (uploading >= MAX_CONCURRENT_UPLOADS) {
      if (counted) uploadOutcomes.inc({ outcome: "busy" });
      turnAway?.();
      throw new UploadRejectedError("busy", (w) => w.busy());
    }
    uploading += 1;
    try {
      const outcome = await work();
      const { valid } = outcome as { valid?: unknown };
      if (counted && typeof valid === "boolean") uploadOutcomes.inc({ outcome: valid ? "valid" : "invalid" });
      return outcome;
    } catch (err) {
      if (counted) uploadOutcomes.inc({ outcome: err instanceof UploadRejectedError ? err.reason : "error" });
      throw err;
    } finally {
      uploading -= 1;
    }
  }

  router.post("/addtestresultmultipart", async (req, res) => {
    const owner = await resultOwner(db, deps.userOf(res).identityUserId);
    const outcome = await asUpload(
      async () => addTestResult(deps.results, owner, await readUpload(req), deps.now(), answerLanguage(req.get("accept-language"))),
      () => req.resume(),
    );
    reply(res, consumerCalls.addTestResultMultipart, { success: true, consumerMessage: outcome.consumerMessage, sF_TestResultId: outcome.sF_TestResultId });
  });

  // Results by link (docs/product/labs.md §10.8): the document is fetched here, on the server (link.ts).
  router.get("/addtestresulturl", async (req, res) => {
    const { url } = parse(resultLinkQuerySchema, req.query);
    const owner = await resultOwner(db, deps.userOf(res).identityUserId);
    const outcome = await asUpload(() => addTestResultByLink(deps.results, owner, url, null, deps.now(), answerLanguage(req.get("accept-language"))));
    reply(res, consumerCalls.addTestResultUrl, { success: true, consumerMessage: outcome.consumerMessage, sF_TestResultId: outcome.sF_TestResultId });
  });

  router.post("/addtestresultlink", async (req, res) => {
    if (!req.is("json")) throw new BadRequestError("Send the body as application/json.");
    const { url, criteria } = parse(resultLinkRequestSchema, req.body);
    const owner = await resultOwner(db, deps.userOf(res).identityUserId);
    const outcome = await asUpload(() => addTestResultByLink(deps.results, owner, url, criteria, deps.now(), answerLanguage(req.get("accept-language"))));
    reply(res, consumerCalls.addTestResultLink, { success: true, consumerMessage: outcome.consumerMessage, sF_TestResultId: outcome.sF_TestResultId });
  });

  router.get("/generatetestresulttextobjectsurl", async (req, res) => {
    const { url } = parse(resultLinkQuerySchema, req.query);
    reply(res, consumerCalls.generateTestResultTextObjectsUrl, await asUpload(() => linkTextObjects(deps.results, url), undefined, false));
  });

  router.get("/getcurrentusertestresults", async (_req, res) => {
    reply(res, consumerCalls.getCurrentUserTestResults, await listResults(db, deps.userOf(res).identityUserId));
  });

  router.get("/testresultpropertyvalues", async (req, res) => {
    const { sfTestResultId } = parse(propertyValuesQuerySchema, req.query);
    reply(res, consumerCalls.testResultPropertyValues, await listPropertyValues(db, deps.userOf(res).identityUserId, sfTestResultId));
  });

  router.get("/getpdf", async (req, res) => {
    const { testResultId } = parse(pdfQuerySchema, req.query);
    reply(res, consumerCalls.getPdf, await resultPdf(db, deps.userOf(res).identityUserId, testResultId));
  });

  router.get("/getimage", async (req, res) => {
    const { testResultId, page } = parse(imageQuerySchema, req.query);
    reply(res, consumerCalls.getImage, await resultImage(db, deps.results.pool, deps.userOf(res).identityUserId, testResultId, page));
  });

  router.post("/dispute", async (req, res) => {
    if (!req.is("json")) throw new BadRequestError("Send the body as application/json.");
    const body = parse(disputeRequestSchema, req.body);
    await disputeResult(db, deps.userOf(res).identityUserId, body.sF_TestResultId, body.disputeComment, deps.now());
    reply(res, consumerCalls.dispute, { success: true });
  });

  // Dispute reviews (extensions; reviews.ts): the role is checked on every call.
  const reviewer = (res: Response) => requireReviewer(deps.reviewers, deps.userOf(res));

  // The audit trail's log lines (docs/security/data.md "Dispute reviews"): ids only, never an e-mail address.
  const ownDisputeLogged = (req: Request, who: { identityUserId: string }, resultId: string) => (err: unknown) => {
    if (err instanceof OwnDisputeError) req.log.warn({ reviewerIdentityUserId: who.identityUserId, resultId }, "reviewer refused: a dispute of their own result");
    throw err;
  };

  router.get("/disputequeue", async (req, res) => {
    const who = reviewer(res);
    const { testResultId } = parse(disputeQueueQuerySchema, req.query);
    reply(res, consumerCalls.disputeQueue, await disputeQueue(db, who, testResultId).catch(ownDisputeLogged(req, who, testResultId ?? "")));
  });

  router.get("/disputeimage", async (req, res) => {
    reviewer(res);
    const { testResultId, page } = parse(imageQuerySchema, req.query);
    reply(res, consumerCalls.disputeImage, await disputeImage(db, deps.results.pool, testResultId, page ?? 1));
  });

  router.post("/reviewdispute", async (req, res) => {
    const who = reviewer(res);
    if (!req.is("json")) throw new BadRequestError("Send the body as application/json.");
    const body = parse(reviewDisputeRequestSchema, req.body);
    const decided = await reviewDispute(db, deps.outbox, who, body.sF_TestResultId, body.decision, body.responseComment, deps.now()).catch(ownDisputeLogged(req, who, body.sF_TestResultId));
    req.log.info({ reviewerIdentityUserId: who.identityUserId, resultId: body.sF_TestResultId, consumerId: decided.consumerId, decision: body.decision, validAfter: decided.valid }, "dispute decided");
    reply(res, consumerCalls.reviewDispute, { success: true });
    // Committed: send the mail now. A failure is logged and retried by the outbox; the decision stands.
    if (decided.mail) deps.outbox.deliver(decided.mail).catch(() => {});
  });

  router.get("/disputereviews", async (_req, res) => {
    reviewer(res);
    reply(res, consumerCalls.disputeReviews, await disputeReviews(db));
  });

  return router;
}
