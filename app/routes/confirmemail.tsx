// app/routes/confirmemail.tsx: docs/product/screens.md §2 /confirmemail and /consumer/confirmemail: confirms the
// address from the e-mail link (email, token); on failure offers 'Resend Confirmation' (§8)
import { data, Form, Link, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/confirmemail";
import { FormMessage } from "~/components/Field";
import { Interstitial } from "~/components/Interstitial";
import { linkParameters } from "~/forms/account";
import { messagesOf } from "~/server/i18n.server";
import { attemptRefused } from "~/server/attempts.server";
import { wantsInterstitial } from "~/server/interstitial.server";
import { identityApi } from "~/server/upstream/identity.server";
import { failureInit } from "~/server/upstream/result.server";
import { noStoreMiddleware } from "~/server/no-store.server";

// The page's words come in its loader data, in the request's language (docs/architecture/behaviour.md §4 "Language").
// The URL carries a token: nothing may cache the answer (docs/security/input.md "Headers and caching").
export const middleware: Route.MiddlewareFunction[] = [noStoreMiddleware];

export const meta: Route.MetaFunction = ({ loaderData }) => (loaderData ? [{ title: loaderData.text.pageTitle }] : []);

/** The page's words in the request's language. */
function pageText(context: Route.LoaderArgs["context"]) {
  const m = messagesOf(context);
  return {
    pageTitle: m.confirmEmailPageTitle,
    title: m.confirmEmailTitle,
    confirming: m.emailConfirming,
    confirmedTitle: m.emailConfirmedTitle,
    confirmed: m.emailConfirmed,
    continue: m.continueButton,
    resend: m.resendConfirmationButton,
    signIn: m.signInTitle,
  };
}

// `working`: the full load's first answer, the confirming state (app/server/interstitial.server.ts).
type Outcome = ({ confirmed: true } | { confirmed: false; errors: string[]; email: string } | { working: true }) & { text: ReturnType<typeof pageText> };

export async function loader({ request, context }: Route.LoaderArgs) {
  const link = linkParameters(new URL(request.url), messagesOf(context));
  const text = pageText(context);
  if (link.problem !== undefined) {
    return data<Outcome>({ confirmed: false, errors: [link.problem], email: "", text }, { status: 400 });
  }
  if (wantsInterstitial(request)) return { working: true, text } as Outcome;
  const confirmed = await identityApi(context).confirmEmail(link.email, link.token);
  if (confirmed.ok) return { confirmed: true, text } as Outcome;
  return data<Outcome>({ confirmed: false, errors: [confirmed.message], email: link.email, text }, failureInit(confirmed));
}

export async function action({ request, context }: Route.ActionArgs) {
  const email = new URL(request.url).searchParams.get("email")?.trim() ?? "";
  const messages = messagesOf(context);
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
  const { text } = outcome;
  const resend = useActionData<typeof action>();
  const navigation = useNavigation();
  if ("working" in outcome) return <Interstitial title={text.confirming} continueLabel={text.continue} />;
  if (navigation.state === "loading" && navigation.location.pathname.endsWith("confirmemail")) {
    return (
      <section className="card narrow" aria-busy="true">
        <div role="status">
          <h1>{text.confirming}</h1>
        </div>
      </section>
    );
  }
  if (outcome.confirmed) {
    return (
      <section className="card narrow">
        <h1>{text.confirmedTitle}</h1>
        <p role="status">{text.confirmed}</p>
        <Link className="button" to="/checkaccountstatus">
          {text.continue}
        </Link>
      </section>
    );
  }
  return (
    <section className="card narrow">
      <h1>{text.title}</h1>
      <FormMessage errors={outcome.errors} />
      {resend?.notice ? <FormMessage tone="success" errors={[resend.notice]} /> : null}
      {resend?.error ? <FormMessage errors={[resend.error]} /> : null}
      {outcome.email ? (
        <Form method="post">
          <button type="submit" className="button" disabled={navigation.state === "submitting"}>
            {text.resend}
          </button>
        </Form>
      ) : (
        <Link to="/login">{text.signIn}</Link>
      )}
    </section>
  );
}
