// app/routes/cookies.tsx: the cookie-consent banner's form (docs/product/README.md §1): records the answer for 150
// days; a plain post returns to the page it came from, the banner's fetcher stays where it is
import { data, redirect } from "react-router";
import type { Route } from "./+types/cookies";
import { safeRedirect } from "~/server/auth.server";
import { rememberConsent } from "~/server/preferences.server";
import { readForm } from "~/server/form.server";

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request, context);
  const answer = form.get("answer");
  if (answer !== "accepted" && answer !== "declined") throw data(null, { status: 400 });
  const headers = { "Set-Cookie": await rememberConsent(answer) };
  if (form.get("stay") === "1") return data({ answered: true }, { headers });
  return redirect(safeRedirect(form.get("redirectTo"), "/"), { headers });
}

export function loader() {
  return redirect("/");
}
