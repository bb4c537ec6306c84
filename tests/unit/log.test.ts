import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger, redactUrl } from "../../app/server/log.server";

describe("redactUrl", () => {
  it("hides docs/product.md §7's secret query parameters and keeps the rest", () => {
    expect(redactUrl("/api/account/confirmaccount?email=a%40b.c&password=Secret1!&token=abc")).toBe(
      "/api/account/confirmaccount?email=a%40b.c&password=[redacted]&token=[redacted]",
    );
    expect(redactUrl("/x?newPassword=P&currentPassword=Q")).toBe("/x?newPassword=[redacted]&currentPassword=[redacted]");
    expect(redactUrl("/plain?email=a")).toBe("/plain?email=a");
    // Spelled with percent-encoding or another case, the name still counts.
    expect(redactUrl("/resetpassword?email=a&%74oken=abc&PassWord=p")).toBe("/resetpassword?email=a&%74oken=[redacted]&PassWord=[redacted]");
  });
});

describe("createLogger", () => {
  it("redacts passwords and tokens in logged objects", () => {
    const lines: string[] = [];
    const sink = new Writable({ write(chunk, _enc, done) { lines.push(String(chunk)); done(); } });
    const log = createLogger("info", sink);
    log.info({ password: "Secret1!", user: { token: "tok-123", accessToken: "at-456" } }, "hello");
    const text = lines.join("");
    expect(text).toContain("hello");
    expect(text).not.toContain("Secret1!");
    expect(text).not.toContain("tok-123");
    expect(text).not.toContain("at-456");
  });
});
