// app/routes/requestpasswordchange.tsx: docs/product/screens.md §2 /requestpasswordchange (and /consumer/...):
// e-mail, 'Send Reset Email', 'Login'; §5 reset request; §8: the answer never tells whether the account exists
import { data, Form, Link, useActionData, useNavigation } from "react-router";
import { getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useValidatedForm } from "~/hooks/useValidatedForm";
import type { Route } from "./+types/requestpasswordchange";
import { Field, FormMessage } from "~/components/Field";
import { requestPasswordChangeSchema } from "~/forms/account";
import * as messages from "~/messages";
import { attemptRefused } from "~/server/attempts.server";
import { identityApi } from "~/server/upstream/identity.server";
import type { SharedPageHandle } from "~/server/page-cache.server";

export const meta = () => [{ title: "Reset Password · SafeWindow" }];

/** The same page for every anonymous visitor: kept in the shared page cache (docs/architecture/request-path.md §7.1). */
export const handle: SharedPageHandle = { sharedPage: true };

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: requestPasswordChangeSchema });
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
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useValidatedForm(() => import("~/forms/account").then((m) => m.requestPasswordChangeSchema), actionData?.result);
  return (
    <section className="card narrow">
      <h1>Reset Password</h1>
      {actionData?.sent ? <FormMessage tone="success" errors={[messages.resetRequested]} /> : null}
      <Form method="post" {...getFormProps(form)} aria-describedby={form.errorId}>
        <FormMessage id={form.errorId} errors={form.errors} />
        <Field
          label="Email"
          inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email", required: false }}
          errorId={fields.email.errorId}
          errors={fields.email.errors}
        />
        <button type="submit" className="button" disabled={navigation.state === "submitting"}>
          Send Reset Email
        </button>
      </Form>
      <Link className="button secondary" to="/login">
        Login
      </Link>
    </section>
  );
}
