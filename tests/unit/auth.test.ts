import { describe, expect, it, vi } from "vitest";
import { isTokenValid, requestedPath, safeRedirect } from "../../app/server/auth.server";
import { signInErrorMessage } from "../../app/server/upstream/identity.server";
import * as messages from "../../app/messages";

describe("safeRedirect (docs/architecture/behaviour.md §4)", () => {
  it.each(["/checkaccountstatus", "/mytests?x=1", "/a/b#c"])("keeps the local path %s", (to) => {
    expect(safeRedirect(to)).toBe(to);
  });
  it.each(["//evil.example", "/\\evil.example", "https://evil.example", "evil", "", "/\u0000x", "/\u007fx", "/caf\u00e9", "/\u0100", "/\u{1f600}", "/a b", "/\ud800", null, undefined])(
    "ignores %s",
    (to) => {
      expect(safeRedirect(to as string)).toBe("/checkaccountstatus");
    },
  );
});

describe("isTokenValid (docs/product/data.md §4, §9: expired 5 s before expiry)", () => {
  const now = 1_000_000;
  it("is valid more than 5 s before expiry", () => expect(isTokenValid(now + 5_001, now)).toBe(true));
  it("counts 5 s before expiry as expired", () => expect(isTokenValid(now + 5_000, now)).toBe(false));
  it("counts a past expiry and a missing one as expired", () => {
    expect(isTokenValid(now - 1, now)).toBe(false);
    expect(isTokenValid(undefined, now)).toBe(false);
  });
});

describe("requestedPath", () => {
  it("keeps the query and drops the base path", () => {
    expect(requestedPath(new Request("http://h/sw/mytests?a=1&b=2"), "/sw")).toBe("/mytests?a=1&b=2");
    expect(requestedPath(new Request("http://h/checkconfirmation"), "")).toBe("/checkconfirmation");
  });
});

describe("signInErrorMessage (docs/product/messages.md §8 login)", () => {
  it("maps statuses to the product's messages", () => {
    expect(signInErrorMessage(400)).toBe(messages.loginFailed);
    expect(signInErrorMessage(500)).toBe(messages.unexpectedError);
    // The authority's lockout says when to try again, not "Unknown Error".
    expect(signInErrorMessage(429, "Too many failed attempts. Try again later.")).toBe(messages.tooManyAttempts(15));
    expect(signInErrorMessage(429, undefined, 61)).toBe(messages.tooManyAttempts(2));
    expect(signInErrorMessage(418, "slow down")).toBe("Unknown Error: slow down");
    expect(signInErrorMessage(0)).toMatch(/^Unknown Error: /);
  });
});

describe("authenticate (the one sign-in strategy)", () => {
  // The authority counts failed sign-ins per browser address: a browser must not choose the address it is counted under.
  it("tells the authority the address from the load context, never one a header of the browser names; re-authentication uses the signed-in account, not the form's", async () => {
    const { createServer } = await import("node:http");
    const seen: { forwardedFor: string | undefined; body: string }[] = [];
    const authority = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        seen.push({ forwardedFor: req.headers["x-forwarded-for"] as string | undefined, body });
        res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: "invalid_grant" }));
      });
    });
    await new Promise<void>((resolve) => authority.listen(0, "127.0.0.1", resolve));
    // The upstreams elsewhere: all three URLs (the configuration allows all or none) and the client secret.
    const authorityUrl = `http://127.0.0.1:${(authority.address() as { port: number }).port}`;
    const upstreams = { IDENTITY_URL: authorityUrl, CONSUMER_API_URL: authorityUrl, BUSINESS_API_URL: authorityUrl, IDENTITY_CLIENT_SECRET: "a-client-secret-for-the-test" };
    const previous = Object.fromEntries(Object.keys(upstreams).map((name) => [name, process.env[name]]));
    Object.assign(process.env, upstreams);
    try {
      vi.resetModules();
      const { RouterContextProvider } = await import("react-router");
      const { requestContext } = await import("../../app/server/context");
      const { authenticate, SignInError } = await import("../../app/server/auth.server");
      const context = new RouterContextProvider();
      const log = { info() {}, warn() {}, error() {}, debug() {}, child: () => log };
      context.set(requestContext, { nonce: "n", requestId: "r", log: log as never, clientIp: "198.51.100.20", sessions: undefined as never, attemptLimits: undefined as never, readQrPhoto: undefined as never, draining: new AbortController().signal });
      const spoofed = (body: string) =>
        new Request("http://h/login", {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", "x-safewindow-client-ip": "203.0.113.7", "x-forwarded-for": "203.0.113.8" },
          body,
        });
      await expect(authenticate(spoofed("email=a%40example.com&password=Wrong%231aaaa"), context)).rejects.toBeInstanceOf(SignInError);
      await expect(authenticate(spoofed("email=b%40example.com&currentPassword=Wrong%232aaaa"), context, "owner@example.com")).rejects.toBeInstanceOf(SignInError);
      expect(seen.map((s) => s.forwardedFor)).toEqual(["198.51.100.20", "198.51.100.20"]);
      expect(new URLSearchParams(seen[0]!.body).get("username")).toBe("a@example.com");
      const reauth = new URLSearchParams(seen[1]!.body);
      expect([reauth.get("username"), reauth.get("password")]).toEqual(["owner@example.com", "Wrong#2aaaa"]);
    } finally {
      for (const [name, value] of Object.entries(previous)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      vi.resetModules();
      authority.close();
    }
  });
});
