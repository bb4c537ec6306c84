/**
 * The error pages' words in the request's language, for the root loader's data and for route error
 * responses thrown before the root loader could answer (docs/architecture/behaviour.md §4 "Language";
 * app/error-page.ts says where a boundary looks for them).
 */
import { data, type RouterContextProvider } from "react-router";
import type { ErrorPageData, ErrorPageText } from "~/error-page";
import type { Messages } from "~/messages/catalogues";
import { defaultLanguage } from "~/i18n";
import { catalogues } from "~/messages/catalogues";
import { requestLanguageContext } from "./i18n.server";

/** The error pages' words from the catalogue `m`. */
export function errorPageText(m: Messages): ErrorPageText {
  return {
    notFound: m.notFound,
    loadFailed: m.loadFailed,
    serverError: m.serverError,
    requestUnreadable: m.requestUnreadable,
    upstreamUnavailable: m.upstreamUnavailable,
    goToStart: m.goToStartPage,
    tryAgain: m.tryAgainLink,
  };
}

/**
 * The data of a route error response carrying the error page's words and the language the request
 * `context`'s negotiation picked (English in a context no negotiation saw).
 */
export function errorPageData(context: Readonly<RouterContextProvider>): ErrorPageData {
  const language = context.get(requestLanguageContext) ?? defaultLanguage;
  return { errorPage: { language, text: errorPageText(catalogues[language]) } };
}

/**
 * A route error response (`init`: its status, statusText and headers) whose error page speaks the
 * request's language without the root loader's data: for errors thrown by middleware, before any loader ran.
 */
export function routeErrorInLanguage(context: Readonly<RouterContextProvider>, init: ResponseInit) {
  return data(errorPageData(context), init);
}
