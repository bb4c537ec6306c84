/**
 * Client of the consumer API (docs/product.md §7, consumer table): profile, permissions, safe window.
 * Every call carries the signed-in user's access token; the API acts only for that user.
 * Non-2xx answers throw `UpstreamError` unless a method says otherwise; a 401 (the token was
 * refused) sends the user to sign in again (`SessionUser.signInAgain`); a read that finds the API
 * down (5xx, unreachable, timed out) throws a 502/503 route error response, which the error
 * boundaries show as "briefly unavailable".
 */
import { getConfig } from "../config.server";
import type { SessionUser } from "../context";
import { callUpstream, unavailable, UpstreamError, type UpstreamRequest } from "./http.server";

/** docs/product.md §3 Consumer (profile), as the consumer API answers it. */
export interface Consumer {
  sF_ConsumerId: string;
  identityUserId: string;
  firstName: string;
  middleName: string | null;
  lastName: string;
  /** YYYY-MM-DD */
  dob: string;
  postalCode: string;
  marketingOptOut: boolean;
  healthUpdatesOptOut: boolean;
  safeWindowId: string;
  /** ISO 8601 UTC, or null when no window */
  strongSafetyDate: string | null;
  weakSafetyDate: string | null;
  safeWindowDescription: string | null;
}

/** The fields a person enters (docs/product.md §2 /yourinfo, /personalinfo); dob as YYYY-MM-DD. */
export interface ProfileFields {
  firstName: string;
  middleName: string | null;
  lastName: string;
  dob: string;
  postalCode: string;
}

/** GET /consumer/getsafewindow: the card of docs/product.md §2 /safewindow. */
export interface SafeWindowCard {
  firstName: string;
  middleName: string | null;
  lastName: string;
  dob: string;
  safeWindowId: string;
  strongSafetyDate: string | null;
  weakSafetyDate: string | null;
  safeWindowDescription: string | null;
}

/** docs/product.md §6 screen names, as the consumer API's enabledScreens lists them. */
export type ScreenName = "SafeWindow" | "MyTests" | "MyFun" | "Locations" | "Settings" | "Friends";

/** docs/product.md §3 Consumer subscription (follow relation), from the other person's side. */
export interface Subscription {
  sF_ConsumerSubscriptionId: string;
  /** The other person. */
  sF_ConsumerId: string;
  firstName: string;
  lastName: string;
  safeWindowId: string;
  /** 0 pending, 1 confirmed */
  confirmed: 0 | 1;
  /** The other person's window; null unless confirmed. */
  strongSafetyDate: string | null;
  weakSafetyDate: string | null;
}

/** docs/product.md §3 Test result, as GET /testresult/getcurrentusertestresults/ lists it. */
export interface TestResult {
  sF_TestResultId: string;
  valid: 0 | 1;
  /** 0 none, 1 submitted or disputed */
  disputeStatus: 0 | 1;
  diseaseName: string;
  /** ISO 8601 UTC: when the specimen was collected */
  testDate: string;
  testingCompanyName: string;
  publicName: string;
  testName: string;
  result?: string;
  strongSafetyDate: string | null;
  weakSafetyDate: string | null;
  disputeComment: string | null;
  disputeResponseComment: string | null;
}

/** docs/product.md §3 Test result property value: one checked field and what differed (null when it matched). */
export interface PropertyValue {
  sF_TestResultPropertyValueId: string;
  name: string;
  matchInfo: string | null;
}

/** POST /testresult/addtestresultmultipart/ → docs/product.md §3 upload response. */
export interface UploadAnswer {
  success: boolean;
  consumerMessage: string;
  sF_TestResultId?: string;
}

/** A search hit (docs/product.md §5 search): names and product ID only. */
export interface PublisherHit {
  sF_ConsumerId: string;
  firstName: string;
  lastName: string;
  safeWindowId: string;
}

export interface WriteAnswer {
  success: boolean;
  consumer?: Consumer;
  errors?: { field: string | null; message: string }[];
}

/** The follow changes, by the name the screens use. */
const followChanges = {
  request: { path: "/consumersubscription/requestsubscription/", parameter: "sfConsumerId" },
  cancel: { path: "/consumersubscription/cancelsubscriptionrequest/", parameter: "sfConsumerSubscriptionId" },
  confirm: { path: "/consumersubscription/confirmsubscriptionrequest/", parameter: "sfConsumerSubscriptionId" },
  decline: { path: "/consumersubscription/declinesubscriptionrequest/", parameter: "sfConsumerSubscriptionId" },
  delete: { path: "/consumersubscription/deletesubscription/", parameter: "sfConsumerSubscriptionId" },
} as const;
export type FollowChange = keyof typeof followChanges;

function consumerUrl(): string {
  const url = getConfig().CONSUMER_API_URL;
  if (!url) throw new UpstreamError("CONSUMER_API_URL is not configured", 0);
  return url;
}

/** The consumer API as `user` sees it. */
export function consumerApi(user: SessionUser) {
  const call = async <T>(path: string, request: UpstreamRequest = {}) => {
    const answer = await callUpstream<T>(consumerUrl(), path, { ...request, token: user.accessToken });
    if (answer.status === 401) user.signInAgain();
    return answer;
  };
  const ok = async <T>(path: string, request?: UpstreamRequest): Promise<T> => {
    let answer: Awaited<ReturnType<typeof call<T>>>;
    try {
      answer = await call<T>(path, request);
    } catch (error) {
      if (error instanceof UpstreamError) unavailable(error.status);
      throw error;
    }
    if (answer.status >= 500) unavailable(answer.status);
    if (!answer.ok) throw new UpstreamError(`consumer API ${path} answered ${answer.status}`, answer.status, answer.body);
    return answer.body;
  };
  return {
    /** GET /consumer: the profile, or null when the user has none yet. */
    async getProfile(): Promise<Consumer | null> {
      const body = await ok<Consumer | null>("/consumer");
      return body && typeof body === "object" && "safeWindowId" in body ? body : null;
    },
    /** POST /consumer/createprofile; docs/product.md §8 reads only the success flag. */
    async createProfile(profile: ProfileFields, position: { latitude: number | null; longitude: number | null }): Promise<WriteAnswer> {
      const answer = await call<WriteAnswer>("/consumer/createprofile", {
        method: "POST",
        json: { consumer: profile, latitude: position.latitude, longitude: position.longitude },
      });
      if (answer.status >= 500) throw new UpstreamError("createprofile failed", answer.status, answer.body);
      return answer.body ?? { success: false };
    },
    /** POST /consumer/modifycore/ with URL-encoded fields (middleName empty when null). */
    async modifyCore(identityUserId: string, profile: ProfileFields): Promise<WriteAnswer> {
      const answer = await call<WriteAnswer>("/consumer/modifycore/", {
        method: "POST",
        form: {
          identityUserId,
          firstName: profile.firstName,
          middleName: profile.middleName ?? "",
          lastName: profile.lastName,
          dob: profile.dob,
          postalCode: profile.postalCode,
        },
      });
      if (answer.status >= 500) throw new UpstreamError("modifycore failed", answer.status, answer.body);
      return answer.body ?? { success: false };
    },
    /** GET /consumer/getpermissions → enabledScreens. */
    async getPermissions(): Promise<ScreenName[]> {
      const body = await ok<{ enabledScreens?: ScreenName[] }>("/consumer/getpermissions");
      return Array.isArray(body?.enabledScreens) ? body.enabledScreens : [];
    },
    /** GET /consumer/getsafewindow → the user's card. */
    getSafeWindow(): Promise<SafeWindowCard> {
      return ok<SafeWindowCard>("/consumer/getsafewindow");
    },

    /** GET /testresult/getcurrentusertestresults/: the user's results, newest collection first. */
    testResults(): Promise<TestResult[]> {
      return ok<TestResult[]>("/testresult/getcurrentusertestresults/");
    },
    /** The user's result `id`, or undefined when the user has none with that id. */
    async testResult(id: string): Promise<TestResult | undefined> {
      return (await this.testResults()).find((r) => r.sF_TestResultId === id);
    },
    /** GET /testresult/testresultpropertyvalues/?sfTestResultId */
    propertyValues(sfTestResultId: string): Promise<PropertyValue[]> {
      return ok<PropertyValue[]>("/testresult/testresultpropertyvalues/", { query: { sfTestResultId } });
    },
    /** GET /testresult/getimage/?testResultId → the page-1 JPEG as bytes. */
    async image(testResultId: string): Promise<Buffer> {
      return Buffer.from(await ok<string>("/testresult/getimage/", { query: { testResultId } }), "base64");
    },
    /**
     * POST /testresult/addtestresultmultipart/ with the PDF in field multipartData. A refusal
     * (4xx) comes back as its answer, with the consumerMessage to show (docs/product.md §8 upload).
     * @throws UpstreamError on 5xx or when unreachable
     */
    async upload(file: File): Promise<UploadAnswer> {
      const multipart = new FormData();
      multipart.set("multipartData", file, file.name || "result.pdf");
      const answer = await call<UploadAnswer>("/testresult/addtestresultmultipart/", { method: "POST", multipart });
      if (answer.status >= 500 || !answer.body || typeof answer.body.consumerMessage !== "string") {
        throw new UpstreamError("upload failed", answer.status, answer.body);
      }
      return answer.body;
    },
    /** POST /testresult/dispute/ with the result and the comment (docs/product.md §7: the response is not read). */
    async dispute(result: TestResult, disputeComment: string): Promise<boolean> {
      const answer = await call("/testresult/dispute/", { method: "POST", json: { ...result, disputeComment } });
      return answer.ok;
    },

    /** GET /consumersubscription/subscribers/: people who follow the user or asked to. */
    async subscribers(): Promise<Subscription[]> {
      return (await ok<{ subscriptions: Subscription[] }>("/consumersubscription/subscribers/")).subscriptions;
    },
    /** GET /consumersubscription/publishers/: people the user follows or asked to follow. */
    async publishers(): Promise<Subscription[]> {
      return (await ok<{ subscriptions: Subscription[] }>("/consumersubscription/publishers/")).subscriptions;
    },
    /** GET /consumersubscription/searchpublishers/?searchString (docs/product.md §5: 3+ non-blank characters). */
    async searchPublishers(searchString: string): Promise<PublisherHit[]> {
      return (await ok<{ consumers: PublisherHit[] }>("/consumersubscription/searchpublishers/", { query: { searchString } })).consumers;
    },
    /** GET /consumersubscription/subscriptionstatus/?sfConsumerId: the user's relation toward that person. */
    subscriptionStatus(sfConsumerId: string): Promise<{ success: boolean; pending: boolean; subscribed: boolean }> {
      return ok("/consumersubscription/subscriptionstatus/", { query: { sfConsumerId } });
    },
    /**
     * The follow changes of docs/product.md §7; each answers whether it succeeded (docs/product.md: "their responses
     * carry a success flag"). An unreachable upstream counts as a failure.
     */
    async follow(change: FollowChange, id: string): Promise<boolean> {
      const { path, parameter } = followChanges[change];
      try {
        const answer = await call<{ success?: boolean }>(path, { query: { [parameter]: id } });
        return answer.ok && answer.body?.success === true;
      } catch (error) {
        if (error instanceof UpstreamError) return false;
        throw error;
      }
    },
  };
}
