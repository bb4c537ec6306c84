/**
 * docs/product/data.md §6 permissions: the enabledScreens list, fetched after login and kept in the session;
 * a screen that is not enabled is not reachable (404), and its tab is not shown.
 */
import type { MiddlewareFunction } from "react-router";
import { screenOf } from "~/screens";
import { userContext } from "./context";
import { getConfig } from "./config.server";
import { requestedPath } from "./auth.server";
import { saveEnabledScreens } from "./session.server";
import { consumerApi } from "./upstream/consumer.server";
import { routeErrorOf } from "./upstream/result.server";
import { routeErrorInLanguage } from "./error-page.server";

/**
 * Middleware for the tabbed main screens: loads enabledScreens into the session when missing,
 * then answers 404 for a path whose screen is not enabled.
 */
export const screenPermissionMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const user = context.get(userContext);
  if (!user.enabledScreens) {
    const answer = await consumerApi(context).getPermissions();
    // Thrown by middleware, before any loader answered: the error carries its page's words (app/error-page.ts).
    if (!answer.ok) throw routeErrorInLanguage(context, routeErrorOf(answer).init ?? { status: 502 });
    const screens = answer.value;
    saveEnabledScreens(context, screens);
    context.set(userContext, { ...user, enabledScreens: screens });
  }
  const enabled = context.get(userContext).enabledScreens ?? [];
  const path = requestedPath(request, getConfig().basePrefix).split("?")[0] ?? "/";
  const screen = screenOf(path.replace(/\.data$/, ""));
  if (screen && !enabled.includes(screen)) throw routeErrorInLanguage(context, { status: 404, statusText: "Not Found" });
  return next();
};
