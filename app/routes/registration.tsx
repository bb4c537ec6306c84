// app/routes/registration.tsx: docs/product/screens.md §2 /registration; §4 Registration (register, automatic login,
// confirmation e-mail, /checkconfirmation); §5 Registration rules; §8 register errors
import { data, Form, Link, redirect, useActionData, useFetcher, useLoaderData, useNavigation } from "react-router";
import { parseWithZod } from "@conform-to/zod/v4";
import { inputProps, useValidatedForm } from "~/hooks/useValidatedForm";
import type { Route } from "./+types/registration";
import { PasswordField } from "~/components/PasswordField";
import { Field, FormMessage, Toggle } from "~/components/Field";
import { registrationSchema, registrationWordKeys } from "~/forms/account";
import { formWords } from "~/forms/words";
import { isValidPassword } from "~/forms/password";
import { useHydrated } from "~/hooks/useHydrated";
import type { Messages } from "~/messages/catalogues";
import { messagesOf } from "~/server/i18n.server";
import { authenticate, SignInError, type SignedIn } from "~/server/auth.server";
import { rememberUserName } from "~/server/preferences.server";
import { attemptRefused } from "~/server/attempts.server";
import { signInSession } from "~/server/session.server";
import { identityApi } from "~/server/upstream/identity.server";
import { failureInit, type Failure } from "~/server/upstream/result.server";
import type { SharedPageHandle } from "~/server/page-cache.server";
import type { LanguageSwitchHandle } from "~/i18n";
import { TextSeparator } from "~/components/TextOnly";
import { readForm } from "~/server/form.server";

// The page's words come in its loader data, in the request's language (docs/architecture/behaviour.md §4 "Language").
export const meta: Route.MetaFunction = ({ loaderData }) => (loaderData ? [{ title: loaderData.text.pageTitle }] : []);

export function loader({ context }: Route.LoaderArgs) {
  const m = messagesOf(context);
  return {
    text: {
      pageTitle: m.createAccountPageTitle,
      title: m.createAccountLink,
      email: m.emailLabel,
      password: m.passwordLabel,
      confirmPassword: m.confirmPasswordLabel,
      passwordRule: m.passwordRuleHint,
      acceptTerms: m.acceptTermsLead,
      acceptPrivacy: m.acceptPrivacyLead,
      terms: m.termsOfServiceLink,
      privacy: m.privacyPolicyLink,
      submit: m.createAccountLink,
      back: m.backLink,
      signIn: m.signInTitle,
      emailUnavailable: m.emailUnavailable,
      missing: m.createAccountMissingParts,
      // The form's checks, worded for the browser's validation on blur (app/forms/words.ts).
      form: formWords(m, registrationWordKeys),
    },
  };
}

/** The same page for every anonymous visitor: kept in the shared page cache (docs/architecture/request-path.md §7.1). */
export const handle: SharedPageHandle & LanguageSwitchHandle = { sharedPage: true, languageSwitch: true };

const hiddenFields = ["password", "confirmPassword"];

/** The availability check on blur (JavaScript only): answers for one address; when it cannot tell, the submit checks again. */
async function checkEmail(formData: FormData, context: Route.ActionArgs["context"]) {
  const email = String(formData.get("email") ?? "").trim();
  if (!email) return { emailCheck: { email, available: true } };
  const available = await identityApi(context).isAvailable(email);
  return { emailCheck: { email, available: available.ok ? available.value : true } };
}

/** docs/product/messages.md §8: a refused registration lists the authority's reasons as "code: description"; any other failure its one message. */
function registerErrors(failed: Failure): string[] {
  if (failed.reason === "refused" && failed.errors?.length) return failed.errors.map((e) => `${e.code || "Error"}: ${e.description}`.trim());
  return [failed.message];
}

export async function action({ request, context }: Route.ActionArgs) {
  // The sign-in after registering reads the body itself: this reads a clone (remix-auth-form's README).
  const formData = await readForm(request.clone(), context);
  if (formData.get("intent") === "check-email") return checkEmail(formData, context);
  const messages = messagesOf(context);

  const submission = parseWithZod(formData, { schema: registrationSchema(messages) });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: hiddenFields }) }, { status: 400 });
  }
  const { email, password } = submission.value;
  // Each registration mails the address: counted per recipient.
  const refused = await attemptRefused(context, "mail", email);
  if (refused) return data({ result: submission.reply({ formErrors: [refused.message], hideFields: hiddenFields }) }, refused.init);
  const identity = identityApi(context);
  const available = await identity.isAvailable(email);
  if (!available.ok) return data({ result: submission.reply({ formErrors: [available.message], hideFields: hiddenFields }) }, failureInit(available));
  if (!available.value) {
    return data({ result: submission.reply({ fieldErrors: { email: [messages.emailUnavailable] }, hideFields: hiddenFields }) }, { status: 409 });
  }
  const registered = await identity.register(email, password);
  if (!registered.ok) return data({ result: submission.reply({ formErrors: registerErrors(registered), hideFields: hiddenFields }) }, failureInit(registered));

  let signedIn: SignedIn;
  try {
    signedIn = await authenticate(request, context);
  } catch (error) {
    if (!(error instanceof SignInError)) throw error;
    // The account exists; only the automatic sign-in failed (docs/product/messages.md §8).
    return data({ result: submission.reply({ formErrors: [messages.loginAfterRegistrationFailed], hideFields: hiddenFields }) }, { status: 502 });
  }
  const sent = await identity.sendConfirmationEmail(email);
  signInSession(context, signedIn, sent.ok ? {} : { error: sent.message });
  return redirect("/checkconfirmation", { headers: { "Set-Cookie": await rememberUserName(signedIn.userName) } });
}

/**
 * What the form still lacks before Create Account can be pressed, in the form's order, as one sentence
 * in the page's language ("" when nothing): the words are the loader's `createAccountMissingParts`.
 */
function missingForAccount(
  fields: { email: { value?: unknown }; password: { value?: unknown }; confirmPassword: { value?: unknown }; acceptTerms: { value?: unknown }; acceptPrivacy: { value?: unknown } },
  words: Messages["createAccountMissingParts"],
): string {
  const password = String(fields.password.value ?? "");
  const missing: string[] = [];
  if (!String(fields.email.value ?? "").trim()) missing.push(words.email);
  if (!isValidPassword(password)) missing.push(words.password);
  else if (password !== String(fields.confirmPassword.value ?? "")) missing.push(words.confirmPassword);
  if (fields.acceptTerms.value !== "on") missing.push(words.terms);
  if (fields.acceptPrivacy.value !== "on") missing.push(words.privacy);
  if (missing.length === 0) return "";
  return missing.length === 1 ? `${words.leadOne}${missing[0]}.` : `${words.lead}${missing.slice(0, -1).join(", ")}${words.and}${missing.at(-1)}.`;
}

export default function Registration() {
  const { text } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const availability = useFetcher<typeof action>();
  const result = actionData && "result" in actionData ? actionData.result : undefined;
  const [, fields, formView] = useValidatedForm(() => import("~/forms/account").then((m) => m.registrationSchema(text.form)), result);

  const checked = availability.data && "emailCheck" in availability.data ? availability.data.emailCheck : undefined;
  const typedEmail = String(fields.email.value ?? "").trim();
  const unavailable = checked && !checked.available && checked.email === typedEmail;
  const emailField = formView.field("email");
  const acceptTerms = formView.field("acceptTerms");
  const acceptPrivacy = formView.field("acceptPrivacy");
  const emailErrors = unavailable ? [text.emailUnavailable] : emailField.errors;

  const password = String(fields.password.value ?? "");
  const canSubmit =
    isValidPassword(password) &&
    password === String(fields.confirmPassword.value ?? "") &&
    fields.acceptTerms.value === "on" &&
    fields.acceptPrivacy.value === "on";

  const emailProps = inputProps(emailField, { type: "email" });
  return (
    <section className="card narrow">
      <h1>{text.title}</h1>
      <Form method="post" {...formView.props}>
        <FormMessage id={formView.errorId} errors={formView.errors} />
        <Field
          label={text.email}
          inputProps={{
            ...emailProps,
            autoComplete: "email",
            required: false,
            "aria-invalid": unavailable || emailProps["aria-invalid"] ? true : undefined,
            onBlur: (event) => {
              const email = event.currentTarget.value.trim();
              if (email) availability.submit({ intent: "check-email", email }, { method: "post" });
            },
          }}
          errorId={emailField.errorId}
          errors={emailErrors}
        />
        <PasswordField label={text.password} field={formView.field("password")} autoComplete="new-password" rule={text.passwordRule} />
        <PasswordField label={text.confirmPassword} field={formView.field("confirmPassword")} autoComplete="new-password" />
        <Toggle
          label={
            <>
              {text.acceptTerms} <Link to="/terms">{text.terms}</Link>
            </>
          }
          inputProps={{ ...inputProps(acceptTerms, { type: "checkbox" }), required: false }}
          errorId={acceptTerms.errorId}
          errors={acceptTerms.errors}
        />
        <Toggle
          label={
            <>
              {text.acceptPrivacy} <Link to="/privacy">{text.privacy}</Link>
            </>
          }
          inputProps={{ ...inputProps(acceptPrivacy, { type: "checkbox" }), required: false }}
          errorId={acceptPrivacy.errorId}
          errors={acceptPrivacy.errors}
        />
        {/* A disabled button says why: what is still missing, in the order of the form. */}
        <button
          type="submit"
          className="button"
          disabled={(hydrated && !canSubmit) || navigation.state === "submitting"}
          aria-describedby={hydrated && !canSubmit ? "create-account-missing" : undefined}
        >
          {text.submit}
        </button>
        {hydrated && !canSubmit ? (
          <p id="create-account-missing" className="field-hint">
            {missingForAccount(fields, text.missing)}
          </p>
        ) : null}
      </Form>
      {/* docs/product/data.md §5's 'not available' message tells the user to hit 'Back' then 'Sign In'. */}
      <p className="form-links">
        <Link to="/">{text.back}</Link>
        <TextSeparator />
        <Link to="/login">{text.signIn}</Link>
      </p>
    </section>
  );
}
