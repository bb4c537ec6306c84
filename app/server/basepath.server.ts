/**
 * BASE_PATH for redirects (docs/architecture/behaviour.md §4): loaders and actions redirect to app paths
 * ("/login"), as React Router's own links do; this root middleware puts the base path in front of
 * every such Location on the way out, so the app works unchanged under /sw.
 */
import type { MiddlewareFunction } from "react-router";
import { getConfig } from "./config.server";

/** `location` with the base path prefixed when it is an app path that lacks it. */
export function withBasePath(location: string, basePrefix: string): string {
  if (!basePrefix || !location.startsWith("/") || location.startsWith("//")) return location;
  if (location === basePrefix || location.startsWith(`${basePrefix}/`) || location.startsWith(`${basePrefix}?`)) return location;
  return location === "/" ? `${basePrefix}/` : `${basePrefix}${location}`;
}

export const basePathRedirectMiddleware: MiddlewareFunction<Response> = async (_args, next) => {
  const response = await next();
  const location = response.headers.get("Location");
  const basePrefix = getConfig().basePrefix;
  if (location && basePrefix) response.headers.set("Location", withBasePath(location, basePrefix));
  return response;
};
