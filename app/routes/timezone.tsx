// app/routes/timezone.tsx: the browser's time zone (docs/architecture/behaviour.md §4 "One clock"). The boot script
// in root.tsx posts `zone` here when JavaScript runs and the zone differs from the one the page was
// rendered with; the answer sets the `tz` cookie like every other cookie (HttpOnly, Secure over https,
// SameSite=Lax; docs/security/accounts.md "Cookies"). A value that is not a zone the runtime knows is refused.
import { redirect } from "react-router";
import type { Route } from "./+types/timezone";
import { isTimeZone } from "~/dates";
import { forgetScriptTimeZoneCookie, rememberBrowserTimeZone } from "~/server/timezone.server";
import { readForm } from "~/server/form.server";

export async function action({ request, context }: Route.ActionArgs) {
  const zone = (await readForm(request, context)).get("zone");
  if (typeof zone !== "string" || !isTimeZone(zone)) return new Response("Not a time zone.", { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  const headers = new Headers();
  headers.append("Set-Cookie", await rememberBrowserTimeZone(zone));
  // The cookie an earlier boot script wrote itself goes, where it is not this one.
  const scriptCookie = forgetScriptTimeZoneCookie();
  if (scriptCookie) headers.append("Set-Cookie", scriptCookie);
  return new Response(null, { status: 204, headers });
}

export function loader() {
  return redirect("/");
}
