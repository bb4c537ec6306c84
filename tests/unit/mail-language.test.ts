// How the reference services read a request's Accept-Language for their mail (services/shared/language.ts,
// docs/product/calls.md §7.4 "The mail's language"): English or Spanish, English for anything else, and
// nothing said for an absent header or Node's default `*` (the account's kept language is used then).
import { describe, expect, it } from "vitest";
import { mailLanguageOf, requestedMailLanguage } from "../../services/shared/language.ts";
import { formatUtc } from "../../services/shared/mail.ts";

describe("requestedMailLanguage", () => {
  it("picks Spanish or English as the header prefers them", () => {
    expect(requestedMailLanguage("es")).toBe("es");
    expect(requestedMailLanguage("es-MX,es;q=0.9,en;q=0.8")).toBe("es");
    expect(requestedMailLanguage("en-US,es;q=0.5")).toBe("en");
    expect(requestedMailLanguage("fr-FR, es;q=0.3")).toBe("es");
  });

  it("answers English for a header that accepts neither, and null for one that says nothing", () => {
    expect(requestedMailLanguage("fr-FR, de;q=0.8")).toBe("en");
    expect(requestedMailLanguage("*")).toBeNull();
    expect(requestedMailLanguage(" * ")).toBeNull();
    expect(requestedMailLanguage("")).toBeNull();
    expect(requestedMailLanguage(undefined)).toBeNull();
  });
});

describe("mailLanguageOf", () => {
  it("takes the request's language, else the kept one, else English", () => {
    expect(mailLanguageOf("en", "es")).toBe("en");
    expect(mailLanguageOf(null, "es")).toBe("es");
    expect(mailLanguageOf(null, null)).toBe("en");
    expect(mailLanguageOf(undefined, "xx")).toBe("en");
  });
});

describe("formatUtc", () => {
  it("names the month in the mail's language, English by default", () => {
    const at = new Date(Date.UTC(2025, 2, 4, 14, 5, 9));
    expect(formatUtc(at)).toBe("4 March 2025, 14:05:09 UTC (Coordinated Universal Time)");
    expect(formatUtc(at, "es")).toBe("4 de marzo de 2025, 14:05:09 UTC (tiempo universal coordinado)");
  });
});
