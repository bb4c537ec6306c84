// The language the reference services write their mail in (docs/product/calls.md §7.4 "The mail's
// language"): English or Spanish, read from a request's Accept-Language with `negotiator` (Express's
// own parser), and kept with the account so that a mail sent later, with no request behind it,
// follows the person's last language.
import Negotiator from "negotiator";

/** The languages the services' mail is written in; English is the default and the product rules' own text. */
export const MAIL_LANGUAGES = ["en", "es"] as const;

/** One of MAIL_LANGUAGES. */
export type MailLanguage = (typeof MAIL_LANGUAGES)[number];

/** The language of a mail when nothing says otherwise. */
export const DEFAULT_MAIL_LANGUAGE: MailLanguage = "en";

/**
 * What a request's `Accept-Language` says about the mail's language: null when it says nothing
 * (absent, empty, or only `*`, which Node's fetch sends by default: the caller then keeps the
 * account's language); otherwise the best of English and Spanish it accepts, and English for a
 * header that accepts neither ("fr": anything else is English).
 * @param acceptLanguage the header's value, as Express's `req.get("accept-language")` gives it.
 */
export function requestedMailLanguage(acceptLanguage: string | undefined | null): MailLanguage | null {
  const header = acceptLanguage?.trim() ?? "";
  if (header === "" || /^\*(\s*;\s*q\s*=\s*[0-9.]+)?$/i.test(header)) return null;
  const picked = new Negotiator({ headers: { "accept-language": header } }).language([...MAIL_LANGUAGES]);
  return isMailLanguage(picked) ? picked : DEFAULT_MAIL_LANGUAGE;
}

/** True when `value` is one of MAIL_LANGUAGES (a column read back from the database, a header's pick). */
export function isMailLanguage(value: unknown): value is MailLanguage {
  return typeof value === "string" && (MAIL_LANGUAGES as readonly string[]).includes(value);
}

/**
 * The language a mail is written in: the request's when it said one, else the one kept with the
 * account, else English.
 * @param requested requestedMailLanguage of the request that causes the mail; null without one.
 * @param kept the account's kept language (a database column, null when never said).
 */
export function mailLanguageOf(requested: MailLanguage | null | undefined, kept: string | null | undefined): MailLanguage {
  if (requested) return requested;
  return isMailLanguage(kept) ? kept : DEFAULT_MAIL_LANGUAGE;
}

/**
 * The language of the words a service writes into an answer (a consumerMessage, a window's
 * description; docs/product/calls.md §7.4 "What the upstream writes"): the request's, else
 * English. Unlike a mail's, nothing kept with the account is used: the answer goes to the request.
 * @param acceptLanguage the header's value, as Express's `req.get("accept-language")` gives it.
 */
export function answerLanguage(acceptLanguage: string | undefined | null): MailLanguage {
  return requestedMailLanguage(acceptLanguage) ?? DEFAULT_MAIL_LANGUAGE;
}
