/**
 * Request metrics of server/app.ts (docs/architecture/README.md §2 "metrics"): every answer counted and
 * timed by route, method and status, and GET /metrics for operators behind METRICS_TOKEN.
 *
 * The route label is the route table's path the request matched (`/testdetail`, `/reviews/dispute`; a
 * data request `/mytests.data` counts as `/mytests`), `/assets` for the hashed files, the name of the
 * operators' endpoints, and `other` for anything else (404s, probes): a bounded set, whatever URLs
 * clients send.
 */
import { timingSafeEqual } from "node:crypto";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { ServerBuild, ServerInstrumentation } from "react-router";
import { collectProcessMetrics, counter, histogram, metricsText, type MetricsSource } from "../../lib/metrics.ts";

const requests = counter("safewindow_http_requests_total", "HTTP requests answered, by route, method and status.", ["route", "method", "status"]);
const actions = counter("safewindow_route_actions_total", "Route actions run, by route id and how they ended (success: answered; error: threw, a redirect or error response included).", ["route", "outcome"]);
const duration = histogram("safewindow_http_request_duration_seconds", "Time to answer an HTTP request (to the last byte), seconds.", ["route", "method", "status"]);

/**
 * Every page path of the route table (`/`, `/login`, `/testresultviewer/image`, …), from the build's
 * routes; with `which`, the paths of the routes it accepts only.
 */
export function routePaths(routes: ServerBuild["routes"], which: (route: NonNullable<ServerBuild["routes"][string]>) => boolean = () => true): Set<string> {
  const fullPath = (id: string | undefined): string => {
    const route = id ? routes[id] : undefined;
    if (!route) return "";
    const parent = fullPath(route.parentId);
    return route.path ? `${parent}/${route.path}`.replace(/\/+/g, "/") : parent;
  };
  const paths = new Set<string>();
  for (const route of Object.values(routes)) {
    if (route && (route.path || route.index) && route.path !== "*" && which(route)) paths.add(fullPath(route.id) || "/");
  }
  return paths;
}

/**
 * The route label of `pathname` (without the base path).
 * @param known the route table's paths (routePaths); undefined in development, where every page is `page`.
 */
export function routeLabel(pathname: string, known: Set<string> | undefined): string {
  if (pathname === "/healthz" || pathname === "/readyz" || pathname === "/metrics") return pathname;
  if (pathname.startsWith("/assets/")) return "/assets";
  const page = pathname === "/_root.data" ? "/" : pathname.replace(/\.data$/, "").replace(/(.)\/$/, "$1");
  if (!known) return "page";
  return known.has(page) ? page : "other";
}

/**
 * Middleware that counts and times every answer (when it has been sent: 'finish'), or its abort ('close').
 * @param options.routes the route table's paths once the build is loaded (routePaths), undefined before or in development
 */
export function httpMetrics(options: { basePrefix: string; routes: () => Set<string> | undefined }): RequestHandler {
  collectProcessMetrics();
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    let counted = false;
    const count = () => {
      if (counted) return;
      counted = true;
      const path = req.path.startsWith(options.basePrefix) ? req.path.slice(options.basePrefix.length) || "/" : req.path;
      const labels = { route: routeLabel(path, options.routes()), method: req.method, status: String(res.statusCode) };
      requests.inc(labels);
      duration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    };
    res.once("finish", count);
    res.once("close", count);
    next();
  };
}

/**
 * GET /metrics: the Prometheus text of every metric, only with `Authorization: Bearer <token>`
 * (compared in constant time); 401 otherwise. Not mounted without a token (server/app.ts).
 * @param others the series registered outside this build (the data thread's), merged in
 */
export function metricsEndpoint(token: string, others?: MetricsSource): RequestHandler {
  const expected = Buffer.from(`Bearer ${token}`);
  return async (req, res) => {
    const given = Buffer.from(req.get("authorization") ?? "");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      res.status(401).set("WWW-Authenticate", 'Bearer realm="metrics"').type("text/plain").send("A bearer token is required.\n");
      return;
    }
    const { contentType, body } = await metricsText(others ? [others] : []);
    res.set("Cache-Control", "no-store").type(contentType).send(body);
  };
}

/**
 * React Router's server instrumentation (entry.server.tsx `instrumentations`) that counts every
 * route action run in `safewindow_route_actions_total`, by route id and outcome: which forms are
 * used, and which fail; the fuzz test of bad input reads it to prove its requests reached every
 * action past the edge's refusals (tests/integration/bad-input.test.ts). Loaders are not wrapped.
 */
export const actionInstrumentation: ServerInstrumentation = {
  route(route) {
    route.instrument({
      async action(callAction) {
        const { status } = await callAction();
        actions.inc({ route: route.id, outcome: status });
      },
    });
  },
};
