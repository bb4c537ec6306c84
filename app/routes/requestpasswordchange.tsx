// app/routes/requestpasswordchange.tsx: docs/product/screens.md §2 /requestpasswordchange (and /consumer/...):
// e-mail, 'Send Reset Email', 'Login'; §5 reset request; §8: the answer never tells whether the account exists
import { data, Form, Link, useActionData, useLoaderData, useNavigation } from "react-router";
import { parseWithZod } from "@conform-to/zod/v4";
import { inputProps, useValidatedForm } from "~/hooks/useValidatedForm";
import type { Route } from "./+types/requestpasswordchange";
import { Field, FormMessage } from "~/components/Field";
import { requestPasswordChangeSchema, requestPasswordChangeWordKeys } from "~/forms/account";
import { formWords } from "~/forms/words";
import { messagesOf } from "~/server/i18n.server";
import { attemptRefused } from "~/server/attempts.server";
import { identityApi } from "~/server/upstream/identity.server";
import type { SharedPageHandle } from "~/server/page-cache.server";
import { readForm } from "~/server/form.server";

// The page's words come in its loader data, in the request's language (docs/architecture/behaviour.md §4 "Language").
export const meta: Route.MetaFunction = ({ loaderData }) => (loaderData ? [{ title: loaderData.text.pageTitle }] : []);

/** The same page for every anonymous visitor: kept in the shared page cache (docs/architecture/request-path.md §7.1). */
export const handle: SharedPageHandle = { sharedPage: true };

export function loader({ context }: Route.LoaderArgs) {
  const m = messagesOf(context);
  return {
    text: {
      pageTitle: m.resetPasswordPageTitle,
      title: m.resetPasswordTitle,
      requested: m.resetRequested,
      email: m.emailLabel,
      submit: m.sendResetEmailButton,
      login: m.loginLink,
      // The form's checks, worded for the browser's validation on blur (app/forms/words.ts).
      form: formWords(m, requestPasswordChangeWordKeys),
    },
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseWithZod(await readForm(request, context), { schema: requestPasswordChangeSchema(messagesOf(context)) });
  if (submission.status !== "success") return data({ sent: false, result: submission.reply() }, { status: 400 });
  // Counted per recipient, whether or not the account exists, so the limit discloses nothing either.
  const refused = await attemptRefused(context, "mail", submission.value.email);
  if (refused) return data({ sent: false, result: submission.reply({ formErrors: [refused.message] }) }, refused.init);
  // docs/product/messages.md §8: always the same message, whatever the authority answered (a failure is
  // logged by the client), so the page does not disclose whether the account exists.
  await identityApi(context).requestPasswordChange(submission.value.email);
  return { sent: true, result: submission.reply() };
}

export default function RequestPasswordChange() {
  const { text } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [, , formView] = useValidatedForm(() => import("~/forms/account").then((m) => m.requestPasswordChangeSchema(text.form)), actionData?.result);
  const emailField = formView.field("email");
  return (
    <section className="card narrow">
      <h1>{text.title}</h1>
      {actionData?.sent ? <FormMessage tone="success" errors={[text.requested]} /> : null}
      <Form method="post" {...formView.props}>
        <FormMessage id={formView.errorId} errors={formView.errors} />
        <Field
          label={text.email}
          inputProps={{ ...inputProps(emailField, { type: "email" }), autoComplete: "email", required: false }}
          errorId={emailField.errorId}
          errors={emailField.errors}
        />
        <button type="submit" className="button" disabled={navigation.state === "submitting"}>
          {text.submit}
        </button>
      </Form>
      <Link className="button secondary" to="/login">
        {text.login}
      </Link>
    </section>
  );
}
