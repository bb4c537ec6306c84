// The person's language reaches every upstream (docs/architecture/upstream-calls.md §6.2): the app's
// identity, consumer and business clients, called inside a request whose language negotiation ran,
// send that language as `Accept-Language`, and nothing else of their request changes. The upstream
// here is a real HTTP server of the test that records what it was sent; the negotiation is the app's
// own, with Spanish offered (createLanguageNegotiation(["en","es"])), as the app will offer it.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appClientsAt, signedInContext, type AppClients } from "./app-clients.ts";

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
}

let upstream: Server;
let received: Received[] = [];
let apis: AppClients;

beforeAll(async () => {
  // One recording upstream stands for all three: it answers the token endpoint with a token and
  // every other call with `{}` (what the answer is does not matter here, only what was sent).
  upstream = createServer((request, response) => {
    received.push({ path: new URL(request.url ?? "/", "http://x").pathname, headers: request.headers });
    request.resume();
    request.on("end", () => {
      response.setHeader("content-type", "application/json");
      response.end(request.url?.startsWith("/connect/token") ? JSON.stringify({ access_token: "client-token", expires_in: 3600, token_type: "Bearer" }) : "{}");
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(upstream.address() as { port: number }).port}`;
  apis = await appClientsAt(url, "upstream-language-secret-0123456789");
}, 30_000);

afterAll(() => {
  upstream?.close();
});

/** One upstream call through each client (a mail-sending identity call, a consumer read, a business read). */
async function callEach(context: RouterContextProvider): Promise<void> {
  await apis.identityApi(context).requestPasswordChange("someone@example.com");
  await apis.consumerApi(context).getProfile();
  await apis.businessApi(context).userInfo();
}

/**
 * Runs `callEach` inside the negotiation's middleware (offering English and Spanish) for a browser
 * that asks for `acceptLanguage`, as the root middleware runs before every loader and action.
 */
async function callsInRequest(acceptLanguage: string): Promise<Received[]> {
  received = [];
  apis.forgetClientToken();
  const context = signedInContext();
  const request = new Request("http://app.test/login", { headers: { "accept-language": acceptLanguage } });
  const negotiation = apis.createLanguageNegotiation(["en", "es"]);
  await negotiation.middleware({ request, context, params: {}, unstable_pattern: "/login" } as never, async () => {
    await callEach(context);
    return new Response("");
  });
  return received;
}

/** The headers that vary between connections or runs, and the one under test, left out for comparison. */
function comparable({ path, headers }: Received) {
  const { "accept-language": _language, connection: _connection, ...rest } = headers;
  return { path, headers: rest };
}

describe("the person's language upstream", () => {
  it("sends the negotiated language as Accept-Language on every call made for the request, and changes nothing else", async () => {
    const spanish = await callsInRequest("es-MX,es;q=0.9,en;q=0.5");
    expect(spanish.map((r) => r.path)).toEqual(["/connect/token", "/api/account/requestpasswordchange", "/consumer", "/applicationsecurity/getuserinfo/"]);
    // The client token is shared by every request, so its request carries no one's language: no
    // Accept-Language at all.
    expect(spanish[0]!.headers).not.toHaveProperty("accept-language");
    for (const call of spanish.slice(1)) expect(call.headers["accept-language"], call.path).toBe("es");

    const english = await callsInRequest("en-US,en;q=0.9");
    expect(english.slice(1).map((r) => r.headers["accept-language"])).toEqual(["en", "en", "en"]);

    // Without a negotiation (a context no root middleware saw) no language is named (no header), and apart from
    // Accept-Language every request is the same, header for header.
    received = [];
    apis.forgetClientToken();
    await callEach(signedInContext());
    const without = received;
    expect(without.map((r) => r.headers["accept-language"])).toEqual([undefined, undefined, undefined, undefined]);
    expect(spanish.map(comparable)).toEqual(without.map(comparable));
    expect(english.map(comparable)).toEqual(without.map(comparable));
  });
});
