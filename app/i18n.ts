/**
 * The product's languages (docs/architecture/behaviour.md §4 "Language"): the ones it has catalogues for,
 * and the ones it offers to people. Safe in the browser: no i18n runtime, only names.
 */

/** Every language with a message catalogue (app/messages/ is English, the source; app/messages/es/ Spanish). */
export const catalogueLanguages = ["en", "es"] as const;

/** A language with a catalogue, as a BCP 47 primary tag. */
export type Language = (typeof catalogueLanguages)[number];

/** The language of a person who chose none and whose browser asks for none we offer. */
export const defaultLanguage: Language = "en";

/**
 * The languages offered to people: negotiated from Accept-Language, accepted from the language
 * switch and shown in it. Every language with a catalogue, now that every screen reads its text
 * from the catalogues (docs/architecture/behaviour.md §4 "Language"; tests/unit/i18n-inline-text.test.ts
 * keeps a language out of this list while any screen carries English written into its markup).
 */
export const offeredLanguages: readonly Language[] = ["en", "es"];

/** The Intl locale dates, times and durations are written in for each language: US English, US Spanish. */
export const intlLocales: Record<Language, string> = { en: "en-US", es: "es-US" };

/** Each language's name in itself, as the language switch shows it. */
export const languageNames: Record<Language, string> = { en: "English", es: "Español" };

/** A route module's `handle` that shows the language switch in the page's header (Sign In, Create Account). */
export interface LanguageSwitchHandle {
  languageSwitch: true;
}

/** True when `value` is a language offered now. */
export function isOfferedLanguage(value: unknown): value is Language {
  return typeof value === "string" && (offeredLanguages as readonly string[]).includes(value);
}
