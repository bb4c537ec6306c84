/**
 * The language of a request (docs/architecture/behaviour.md §4 "Language"), first found of:
 * 1. the language chosen explicitly (the switch on Sign In and Create Account, or My Settings), in
 *    the `sw_lang` cookie that the /language action sets;
 * 2. the browser's `Accept-Language`;
 * 3. English.
 * Only languages in `offeredLanguages` (app/i18n.ts) are ever picked, from the cookie or the header.
 *
 * The root's `languageMiddleware` reads the cookie, then `Accept-Language` (`headersLanguage`), puts
 * the language in `requestLanguageContext`, and writes `Content-Language` and `Vary: Accept-Language`
 * on every answer; pages take their words from app/messages/catalogues.ts in that language. The
 * header rule is on `negotiator` (Express's own), because the shared page cache
 * (app/server/page-cache.server.ts) must compute the same language outside React Router to key on it.
 */
import Negotiator from "negotiator";
import { createContext, type Cookie, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { defaultLanguage, offeredLanguages, type Language } from "~/i18n";
import { catalogues, type Messages } from "~/messages/catalogues";
import { appCookie } from "./cookies.server";

const yearS = 365 * 24 * 60 * 60;
// The choice is no secret and grants nothing, so it is not signed; what is read back is checked
// against the offered languages.
const languageCookie = () => appCookie("sw_lang", { maxAge: yearS });

/** The language cookie's name as browsers send it (with its `__Host-` or `__Secure-` prefix over https). */
export function languageCookieName(): string {
  return languageCookie().name;
}

/** Set-Cookie value that keeps `language` (an offered one, checked by the caller) as the explicit choice, for a year. */
export function rememberLanguage(language: Language): Promise<string> {
  return languageCookie().serialize(language);
}

/**
 * The language `Accept-Language` asks for among `offered` (quality values and order respected; a
 * region matches its language, `es-MX` picks `es`; `*` picks the first offered), or undefined when
 * the header names none of them or is absent.
 * @param acceptLanguage the header's value as sent, or null/undefined without one
 */
export function headerLanguage(acceptLanguage: string | null | undefined, offered: readonly Language[] = offeredLanguages): Language | undefined {
  if (!acceptLanguage) return undefined;
  return new Negotiator({ headers: { "accept-language": acceptLanguage } }).language([...offered]) as Language | undefined;
}

/**
 * The language every answer is in when only `Accept-Language` is known (no language cookie): the
 * header's pick among the offered languages, else `defaultLanguage`. The shared page cache keys on it.
 */
export function negotiatedLanguage(acceptLanguage: string | null | undefined, offered: readonly Language[] = offeredLanguages): Language {
  return headerLanguage(acceptLanguage, offered) ?? defaultLanguage;
}

/**
 * The language of a request known only by its headers (the server's own error pages, answered
 * before React Router reads the request): the explicit choice in the language cookie when it names
 * an offered language, else `negotiatedLanguage` of `Accept-Language` (the rule of this module).
 * @param cookieHeader the request's `Cookie` header, if any
 * @param cookie the language cookie (a getter: its name and flags come from the configuration)
 */
export async function headersLanguage(
  cookieHeader: string | undefined,
  acceptLanguage: string | undefined,
  offered: readonly Language[] = offeredLanguages,
  cookie: () => Cookie = languageCookie,
): Promise<Language> {
  const chosen: unknown = cookieHeader ? await cookie().parse(cookieHeader) : null;
  if (typeof chosen === "string" && (offered as readonly string[]).includes(chosen)) return chosen as Language;
  return negotiatedLanguage(acceptLanguage, offered);
}

/**
 * The language the negotiation picked for this request, set by the negotiation's middleware before the
 * routes run; null in a context that no negotiation saw. The upstream clients send it as
 * `Accept-Language` (docs/architecture/upstream-calls.md §6.2).
 */
export const requestLanguageContext = createContext<Language | null>(null);

/** The language middleware, its language reader and its i18next reader, for one set of offered languages. */
export interface LanguageNegotiation {
  /** Root middleware: negotiates, then writes `Content-Language` and `Vary: Accept-Language` on the answer. */
  middleware: MiddlewareFunction<Response>;
  /** The request's language (after the middleware ran). */
  languageOf(context: Readonly<RouterContextProvider>): Language;
}

/**
 * Creates the negotiation for `offered` (the app uses `offeredLanguages`; tests pass both languages
 * to prove the rules Spanish will follow): `headersLanguage`'s rule, the explicit choice in the
 * cookie, then `Accept-Language`, then English. A query string is no choice (a shared link must not
 * switch a reader's language). Pages take their words from `catalogues` by this language, so a
 * request needs no translation engine of its own.
 * @param cookie the language cookie (a getter: its name and flags come from the configuration)
 */
export function createLanguageNegotiation(offered: readonly Language[], cookie: () => Cookie = languageCookie): LanguageNegotiation {
  const languageOfContext = (context: Readonly<RouterContextProvider>): Language => {
    const language = context.get(requestLanguageContext);
    if (language === null) throw new Error("the language middleware has not run for this request");
    return language;
  };
  return {
    async middleware({ request, context }, next) {
      const language = await headersLanguage(request.headers.get("Cookie") ?? undefined, request.headers.get("Accept-Language") ?? undefined, offered, cookie);
      context.set(requestLanguageContext, language);
      return withLanguageHeaders(await next(), language);
    },
    languageOf: languageOfContext,
  };
}

/** `response` with `Content-Language: language` and `Accept-Language` among its `Vary` names. */
function withLanguageHeaders(response: Response, language: string): Response {
  const set = (headers: Headers) => {
    headers.set("Content-Language", language);
    const vary = headers.get("Vary");
    if (!vary) headers.set("Vary", "Accept-Language");
    else if (!vary.split(",").some((name) => name.trim().toLowerCase() === "accept-language")) headers.set("Vary", `${vary}, Accept-Language`);
  };
  try {
    set(response.headers);
    return response;
  } catch {
    // A response with immutable headers: the same body and status with the headers added.
    const headers = new Headers(response.headers);
    set(headers);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}

const negotiation = createLanguageNegotiation(offeredLanguages);

/** The root's language middleware, for the offered languages. */
export const languageMiddleware: MiddlewareFunction<Response> = negotiation.middleware;

/**
 * The request's language: the one the negotiation's middleware put in `requestLanguageContext`
 * (`languageMiddleware` in the app; a negotiation made by `createLanguageNegotiation` with other
 * languages offered, in tests, sets the same context, so every reader follows it).
 */
export function languageOf(context: Readonly<RouterContextProvider>): Language {
  return negotiation.languageOf(context);
}

/**
 * The language to send upstream as `Accept-Language` for a call made in `context`: the request's
 * negotiated language, or undefined for a call outside a request (no context) or in a context that
 * no negotiation saw (docs/architecture/upstream-calls.md §6.2).
 */
export function upstreamLanguageOf(context: Readonly<RouterContextProvider> | undefined): Language | undefined {
  return context?.get(requestLanguageContext) ?? undefined;
}

/**
 * The catalogue an upstream call's failure messages are worded from (docs/architecture/upstream-calls.md
 * §6.2): the request's negotiated language, English for a call outside a request or in a context that
 * no negotiation saw (the same rule as `upstreamLanguageOf`, so a message and the language sent upstream agree).
 */
export function callMessagesOf(context: Readonly<RouterContextProvider> | undefined): Messages {
  return catalogues[upstreamLanguageOf(context) ?? defaultLanguage];
}

/** The request's message catalogue (set by `languageMiddleware`): what loaders word their answers with. */
export function messagesOf(context: Readonly<RouterContextProvider>): Messages {
  return catalogues[languageOf(context)];
}
