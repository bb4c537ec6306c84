// app/routes/logout.tsx: docs/product/data.md §4 Logout: clears the tokens (the server session) and the flags
// (the guidelines-read flag), keeps the remembered username, then goes to login. With
// `everywhere=1` (settings' 'Sign out everywhere') every other browser of the user is signed out too.
import { redirect } from "react-router";
import type { Route } from "./+types/logout";
import { forgetGuidelinesRead } from "~/server/guidelines.server";
import { endSession, endSessionEverywhere } from "~/server/session.server";
import { readForm } from "~/server/form.server";

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request, context);
  if (form.get("everywhere") === "1") await endSessionEverywhere(context);
  else endSession(context);
  return redirect("/login", { headers: { "Set-Cookie": await forgetGuidelinesRead() } });
}

export function loader() {
  return redirect("/login");
}
