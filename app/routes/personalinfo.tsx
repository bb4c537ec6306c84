// app/routes/personalinfo.tsx: docs/product/screens.md §2 /personalinfo: first name, last name, date of birth
// (MM/DD/YYYY), postal code; read-only until 'Change Your Info' (?edit=1, so it works without
// JavaScript), which becomes Cancel and restores the original data; Save enabled only when valid
// and 18+; the invalidation warning; success → /settings; §8 'There was a problem saving your profile information.'
import { data, Form, Link, redirect, useActionData, useLoaderData, useNavigation } from "react-router";
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useValidatedForm } from "~/hooks/useValidatedForm";
import type { Route } from "./+types/personalinfo";
import { FormMessage } from "~/components/Field";
import { ProfileFields, type ProfileFieldsText } from "~/components/ProfileFields";
import { toUsDate } from "~/dates";
import { personalInfoSchema, personalInfoWordKeys, toIsoDate } from "~/forms/profile";
import { formWords, type FormWords } from "~/forms/words";
import { useHydrated } from "~/hooks/useHydrated";
import { messagesOf } from "~/server/i18n.server";
import { setFlash } from "~/server/session.server";
import { rememberPostalTimeZone } from "~/server/timezone.server";
import { consumerApi } from "~/server/upstream/consumer.server";
import { failureInit, valueOrThrow } from "~/server/upstream/result.server";
import { readForm } from "~/server/form.server";

// The page's words come in its loader data, in the request's language (docs/architecture/behaviour.md §4 "Language").
export const meta: Route.MetaFunction = ({ loaderData }) => (loaderData ? [{ title: loaderData.text.pageTitle }] : []);

export async function loader({ request, context }: Route.LoaderArgs) {
  const profile = valueOrThrow(await consumerApi(context).getProfile());
  if (!profile) throw redirect("/checkaccountstatus");
  const m = messagesOf(context);
  return {
    text: {
      pageTitle: m.personalInfoPageTitle,
      title: m.personalInfoTitle,
      warning: m.infoChangeWarning,
      fields: { firstName: m.firstNameLabel, lastName: m.lastNameLabel, dob: m.dateOfBirthLabel, postalCode: m.postalCodeLabel, dateFormat: m.dateFormatHint },
      save: m.saveButton,
      cancel: m.cancelButton,
      change: m.changeYourInfoButton,
      back: m.backToSettingsLink,
      // The form's checks, worded for the browser's validation on blur (app/forms/words.ts).
      form: formWords(m, personalInfoWordKeys),
    },
    editing: new URL(request.url).searchParams.get("edit") === "1",
    original: { firstName: profile.firstName, lastName: profile.lastName, dob: toUsDate(profile.dob), postalCode: profile.postalCode },
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const messages = messagesOf(context);
  const submission = parseWithZod(await readForm(request, context), { schema: personalInfoSchema(messages) });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const api = consumerApi(context);
  const found = await api.getProfile();
  if (!found.ok) return data({ result: submission.reply({ formErrors: [messages.profileSaveFailed] }) }, failureInit(found));
  const profile = found.value;
  if (!profile) throw redirect("/checkaccountstatus");
  const { firstName, lastName, dob, postalCode } = submission.value;
  // The middle name has no input here; it is kept as it is.
  const saved = await api.modifyCore(profile.identityUserId, { firstName, middleName: profile.middleName, lastName, dob: toIsoDate(dob), postalCode });
  if (!saved.ok) return data({ result: submission.reply({ formErrors: [saved.message] }) }, failureInit(saved));
  rememberPostalTimeZone(context, postalCode);
  setFlash(context, "notice", messages.profileSaved);
  return redirect("/settings");
}

export default function PersonalInfo() {
  const { editing: editingUrl, original, text } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const editing = editingUrl || Boolean(actionData);
  return (
    <section className="card narrow">
      <h1>{text.title}</h1>
      <p className="warning" role="note">
        {text.warning}
      </p>
      {/* A new key per mode: Cancel remounts the form with the original data. */}
      <PersonalInfoForm key={editing ? "edit" : "view"} editing={editing} original={original} result={actionData?.result} text={text} />
    </section>
  );
}

function PersonalInfoForm({
  editing,
  original,
  result,
  text,
}: {
  text: { fields: ProfileFieldsText; save: string; cancel: string; change: string; back: string; form: FormWords<typeof personalInfoWordKeys> };
  editing: boolean;
  original: { firstName: string; lastName: string; dob: string; postalCode: string };
  result: SubmissionResult<string[]> | undefined;
}) {
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const [form, , formView] = useValidatedForm(() => import("~/forms/profile").then((m) => m.personalInfoSchema(text.form)), result, { id: "personal-info", defaultValue: original });
  const valid = personalInfoSchema(text.form).safeParse(form.value ?? original).success;
  return (
    <Form method="post" action="/personalinfo?edit=1" {...formView.props}>
      <FormMessage id={formView.errorId} errors={formView.errors} />
      <ProfileFields form={formView} text={text.fields} readOnly={!editing} />
      <div className="button-row">
        {editing ? (
          <>
            <button type="submit" className="button" disabled={(hydrated && !valid) || navigation.state === "submitting"}>
              {text.save}
            </button>{" "}
            <Link className="button secondary" to="/personalinfo" replace>
              {text.cancel}
            </Link>
          </>
        ) : (
          <Link className="button" to="/personalinfo?edit=1" replace>
            {text.change}
          </Link>
        )}
        <Link className="button-link" to="/settings">
          {text.back}
        </Link>
      </div>
    </Form>
  );
}
