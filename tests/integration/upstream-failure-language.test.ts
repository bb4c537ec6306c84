// The upstream clients word a failure a person reads in the request's language (docs/architecture/behaviour.md
// §4 "Language"): the identity, consumer and business clients, called inside a request whose
// negotiation picked Spanish, answer Spanish messages for an upstream that is down, busy, throttling
// or refusing; English ones, byte for byte the product's (docs/product/messages.md §8), for English;
// a test-result refusal worded from its reason in Spanish; and a sentence the upstream wrote itself
// that the app cannot word (an upload's consumerMessage with the case's details) as it sent it. The upstream
// is a real HTTP server of the test that answers each path with the failure under test; the
// negotiation is the app's own, with Spanish offered (createLanguageNegotiation(["en","es"])).
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Language } from "../../app/i18n";
import { catalogues } from "../../app/messages/catalogues";
import { appClientsAt, signedInContext, type AppClients } from "./app-clients.ts";

/** The reference consumer API's sentence for `link_not_found`, as a third party might word it too. */
const linkNotFound = "Your testing company's site has no result at that link; the link may have expired. Check the link, or download the PDF from your testing company and upload it.";

let upstream: Server;
let apis: AppClients;

/** What the test's upstream answers, by path: status, body, headers. */
const answers: Record<string, { status: number; body: unknown; headers?: Record<string, string> }> = {
  // The password grant refused (wrong credentials); the client token answers as usual.
  "/connect/token": { status: 400, body: { error: "invalid_grant" } },
  // A read a screen needs: the consumer API fails on its side.
  "/consumer": { status: 500, body: {} },
  // The business API throttles this person, without saying for how long.
  "/applicationsecurity/getuserinfo/": { status: 429, body: {} },
  // An upload: busy, with when to try again.
  "/testresult/addtestresultmultipart/": { status: 503, body: {}, headers: { "retry-after": "7" } },
  // A follow change refused.
  "/consumersubscription/cancelsubscriptionrequest/": { status: 400, body: {} },
  // A result by link, refused for a reason the app words itself (the consumer API's own sentence beside it).
  "/testresult/addtestresulturl/": { status: 422, body: { success: false, reason: "link_not_found", consumerMessage: linkNotFound } },
};

/** A refusal whose sentence carries details of the case (a date): the app cannot word it, so shows it as sent. */
const futureRefusal = { status: 200, body: { success: false, reason: "future", consumerMessage: "This report says the specimen was collected at 2099-01-01 10:00 UTC, which is in the future." } };

beforeAll(async () => {
  upstream = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://x").pathname;
    const form = path === "/connect/token" ? "" : undefined;
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      const clientToken = form !== undefined && body.includes("grant_type=client_credentials");
      const future = request.url?.includes("future");
      const answer = clientToken
        ? { status: 200, body: { access_token: "client-token", expires_in: 3600, token_type: "Bearer" } }
        : future
          ? futureRefusal
          : (answers[path] ?? { status: 404, body: {} });
      response.writeHead(answer.status, { "content-type": "application/json", ...("headers" in answer ? answer.headers : {}) });
      response.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(upstream.address() as { port: number }).port}`;
  apis = await appClientsAt(url, "upstream-failure-language-secret-0123");
}, 30_000);

afterAll(() => {
  upstream?.close();
});

/** The failure messages of one call through each client, made inside the negotiation for a browser asking for `acceptLanguage`. */
async function failuresFor(acceptLanguage: string) {
  apis.forgetClientToken();
  const context = signedInContext();
  const request = new Request("http://app.test/mytests", { headers: { "accept-language": acceptLanguage } });
  const messages: Record<string, string | undefined> = {};
  const text = (result: { ok: boolean; message?: string }) => (result.ok ? undefined : result.message);
  await apis.createLanguageNegotiation(["en", "es"]).middleware({ request, context, params: {}, unstable_pattern: "/mytests" } as never, async () => {
    messages.signIn = text(await apis.identityApi(context).passwordGrant("someone@example.com", "wrong password"));
    messages.profile = text(await apis.consumerApi(context).getProfile());
    messages.userInfo = text(await apis.businessApi(context).userInfo());
    const file = new File([new Uint8Array([37, 80, 68, 70])], "result.pdf", { type: "application/pdf" });
    messages.upload = text(await apis.consumerApi(context).upload(file));
    messages.link = text(await apis.consumerApi(context).addByLink("https://lab.example/result/1"));
    messages.future = text(await apis.consumerApi(context).addByLink("https://lab.example/result/future"));
    messages.follow = text(await apis.consumerApi(context).follow("cancel", "relation-1"));
    return new Response("");
  });
  return messages;
}

/** What each call above must answer in `language`'s catalogue. */
function expected(language: Language) {
  const m = catalogues[language];
  return {
    signIn: m.loginFailed,
    profile: m.upstreamUnavailable,
    // A 429 that did not say how long: a minute.
    userInfo: m.tooManyAttempts(1),
    upload: m.uploadBusy(7),
    // Worded from the refusal's reason in Spanish; in English the consumer API's own sentence as it sent it.
    link: language === "en" ? linkNotFound : m.resultRefusalReasons.link_not_found,
    // A reason whose sentence carries the case's details: as the consumer API sent it, whatever the language.
    future: futureRefusal.body.consumerMessage,
    // The change's own message (docs/product/messages.md §8), as the screen shows it.
    follow: m.followCancelFailed,
  };
}

describe("an upstream failure's message in the request's language", () => {
  it("is Spanish for a request in Spanish: down, throttled, busy, a refused sign-in, a refusal by its reason; the upstream's own sentence as sent", async () => {
    const spanish = await failuresFor("es-MX,es;q=0.9");
    expect(spanish).toEqual(expected("es"));
    expect(spanish.profile).toBe("El servicio no respondió. Inténtelo de nuevo en un minuto.");
    expect(spanish.link).toMatch(/^El sitio de su empresa de pruebas no tiene ningún resultado en ese enlace/);
  });

  it("stays the product's English, byte for byte, for a request in English", async () => {
    const english = await failuresFor("en-US");
    expect(english).toEqual(expected("en"));
    expect(english.profile).toBe("The service did not answer. Please try again in a minute.");
    expect(english.signIn).toBe("Failed to login. Please check your username and password.");
  });
});
