// app/routes/guarded.tsx: the layout route of docs/product/screens.md §2's signed-in screens without the tab bar
// (the profile's steps); its middleware enforces the login. The main screens' layout (main.tsx) applies the same guard.
import { Outlet } from "react-router";
import type { Route } from "./+types/guarded";
import { signInGuard } from "~/server/auth.server";

export const middleware: Route.MiddlewareFunction[] = [signInGuard];

export default function Guarded() {
  return <Outlet />;
}
