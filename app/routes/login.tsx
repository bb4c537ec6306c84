// app/routes/login.tsx: docs/product/screens.md §2 /login 'Sign In'; §5 Login; §8 login errors
import { data, Form, Link, redirect, useActionData, useLoaderData, useNavigation } from "react-router";
import { parseWithZod } from "@conform-to/zod/v4";
import { inputProps, useValidatedForm } from "~/hooks/useValidatedForm";
import type { Route } from "./+types/login";
import { PasswordField } from "~/components/PasswordField";
import { Field, FormMessage } from "~/components/Field";
import { TextSeparator } from "~/components/TextOnly";
import { loginSchema, loginWordKeys } from "~/forms/account";
import { formWords } from "~/forms/words";
import { authenticate, getSessionUser, safeRedirect, SignInError } from "~/server/auth.server";
import { rememberedUserName, rememberUserName } from "~/server/preferences.server";
import { attemptRefused, forgiveAttempt } from "~/server/attempts.server";
import { signInSession, takeFlash } from "~/server/session.server";
import { messagesOf } from "~/server/i18n.server";
import { failureInit } from "~/server/upstream/result.server";
import type { SharedPageHandle } from "~/server/page-cache.server";
import type { LanguageSwitchHandle } from "~/i18n";
import { readForm } from "~/server/form.server";

// The page's words come in its loader data, in the request's language (docs/architecture/behaviour.md §4 "Language").
export const meta: Route.MetaFunction = ({ loaderData }) => (loaderData ? [{ title: loaderData.text.pageTitle }] : []);

/** The same page for every anonymous visitor: kept in the shared page cache (docs/architecture/request-path.md §7.1). */
export const handle: SharedPageHandle & LanguageSwitchHandle = { sharedPage: true, languageSwitch: true };

export async function loader({ request, context }: Route.LoaderArgs) {
  const redirectTo = new URL(request.url).searchParams.get("redirectTo");
  if (getSessionUser(context)) return redirect(safeRedirect(redirectTo));
  // A session that ended early (the upstream refused its token) says so once.
  // A deleted account says so once (settings' Delete my account).
  const { error: ended, notice } = takeFlash(context);
  const m = messagesOf(context);
  return {
    redirectTo: redirectTo ? safeRedirect(redirectTo, "") : "",
    email: await rememberedUserName(request),
    ended,
    notice,
    text: {
      title: m.signInTitle,
      pageTitle: m.signInPageTitle,
      email: m.emailLabel,
      password: m.passwordLabel,
      submit: m.submitButton,
      forgotPassword: m.forgotPasswordLink,
      createAccount: m.createAccountLink,
      // The form's checks, worded for the browser's validation on blur (app/forms/words.ts).
      form: formWords(m, loginWordKeys),
    },
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  // The sign-in strategy reads the body itself: this reads a clone (remix-auth-form's README).
  const formData = await readForm(request.clone(), context);
  const submission = parseWithZod(formData, { schema: loginSchema(messagesOf(context)) });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: ["password"] }) }, { status: 400 });
  }
  const refused = await attemptRefused(context, "signIn", submission.value.email);
  if (refused) return data({ result: submission.reply({ formErrors: [refused.message], hideFields: ["password"] }) }, refused.init);
  try {
    const user = await authenticate(request, context);
    await forgiveAttempt(context, "signIn", submission.value.email);
    signInSession(context, user);
    return redirect(safeRedirect(submission.value.redirectTo), { headers: { "Set-Cookie": await rememberUserName(user.userName) } });
  } catch (error) {
    if (!(error instanceof SignInError)) throw error;
    return data({ result: submission.reply({ formErrors: [error.message], hideFields: ["password"] }) }, failureInit(error.failure));
  }
}

export default function Login() {
  const { redirectTo, email, ended, notice, text } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [, , formView] = useValidatedForm(() => import("~/forms/account").then((m) => m.loginSchema(text.form)), actionData?.result, { defaultValue: { email, redirectTo } });
  const emailField = formView.field("email");
  return (
    <section className="card narrow">
      <h1>{text.title}</h1>
      {notice && !actionData ? <FormMessage tone="success" errors={[notice]} /> : null}
      <Form method="post" {...formView.props}>
        <FormMessage id={formView.errorId} errors={formView.errors ?? (ended && !actionData ? [ended] : undefined)} />
        {/* Plain: conform's input props give a hidden field nothing it needs (an id, aria), and each of their reads makes a metadata object (bench/alloc.results.md). */}
        <input type="hidden" name="redirectTo" defaultValue={redirectTo} />
        <Field
          label={text.email}
          inputProps={{ ...inputProps(emailField, { type: "email" }), autoComplete: "username", required: false }}
          errorId={emailField.errorId}
          errors={emailField.errors}
        />
        <PasswordField label={text.password} field={formView.field("password")} autoComplete="current-password" />
        <button type="submit" className="button" disabled={navigation.state === "submitting"}>
          {text.submit}
        </button>
      </Form>
      <p className="form-links">
        <Link to="/requestpasswordchange">{text.forgotPassword}</Link>
        <TextSeparator />
        <Link to="/registration">{text.createAccount}</Link>
      </p>
    </section>
  );
}
