// app/routes/logout.tsx: SPEC §4 Logout: clears the tokens (the server session) and the flags
// (the guidelines-read flag), keeps the remembered username, then goes to login.
import { redirect } from "react-router";
import type { Route } from "./+types/logout";
import { forgetGuidelinesRead } from "~/server/guidelines.server";
import { endSession } from "~/server/session.server";

export async function action({ context }: Route.ActionArgs) {
  endSession(context);
  return redirect("/login", { headers: { "Set-Cookie": await forgetGuidelinesRead() } });
}

export function loader() {
  return redirect("/login");
}
