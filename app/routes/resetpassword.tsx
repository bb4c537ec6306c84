// app/routes/resetpassword.tsx: docs/product/screens.md §2 /resetpassword (and /consumer/...): new password and
// confirm from the e-mail link (email, token), 'Change Password'; §8 password change errors
import { data, Form, Link, useActionData, useLoaderData, useNavigation } from "react-router";
import { parseWithZod } from "@conform-to/zod/v4";
import { useValidatedForm } from "~/hooks/useValidatedForm";
import type { Route } from "./+types/resetpassword";
import { PasswordField } from "~/components/PasswordField";
import { DoneCard } from "~/components/DoneCard";
import { FormMessage } from "~/components/Field";
import { linkParameters, resetPasswordSchema, resetPasswordWordKeys } from "~/forms/account";
import { isEmailAddress } from "~/forms/password";
import { formWords } from "~/forms/words";
import { messagesOf } from "~/server/i18n.server";
import { revokeSessionsOf } from "~/server/session.server";
import { failureInit } from "~/server/upstream/result.server";
import { identityApi } from "~/server/upstream/identity.server";
import { readForm } from "~/server/form.server";
import { noStoreMiddleware } from "~/server/no-store.server";

// The page's words come in its loader data, in the request's language (docs/architecture/behaviour.md §4 "Language").
// The URL carries a token: nothing may cache the answer (docs/security/input.md "Headers and caching").
export const middleware: Route.MiddlewareFunction[] = [noStoreMiddleware];

export const meta: Route.MetaFunction = ({ loaderData }) => (loaderData ? [{ title: loaderData.text.pageTitle }] : []);

const hideFields = ["newPassword", "confirmPassword"];

export function loader({ request, context }: Route.LoaderArgs) {
  const m = messagesOf(context);
  const link = linkParameters(new URL(request.url), m);
  const email = link.problem === undefined ? link.email : "";
  return {
    problem: link.problem,
    text: {
      pageTitle: m.changePasswordPageTitle,
      title: m.changePasswordTitle,
      // The address only when it is one: the link's text is anyone's to write.
      chooseFor: !email ? "" : isEmailAddress(email) ? m.chooseNewPasswordFor(email) : m.chooseNewPassword,
      newPassword: m.newPasswordLabel,
      passwordRule: m.passwordRuleHint,
      confirmPassword: m.confirmPasswordLabel,
      linkIncomplete: m.resetLinkIncomplete,
      newResetLink: m.sendNewResetLink,
      succeeded: m.resetSucceeded,
      signIn: m.signInTitle,
      // The form's checks, worded for the browser's validation on blur (app/forms/words.ts).
      form: formWords(m, resetPasswordWordKeys),
    },
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const m = messagesOf(context);
  const link = linkParameters(new URL(request.url), m);
  const submission = parseWithZod(await readForm(request, context), { schema: resetPasswordSchema(m) });
  if (link.problem !== undefined) {
    return data({ done: false, result: submission.reply({ formErrors: [link.problem], hideFields }) }, { status: 400 });
  }
  if (submission.status !== "success") return data({ done: false, result: submission.reply({ hideFields }) }, { status: 400 });
  const changed = await identityApi(context).changePasswordUsingToken(link.email, submission.value.newPassword, link.token);
  if (!changed.ok) return data({ done: false, result: submission.reply({ formErrors: [changed.message], hideFields }) }, failureInit(changed));
  // Whoever was signed in to the account anywhere is signed out.
  await revokeSessionsOf(context, link.email);
  return { done: true, result: submission.reply({ resetForm: true }) };
}

export default function ResetPassword() {
  const { problem, text } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [, , formView] = useValidatedForm(() => import("~/forms/account").then((m) => m.resetPasswordSchema(text.form)), actionData?.result);
  if (actionData?.done) return <DoneCard title={text.title} message={text.succeeded} signIn={text.signIn} />;
  const disabled = Boolean(problem);
  return (
    <section className="card narrow">
      <h1>{text.title}</h1>
      {text.chooseFor ? <p>{text.chooseFor}</p> : null}
      <Form method="post" {...formView.props}>
        <FormMessage id={formView.errorId} errors={problem ? [problem] : formView.errors} />
        <fieldset disabled={disabled}>
          <PasswordField label={text.newPassword} field={formView.field("newPassword")} autoComplete="new-password" rule={text.passwordRule} />
          <PasswordField label={text.confirmPassword} field={formView.field("confirmPassword")} autoComplete="new-password" />
          <button type="submit" className="button" disabled={disabled || navigation.state === "submitting"}>
            {text.title}
          </button>
        </fieldset>
      </Form>
      {problem ? (
        <>
          <p>{text.linkIncomplete}</p>
          <p>
            <Link to="/requestpasswordchange">{text.newResetLink}</Link>
          </p>
        </>
      ) : null}
    </section>
  );
}
