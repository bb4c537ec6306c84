// app/routes/main.tsx: the layout of docs/product/screens.md §2's main screens: the login enforced (the guard of
// guarded.tsx, first), a bottom tab bar (safe window, my tests, people, settings) showing only enabled screens,
// and a disabled screen's route answering 404 (docs/product/data.md §6). A layout of its own beside guarded.tsx,
// not inside it (app/routes.ts): one route level fewer for React Router to match, render and hydrate.
// A screen that fails to load keeps the tab bar and offers 'Try again' (docs/product/messages.md §8 load errors; the
// exception's own text is logged, not shown, since it can name upstream addresses).
import { isRouteErrorResponse, Link, Outlet, useLoaderData, useLocation, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/main";
import { TabBar } from "~/components/TabBar";
import type { ErrorPageData } from "~/error-page";
import type { loader as rootLoader } from "~/root";
import * as messages from "~/messages";
import { tabs } from "~/screens";
import { requireUser, signInGuard } from "~/server/auth.server";
import { screenPermissionMiddleware } from "~/server/permissions.server";
import { messagesOf } from "~/server/i18n.server";

export const middleware: Route.MiddlewareFunction[] = [signInGuard, screenPermissionMiddleware];

export function loader({ context }: Route.LoaderArgs) {
  const enabled = requireUser(context).enabledScreens ?? [];
  const m = messagesOf(context);
  // Each tab's name in the page's language (app/screens.ts keeps the English one for a screen the catalogue does not name).
  const labels: Partial<Record<string, string>> = m.tabLabels;
  return {
    tabs: tabs.filter((tab) => enabled.includes(tab.screen)).map(({ screen, to, label }) => ({ screen, to, label: labels[screen] ?? label })),
    text: {
      tabBar: { navigation: m.mainNavigationLabel, current: m.currentTabMark },
    },
  };
}

export default function Main() {
  const { tabs: enabledTabs, text } = useLoaderData<typeof loader>();
  return (
    <>
      <Outlet />
      <TabBar tabs={enabledTabs} text={text.tabBar} />
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const layout = useRouteLoaderData<typeof loader>("routes/main");
  const location = useLocation();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  // An upstream that is down (502/503 from the upstream clients) is said so, not called our error.
  const upstreamDown = isRouteErrorResponse(error) && (error.status === 502 || error.status === 503);
  // A form body that could not be read (app/server/form.server.ts): the sender's mistake, said so.
  const unreadable = isRouteErrorResponse(error) && error.status === 400;
  // In the request's language: the words the error carries, else the root's data's, else the
  // English catalogue's (app/error-page.ts).
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const text = (error as { data?: Partial<ErrorPageData> } | undefined)?.data?.errorPage?.text ?? root?.text.errorPage;
  return (
    <>
      <section className="card narrow">
        <h1>{notFound ? (text?.notFound ?? messages.notFound) : (text?.loadFailed ?? messages.loadFailed)}</h1>
        {notFound ? null : (
          <p role="alert" className="form-message error">
            {upstreamDown
              ? (text?.upstreamUnavailable ?? messages.upstreamUnavailable)
              : unreadable
                ? (text?.requestUnreadable ?? messages.requestUnreadable)
                : (text?.serverError ?? messages.serverError)}
          </p>
        )}
        {notFound ? null : (
          <Link to={`${location.pathname}${location.search}`} className="button" reloadDocument>
            {text?.tryAgain ?? messages.tryAgainLink}
          </Link>
        )}
      </section>
      {layout ? <TabBar tabs={layout.tabs} text={layout.text.tabBar} /> : null}
    </>
  );
}
