/**
 * The product's languages (docs/architecture/behaviour.md §4 "Language"): the Spanish catalogue has
 * every key of the English one, of the same kind, worded in Spanish; and the negotiation rules (the
 * explicit choice beats Accept-Language, which beats English; a language not offered is never
 * picked), run through the real middleware with both languages offered, and as the
 * app offers them now.
 */
import { createCookie, RouterContextProvider, type MiddlewareFunction } from "react-router";
import { describe, expect, it } from "vitest";
import { catalogueLanguages, offeredLanguages, type Language } from "../../app/i18n";
import * as en from "../../app/messages";
import * as es from "../../app/messages/es";
import { catalogues, type Messages } from "../../app/messages/catalogues";
import { createLanguageNegotiation, headerLanguage, negotiatedLanguage } from "../../app/server/i18n.server";
import { formatInstant, localizeTimes } from "../../app/dates";
import { reviewDuration } from "../../app/server/reviews.server";
import { windowHours } from "../../contracts/rules";

// Type-level proofs, checked by `npm run typecheck`: if the catalogue's type stopped rejecting these,
// the directives below would themselves fail it.
// @ts-expect-error a catalogue that lacks a key is not a Messages
const lacksAKey: Messages = (({ checkedIn: _, ...rest }) => rest)(es);
// @ts-expect-error a function message with other parameters is not a Messages entry
const otherParameters: Messages = { ...es, pageOf: (page: string) => page };
void lacksAKey;
void otherParameters;

/** Sample arguments for each function message, by parameter count and name. */
function sampleCall(fn: (...args: never[]) => unknown): unknown {
  const source = fn.toString();
  if (/missing/.test(source.slice(0, 40))) return (fn as (missing: string[]) => string)(["Nombre", "Apellido"]);
  if (/^\(\s*table/.test(source)) return (fn as (table: typeof windowHours) => string)(windowHours);
  const args = Array.from({ length: fn.length }, (_, i) => (/\(\s*(seconds|minutes|count|page|shown|megabytes|hours)/.test(source) ? 2 + i : "Ana"));
  return (fn as (...args: unknown[]) => unknown)(...args);
}

/** The English words left in a Spanish text: any of these means an untranslated string. */
const englishWords = /\b(the|please|your|you|could not|failed|must|enter|result|window|follow|password|email address)\b/i;

describe("the Spanish catalogue (app/messages/es/)", () => {
  const englishKeys = Object.keys(en).sort();

  it("has every key of the English one and no other", () => {
    expect(Object.keys(es).sort()).toEqual(englishKeys);
    expect(Object.keys(catalogues.es).sort()).toEqual(englishKeys);
  });

  it("gives each key the same kind of entry: a string, a function of as many parameters, an object with the same keys", () => {
    for (const key of englishKeys) {
      const source = en[key as keyof typeof en] as unknown;
      const translation = es[key as keyof typeof es] as unknown;
      expect(typeof translation, key).toBe(typeof source);
      if (typeof source === "function") expect((translation as () => string).length, key).toBe((source as () => string).length);
      if (typeof source === "object") expect(Object.keys(translation as object).sort(), key).toEqual(Object.keys(source as object).sort());
    }
  });

  it("words every entry in Spanish: not empty, not the English, no English words (the product's name aside)", () => {
    const texts: [string, string, string][] = [];
    // An entry's texts: a string, a function's sample call, an object's entries at any depth.
    const collect = (key: string, source: unknown, translation: unknown) => {
      if (typeof source === "string") texts.push([key, source, translation as string]);
      else if (typeof source === "function") collect(`${key}()`, sampleCall(source as () => unknown), sampleCall(translation as () => unknown));
      else for (const [name, value] of Object.entries(source as object)) collect(`${key}.${name}`, value, (translation as Record<string, unknown>)[name]);
    };
    for (const key of englishKeys) collect(key, en[key as keyof typeof en], es[key as keyof typeof es]);
    expect(texts.length).toBeGreaterThan(200);
    for (const [key, english, spanish] of texts) {
      if (key === "productName") {
        expect(spanish).toBe("SafeWindow");
        continue;
      }
      expect(spanish.trim(), key).not.toBe("");
      expect(spanish, key).not.toBe(english);
      expect(spanish.replaceAll("SafeWindow", ""), key).not.toMatch(englishWords);
    }
  });

  it("formats its function messages for Spanish (lists, plurals)", () => {
    expect(es.createAccountMissing(["nombre", "apellido", "fecha de nacimiento"])).toBe("Faltan: nombre, apellido y fecha de nacimiento.");
    expect(es.createAccountMissing(["nombre"])).toBe("Falta: nombre.");
    expect(es.createAccountMissing([])).toBe("");
    expect(es.tooManyAttempts(1)).toContain("1 minuto.");
    expect(es.tooManyAttempts(15)).toContain("15 minutos.");
    expect(es.followRequestsWaiting(1)).toBe("1 persona solicita seguirle.");
  });
});

describe("the offered languages (app/i18n.ts)", () => {
  it("offers English and Spanish, now that every screen reads its text from the catalogues", () => {
    // docs/architecture/behaviour.md §4 "Language": every language with a catalogue is offered.
    expect(offeredLanguages).toEqual(["en", "es"]);
    expect(catalogueLanguages).toEqual(["en", "es"]);
  });
});

describe("Accept-Language (app/server/i18n.server.ts)", () => {
  const both: Language[] = ["en", "es"];
  it.each([
    ["es", "es"],
    ["es-MX,es;q=0.9,en;q=0.8", "es"],
    ["en-US,en;q=0.9,es;q=0.8", "en"],
    ["fr-FR,es;q=0.5", "es"],
    ["es;q=0.2,en;q=0.9", "en"],
    ["*", "en"],
  ])("picks among English and Spanish for %s: %s", (header, expected) => {
    expect(negotiatedLanguage(header, both)).toBe(expected);
  });
  it("picks nothing for a language not offered, an empty or a missing header; the negotiation then gives English", () => {
    expect(headerLanguage("fr, de;q=0.5", both)).toBeUndefined();
    expect(headerLanguage("", both)).toBeUndefined();
    expect(headerLanguage(undefined, both)).toBeUndefined();
    expect(negotiatedLanguage("fr", both)).toBe("en");
    expect(negotiatedLanguage(null, both)).toBe("en");
  });
  it("honours Spanish, which the app offers, and still gives English for a language it does not", () => {
    expect(negotiatedLanguage("es")).toBe("es");
    expect(negotiatedLanguage("fr-FR")).toBe("en");
  });
});

describe("the language middleware (app/server/i18n.server.ts)", () => {
  const cookie = createCookie("sw_lang", { path: "/", sameSite: "lax", httpOnly: true });
  const chose = async (language: string) => (await cookie.serialize(language)).split(";")[0]!;

  async function run(offered: readonly Language[], headers: Record<string, string>) {
    const negotiation = createLanguageNegotiation(offered, () => cookie);
    const context = new RouterContextProvider();
    const request = new Request("http://localhost/login", { headers });
    const args = { request, context, params: {}, unstable_pattern: "/login" } as unknown as Parameters<MiddlewareFunction<Response>>[0];
    const response = (await negotiation.middleware(args, async () => new Response("ok", { headers: { Vary: "Accept-Encoding" } }))) as Response;
    return { language: negotiation.languageOf(context), response };
  }

  const both: Language[] = ["en", "es"];
  it("takes the explicit choice over Accept-Language", async () => {
    expect((await run(both, { cookie: await chose("es"), "accept-language": "en-US,en" })).language).toBe("es");
    expect((await run(both, { cookie: await chose("en"), "accept-language": "es-MX,es" })).language).toBe("en");
  });
  it("takes Accept-Language over the default, and English without either", async () => {
    expect((await run(both, { "accept-language": "es-US,es;q=0.9" })).language).toBe("es");
    expect((await run(both, {})).language).toBe("en");
  });
  it("ignores a chosen language it does not know, and a header language it does not offer", async () => {
    expect((await run(both, { cookie: await chose("xx"), "accept-language": "es" })).language).toBe("es");
    expect((await run(both, { "accept-language": "fr-FR" })).language).toBe("en");
  });
  it("does not take the query string as a choice", async () => {
    const negotiation = createLanguageNegotiation(both, () => cookie);
    const context = new RouterContextProvider();
    const args = { request: new Request("http://localhost/login?lng=es"), context, params: {} } as unknown as Parameters<MiddlewareFunction<Response>>[0];
    await negotiation.middleware(args, async () => new Response("ok"));
    expect(negotiation.languageOf(context)).toBe("en");
  });
  it("says the language on the answer: Content-Language, and Accept-Language among the Vary names", async () => {
    const { response } = await run(both, { "accept-language": "es" });
    expect(response.headers.get("content-language")).toBe("es");
    expect(response.headers.get("vary")).toBe("Accept-Encoding, Accept-Language");
    const english = (await run(both, {})).response;
    expect(english.headers.get("content-language")).toBe("en");
  });
  it("answers in the chosen language with the languages the app offers now, whatever the header asks", async () => {
    const { language, response } = await run(offeredLanguages, { cookie: await chose("es"), "accept-language": "en" });
    expect(language).toBe("es");
    expect(response.headers.get("content-language")).toBe("es");
  });
});

describe("dates, times and durations in the page's language (app/dates.ts, app/server/reviews.server.ts)", () => {
  const instant = "2026-11-21T20:15:00Z";
  it("writes an instant in US English by default, and in US Spanish for Spanish", () => {
    expect(formatInstant(instant, "America/New_York")).toBe("Sat, Nov 21, 2026, 3:15 PM EST");
    expect(formatInstant(instant, "America/New_York", "es")).toBe("sáb, 21 de nov de 2026, 3:15 p.m. EST");
    expect(localizeTimes("Valid until 2026-11-21 20:15 UTC.", "America/New_York", "es")).toBe("Valid until sáb, 21 de nov de 2026, 3:15 p.m. EST.");
  });
  it("writes a review's duration in the language", () => {
    const ms = (2 * 60 + 5) * 60_000;
    expect(reviewDuration(ms)).toBe("2 hr, 5 min");
    expect(reviewDuration(ms, "es")).toBe("2 h y 5 min");
    expect(reviewDuration(10_000, "es")).toBe("0 min");
  });
});
