// app/routes/main.tsx: the layout of SPEC §2's main screens: bottom tab bar (safe window, my tests,
// people, settings) showing only enabled screens; a disabled screen's route answers 404 (SPEC §6)
import { Outlet, useLoaderData } from "react-router";
import type { Route } from "./+types/main";
import { TabBar } from "~/components/TabBar";
import { tabs } from "~/screens";
import { requireUser } from "~/server/auth.server";
import { screenPermissionMiddleware } from "~/server/permissions.server";

export const middleware: Route.MiddlewareFunction[] = [screenPermissionMiddleware];

export function loader({ context }: Route.LoaderArgs) {
  const enabled = requireUser(context).enabledScreens ?? [];
  return { tabs: tabs.filter((tab) => enabled.includes(tab.screen)).map(({ screen, to, label }) => ({ screen, to, label })) };
}

export default function Main() {
  const { tabs: enabledTabs } = useLoaderData<typeof loader>();
  return (
    <>
      <Outlet />
      <TabBar tabs={enabledTabs} />
    </>
  );
}
