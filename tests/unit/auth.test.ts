import { describe, expect, it } from "vitest";
import { isTokenValid, requestedPath, safeRedirect } from "../../app/server/auth.server";
import { signInErrorMessage } from "../../app/server/upstream/identity.server";
import * as messages from "../../app/messages";

describe("safeRedirect (docs/architecture.md §4)", () => {
  it.each(["/checkaccountstatus", "/mytests?x=1", "/a/b#c"])("keeps the local path %s", (to) => {
    expect(safeRedirect(to)).toBe(to);
  });
  it.each(["//evil.example", "/\\evil.example", "https://evil.example", "evil", "", "/\u0000x", null, undefined])(
    "ignores %s",
    (to) => {
      expect(safeRedirect(to as string)).toBe("/checkaccountstatus");
    },
  );
});

describe("isTokenValid (docs/product.md §4, §9: expired 5 s before expiry)", () => {
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

describe("signInErrorMessage (docs/product.md §8 login)", () => {
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

describe("withClientIp", () => {
  it("hands the strategy the address from the load context, never one the browser sent", async () => {
    const { RouterContextProvider } = await import("react-router");
    const { requestContext } = await import("../../app/server/context");
    const { withClientIp } = await import("../../app/server/auth.server");
    const context = new RouterContextProvider();
    context.set(requestContext, { nonce: "n", requestId: "r", log: console as never, clientIp: "198.51.100.20", sessions: undefined as never, attemptLimits: undefined as never });
    const spoofed = new Request("http://h/login", { method: "POST", headers: { "x-safewindow-client-ip": "203.0.113.7" }, body: "email=a" });
    const request = withClientIp(spoofed, context);
    expect(request.headers.get("x-safewindow-client-ip")).toBe("198.51.100.20");
    expect(await request.text()).toBe("email=a");
  });
});
