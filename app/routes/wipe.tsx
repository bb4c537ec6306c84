// app/routes/wipe.tsx: docs/product/data.md §4 Wipe ('Local Data' in settings): clears the session, the remembered
// username and the flags, then goes to the intro screen
import { redirect } from "react-router";
import type { Route } from "./+types/wipe";
import { forgetLocalData } from "~/server/preferences.server";
import { endSession } from "~/server/session.server";

export async function action({ context }: Route.ActionArgs) {
  endSession(context);
  const headers = new Headers();
  for (const cookie of await forgetLocalData()) headers.append("Set-Cookie", cookie);
  return redirect("/", { headers });
}

export function loader() {
  return redirect("/settings");
}
