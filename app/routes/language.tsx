// app/routes/language.tsx: the explicit choice of language (docs/architecture/behaviour.md §4 "Language"). The
// switch on Sign In and Create Account, and My Settings, post `language` here with the page they came
// from; the answer sets the language cookie for a year and goes back there (a local path only). A
// language that is not offered now (app/i18n.ts) is refused, so the cookie never holds one.
import { data, redirect } from "react-router";
import type { Route } from "./+types/language";
import { isOfferedLanguage } from "~/i18n";
import { safeRedirect } from "~/server/auth.server";
import { rememberLanguage } from "~/server/i18n.server";
import { readForm } from "~/server/form.server";

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request, context);
  const language = form.get("language");
  if (!isOfferedLanguage(language)) throw data(null, { status: 400 });
  return redirect(safeRedirect(form.get("redirectTo"), "/"), { headers: { "Set-Cookie": await rememberLanguage(language) } });
}

export function loader() {
  return redirect("/");
}
