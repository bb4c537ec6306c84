// The web app's upstream clients outside a server, for tests whose upstream is an HTTP server of
// their own (upstream-language.test.ts, upstream-failure-language.test.ts): the clients pointed at
// it, and a request context as server/app.ts and the signed-in guard leave it.
import { pino } from "pino";
import { RouterContextProvider } from "react-router";
import { requestContext, userContext } from "../../app/server/context";

/** The app's identity, consumer and business clients, and its language negotiation. */
export interface AppClients {
  identityApi: typeof import("../../app/server/upstream/identity.server").identityApi;
  forgetClientToken: typeof import("../../app/server/upstream/identity.server").forgetClientToken;
  consumerApi: typeof import("../../app/server/upstream/consumer.server").consumerApi;
  businessApi: typeof import("../../app/server/upstream/business.server").businessApi;
  createLanguageNegotiation: typeof import("../../app/server/i18n.server").createLanguageNegotiation;
}

/**
 * The clients, with all three upstreams at `url` (a test's own server) and the app's client secret
 * `clientSecret`. The app reads its configuration once, on first use, so this sets it before it
 * loads the clients: call it once per test file, before any app module reads the configuration.
 */
export async function appClientsAt(url: string, clientSecret: string): Promise<AppClients> {
  process.env.IDENTITY_URL = url;
  process.env.CONSUMER_API_URL = url;
  process.env.BUSINESS_API_URL = url;
  process.env.IDENTITY_CLIENT_SECRET = clientSecret;
  process.env.UPSTREAM_TIMEOUT_MS = "5000";
  const identity = await import("../../app/server/upstream/identity.server");
  return {
    identityApi: identity.identityApi,
    forgetClientToken: identity.forgetClientToken,
    consumerApi: (await import("../../app/server/upstream/consumer.server")).consumerApi,
    businessApi: (await import("../../app/server/upstream/business.server")).businessApi,
    createLanguageNegotiation: (await import("../../app/server/i18n.server")).createLanguageNegotiation,
  };
}

/** A request context as server/app.ts and the guard leave it, for a signed-in user (access token "user-token"). */
export function signedInContext(): RouterContextProvider {
  const context = new RouterContextProvider();
  context.set(requestContext, { nonce: "n", requestId: "r", log: pino({ level: "silent" }), clientIp: "127.0.0.1", sessions: {} as never, attemptLimits: {} as never, readQrPhoto: {} as never, draining: new AbortController().signal });
  context.set(userContext, { accessToken: "user-token", expiresAt: Date.now() + 3_600_000, userName: "someone@example.com", signInAgain: () => { throw new Error("signed out"); } });
  return context;
}
