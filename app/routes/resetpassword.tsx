// app/routes/resetpassword.tsx: docs/product/screens.md §2 /resetpassword (and /consumer/...): new password and
// confirm from the e-mail link (email, token), 'Change Password'; §8 password change errors
import { data, Form, Link, useActionData, useLoaderData, useNavigation } from "react-router";
import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useValidatedForm } from "~/hooks/useValidatedForm";
import type { Route } from "./+types/resetpassword";
import { PasswordField } from "~/components/PasswordField";
import { DoneCard } from "~/components/DoneCard";
import { FormMessage } from "~/components/Field";
import { linkParameters, resetPasswordSchema } from "~/forms/account";
import * as messages from "~/messages";
import { revokeSessionsOf } from "~/server/session.server";
import { failureInit } from "~/server/upstream/result.server";
import { identityApi } from "~/server/upstream/identity.server";

export const meta = () => [{ title: "Change Password · SafeWindow" }];

const hideFields = ["newPassword", "confirmPassword"];

export function loader({ request }: Route.LoaderArgs) {
  const link = linkParameters(new URL(request.url));
  return { problem: link.problem, email: link.problem === undefined ? link.email : "" };
}

export async function action({ request, context }: Route.ActionArgs) {
  const link = linkParameters(new URL(request.url));
  const submission = parseWithZod(await request.formData(), { schema: resetPasswordSchema });
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
  const { problem, email } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useValidatedForm(() => import("~/forms/account").then((m) => m.resetPasswordSchema), actionData?.result);
  if (actionData?.done) return <DoneCard title="Change Password" message={messages.resetSucceeded} />;
  const disabled = Boolean(problem);
  return (
    <section className="card narrow">
      <h1>Change Password</h1>
      {email ? <p>Choose a new password for {email}.</p> : null}
      <Form method="post" {...getFormProps(form)} aria-describedby={form.errorId}>
        <FormMessage id={form.errorId} errors={problem ? [problem] : form.errors} />
        <fieldset disabled={disabled}>
          <PasswordField label="New Password" field={fields.newPassword} autoComplete="new-password" showRule />
          <PasswordField label="Confirm Password" field={fields.confirmPassword} autoComplete="new-password" />
          <button type="submit" className="button" disabled={disabled || navigation.state === "submitting"}>
            Change Password
          </button>
        </fieldset>
      </Form>
      {problem ? (
        <>
          <p>{messages.resetLinkIncomplete}</p>
          <p>
            <Link to="/requestpasswordchange">Send a new reset link</Link>
          </p>
        </>
      ) : null}
    </section>
  );
}
