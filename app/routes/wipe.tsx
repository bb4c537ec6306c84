// app/routes/wipe.tsx: SPEC §4 Wipe ('Local Data' in settings): clears the session, the remembered
// username and the flags, then goes to the intro screen
import { redirect } from "react-router";
import type { Route } from "./+types/wipe";
import { forgetLocalData } from "~/server/preferences.server";
import { destroySession, getSession } from "~/server/session.server";

export async function action({ request }: Route.ActionArgs) {
  const headers = new Headers();
  headers.append("Set-Cookie", await destroySession(await getSession(request)));
  for (const cookie of await forgetLocalData()) headers.append("Set-Cookie", cookie);
  return redirect("/", { headers });
}

export function loader() {
  return redirect("/settings");
}
