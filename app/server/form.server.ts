/**
 * The one way a route action reads its form (docs/security/input.md "Input"): a body that cannot be
 * parsed as a form is the sender's mistake, answered 400 with the error page in the request's
 * language and logged at warn, never a 500.
 *
 * server/app.ts lets only the form encodings through to an action (urlencoded, and multipart with
 * a boundary: `isFormContentType`), so what fails here is a body that says it is a form and is not
 * one (a truncated multipart body, a boundary that never comes). Nothing parses a body ahead of the
 * action: the upload form streams its PDF, and parsing every body before would read it twice.
 */
import { parse as parseContentType } from "content-type";
import type { RouterContextProvider } from "react-router";
import { requestContext } from "./context";
import { routeErrorInLanguage } from "./error-page.server";

/**
 * The form `request` posted.
 * @param request the action's request, or a clone of it when something else reads the body after
 *   (the sign-in strategy: login, registration, re-authentication in My Settings)
 * @returns the parsed fields and files
 * @throws a 400 route error response carrying the error page's words in the request's language
 *   (app/root.tsx's boundary says "We could not read that request") when the body is not a form
 */
export async function readForm(request: Request, context: Readonly<RouterContextProvider>): Promise<FormData> {
  try {
    return await request.formData();
  } catch (error) {
    context.get(requestContext).log.warn({ err: { type: (error as Error)?.name, message: (error as Error)?.message } }, "form body unreadable");
    throw routeErrorInLanguage(context, { status: 400 });
  }
}

/**
 * True when `header` (a Content-Type header as sent) is one an HTML form posts: urlencoded,
 * or multipart/form-data with a boundary of 1 to 70 characters (RFC 7578 §4.1, RFC 2046 §5.1.1),
 * read by the `content-type` parser Express itself uses. server/app.ts answers 415 to any other
 * body (none, text/plain, JSON, a malformed header) sent to a state-changing method, before any action.
 */
export function isFormContentType(header: string | undefined): boolean {
  if (!header) return false;
  let type: string;
  let boundary: string | undefined;
  try {
    ({ type, parameters: { boundary } } = parseContentType(header));
  } catch {
    return false;
  }
  if (type === "application/x-www-form-urlencoded") return true;
  return type === "multipart/form-data" && boundary !== undefined && boundary.length >= 1 && boundary.length <= 70;
}
