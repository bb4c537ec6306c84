/**
 * The words of the error pages (app/root.tsx and app/routes/main.tsx error boundaries;
 * docs/architecture/behaviour.md §4 "Language"), and where a boundary finds them. Safe in the
 * browser: types only, so that no chunk of its own is loaded with every page (a boundary reads
 * `error.data?.errorPage` itself).
 *
 * An error page speaks the request's language: its words come with the error when the error
 * carries them (a route error thrown before the root's loader could answer, such as the session
 * store's 503: `ErrorPageData`), else with the root loader's data (`text.errorPage`, on every page,
 * since any page, and any later navigation, may fail), else, when neither came (an error before the
 * language was known), from the English catalogue the boundary falls back on.
 */
import type { Language } from "./i18n";

/** An error page's words in one language. */
export interface ErrorPageText {
  /** 404: the page does not exist, or is not the person's. */
  notFound: string;
  /** A main screen's heading when it failed to load. */
  loadFailed: string;
  /** Any other failure of ours. */
  serverError: string;
  /** 400: a request whose body could not be read as the form it claimed to be. */
  requestUnreadable: string;
  /** 502/503: an upstream did not answer or failed. */
  upstreamUnavailable: string;
  /** The link back to the start page. */
  goToStart: string;
  /** The link that loads the failed page again. */
  tryAgain: string;
}

/** The data of a route error response that carries its page's words and language. */
export interface ErrorPageData {
  errorPage: { language: Language; text: ErrorPageText };
}
