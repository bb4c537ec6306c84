// app/routes/checkaccountstatus.tsx: docs/product.md §2 /checkaccountstatus, the routing gate after sign-in:
// not confirmed → /checkconfirmation; no consumer profile → /yourinfo; otherwise load permissions
// (kept in the session, docs/product.md §6) and test results: /safewindow with at least one, else /welcome
// ('Making sure everything is looking good...' shows in the pending bar while it works, with
// JavaScript; on error the page says 'There was an error looking up your account information'
// and offers 'Try again').
import { data, Link, redirect, useLoaderData } from "react-router";
import type { Route } from "./+types/checkaccountstatus";
import { messages } from "~/messages";
import { requireUser } from "~/server/auth.server";
import { saveEnabledScreens } from "~/server/session.server";
import { consumerApi } from "~/server/upstream/consumer.server";
import { isEmailConfirmed } from "~/server/upstream/identity.server";

export const meta = () => [{ title: "SafeWindow" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  try {
    if (!(await isEmailConfirmed(user.accessToken))) return redirect("/checkconfirmation");
    const api = consumerApi(user);
    if (!(await api.getProfile())) return redirect("/yourinfo");
    const [screens, results] = await Promise.all([api.getPermissions(), api.testResults()]);
    saveEnabledScreens(context, screens);
    return redirect(results.length > 0 ? "/safewindow" : "/welcome");
  } catch (error) {
    if (error instanceof Response) throw error;
    return data({ error: messages.accountLookupFailed }, { status: 502 });
  }
}

export default function CheckAccountStatus() {
  const { error } = useLoaderData<typeof loader>();
  return (
    <section className="card narrow">
      <h1 role="alert">{error}</h1>
      <Link to="/checkaccountstatus" className="button">
        Try again
      </Link>
    </section>
  );
}
