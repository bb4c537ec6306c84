/**
 * Every language's message catalogue, typed by the English one (docs/architecture/behaviour.md §4
 * "Language"). English (app/messages.ts) is the source of truth; each translation must have every
 * key of it, of the same kind, and no other: a missing or extra key fails `npm run typecheck` here.
 * Server-side readers take the catalogue of the request's language from here; a page's strings
 * reach the browser in its loader data, so no catalogue of another language is in its JavaScript.
 */
import type { Language } from "../i18n.ts";
import * as en from "../messages.ts";
import type { Catalogue, NoExtraKeys } from "./catalogue.ts";
import * as es from "./es.ts";

/** The catalogue's shape: English's keys, each a string, a function of the same parameters, or an object of strings. */
export type Messages = Catalogue<typeof en>;

const spanishAddsNoKey: NoExtraKeys<typeof es, typeof en> = true;
void spanishAddsNoKey;

/** The catalogue of each language. */
export const catalogues: Record<Language, Messages> = { en, es: es satisfies Messages };

/** The catalogue of `language`. */
export function messagesIn(language: Language): Messages {
  return catalogues[language];
}
