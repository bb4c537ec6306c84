// app/routes/checkaccountstatus.tsx: SPEC §2 /checkaccountstatus: the routing gate.
// Not confirmed → /checkconfirmation; confirmed → /yourinfo (until the consumer API's profile
// lands, issue 3); on error 'There was an error looking up your account information'.
import { data, Link, redirect, useLoaderData } from "react-router";
import type { Route } from "./+types/checkaccountstatus";
import { messages } from "~/messages";
import { requireUser } from "~/server/auth.server";
import { isEmailConfirmed } from "~/server/upstream/identity.server";

export const meta = () => [{ title: "SafeWindow" }];

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context);
  let confirmed: boolean;
  try {
    confirmed = await isEmailConfirmed(user.accessToken);
  } catch {
    return data({ error: messages.accountLookupFailed }, { status: 502 });
  }
  if (!confirmed) return redirect("/checkconfirmation");
  return redirect("/yourinfo");
}

export default function CheckAccountStatus() {
  const { error } = useLoaderData<typeof loader>();
  return (
    <section className="card narrow">
      <h1>{messages.checkingAccount}</h1>
      <p role="alert" className="form-message error">
        {error}
      </p>
      <Link to="/checkaccountstatus" className="button">
        Try again
      </Link>
    </section>
  );
}
