// app/routes/checkconfirmation.tsx: docs/product/screens.md §2 /checkconfirmation: asks the user to check their
// e-mail, 'Resend Email', polls every 5 s (§9) and moves on once the address is confirmed
import { useEffect } from "react";
import { data, Form, Link, redirect, useActionData, useLoaderData, useNavigation, useRevalidator } from "react-router";
import type { Route } from "./+types/checkconfirmation";
import { FormMessage } from "~/components/Field";
import { messagesOf } from "~/server/i18n.server";
import { requireUser } from "~/server/auth.server";
import { attemptRefused } from "~/server/attempts.server";
import { takeFlash } from "~/server/session.server";
import { identityApi } from "~/server/upstream/identity.server";
import { failureInit } from "~/server/upstream/result.server";

// The page's words come in its loader data, in the request's language (docs/architecture/behaviour.md §4 "Language").
export const meta: Route.MetaFunction = ({ loaderData }) => (loaderData ? [{ title: loaderData.text.pageTitle }] : []);

/** The page's words in the request's language. */
function pageText(context: Route.LoaderArgs["context"]) {
  const m = messagesOf(context);
  return {
    pageTitle: m.checkYourEmailPageTitle,
    title: m.checkYourEmailTitle,
    checkYourEmail: m.checkYourEmail,
    sentTo: m.sentToLead,
    sentToEnd: m.sentToEnd,
    continue: m.continueButton,
    resend: m.resendEmailButton,
  };
}

/** docs/product/messages.md §9: the e-mail confirmation poll interval. */
export const pollIntervalMs = 5_000;

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const flash = takeFlash(context);
  const confirmed = await identityApi(context).isEmailConfirmed();
  if (!confirmed.ok) return data({ email: user.userName, error: confirmed.message, text: pageText(context) }, failureInit(confirmed));
  if (confirmed.value) return redirect("/checkaccountstatus");
  return { email: user.userName, error: flash.error, text: pageText(context) };
}

export async function action({ context }: Route.ActionArgs) {
  const user = requireUser(context);
  const messages = messagesOf(context);
  const refused = await attemptRefused(context, "mail", user.userName);
  if (refused) return data({ notice: undefined, error: refused.message }, refused.init);
  const sent = await identityApi(context).sendConfirmationEmail(user.userName, messages.sendEmailConfirmationFailed);
  return sent.ok
    ? { notice: messages.confirmationEmailSent, error: undefined }
    : data({ notice: undefined, error: sent.message }, failureInit(sent));
}

export default function CheckConfirmation() {
  const { email, error, text } = useLoaderData<typeof loader>();
  const resend = useActionData<typeof action>();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === "visible") void revalidator.revalidate();
    }, pollIntervalMs);
    return () => clearInterval(timer);
  }, [revalidator]);
  return (
    <section className="card narrow">
      {/* Without JavaScript the page reloads itself every 5 s; with it, the timer above polls. */}
      <noscript>
        <meta httpEquiv="refresh" content={String(pollIntervalMs / 1000)} />
      </noscript>
      <h1>{text.title}</h1>
      <p>{text.checkYourEmail}</p>
      <p>
        {text.sentTo} <strong>{email}</strong>
        {text.sentToEnd}
      </p>
      <FormMessage errors={error ? [error] : undefined} />
      {resend?.notice ? <FormMessage tone="success" errors={[resend.notice]} /> : null}
      {resend?.error ? <FormMessage errors={[resend.error]} /> : null}
      {/* A text browser may not follow the refresh: a link does the same. */}
      <p>
        <Link to="/checkconfirmation">{text.continue}</Link>
      </p>
      <Form method="post">
        <button type="submit" className="button secondary" disabled={navigation.state === "submitting"}>
          {text.resend}
        </button>
      </Form>
    </section>
  );
}
