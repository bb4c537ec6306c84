/**
 * Route middleware for the pages whose URL carries a token (the links mailed for confirming an
 * e-mail, confirming an account and resetting a password; docs/security/input.md "Headers and caching"):
 * every answer of the route, document or `.data`, is `Cache-Control: no-store`, so that no cache
 * along the way or in the browser keeps a page keyed by a live token.
 */
import type { MiddlewareFunction } from "react-router";

export const noStoreMiddleware: MiddlewareFunction<Response> = async (_args, next) => {
  const response = await next();
  response.headers.set("Cache-Control", "no-store");
  return response;
};
