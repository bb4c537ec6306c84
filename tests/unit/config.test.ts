import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "../../app/server/config.server";

describe("parseConfig", () => {
  it("gives the embedded defaults", () => {
    const config = parseConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.BASE_PATH).toBe("/");
    expect(config.basePrefix).toBe("");
    expect(config.publicUrl).toBe("http://localhost:3000");
    expect(config.IDENTITY_URL).toBeUndefined();
    expect(config.UPSTREAM_TIMEOUT_MS).toBe(30_000);
  });

  it("derives the public URL from the port and base path and trims slashes", () => {
    const config = parseConfig({ PORT: "8080", BASE_PATH: "/sw/", IDENTITY_URL: "http://id.example/" });
    expect(config.basePrefix).toBe("/sw");
    expect(config.publicUrl).toBe("http://localhost:8080/sw");
    expect(config.IDENTITY_URL).toBe("http://id.example");
  });

  it("reads the dispute reviewers as a list of addresses, none by default", () => {
    expect(parseConfig({}).REVIEWER_EMAILS).toEqual([]);
    expect(parseConfig({ REVIEWER_EMAILS: " a@example.com,,b@example.org " }).REVIEWER_EMAILS).toEqual(["a@example.com", "b@example.org"]);
  });

  it("treats empty variables as unset", () => {
    expect(parseConfig({ IDENTITY_URL: "", PORT: "" }).IDENTITY_URL).toBeUndefined();
  });

  it.each([
    ["PORT", "eighty"],
    ["PORT", "70000"],
    ["BASE_PATH", "no-slash"],
    ["IDENTITY_URL", "ftp://example.com"],
    ["DATABASE_URL", "mysql://x"],
    ["SMTP_URL", "http://mail"],
    ["REDIS_URL", "http://cache:6379"],
    ["SUPPORT_EMAIL", "support"],
    ["REVIEWER_EMAILS", "staff@example.com, nobody"],
    ["SESSION_SECRET", "short"],
    ["LOG_LEVEL", "loud"],
  ])("a wrong %s stops the start with a message naming it", (name, value) => {
    expect(() => parseConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => parseConfig({ [name]: value })).toThrow(new RegExp(`${name}:`));
  });
});
