// app/routes/logout.tsx: SPEC §4 Logout: clears the session, then goes to login
import { redirect } from "react-router";
import type { Route } from "./+types/logout";
import { endSession } from "~/server/session.server";

export function action({ request }: Route.ActionArgs) {
  return endSession(request, "/login");
}

export function loader() {
  return redirect("/login");
}
