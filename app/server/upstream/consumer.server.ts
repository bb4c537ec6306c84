/**
 * Client of the consumer API (docs/product/calls.md §7.2; contract: contracts/consumer.ts): profile,
 * permissions, safe window, test results, follow relations, venues (search, check-in, visits). Server-only.
 *
 * Every call carries the signed-in user's access token; the API acts only for that user. Every
 * method answers `Result<T>` (docs/architecture/upstream-calls.md §6.3): the answer, validated with the
 * contract's schema, or a failure with the docs/product/messages.md §8 message of that call. A 401 (the
 * token was refused) sends the user to sign in again (`SessionUser.signInAgain`). Loaders that
 * can do nothing with a failure use `valueOrThrow`, whose 502/503 the error boundaries show as
 * "briefly unavailable".
 */
import type { JSONWebKeySet } from "jose";
import type { Logger } from "pino";
import type { RouterContextProvider } from "react-router";
import { z } from "zod";
import { consumerCalls, uploadField, type ConsumerCallName } from "../../../contracts/consumer.ts";
import type { Language } from "~/i18n";
import type { Messages } from "~/messages/catalogues";
import { getConfig } from "../config.server";
import { requestContext, userContext } from "../context";
import { callMessagesOf, upstreamLanguageOf } from "../i18n.server";
import { callContract, explainedRefusal, screenLoadMessages, type CallMessages, type ContractRequest } from "./http.server";
import { minutesToWait } from "../attempt-limits.server";
import type { Result } from "./result.server";
import { knownScreens } from "./screen-names.server";
import { extensionSupported, learnFromAnswer } from "./extensions.server";
import { busyRetryAfterSeconds, inTurn } from "./upload-queue.server";

export type {
  Check,
  CheckinCode,
  Consumer,
  DataExport,
  DisputeQueueEntry,
  DisputeReview,
  ReviewDecision,
  ProfileFields,
  PropertyValue,
  PublisherHit,
  SafeWindowCard,
  ScreenName,
  Subscription,
  SubscriptionStatus,
  TestResult,
  UploadAnswer,
  Visit,
  WindowState,
  WriteAnswer,
} from "../../../contracts/consumer.ts";
export type { LocationHit } from "../../../contracts/business.ts";
import type { ProfileFields, ReviewDecision, ScreenName, TestResult } from "../../../contracts/consumer.ts";
import type { CallContract } from "../../../contracts/call.ts";

/** The follow changes, by the name the screens use: `delete` removes a follower, `unfollow` someone followed. */
const followChanges = {
  request: { name: "requestSubscription", parameter: "sfConsumerId" },
  cancel: { name: "cancelSubscriptionRequest", parameter: "sfConsumerSubscriptionId" },
  confirm: { name: "confirmSubscriptionRequest", parameter: "sfConsumerSubscriptionId" },
  decline: { name: "declineSubscriptionRequest", parameter: "sfConsumerSubscriptionId" },
  delete: { name: "deleteSubscription", parameter: "sfConsumerSubscriptionId" },
  unfollow: { name: "deleteSubscription", parameter: "sfConsumerSubscriptionId" },
} as const;
export type FollowChange = keyof typeof followChanges;

/** The message of each follow change's failure (docs/product/messages.md §8), from the catalogue `m` of the request's language. */
function followMessages(m: Messages): Record<FollowChange, string> {
  return {
    request: m.followRequestFailed,
    cancel: m.followCancelFailed,
    confirm: m.followConfirmFailed,
    decline: m.followDeclineFailed,
    delete: m.followDeleteFailed,
    unfollow: m.unfollowFailed,
  };
}


/**
 * An upload refusal's own sentence (docs/product/messages.md §8.3), when the answer carries one; not
 * for a 503, whose message (uploadBusy) says how many seconds to wait.
 */
function consumerMessageOf(status: number, body: unknown): string | undefined {
  if (status === 503) return undefined;
  const message = (body as { consumerMessage?: unknown } | null)?.consumerMessage;
  return typeof message === "string" && message.trim() ? message : undefined;
}

/**
 * A test-result refusal's sentence in `language`, worded from its `reason` by the catalogue `m`
 * when that reason alone decides the sentence (`resultRefusalReasons`); undefined, and the consumer
 * API's consumerMessage shown as it sent it, for English (the language the consumer API writes,
 * docs/product/messages.md §8), without a language, or for a reason whose sentence carries details
 * of the case (a date, a lab, a size) (docs/product/calls.md §7.4 "What the upstream writes").
 */
export function refusalInLanguage(language: Language | undefined, m: Messages): (body: unknown) => string | undefined {
  return (body) => {
    if (!language || language === "en") return undefined;
    const reason = (body as { reason?: unknown } | null)?.reason;
    return typeof reason === "string" && Object.hasOwn(m.resultRefusalReasons, reason) ? m.resultRefusalReasons[reason as keyof Messages["resultRefusalReasons"]] : undefined;
  };
}

/**
 * The messages of an upload call (a file or a link): `failed`, a refusal's sentence by its reason
 * (`worded`, in the request's language) or its consumerMessage, uploadBusy (of `m`, the request's
 * catalogue) for a 503.
 */
function uploadMessages(m: Messages, failed: string, worded: CallMessages["worded"]): CallMessages {
  return { failed, worded, answered: consumerMessageOf, busy: (retryAfterSeconds) => m.uploadBusy(retryAfterSeconds ?? busyRetryAfterSeconds()) };
}

function consumerUrl(): string {
  const url = getConfig().CONSUMER_API_URL;
  if (!url) throw new Error("CONSUMER_API_URL is not configured");
  return url;
}

/**
 * getpermissions as the app reads it: any list of names (docs/product/data.md §6 "Screen names"), sorted out by
 * knownScreens; the contract's closed list is what our reference service answers.
 */
const permissionsCall = { ...consumerCalls.getPermissions, answer: z.object({ enabledScreens: z.array(z.unknown()) }) } satisfies CallContract;

/** The dispute as the app reads it: the product rules do not read its answer (docs/product/calls.md §7.2), so any body (our service's `{success: true}`) will do. */
const disputeCall = { ...consumerCalls.dispute, answer: z.unknown() } satisfies CallContract;

/**
 * Extension GET /consumer/passkeys (docs/product/pass.md §11.6): the keys that check SafeWindow
 * Passes, a JWK Set, asked without a token (they are open to anyone). A 404 is learnt: the upstream
 * lacks the pass, and nothing offers it.
 * @param failed the failure's sentence, in the caller's language
 */
export async function publishedPassKeys(log: Logger, failed: string): Promise<Result<JSONWebKeySet>> {
  const answer = await callContract(consumerUrl(), "passKeys", consumerCalls.passKeys, {}, { failed, unavailable: failed }, { log });
  learnFromAnswer(consumerUrl(), "pass", answer);
  return answer;
}

/** The consumer API as the signed-in user of this request (`context`, inside the guard) sees it. */
export function consumerApi(context: Readonly<RouterContextProvider>) {
  const user = context.get(userContext);
  const { log, draining } = context.get(requestContext);
  const language = upstreamLanguageOf(context);
  // Failure messages in the request's language (docs/architecture/behaviour.md §4 "Language").
  const messages = callMessagesOf(context);
  const worded = refusalInLanguage(language, messages);
  const call = <N extends ConsumerCallName>(name: N, request: ContractRequest = {}, callMessages: CallMessages = screenLoadMessages(messages)) =>
    callContract(consumerUrl(), name, consumerCalls[name], { ...request, token: user.accessToken }, callMessages, {
      log,
      language,
      onUnauthorized: () => user.signInAgain(),
    });

  return {
    /** GET /consumer: the profile, or null when the user has none yet. */
    getProfile() {
      return call("getProfile");
    },
    /**
     * POST /consumer/createprofile (latitude and longitude are not collected: null). A refusal
     * says profileCreateFailed, anything else profileCreateError (docs/product/messages.md §8).
     */
    createProfile(profile: ProfileFields) {
      return call("createProfile", { json: { consumer: profile, latitude: null, longitude: null } }, {
        failed: messages.profileCreateFailed,
        unavailable: messages.profileCreateError,
      });
    },
    /** POST /consumer/modifycore/ with URL-encoded fields (middleName empty when null). */
    modifyCore(identityUserId: string, profile: ProfileFields) {
      return call("modifyCore", {
        form: {
          identityUserId,
          firstName: profile.firstName,
          middleName: profile.middleName ?? "",
          lastName: profile.lastName,
          dob: profile.dob,
          postalCode: profile.postalCode,
        },
      }, { failed: messages.profileSaveFailed });
    },
    /**
     * GET /consumer/getpermissions → enabledScreens (docs/product/data.md §6): the screens the app knows, each
     * name compared ignoring case, spaces and `_`; unknown names are ignored (app/server/upstream/screen-names.server.ts).
     */
    async getPermissions(): Promise<Result<ScreenName[]>> {
      const answer = await callContract(consumerUrl(), "getPermissions", permissionsCall, { token: user.accessToken }, screenLoadMessages(messages), {
        log,
        language,
        onUnauthorized: () => user.signInAgain(),
      });
      return answer.ok ? { ok: true, value: knownScreens(answer.value.enabledScreens, log) } : answer;
    },
    /** GET /consumer/getsafewindow → the user's card; `notFound` when the user has no profile yet. */
    getSafeWindow() {
      return call("getSafeWindow");
    },

    /** GET /testresult/getcurrentusertestresults/: the user's results, newest collection first. */
    testResults() {
      return call("getCurrentUserTestResults");
    },
    /** The user's result `id`: `notFound` when the user has none with that id. */
    async testResult(id: string): Promise<Result<TestResult>> {
      const results = await call("getCurrentUserTestResults");
      if (!results.ok) return results;
      const result = results.value.find((r) => r.sF_TestResultId === id);
      return result ? { ok: true, value: result } : { ok: false, reason: "notFound", message: messages.notFound, status: 404 };
    },
    /** GET /testresult/testresultpropertyvalues/?sfTestResultId: the result's checked fields. */
    propertyValues(sfTestResultId: string) {
      return call("testResultPropertyValues", { query: { sfTestResultId } });
    },
    /**
     * GET /testresult/getimage/?testResultId → page 1 as JPEG bytes; a later page (1-based) with the
     * `page` extension, sent only past page 1 so that the call stays as the product rules write it (docs/product/calls.md §7.2).
     */
    async image(testResultId: string, page = 1): Promise<Result<Buffer>> {
      const answer = await call("getImage", { query: page > 1 ? { testResultId, page: String(page) } : { testResultId } });
      return answer.ok ? { ok: true, value: Buffer.from(answer.value, "base64") } : answer;
    },
    /** Extension GET /testresult/getpdf/?testResultId: the original PDF's bytes (the user's own result only). */
    async pdf(testResultId: string): Promise<Result<Buffer>> {
      const answer = await call("getPdf", { query: { testResultId } });
      return answer.ok ? { ok: true, value: Buffer.from(answer.value, "base64") } : answer;
    },
    /**
     * Extension POST /consumer/deleteprofile: deletes everything the consumer API keeps about the user (idempotent).
     * A 404 (the upstream lacks the call) is learnt: My Settings then stops offering Delete my account.
     */
    async deleteProfile() {
      const answer = await call("deleteProfile", {}, { failed: messages.deleteAccountFailed, unavailable: messages.deleteAccountFailed });
      learnFromAnswer(consumerUrl(), "ownData", answer);
      return answer;
    },
    /**
     * Extension GET /consumer/export: everything the consumer API keeps about the user (images and PDFs apart).
     * A 404 (the upstream lacks the call) is learnt: My Settings then stops offering Download my data.
     */
    async exportData() {
      const answer = await call("exportData");
      learnFromAnswer(consumerUrl(), "ownData", answer);
      return answer;
    },
    /**
     * Whether the consumer API serves the person's own data (export, original PDFs, profile deletion: one
     * extension). Learnt from GET /testresult/getpdf/ without a result id: 400 where the call exists, 404
     * where it does not; no side effect. Kept per upstream for 10 minutes; an upstream that does not answer
     * counts as serving it.
     */
    ownDataSupported(): Promise<boolean> {
      return extensionSupported(consumerUrl(), "ownData", () => call("getPdf"));
    },
    /**
     * Extension POST /consumer/pass (docs/product/pass.md): a fresh SafeWindow Pass of the user's open
     * window, for the checker at `issuer` (this app's public address). A closed window is `refused`
     * with passNoWindow (409); a 404 without a profile is `notFound`, and one where the upstream lacks
     * the call is learnt (the pass is then not offered).
     */
    async issuePass(issuer: string) {
      const answer = await call("issuePass", { json: { issuer } }, { failed: messages.passNoWindow, unavailable: messages.upstreamUnavailable });
      if (answer.ok || answer.reason === "refused") learnFromAnswer(consumerUrl(), "pass", answer);
      return answer;
    },
    /**
     * POST /testresult/addtestresultmultipart/ with the PDF in the contract's field (multipartData). A refusal
     * carries the provider's consumerMessage (docs/product/messages.md §8.3); a failure without one says
     * uploadFailed. Sent in its turn (upload-queue.server.ts); `busy` (uploadBusy, with the seconds to
     * wait) when the queue or the consumer API (503) has no room for it, or the server drains.
     */
    upload(file: File) {
      const multipart = new FormData();
      multipart.set(uploadField, file, file.name || "result.pdf");
      return inTurn(() => call("addTestResultMultipart", { multipart }, uploadMessages(messages, messages.uploadFailed, worded)), draining, messages, file.size);
    },
    /**
     * GET /testresult/addtestresulturl/?url (docs/product/labs.md §10.8): the consumer API fetches the result from
     * the lab's site and checks it as an upload. A refusal carries its consumerMessage; a failure
     * without one says linkFailed. Sent in its turn, busy as `upload`.
     */
    addByLink(url: string) {
      return inTurn(() => call("addTestResultUrl", { query: { url } }, uploadMessages(messages, messages.resultLinkFailed, worded)), draining, messages, url.length);
    },
    /**
     * POST /testresult/dispute/ with the result and the comment. the product rules do not read the answer (docs/product/calls.md §7):
     * any 2xx is success, except one that says `success: false` (a refusal, with its consumerMessage if any, worded
     * by its reason in the request's language where the catalogue knows it).
     */
    async dispute(result: TestResult, disputeComment: string): Promise<Result<true>> {
      const answer = await callContract(consumerUrl(), "dispute", disputeCall, { json: { ...result, disputeComment }, token: user.accessToken }, { failed: messages.disputeFailed, worded }, {
        log,
        language,
        onUnauthorized: () => user.signInAgain(),
      });
      return answer.ok ? { ok: true, value: true } : answer;
    },

    /**
     * Extension GET /testresult/disputequeue/ (reviewers only): the open disputes, oldest first, or only
     * the one of `testResultId`. `refused` (403) for anyone else; `notFound` when the upstream lacks the call.
     */
    disputeQueue(testResultId?: string) {
      return call("disputeQueue", testResultId === undefined ? {} : { query: { testResultId } });
    },
    /** Extension GET /testresult/disputeimage/ (reviewers only): a page of a disputed result as JPEG bytes. */
    async disputeImage(testResultId: string, page = 1): Promise<Result<Buffer>> {
      const answer = await call("disputeImage", { query: { testResultId, page: String(page) } });
      return answer.ok ? { ok: true, value: Buffer.from(answer.value, "base64") } : answer;
    },
    /**
     * Extension POST /testresult/reviewdispute/ (reviewers only): accepts or declines an open dispute with the
     * response the user reads. A refusal carries the API's sentence (already reviewed, response missing or too long).
     */
    reviewDispute(sF_TestResultId: string, decision: ReviewDecision, responseComment: string) {
      return call("reviewDispute", { json: { sF_TestResultId, decision, responseComment } }, { failed: messages.reviewFailed, worded, answered: consumerMessageOf });
    },
    /** Extension GET /testresult/disputereviews/ (reviewers only): the audit trail, newest first. */
    disputeReviews() {
      return call("disputeReviews");
    },

    /**
     * GET /search/: venues within `miles` of a ZIP code's centre or of a point, nearest first. A refusal
     * (an unknown ZIP code) carries the API's sentence; `notFound` when the upstream has no venues.
     */
    async searchLocations(where: { zip: string } | { latitude: number; longitude: number }, miles: number) {
      const query = "zip" in where ? { zip: where.zip, miles } : { latitude: where.latitude, longitude: where.longitude, miles };
      const answer = await call("searchLocations", { query }, { failed: messages.locationSearchFailed, unavailable: messages.locationSearchFailed, answered: explainedRefusal });
      return answer.ok ? { ok: true as const, value: answer.value.locations } : answer;
    },
    /** GET /locationvisit/getcurrentuservisits/: every check made on the user at a venue, newest first. */
    visits() {
      return call("getCurrentUserVisits");
    },
    /** POST /locationvisit/setrating/: 1-5 stars on one of the user's own visits. */
    setRating(visitId: string, rating: number) {
      return call("setRating", { json: { visitId, rating } }, { failed: messages.ratingFailed, answered: explainedRefusal });
    },
    /** Extension POST /checkin/issuecode/: a check-in code to show a venue (2 minutes, one use). `notFound` when the upstream lacks the call. */
    issueCheckinCode() {
      return call("issueCheckinCode", {}, { failed: messages.checkinCodeFailed });
    },
    /**
     * Extension POST /checkin/redeemcode/ (a location administrator): the visitor's name and window. A used or
     * expired code carries the API's sentence; an unknown code, too many attempts, or a location the user does
     * not administer (403), ours.
     */
    redeemCheckinCode(code: string, locationId: string) {
      return call("redeemCheckinCode", { json: { code, locationId } }, {
        failed: messages.checkinLookupFailed,
        notFound: messages.checkinCodeNotFound,
        answered: (status, body) => (status === 403 ? messages.notLocationAdministrator : explainedRefusal(status, body)),
        tooManyAttempts: (seconds) => messages.checkinTooManyAttempts(minutesToWait(seconds ?? 60)),
      });
    },
    /**
     * Whether the consumer API serves the check-in extension (docs/venues.md "Check-in": the screens that
     * need it are hidden when it does not). Learnt from POST /checkin/checkin/ with no visit: 400 where the
     * call exists, 404 where it does not; no side effect. Kept per upstream for 10 minutes
     * (app/server/upstream/extensions.server.ts); an upstream that does not answer counts as serving it
     * (the screens then show their load error).
     */
    checkinsSupported(): Promise<boolean> {
      return extensionSupported(consumerUrl(), "checkin", () => call("checkIn", { json: {} }, { failed: messages.checkInFailed }));
    },
    /** Extension POST /checkin/checkin/: checks in the visitor of a check the user made. */
    checkIn(visitId: string) {
      return call("checkIn", { json: { visitId } }, { failed: messages.checkInFailed });
    },

    /** GET /consumersubscription/subscribers/: people who follow the user or asked to. */
    async subscribers() {
      const answer = await call("subscribers");
      return answer.ok ? { ok: true as const, value: answer.value.subscriptions } : answer;
    },
    /** GET /consumersubscription/publishers/: people the user follows or asked to follow. */
    async publishers() {
      const answer = await call("publishers");
      return answer.ok ? { ok: true as const, value: answer.value.subscriptions } : answer;
    },
    /** GET /consumersubscription/searchpublishers/?searchString (docs/product/data.md §5: 3+ non-blank characters). */
    async searchPublishers(searchString: string) {
      const answer = await call("searchPublishers", { query: { searchString } });
      return answer.ok ? { ok: true as const, value: answer.value.consumers } : answer;
    },
    /** GET /consumersubscription/subscriptionstatus/?sfConsumerId: the user's relation toward that person. */
    subscriptionStatus(sfConsumerId: string) {
      return call("subscriptionStatus", { query: { sfConsumerId } });
    },
    /** A follow change of docs/product/calls.md §7 on relation (or, for `request`, person) `id`, with its §8 message. */
    async follow(change: FollowChange, id: string): Promise<Result<true>> {
      const { name, parameter } = followChanges[change];
      const answer = await call(name, { query: { [parameter]: id } }, { failed: followMessages(messages)[change] });
      return answer.ok ? { ok: true, value: true } : answer;
    },
  };
}
