// app/routes/yourinfo.tsx: docs/product.md §2 /yourinfo, first-time profile: first name, last name, date of
// birth, postal code; Finish enabled only when valid and 18+; the always-shown warning; §8 creation errors
import { data, Form, redirect, useActionData, useNavigation } from "react-router";
import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useValidatedForm } from "~/hooks/useValidatedForm";
import type { Route } from "./+types/yourinfo";
import { FormMessage } from "~/components/Field";
import { ProfileFields } from "~/components/ProfileFields";
import { toIsoDate, yourInfoSchema } from "~/forms/profile";
import { useHydrated } from "~/hooks/useHydrated";
import { messages } from "~/messages";
import { requireUser } from "~/server/auth.server";
import { saveEnabledScreens } from "~/server/session.server";
import { UpstreamError } from "~/server/upstream/http.server";
import { consumerApi } from "~/server/upstream/consumer.server";

export const meta = () => [{ title: "Your Info · SafeWindow" }];

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context);
  // Someone who already has a profile belongs on the gate's next step, not here.
  if (await consumerApi(user).getProfile()) return redirect("/checkaccountstatus");
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const submission = parseWithZod(await request.formData(), { schema: yourInfoSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const { firstName, lastName, dob, postalCode } = submission.value;
  const api = consumerApi(user);
  try {
    // docs/product.md §2: a middle name exists in state but has no input here; latitude/longitude are not collected.
    const created = await api.createProfile(
      { firstName, middleName: null, lastName, dob: toIsoDate(dob), postalCode },
      { latitude: null, longitude: null },
    );
    if (!created.success) return data({ result: submission.reply({ formErrors: [messages.profileCreateFailed] }) }, { status: 400 });
    const screens = await api.getPermissions();
    saveEnabledScreens(context, screens);
    return redirect("/welcome");
  } catch (error) {
    if (!(error instanceof UpstreamError)) throw error;
    return data({ result: submission.reply({ formErrors: [messages.profileCreateError] }) }, { status: 502 });
  }
}

export default function YourInfo() {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const [form, fields] = useValidatedForm(yourInfoSchema, actionData?.result);
  const valid = yourInfoSchema.safeParse(form.value ?? {}).success;
  return (
    <section className="card narrow">
      <h1>Your Info</h1>
      <p>{messages.yourInfoPrompt}</p>
      <Form method="post" {...getFormProps(form)} aria-describedby={form.errorId}>
        <FormMessage id={form.errorId} errors={form.errors} />
        <ProfileFields fields={fields} />
        <p className="warning" role="note">
          {messages.infoChangeWarning}
        </p>
        <button type="submit" className="button" disabled={(hydrated && !valid) || navigation.state === "submitting"}>
          Finish
        </button>
      </Form>
    </section>
  );
}
