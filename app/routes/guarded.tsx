// app/routes/guarded.tsx: the layout route of docs/product/screens.md §2's guarded routes; its middleware enforces the login
import { Outlet } from "react-router";
import type { Route } from "./+types/guarded";
import { createGuard } from "~/server/auth.server";
import { getConfig } from "~/server/config.server";

export const middleware: Route.MiddlewareFunction[] = [createGuard(() => getConfig().basePrefix)];

export default function Guarded() {
  return <Outlet />;
}
