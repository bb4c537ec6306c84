// app/routes/yourinfo.tsx: docs/product/screens.md §2 /yourinfo, first-time profile: first name, last name, date of
// birth, postal code; Finish enabled only when valid and 18+; the always-shown warning; §8 creation errors
import { data, Form, redirect, useActionData, useLoaderData, useNavigation } from "react-router";
import { parseWithZod } from "@conform-to/zod/v4";
import { useValidatedForm } from "~/hooks/useValidatedForm";
import type { Route } from "./+types/yourinfo";
import { FormMessage } from "~/components/Field";
import { ProfileFields } from "~/components/ProfileFields";
import { toIsoDate, yourInfoSchema, yourInfoWordKeys } from "~/forms/profile";
import { formWords } from "~/forms/words";
import { useHydrated } from "~/hooks/useHydrated";
import { messagesOf } from "~/server/i18n.server";
import { saveEnabledScreens } from "~/server/session.server";
import { rememberPostalTimeZone } from "~/server/timezone.server";
import { consumerApi } from "~/server/upstream/consumer.server";
import { failureInit, valueOrThrow } from "~/server/upstream/result.server";
import { readForm } from "~/server/form.server";

// The page's words come in its loader data, in the request's language (docs/architecture/behaviour.md §4 "Language").
export const meta: Route.MetaFunction = ({ loaderData }) => (loaderData ? [{ title: loaderData.text.pageTitle }] : []);

export async function loader({ context }: Route.LoaderArgs) {
  // Someone who already has a profile belongs on the gate's next step, not here.
  if (valueOrThrow(await consumerApi(context).getProfile())) return redirect("/checkaccountstatus");
  const m = messagesOf(context);
  return {
    text: {
      pageTitle: m.yourInfoPageTitle,
      title: m.yourInfoTitle,
      prompt: m.yourInfoPrompt,
      warning: m.infoChangeWarning,
      fields: { firstName: m.firstNameLabel, lastName: m.lastNameLabel, dob: m.dateOfBirthLabel, postalCode: m.postalCodeLabel, dateFormat: m.dateFormatHint },
      finish: m.finishButton,
      // The form's checks, worded for the browser's validation on blur (app/forms/words.ts).
      form: formWords(m, yourInfoWordKeys),
    },
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseWithZod(await readForm(request, context), { schema: yourInfoSchema(messagesOf(context)) });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const { firstName, lastName, dob, postalCode } = submission.value;
  const api = consumerApi(context);
  // docs/product/screens.md §2: a middle name exists in state but has no input here; latitude/longitude are not collected.
  const created = await api.createProfile({ firstName, middleName: null, lastName, dob: toIsoDate(dob), postalCode });
  if (!created.ok) return data({ result: submission.reply({ formErrors: [created.message] }) }, failureInit(created));
  // The profile exists now; without the screen list the gate fetches it on the next page.
  const screens = await api.getPermissions();
  if (screens.ok) saveEnabledScreens(context, screens.value);
  rememberPostalTimeZone(context, postalCode);
  return redirect("/welcome");
}

export default function YourInfo() {
  const { text } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const [form, , formView] = useValidatedForm(() => import("~/forms/profile").then((m) => m.yourInfoSchema(text.form)), actionData?.result);
  const valid = yourInfoSchema(text.form).safeParse(form.value ?? {}).success;
  return (
    <section className="card narrow">
      <h1>{text.title}</h1>
      <p>{text.prompt}</p>
      <Form method="post" {...formView.props}>
        <FormMessage id={formView.errorId} errors={formView.errors} />
        <ProfileFields form={formView} text={text.fields} />
        <p className="warning" role="note">
          {text.warning}
        </p>
        <button type="submit" className="button" disabled={(hydrated && !valid) || navigation.state === "submitting"}>
          {text.finish}
        </button>
      </Form>
    </section>
  );
}
