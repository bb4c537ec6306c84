/**
 * The shape every upstream call's contract takes (docs/architecture/upstream-calls.md §6.1), shared by
 * contracts/identity.ts and contracts/consumer.ts, and the look-up of a call by method and path.
 *
 * A call names its method and path (as docs/product/calls.md §7 writes them), who may make it, the
 * request as the reference service reads it (query parameters, a URL-encoded form, a JSON body or
 * a multipart body: at most one body kind), the schema of its 2xx answer, and the error answers a
 * client reads, by status. The app's clients (app/server/upstream/) validate answers with these
 * schemas; the reference services (services/) parse requests with them; contracts/openapi.ts
 * renders them as OpenAPI 3.1.
 *
 * Calls and fields beyond the product rules' own are marked as extensions (contracts/extension.ts).
 *
 * Answer schemas are plain `z.object`s: parsing keeps the keys the contract names and drops any
 * other, so a real upstream may send more than the contract lists.
 *
 * Imported by Node's type stripping (server.ts, `npm run openapi`): explicit `.ts` extensions, no
 * TypeScript-only syntax.
 */
import type { z } from "zod";
import type { ExtensionGroup } from "./extension.ts";

/** Who may make a call. */
export type CallAuth =
  /** The app itself: the client's id and secret (HTTP Basic or form fields, RFC 6749 §2.3.1). */
  | "clientSecret"
  /** A bearer access token of the client-credentials grant (scope identity.api). */
  | "clientToken"
  /** A bearer access token of a signed-in user (password grant). */
  | "userToken"
  /** None: open to anyone (published keys). */
  | "none";

/** One error answer a client reads: when it comes, and its JSON body. */
export interface ErrorAnswer {
  /** When the call answers this status, in a sentence. */
  description: string;
  schema: z.ZodType;
}

/** One upstream call. */
export interface CallContract {
  method: "GET" | "POST";
  /** The path as docs/product/calls.md §7 writes it (the services also answer it without the trailing slash). */
  path: string;
  /** What the call does, in a sentence (the OpenAPI summary). */
  summary: string;
  auth: CallAuth;
  /** Query parameters, as the service reads them (each given once, as text). */
  query?: z.ZodObject;
  /** An application/x-www-form-urlencoded body. */
  form?: z.ZodType;
  /** An application/json body. */
  json?: z.ZodType;
  /** A multipart/form-data body (described for documentation; the service streams it). */
  multipart?: z.ZodObject;
  /** The JSON body of a 2xx answer. */
  answer: z.ZodType;
  /** The JSON bodies of the error answers a client reads, by HTTP status. */
  errorAnswers?: Readonly<Record<number, ErrorAnswer>>;
  /**
   * The extension group of a call beyond docs/product/calls.md §7's tables (contracts/extension.ts);
   * absent for the product rules' calls. Such a call answers 404 in the reference services' plain mode.
   */
  extension?: ExtensionGroup;
  /** Why an extension call still answers in plain mode (another reference service calls it), in a sentence. */
  keptWhenOff?: string;
}

/** The calls of one upstream, by the name clients use. */
export type CallContracts = Readonly<Record<string, CallContract>>;

/** A path as the services route it: lower case, without a trailing slash (Express's default, non-strict routing). */
export function routeKey(path: string): string {
  const lower = path.toLowerCase();
  return lower.length > 1 && lower.endsWith("/") ? lower.slice(0, -1) : lower;
}

/**
 * The call of `calls` at `method` and `path` (a path without query string; case and a trailing
 * slash are ignored, as the services ignore them), with its name; undefined when none is.
 */
export function findCall(calls: CallContracts, method: string, path: string): { name: string; call: CallContract } | undefined {
  const key = routeKey(path);
  const upper = method.toUpperCase();
  for (const [name, call] of Object.entries(calls)) {
    if (call.method === upper && routeKey(call.path) === key) return { name, call };
  }
  return undefined;
}
