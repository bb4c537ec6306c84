// The app's business API client (app/server/upstream/business.server.ts) against the reference
// business API and identity authority over real HTTP: every business call of docs/product/calls.md §7.3 through the
// client, typed answers, and the failures a screen gets: a refusal the API explains carries its
// sentence, a refused token sends the user to sign in again, and an upstream that is down or does
// not answer within UPSTREAM_TIMEOUT_MS is `unavailable` with the call's message.
import { createServer, type Server } from "node:net";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pino } from "pino";
import { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as messages from "../../app/messages";
import { requestContext, userContext } from "../../app/server/context";
import { startBusinessService } from "../../services/business/server.ts";
import type { BusinessService } from "../../services/business/server.ts";
import { makeUser, startServices } from "./support.ts";
import type { Services, TestUser } from "./support.ts";

const CLIENT = { clientId: "safewindow-web", clientSecret: "business-client-secret-0123456789" };

let services: Services;
let business: BusinessService;
let dataDir: string;
let silentUpstream: Server;
let silentUrl: string;
let businessApi: typeof import("../../app/server/upstream/business.server").businessApi;

beforeAll(async () => {
  services = await startServices({ client: CLIENT, tmpPrefix: "business-client-", pinIssuer: true });
  dataDir = await mkdtemp(path.join(tmpdir(), "business-client-api-"));
  business = await startBusinessService({ dataDir, identityUrl: services.identityUrl, identityIssuer: services.identity.issuer, logger: pino({ level: "silent" }) });
  // An upstream that accepts connections and never answers.
  silentUpstream = createServer(() => {});
  await new Promise<void>((resolve) => silentUpstream.listen(0, "127.0.0.1", resolve));
  silentUrl = `http://127.0.0.1:${(silentUpstream.address() as { port: number }).port}`;
  // The app reads its configuration once, on first use: set it before the client loads (all three
  // upstream URLs, as the configuration requires; this test calls only the business API).
  process.env.BUSINESS_API_URL = business.url;
  process.env.IDENTITY_URL = services.identityUrl;
  process.env.CONSUMER_API_URL = services.consumer.url;
  process.env.IDENTITY_CLIENT_SECRET = CLIENT.clientSecret;
  process.env.UPSTREAM_TIMEOUT_MS = "3000";
  ({ businessApi } = await import("../../app/server/upstream/business.server"));
}, 60_000);

afterAll(async () => {
  await business?.close();
  await services?.close();
  silentUpstream?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

class SignInAgain extends Error {}

/** A request context as the guard leaves it for `user` (their token), with a flag for signInAgain. */
function contextOf(user: TestUser | { token: string }) {
  const context = new RouterContextProvider();
  context.set(requestContext, { nonce: "n", requestId: "r", log: pino({ level: "silent" }), clientIp: "127.0.0.1", sessions: {} as never, attemptLimits: {} as never, readQrPhoto: {} as never, draining: new AbortController().signal });
  context.set(userContext, {
    accessToken: user.token,
    expiresAt: Date.now() + 3_600_000,
    userName: "someone@example.com",
    signInAgain() {
      throw new SignInAgain();
    },
  });
  return context;
}

const confirmedUser = () => makeUser(services, { confirmed: true });

describe("the business client", () => {
  it("makes every business call for the signed-in user and answers typed values", async () => {
    const admin = await confirmedUser();
    const api = businessApi(contextOf(admin));

    expect(await api.saveUserInfo({ firstName: "Ada", mobileNumber: "2065550123" })).toMatchObject({ ok: true, value: { firstName: "Ada", mobileNumber: "2065550123" } });
    expect(await api.userInfo()).toMatchObject({ ok: true, value: { userName: admin.email.toLowerCase(), firstName: "Ada" } });

    const subscribed = await api.subscribe({ businessName: "Corner Bistro", address: "1 Main St", city: "Portland", state: "OR", postalCode: "97201", phone: "5035550100", plan: "annual" });
    if (!subscribed.ok) throw new Error(subscribed.message);
    const groupId = subscribed.value.hospitalityGroup.hospitalityGroupId;
    expect(await api.licensedAdministrator()).toEqual({ ok: true, value: { isLicensedAdministrator: true, hospitalityGroupIds: [groupId] } });

    const app = await api.applicationByName("SafeWindow");
    if (!app.ok) throw new Error(app.message);
    const roles = await api.applicationRoles(app.value.applicationId);
    if (!roles.ok) throw new Error(roles.message);
    const locationRole = roles.value.find((r) => r.scope === "location")!;

    const granted = await api.giveRole({
      hospitalityGroupId: groupId,
      applicationRoleId: locationRole.applicationRoleId,
      email: "door@example.com",
      location: { name: "Bistro Patio", address: "1 Main St", city: "Portland", state: "OR", postalCode: "97201", phone: "5035550101" },
    });
    if (!granted.ok) throw new Error(granted.message);
    const changed = await api.changeRole({ applicationUserRoleLocationId: granted.value.applicationUserRoleLocationId, location: { name: "Bistro Garden" } });
    expect(changed).toMatchObject({ ok: true, value: { locationName: "Bistro Garden" } });

    const group = await api.hospitalityGroup(groupId);
    expect(group).toMatchObject({ ok: true, value: { name: "Corner Bistro", locations: [{ name: "Bistro Garden" }] } });
    expect(await api.administratorGroups()).toMatchObject({ ok: true, value: [{ hospitalityGroupId: groupId }] });
    expect(await api.locationAdministrator()).toMatchObject({ ok: true, value: { isLocationAdministrator: true, locations: [{ name: "Bistro Garden" }] } });
    const users = await api.usersAndRoles(groupId);
    expect(users.ok && users.value.map((u) => u.roleName).sort()).toEqual(["Licensed Administrator", "Location Administrator"]);
    expect(await api.takeRole(granted.value.applicationUserRoleLocationId)).toEqual({ ok: true, value: true });

    const billing = await api.billingDetails(groupId);
    if (!billing.ok) throw new Error(billing.message);
    expect(billing.value.subscription).toMatchObject({ plan: "annual", status: "active" });
    const invoiceId = billing.value.invoices[0]!.invoiceId;
    expect(await api.retryInvoice(invoiceId)).toMatchObject({ ok: true, value: { invoice: { status: "paid", attempts: 1 } } });
    expect(await api.setSubscriptionStatus(billing.value.subscription!.subscriptionId, "paused")).toMatchObject({ ok: true, value: { status: "paused" } });
  });

  it("gives a refusal the API explains with its sentence, others with the call's message", async () => {
    const admin = await confirmedUser();
    const api = businessApi(contextOf(admin));
    const subscribed = await api.subscribe({ businessName: "Solo Bar", address: "2 Main St", city: "Seattle", state: "WA", postalCode: "98101", phone: "2065550199", plan: "monthly" });
    if (!subscribed.ok) throw new Error(subscribed.message);
    const groupId = subscribed.value.hospitalityGroup.hospitalityGroupId;
    const mine = await api.usersAndRoles(groupId);
    if (!mine.ok) throw new Error(mine.message);
    const last = await api.takeRole(mine.value[0]!.applicationUserRoleLocationId);
    expect(last).toMatchObject({ ok: false, reason: "refused", status: 409, message: "A hospitality group keeps at least one licensed administrator." });

    const stranger = businessApi(contextOf(await confirmedUser()));
    expect(await stranger.billingDetails(groupId)).toMatchObject({ ok: false, reason: "notFound", message: messages.billingLoadFailed });
    expect(await stranger.hospitalityGroup(groupId)).toMatchObject({ ok: false, reason: "notFound" });
    const unconfirmed = businessApi(contextOf(await makeUser(services)));
    expect(await unconfirmed.subscribe({ businessName: "X", address: "X", city: "X", state: "WA", postalCode: "98101", phone: "2065550199", plan: "monthly" })).toMatchObject({
      ok: false,
      reason: "refused",
      status: 403,
      message: messages.subscriptionFailed,
    });
  });

  it("sends the user to sign in again when the API refuses the token", async () => {
    const api = businessApi(contextOf({ token: "not.a.token" }));
    await expect(api.userInfo()).rejects.toBeInstanceOf(SignInAgain);
  });

  it("answers `unavailable` when the business API is down or does not answer in time", async () => {
    const user = await confirmedUser();
    const previous = process.env.BUSINESS_API_URL;
    const { getConfig } = await import("../../app/server/config.server");
    const config = getConfig() as { BUSINESS_API_URL?: string };
    try {
      config.BUSINESS_API_URL = silentUrl;
      const started = Date.now();
      const slow = await businessApi(contextOf(user)).billingDetails("5a1e7d0c-0000-4000-8000-000000000000");
      expect(slow).toMatchObject({ ok: false, reason: "unavailable", status: 0, message: messages.billingLoadFailed });
      expect(Date.now() - started).toBeGreaterThanOrEqual(2_900);
      expect(Date.now() - started).toBeLessThan(15_000);
      config.BUSINESS_API_URL = "http://127.0.0.1:9";
      expect(await businessApi(contextOf(user)).userInfo()).toMatchObject({ ok: false, reason: "unavailable", message: messages.upstreamUnavailable });
    } finally {
      config.BUSINESS_API_URL = previous;
    }
  });
});
