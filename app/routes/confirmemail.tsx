// app/routes/confirmemail.tsx: docs/product/screens.md §2 /confirmemail and /consumer/confirmemail: confirms the
// address from the e-mail link (email, token); on failure offers 'Resend Confirmation' (§8)
import { data, Form, Link, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/confirmemail";
import { FormMessage } from "~/components/Field";
import { Interstitial } from "~/components/Interstitial";
import { linkParameters } from "~/forms/account";
import * as messages from "~/messages";
import { attemptRefused } from "~/server/attempts.server";
import { wantsInterstitial } from "~/server/interstitial.server";
import { identityApi } from "~/server/upstream/identity.server";
import { failureInit } from "~/server/upstream/result.server";

export const meta = () => [{ title: "Confirm Email · SafeWindow" }];

// `working`: the full load's first answer, the confirming state (app/server/interstitial.server.ts).
type Outcome = { confirmed: true } | { confirmed: false; errors: string[]; email: string } | { working: true };

export async function loader({ request, context }: Route.LoaderArgs) {
  const link = linkParameters(new URL(request.url));
  if (link.problem !== undefined) {
    return data<Outcome>({ confirmed: false, errors: [link.problem], email: "" }, { status: 400 });
  }
  if (wantsInterstitial(request)) return { working: true } as Outcome;
  const confirmed = await identityApi(context).confirmEmail(link.email, link.token);
  if (confirmed.ok) return { confirmed: true } as Outcome;
  return data<Outcome>({ confirmed: false, errors: [confirmed.message], email: link.email }, failureInit(confirmed));
}

export async function action({ request, context }: Route.ActionArgs) {
  const email = new URL(request.url).searchParams.get("email")?.trim() ?? "";
  const refused = email ? await attemptRefused(context, "mail", email) : undefined;
  if (refused) return data({ notice: undefined, error: refused.message }, refused.init);
  if (!email) return data({ notice: undefined, error: messages.confirmationEmailSendFailed }, { status: 400 });
  const sent = await identityApi(context).sendConfirmationEmail(email);
  return sent.ok
    ? { notice: messages.confirmationEmailSent, error: undefined }
    : data({ notice: undefined, error: sent.message }, failureInit(sent));
}

export default function ConfirmEmail() {
  const outcome = useLoaderData<typeof loader>();
  const resend = useActionData<typeof action>();
  const navigation = useNavigation();
  if ("working" in outcome) return <Interstitial title={messages.emailConfirming} />;
  if (navigation.state === "loading" && navigation.location.pathname.endsWith("confirmemail")) {
    return (
      <section className="card narrow" aria-busy="true">
        <div role="status">
          <h1>{messages.emailConfirming}</h1>
        </div>
      </section>
    );
  }
  if (outcome.confirmed) {
    return (
      <section className="card narrow">
        <h1>Email Confirmed</h1>
        <p role="status">{messages.emailConfirmed}</p>
        <Link className="button" to="/checkaccountstatus">
          Continue
        </Link>
      </section>
    );
  }
  return (
    <section className="card narrow">
      <h1>Confirm Email</h1>
      <FormMessage errors={outcome.errors} />
      {resend?.notice ? <FormMessage tone="success" errors={[resend.notice]} /> : null}
      {resend?.error ? <FormMessage errors={[resend.error]} /> : null}
      {outcome.email ? (
        <Form method="post">
          <button type="submit" className="button" disabled={navigation.state === "submitting"}>
            Resend Confirmation
          </button>
        </Form>
      ) : (
        <Link to="/login">Sign In</Link>
      )}
    </section>
  );
}
