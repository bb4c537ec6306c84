// The app's clients against an upstream that answers only as the product rules say (docs/product/calls.md §7.5 "Without the
// extensions"): a fake of a third party's consumer API and identity authority (node:http, this test only)
// answers every call twice, once with our extensions (the reference services' shape) and once with
// the product rules' fields alone, every extension call a 404. Each client method gets the same value from both,
// minus the extension's data; an extension call is `notFound` and learnt absent, never a wrong failure.
// Also: a 200 `success: false` is the upstream's refusal with the right sentence (docs/product/messages.md §8),
// and `enabledScreens` written as docs/product/data.md §6 writes it, with a name the app does not know, enables the rules' tabs.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { pino } from "pino";
import { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as messages from "../../app/messages";

type Mode = "extended" | "plain";

// ---------------------------------------------------------------- the answers

const consumer = {
  sF_ConsumerId: "c-1",
  identityUserId: "user-1",
  firstName: "Ada",
  middleName: null,
  lastName: "Lovelace",
  dob: "1985-12-10",
  postalCode: "98101",
  marketingOptOut: false,
  healthUpdatesOptOut: false,
  safeWindowId: "7KQ2M9XA",
  strongSafetyDate: "2030-01-02T00:00:00Z",
  weakSafetyDate: "2030-01-03T00:00:00Z",
  safeWindowDescription: "PCR (NAAT), collected 2029-12-31 16:15 UTC",
};
const card = {
  firstName: "Ada",
  middleName: null,
  lastName: "Lovelace",
  dob: "1985-12-10",
  safeWindowId: "7KQ2M9XA",
  strongSafetyDate: consumer.strongSafetyDate,
  weakSafetyDate: consumer.weakSafetyDate,
  safeWindowDescription: consumer.safeWindowDescription,
};
const result = {
  sF_TestResultId: "r-1",
  valid: 1,
  disputeStatus: 0,
  diseaseName: "COVID-19",
  testDate: "2029-12-31T16:15:00Z",
  testingCompanyName: "Harborview Labs",
  publicName: "Harborview",
  testName: "PCR (NAAT)",
  strongSafetyDate: consumer.strongSafetyDate,
  weakSafetyDate: consumer.weakSafetyDate,
  disputeComment: null,
  disputeResponseComment: null,
};
const resultExtensions = {
  result: "Negative",
  pageCount: 2,
  fetchedFrom: null,
  proof: { kind: "document", label: "document checks", unverifiedSignature: null, disagreement: null },
};
const relation = { sF_ConsumerSubscriptionId: "s-1", sF_ConsumerId: "c-2", firstName: "Grace", lastName: "Hopper", confirmed: 1, strongSafetyDate: null, weakSafetyDate: null };
const relationExtensions = { safeWindowId: "3MX7Q2KD", safeWindowProof: null };
const hit = { sF_ConsumerId: "c-2", firstName: "Grace", lastName: "Hopper" };
const propertyValues = [{ sF_TestResultPropertyValueId: "p-1", name: "First Name", matchInfo: null }];
const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xd9]).toString("base64");
const location = { locationId: "l-1", hospitalityGroupId: "g-1", name: "Corner Bistro", address: "1 Main St", city: "Portland", state: "OR", postalCode: "97201", phone: "5035550100", latitude: 45.5, longitude: -122.6, distanceMiles: 1.2 };
const visit = { visitId: "v-1", locationId: "l-1", locationName: "Corner Bistro", city: "Portland", state: "OR", checkedAt: "2029-12-31T18:00:00Z", windowState: "Strong", checkedInAt: null, rating: null };
const check = { visitId: "v-1", firstName: "Grace", lastName: "Hopper", windowState: "None", strongSafetyDate: null, weakSafetyDate: null, locationId: "l-1", locationName: "Corner Bistro", checkedAt: "2029-12-31T18:00:00Z", checkedInAt: null };
const queueEntry = { sF_TestResultId: "r-9", firstName: "Grace", lastName: "Hopper", safeWindowId: "3MX7Q2KD", publicName: "Harborview", testingCompanyName: "Harborview Labs", testName: "PCR (NAAT)", result: "Negative", testDate: "2029-12-31T16:15:00Z", disputeComment: "Typo in my name.", disputedAt: "2030-01-01T00:00:00Z", propertyValues };
const review = { sF_DisputeReviewId: "d-1", sF_TestResultId: "r-9", reviewerEmail: "reviewer@example.com", decision: "accept", responseComment: "Fixed.", validBefore: 0, validAfter: 1, reviewedAt: "2030-01-01T01:00:00Z" };
const exported = { exportedAt: "2030-01-01T00:00:00Z", email: "ada@example.com", profile: consumer, results: [], followers: [], following: [], visits: [] };

/** Every call's answer in each mode, by path (lower case, no trailing slash); a function of the mode. */
const answersOf = (mode: Mode): Record<string, { status?: number; body: unknown }> => {
  const ext = mode === "extended";
  const answers: Record<string, { status?: number; body: unknown }> = {
    // The product rules' calls: the rules' fields, plus ours when extended.
    "/consumer": { body: consumer },
    "/consumer/createprofile": { body: ext ? { success: true, consumer } : { success: true } },
    "/consumer/modifycore": { body: ext ? { success: true, consumer } : { success: true } },
    "/consumer/getpermissions": {
      body: { enabledScreens: ext ? ["SafeWindow", "MyTests", "Friends", "Settings", "DisputeReviews"] : ["safe window", "my tests", "friends", "settings", "something new"] },
    },
    "/consumer/getsafewindow": { body: ext ? { ...card, safeWindowProof: "document checks" } : card },
    "/testresult/getcurrentusertestresults": { body: [ext ? { ...result, ...resultExtensions } : result] },
    "/testresult/testresultpropertyvalues": { body: propertyValues },
    "/testresult/getimage": { body: jpeg },
    "/testresult/addtestresultmultipart": { body: ext ? { success: true, consumerMessage: "Your test result was validated.", sF_TestResultId: "r-2" } : { success: true, consumerMessage: "Your test result was validated." } },
    "/testresult/addtestresulturl": { body: ext ? { success: true, consumerMessage: "Your test result was validated.", sF_TestResultId: "r-3" } : { success: true, consumerMessage: "Your test result was validated." } },
    "/testresult/dispute": { body: { success: true } },
    "/consumersubscription/subscribers": { body: { success: true, subscriptions: [ext ? { ...relation, ...relationExtensions } : relation] } },
    "/consumersubscription/publishers": { body: { success: true, subscriptions: [ext ? { ...relation, ...relationExtensions } : relation] } },
    "/consumersubscription/searchpublishers": { body: { success: true, consumers: [ext ? { ...hit, safeWindowId: "3MX7Q2KD" } : hit] } },
    "/consumersubscription/requestsubscription": { body: ext ? { success: true, sF_ConsumerSubscriptionId: "s-2" } : { success: true } },
    "/consumersubscription/cancelsubscriptionrequest": { body: { success: true } },
    "/consumersubscription/confirmsubscriptionrequest": { body: { success: true } },
    "/consumersubscription/declinesubscriptionrequest": { body: { success: true } },
    "/consumersubscription/deletesubscription": { body: { success: true } },
    "/consumersubscription/subscriptionstatus": { body: { success: true, pending: false, subscribed: true } },
    "/search": { body: { success: true, locations: [location] } },
    "/locationvisit/getcurrentuservisits": { body: [visit] },
    "/locationvisit/setrating": { body: { ...visit, rating: 4 } },
  };
  if (!ext) return answers;
  // Our extension calls: only where the upstream has them (else the fake's 404).
  return {
    ...answers,
    "/testresult/getpdf": { body: Buffer.from("%PDF-1.7\n%%EOF\n").toString("base64") },
    "/consumer/deleteprofile": { body: { success: true } },
    "/consumer/export": { body: exported },
    "/testresult/disputequeue": { body: [queueEntry] },
    "/testresult/disputeimage": { body: jpeg },
    "/testresult/reviewdispute": { body: { success: true } },
    "/testresult/disputereviews": { body: [review] },
    "/checkin/issuecode": { body: { code: "K7Q2MX", expiresAt: "2030-01-01T00:02:00Z" } },
    "/checkin/redeemcode": { body: check },
    "/checkin/checkin": { body: check },
    "/api/account/delete": { body: true },
  };
};

/** Answers a test sets for one path, whatever the mode (cleared after each use of `overriding`). */
const overrides = new Map<string, { status?: number; body: unknown }>();

/** The probes' requests (no parameter, or an empty body): refused with 400 where the call exists. */
function probeRefusal(request: IncomingMessage, key: string, body: string, ext: boolean): { status: number; body: unknown } | undefined {
  if (!ext) return undefined;
  const url = new URL(request.url ?? "/", "http://fake");
  if (key === "/testresult/getpdf" && !url.searchParams.has("testResultId")) return { status: 400, body: { error: "invalid_request", error_description: "testResultId is required." } };
  if ((key === "/checkin/checkin" || key === "/api/account/delete") && (body === "{}" || body === "")) return { status: 400, body: { error: "invalid_request", error_description: "Missing field." } };
  return undefined;
}

function fakeUpstream(mode: Mode): Server {
  return createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const key = new URL(request.url ?? "/", "http://fake").pathname.toLowerCase().replace(/\/$/, "") || "/";
      const answer = overrides.get(key) ?? probeRefusal(request, key, Buffer.concat(chunks).toString(), mode === "extended") ?? answersOf(mode)[key] ?? { status: 404, body: { error: "not_found", error_description: "No such call." } };
      response.writeHead(answer.status ?? 200, { "content-type": "application/json" }).end(JSON.stringify(answer.body));
    });
  });
}

// ---------------------------------------------------------------- the clients, once per upstream

class SignInAgain extends Error {}

/**
 * The app's consumer and identity clients for a signed-in user, pointed at `url` (both upstreams): a fresh
 * module graph per upstream, since the app reads its configuration once per process.
 */
async function clientsAt(url: string) {
  // All three upstream URLs (the configuration allows all or none) and the client secret they require.
  process.env.CONSUMER_API_URL = url;
  process.env.IDENTITY_URL = url;
  process.env.BUSINESS_API_URL = url;
  process.env.IDENTITY_CLIENT_SECRET ??= "a-client-secret-for-the-test";
  vi.resetModules();
  const { consumerApi } = await import("../../app/server/upstream/consumer.server");
  const { identityApi } = await import("../../app/server/upstream/identity.server");
  const { requestContext, userContext } = await import("../../app/server/context");
  // Read now, while the variables name this upstream (the graph reads them once, on first use).
  (await import("../../app/server/config.server")).getConfig();
  const context = new RouterContextProvider();
  context.set(requestContext, { nonce: "n", requestId: "r", log: pino({ level: "silent" }), clientIp: "127.0.0.1", sessions: {} as never, attemptLimits: {} as never, readQrPhoto: {} as never, draining: new AbortController().signal });
  context.set(userContext, {
    accessToken: "a-token",
    expiresAt: Date.now() + 3_600_000,
    userName: "ada@example.com",
    signInAgain() {
      throw new SignInAgain();
    },
  });
  return { consumer: consumerApi(context), identity: identityApi(context) };
}

type Clients = Awaited<ReturnType<typeof clientsAt>>;

const servers: Server[] = [];
let extended: Clients;
let plain: Clients;

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  extended = await clientsAt(await listen(fakeUpstream("extended")));
  plain = await clientsAt(await listen(fakeUpstream("plain")));
}, 60_000);

afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

/** `value` without the keys `keys` (an extension's data), in objects at any depth of arrays. */
function without<T>(value: T, keys: readonly string[]): unknown {
  if (Array.isArray(value)) return value.map((v) => without(v, keys));
  if (value && typeof value === "object" && !Buffer.isBuffer(value)) return Object.fromEntries(Object.entries(value).filter(([k]) => !keys.includes(k)));
  return value;
}

/** The value of an answer that must have succeeded. */
function valueOf<T>(answer: { ok: true; value: T } | { ok: false; message: string }): T {
  if (!answer.ok) throw new Error(`the call failed: ${answer.message}`);
  return answer.value;
}

// ---------------------------------------------------------------- the tests

describe("every client method against an upstream of the product rules alone", () => {
  const profileFields = { firstName: "Ada", middleName: null, lastName: "Lovelace", dob: "1985-12-10", postalCode: "98101" };

  it("the product rules' profile, window and permission calls give the same values, minus the extensions' data", async () => {
    expect(valueOf(await plain.consumer.getProfile())).toEqual(valueOf(await extended.consumer.getProfile()));
    // The write answers' `consumer` is ours: the product rules read the success flag only.
    expect(valueOf(await plain.consumer.createProfile(profileFields))).toEqual(without(valueOf(await extended.consumer.createProfile(profileFields)), ["consumer"]));
    expect(valueOf(await plain.consumer.modifyCore("user-1", profileFields))).toEqual(without(valueOf(await extended.consumer.modifyCore("user-1", profileFields)), ["consumer"]));
    expect(valueOf(await plain.consumer.getSafeWindow())).toEqual(without(valueOf(await extended.consumer.getSafeWindow()), ["safeWindowProof"]));
    // docs/product/data.md §6 writes the names in words; "something new" is a screen this app does not have.
    expect(valueOf(await plain.consumer.getPermissions())).toEqual(["SafeWindow", "MyTests", "Friends", "Settings"]);
    expect(valueOf(await extended.consumer.getPermissions())).toEqual(["SafeWindow", "MyTests", "Friends", "Settings", "DisputeReviews"]);
  });

  it("the product rules' test-result calls give the same values without outcome, pages, lab link and proof", async () => {
    const extensions = Object.keys(resultExtensions);
    expect(valueOf(await plain.consumer.testResults())).toEqual(without(valueOf(await extended.consumer.testResults()), extensions));
    expect(valueOf(await plain.consumer.testResult("r-1"))).toEqual(without(valueOf(await extended.consumer.testResult("r-1")), extensions));
    expect(valueOf(await plain.consumer.propertyValues("r-1"))).toEqual(valueOf(await extended.consumer.propertyValues("r-1")));
    expect(valueOf(await plain.consumer.image("r-1"))).toEqual(valueOf(await extended.consumer.image("r-1")));
    const pdf = new File([new TextEncoder().encode("%PDF-1.7\n%%EOF\n")], "result.pdf", { type: "application/pdf" });
    expect(valueOf(await plain.consumer.upload(pdf))).toEqual(without(valueOf(await extended.consumer.upload(pdf)), ["sF_TestResultId"]));
    expect(valueOf(await plain.consumer.addByLink("https://lab.example/r/1"))).toEqual(without(valueOf(await extended.consumer.addByLink("https://lab.example/r/1")), ["sF_TestResultId"]));
    const [listed] = valueOf(await plain.consumer.testResults());
    expect(valueOf(await plain.consumer.dispute(listed!, "Typo in my name."))).toEqual(valueOf(await extended.consumer.dispute(listed!, "Typo in my name.")));
  });

  it("the product rules' follow calls give the same values without the product ID, the window's proof and the new relation's id", async () => {
    const extensions = ["safeWindowId", "safeWindowProof"];
    expect(valueOf(await plain.consumer.subscribers())).toEqual(without(valueOf(await extended.consumer.subscribers()), extensions));
    expect(valueOf(await plain.consumer.publishers())).toEqual(without(valueOf(await extended.consumer.publishers()), extensions));
    expect(valueOf(await plain.consumer.searchPublishers("Grace"))).toEqual(without(valueOf(await extended.consumer.searchPublishers("Grace")), extensions));
    expect(valueOf(await plain.consumer.subscriptionStatus("c-2"))).toEqual(valueOf(await extended.consumer.subscriptionStatus("c-2")));
    for (const change of ["request", "cancel", "confirm", "decline", "delete", "unfollow"] as const) {
      expect(valueOf(await plain.consumer.follow(change, "x-1")), change).toBe(true);
      expect(valueOf(await extended.consumer.follow(change, "x-1")), change).toBe(true);
    }
  });

  it("the product rules' venue calls give the same values", async () => {
    expect(valueOf(await plain.consumer.searchLocations({ zip: "97201" }, 10))).toEqual(valueOf(await extended.consumer.searchLocations({ zip: "97201" }, 10)));
    expect(valueOf(await plain.consumer.visits())).toEqual(valueOf(await extended.consumer.visits()));
    expect(valueOf(await plain.consumer.setRating("v-1", 4))).toEqual(valueOf(await extended.consumer.setRating("v-1", 4)));
  });

  it("our extension calls are notFound at a plain upstream, and learnt absent, where the extended one answers them", async () => {
    const calls = {
      pdf: (c: Clients) => c.consumer.pdf("r-1"),
      exportData: (c: Clients) => c.consumer.exportData(),
      deleteProfile: (c: Clients) => c.consumer.deleteProfile(),
      disputeQueue: (c: Clients) => c.consumer.disputeQueue(),
      disputeImage: (c: Clients) => c.consumer.disputeImage("r-9", 1),
      reviewDispute: (c: Clients) => c.consumer.reviewDispute("r-9", "accept", "Fixed."),
      disputeReviews: (c: Clients) => c.consumer.disputeReviews(),
      issueCheckinCode: (c: Clients) => c.consumer.issueCheckinCode(),
      redeemCheckinCode: (c: Clients) => c.consumer.redeemCheckinCode("K7Q2MX", "l-1"),
      checkIn: (c: Clients) => c.consumer.checkIn("v-1"),
      deleteAccount: (c: Clients) => c.identity.deleteAccount("Window#2026a"),
    };
    for (const [name, call] of Object.entries(calls)) {
      expect((await call(extended)).ok, name).toBe(true);
      expect(await call(plain), name).toMatchObject({ ok: false, reason: "notFound" });
    }
    // The screens ask before offering: served by the extended upstream, absent at the plain one.
    expect(await extended.consumer.checkinsSupported()).toBe(true);
    expect(await extended.consumer.ownDataSupported()).toBe(true);
    expect(await extended.identity.accountDeletionSupported()).toBe(true);
    expect(await plain.consumer.checkinsSupported()).toBe(false);
    expect(await plain.consumer.ownDataSupported()).toBe(false);
    expect(await plain.identity.accountDeletionSupported()).toBe(false);
  });

  it("learns an extension from its probe without a side effect: the probe is refused (400) where the call exists", async () => {
    // A fresh client: nothing learnt yet, so each answer below comes from a probe.
    const server = fakeUpstream("extended");
    const fresh = await clientsAt(await listen(server));
    const asked: string[] = [];
    server.prependListener("request", (request: IncomingMessage) => asked.push(`${request.method} ${request.url}`));
    expect(await fresh.consumer.ownDataSupported()).toBe(true);
    expect(await fresh.consumer.checkinsSupported()).toBe(true);
    expect(await fresh.identity.accountDeletionSupported()).toBe(true);
    expect(asked).toEqual(["GET /testresult/getpdf/", "POST /checkin/checkin/", "POST /api/account/delete"]);
    // Kept: asking again makes no call.
    expect(await fresh.consumer.ownDataSupported()).toBe(true);
    expect(asked).toHaveLength(3);
  });
});

describe("a 200 answer with success: false (docs/product/messages.md §8)", () => {
  it("createprofile says 'There was a problem creating your profile.', not the registration error", async () => {
    overrides.set("/consumer/createprofile", { body: { success: false } });
    try {
      const created = await plain.consumer.createProfile({ firstName: "Ada", middleName: null, lastName: "Lovelace", dob: "1985-12-10", postalCode: "98101" });
      expect(created).toMatchObject({ ok: false, reason: "refused", message: "There was a problem creating your profile." });
      expect(messages.profileCreateFailed).toBe("There was a problem creating your profile.");
    } finally {
      overrides.clear();
    }
  });

  it("an upload shows the upstream's consumerMessage, not the generic failure", async () => {
    const sentence = "This PDF was printed or saved again by another program, so we cannot tell it is the original.";
    overrides.set("/testresult/addtestresultmultipart", { body: { success: false, consumerMessage: sentence } });
    try {
      const pdf = new File([new TextEncoder().encode("%PDF-1.7\n%%EOF\n")], "result.pdf", { type: "application/pdf" });
      expect(await plain.consumer.upload(pdf)).toMatchObject({ ok: false, reason: "refused", message: sentence });
    } finally {
      overrides.clear();
    }
  });

  it("an upload without a consumerMessage, and a follow change, give their own docs/product/messages.md §8 messages", async () => {
    overrides.set("/testresult/addtestresultmultipart", { body: { success: false } });
    overrides.set("/consumersubscription/confirmsubscriptionrequest", { body: { success: false } });
    try {
      const pdf = new File([new TextEncoder().encode("%PDF-1.7\n%%EOF\n")], "result.pdf", { type: "application/pdf" });
      expect(await plain.consumer.upload(pdf)).toMatchObject({ ok: false, reason: "refused", message: messages.uploadFailed });
      expect(await plain.consumer.follow("confirm", "s-1")).toMatchObject({ ok: false, reason: "refused", message: messages.followConfirmFailed });
    } finally {
      overrides.clear();
    }
  });
});
