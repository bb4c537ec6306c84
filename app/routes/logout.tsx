// app/routes/logout.tsx: SPEC §4 Logout: clears the tokens (the server session) and the flags
// (the guidelines-read flag), keeps the remembered username, then goes to login.
import { redirect } from "react-router";
import type { Route } from "./+types/logout";
import { forgetGuidelinesRead } from "~/server/guidelines.server";
import { destroySession, getSession } from "~/server/session.server";

export async function action({ request }: Route.ActionArgs) {
  const headers = new Headers();
  headers.append("Set-Cookie", await destroySession(await getSession(request)));
  headers.append("Set-Cookie", await forgetGuidelinesRead());
  return redirect("/login", { headers });
}

export function loader() {
  return redirect("/login");
}
