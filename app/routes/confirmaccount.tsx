// app/routes/confirmaccount.tsx: docs/product/screens.md §2 /confirmaccount: 'Set Password' from the e-mail link
// (email, token); §5 Confirm account; §8 'There was a problem confirming your account.'
import { data, Form, Link, useActionData, useLoaderData, useNavigation } from "react-router";
import { parseWithZod } from "@conform-to/zod/v4";
import { useValidatedForm } from "~/hooks/useValidatedForm";
import type { Route } from "./+types/confirmaccount";
import { PasswordField } from "~/components/PasswordField";
import { DoneCard } from "~/components/DoneCard";
import { FormMessage } from "~/components/Field";
import { confirmAccountSchema, confirmAccountWordKeys, linkParameters } from "~/forms/account";
import { isEmailAddress } from "~/forms/password";
import { formWords } from "~/forms/words";
import { messagesOf } from "~/server/i18n.server";
import { identityApi } from "~/server/upstream/identity.server";
import { failureInit } from "~/server/upstream/result.server";
import { readForm } from "~/server/form.server";
import { noStoreMiddleware } from "~/server/no-store.server";

// The page's words come in its loader data, in the request's language (docs/architecture/behaviour.md §4 "Language").
// The URL carries a token: nothing may cache the answer (docs/security/input.md "Headers and caching").
export const middleware: Route.MiddlewareFunction[] = [noStoreMiddleware];

export const meta: Route.MetaFunction = ({ loaderData }) => (loaderData ? [{ title: loaderData.text.pageTitle }] : []);

export function loader({ request, context }: Route.LoaderArgs) {
  const m = messagesOf(context);
  const link = linkParameters(new URL(request.url), m);
  const email = link.problem === undefined ? link.email : "";
  return {
    problem: link.problem,
    text: {
      pageTitle: m.setPasswordPageTitle,
      title: m.setPasswordTitle,
      // The address only when it is one: the link's text is anyone's to write.
      chooseFor: !email ? "" : isEmailAddress(email) ? m.choosePasswordFor(email) : m.choosePassword,
      password: m.passwordLabel,
      passwordRule: m.passwordRuleHint,
      linkIncomplete: m.inviteLinkIncomplete,
      confirmed: m.accountConfirmed,
      signIn: m.signInTitle,
      // The form's checks, worded for the browser's validation on blur (app/forms/words.ts).
      form: formWords(m, confirmAccountWordKeys),
    },
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const m = messagesOf(context);
  const link = linkParameters(new URL(request.url), m);
  const formData = await readForm(request, context);
  const submission = parseWithZod(formData, { schema: confirmAccountSchema(m) });
  if (link.problem !== undefined) {
    return data({ done: false, result: submission.reply({ formErrors: [link.problem], hideFields: ["password"] }) }, { status: 400 });
  }
  if (submission.status !== "success") {
    return data({ done: false, result: submission.reply({ hideFields: ["password"] }) }, { status: 400 });
  }
  const confirmed = await identityApi(context).confirmAccount(link.email, submission.value.password, link.token);
  if (confirmed.ok) return { done: true, result: submission.reply({ resetForm: true }) };
  return data({ done: false, result: submission.reply({ formErrors: [confirmed.message], hideFields: ["password"] }) }, failureInit(confirmed));
}

export default function ConfirmAccount() {
  const { problem, text } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [, , formView] = useValidatedForm(() => import("~/forms/account").then((m) => m.confirmAccountSchema(text.form)), actionData?.result);
  if (actionData?.done) return <DoneCard title={text.title} message={text.confirmed} signIn={text.signIn} />;
  const disabled = Boolean(problem);
  return (
    <section className="card narrow">
      <h1>{text.title}</h1>
      {text.chooseFor ? <p>{text.chooseFor}</p> : null}
      <Form method="post" {...formView.props}>
        <FormMessage id={formView.errorId} errors={problem ? [problem] : formView.errors} />
        <fieldset disabled={disabled}>
          <PasswordField label={text.password} field={formView.field("password")} autoComplete="new-password" rule={text.passwordRule} />
          <button type="submit" className="button" disabled={disabled || navigation.state === "submitting"}>
            {text.title}
          </button>
        </fieldset>
      </Form>
      {problem ? (
        <>
          <p>{text.linkIncomplete}</p>
          <p>
            <Link to="/login">{text.signIn}</Link>
          </p>
        </>
      ) : null}
    </section>
  );
}
