import express from "express";
import fc from "fast-check";
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

  /** The three upstream URLs and the client secret, as a replica whose upstreams run elsewhere has them. */
  const upstreams = {
    IDENTITY_URL: "http://id.example/",
    CONSUMER_API_URL: "http://consumer.example:5002",
    BUSINESS_API_URL: "http://business.example:5003//",
    IDENTITY_CLIENT_SECRET: "a-client-secret-of-some-length",
  };

  it("derives the public URL from the port and base path and trims slashes", () => {
    const config = parseConfig({ PORT: "8080", BASE_PATH: "/sw/", ...upstreams });
    expect(config.basePrefix).toBe("/sw");
    expect(config.publicUrl).toBe("http://localhost:8080/sw");
    expect(config.IDENTITY_URL).toBe("http://id.example");
    expect(config.CONSUMER_API_URL).toBe("http://consumer.example:5002");
    expect(config.BUSINESS_API_URL).toBe("http://business.example:5003");
  });

  it.each([
    [["IDENTITY_URL"], ["CONSUMER_API_URL", "BUSINESS_API_URL"]],
    [["IDENTITY_URL", "CONSUMER_API_URL"], ["BUSINESS_API_URL"]],
    [["CONSUMER_API_URL", "BUSINESS_API_URL"], ["IDENTITY_URL"]],
    [["BUSINESS_API_URL"], ["IDENTITY_URL", "CONSUMER_API_URL"]],
  ] as const)("with only %j of the upstream URLs set, stops the start naming the missing %j", (set, missing) => {
    const env: Record<string, string> = { IDENTITY_CLIENT_SECRET: upstreams.IDENTITY_CLIENT_SECRET };
    for (const name of set) env[name] = upstreams[name];
    let message = "";
    try {
      parseConfig(env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      message = (error as Error).message;
    }
    const named = [...message.matchAll(/^ {2}(\w+):/gm)].map((m) => m[1]);
    expect(named).toEqual(missing);
    for (const name of missing) expect(message).toMatch(new RegExp(`${name}: required when ${set.join(", ")} (is|are) set`));
  });

  it("counts an empty upstream URL as missing", () => {
    expect(() => parseConfig({ ...upstreams, BUSINESS_API_URL: "" })).toThrow(/^ {2}BUSINESS_API_URL: required when IDENTITY_URL, CONSUMER_API_URL are set/m);
  });

  it("requires IDENTITY_CLIENT_SECRET with the three upstream URLs, and nothing else without them", () => {
    const { IDENTITY_CLIENT_SECRET: _secret, ...urls } = upstreams;
    expect(() => parseConfig(urls)).toThrow(new ConfigError("Invalid configuration:\n  IDENTITY_CLIENT_SECRET: required when IDENTITY_URL is set"));
    expect(parseConfig(upstreams).IDENTITY_CLIENT_SECRET).toBe(upstreams.IDENTITY_CLIENT_SECRET);
    expect(parseConfig({}).CONSUMER_API_URL).toBeUndefined();
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
    ["BUSINESS_API_URL", "business:5003"],
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

describe("TRUST_PROXY, as Express's trust proxy takes it", () => {
  /** The client address Express reads for a request from `peer` with `forwardedFor`, under TRUST_PROXY `value`. */
  function clientIp(value: string, peer: string, forwardedFor: string): string | undefined {
    const app = express();
    app.set("trust proxy", parseConfig({ TRUST_PROXY: value }).TRUST_PROXY);
    const request = Object.create(app.request) as express.Request;
    Object.assign(request, { app, headers: { "x-forwarded-for": forwardedFor }, socket: { remoteAddress: peer }, connection: { remoteAddress: peer } });
    return request.ip;
  }

  it("reads true, false and a number of proxies as such, not as addresses", () => {
    expect(parseConfig({ TRUST_PROXY: "true" }).TRUST_PROXY).toBe(true);
    expect(parseConfig({ TRUST_PROXY: "false" }).TRUST_PROXY).toBe(false);
    expect(parseConfig({ TRUST_PROXY: " 2 " }).TRUST_PROXY).toBe(2);
    expect(parseConfig({}).TRUST_PROXY).toBe("loopback");
    // From a proxy at 10.0.0.5, in front of which another proxy (192.0.2.9) forwarded the browser (203.0.113.7).
    const chain = "203.0.113.7, 192.0.2.9";
    expect(clientIp("true", "10.0.0.5", chain)).toBe("203.0.113.7");
    expect(clientIp("false", "10.0.0.5", chain)).toBe("10.0.0.5");
    expect(clientIp("1", "10.0.0.5", chain)).toBe("192.0.2.9");
    expect(clientIp("2", "10.0.0.5", chain)).toBe("203.0.113.7");
    expect(clientIp("10.0.0.0/8", "10.0.0.5", chain)).toBe("192.0.2.9");
    expect(clientIp("10.0.0.0/255.0.0.0, 192.0.2.0/24", "10.0.0.5", chain)).toBe("203.0.113.7");
    expect(clientIp("loopback", "10.0.0.5", chain)).toBe("10.0.0.5");
  });

  it("refuses at start what Express would not take or would misread, naming the variable", () => {
    for (const value of ["yes", "33", "-1", "1.5", "10.0.0.0/33", "10.0.0.0/0", "10.0.0.0/0.0.0.0", "10.0.0.0/255.0.255.0", "10.0.0.0/8/8", "::1/255.0.0.0", "loopback,", "localhost"]) {
      expect(() => parseConfig({ TRUST_PROXY: value }), value).toThrow(ConfigError);
      expect(() => parseConfig({ TRUST_PROXY: value }), value).toThrow(/TRUST_PROXY: must be true, false, a number of proxies/);
    }
  });

  it("any value it accepts, Express takes without throwing", () => {
    const entry = fc.oneof(
      fc.constantFrom("loopback", "linklocal", "uniquelocal"),
      fc.ipV4(),
      fc.ipV6(),
      fc.tuple(fc.ipV4(), fc.integer({ min: 0, max: 40 })).map(([address, bits]) => `${address}/${bits}`),
      fc.tuple(fc.ipV6(), fc.integer({ min: 0, max: 140 })).map(([address, bits]) => `${address}/${bits}`),
      fc.tuple(fc.ipV4(), fc.ipV4()).map(([address, mask]) => `${address}/${mask}`),
      fc.tuple(fc.ipV4(), fc.integer({ min: 0, max: 32 })).map(([address, bits]) => `${address}/${[24, 16, 8, 0].map((shift) => ((2 ** 32 - 2 ** (32 - bits)) / 2 ** shift) & 255).join(".")}`),
      fc.string({ maxLength: 12 }),
    );
    const value = fc.oneof(fc.array(entry, { minLength: 1, maxLength: 4 }).map((entries) => entries.join(",")), fc.integer({ min: -2, max: 40 }).map(String), fc.string());
    fc.assert(
      fc.property(value, (text) => {
        let parsed: ReturnType<typeof parseConfig>["TRUST_PROXY"];
        try {
          parsed = parseConfig({ TRUST_PROXY: text }).TRUST_PROXY;
        } catch (error) {
          expect(error).toBeInstanceOf(ConfigError);
          return;
        }
        expect(() => express().set("trust proxy", parsed)).not.toThrow();
      }),
      { numRuns: 500 },
    );
  });
});
