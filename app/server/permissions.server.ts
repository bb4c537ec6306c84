/**
 * docs/product/data.md §6 permissions: the enabledScreens list, fetched after login and kept in the session;
 * a screen that is not enabled is not reachable (404), and its tab is not shown.
 */
import { data, type MiddlewareFunction } from "react-router";
import { screenOf } from "~/screens";
import { userContext } from "./context";
import { getConfig } from "./config.server";
import { requestedPath } from "./auth.server";
import { saveEnabledScreens } from "./session.server";
import { consumerApi } from "./upstream/consumer.server";
import { valueOrThrow } from "./upstream/result.server";

/**
 * Middleware for the tabbed main screens: loads enabledScreens into the session when missing,
 * then answers 404 for a path whose screen is not enabled.
 */
export const screenPermissionMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const user = context.get(userContext);
  if (!user.enabledScreens) {
    const screens = valueOrThrow(await consumerApi(context).getPermissions());
    saveEnabledScreens(context, screens);
    context.set(userContext, { ...user, enabledScreens: screens });
  }
  const enabled = context.get(userContext).enabledScreens ?? [];
  const path = requestedPath(request, getConfig().basePrefix).split("?")[0] ?? "/";
  const screen = screenOf(path.replace(/\.data$/, ""));
  if (screen && !enabled.includes(screen)) throw data(null, { status: 404 });
  return next();
};
