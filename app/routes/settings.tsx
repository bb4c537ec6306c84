// app/routes/settings.tsx: docs/product.md §2 /settings 'My Settings': personal info summary (Change →
// /personalinfo), the password panel, the username/e-mail panel (never both open; the URL's
// ?panel= holds which, so it works without JavaScript), the Time Zone card (docs/architecture.md §4
// "One clock"), product ID, Logout, 'Local Data' Wipe.
// §5 settings rules; §8 username and settings-password messages.
import { data, Form, Link, redirect, useActionData, useLoaderData, useNavigation, type RouterContextProvider } from "react-router";
import { getFormProps, getInputProps, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useValidatedForm } from "~/hooks/useValidatedForm";
import type { Route } from "./+types/settings";
import { Field, FormMessage } from "~/components/Field";
import { PasswordField } from "~/components/PasswordField";
import { passwordMinLength } from "~/forms/password";
import { changePasswordSchema, changeUserNameSchema, deleteAccountSchema } from "~/forms/settings";
import { useHydrated } from "~/hooks/useHydrated";
import { toUsDate } from "~/dates";
import * as messages from "~/messages";
import { reviewPaths } from "~/screens";
import { requireUser, signIn } from "~/server/auth.server";
import { forgetLocalData, rememberUserName } from "~/server/preferences.server";
import { attemptRefused, forgiveAttempt } from "~/server/attempts.server";
import { requestContext, type SessionUser } from "~/server/context";
import { changeSessionUserName, forgetAccountSessions, revokeOtherSessions, setFlash, takeFlash } from "~/server/session.server";
import { clockOf, type Clock, isSelectableTimeZone, rememberPostalTimeZone, rememberTimeZone, selectableTimeZones } from "~/server/timezone.server";
import { businessApi } from "~/server/upstream/business.server";
import { consumerApi } from "~/server/upstream/consumer.server";
import { identityApi } from "~/server/upstream/identity.server";
import { failureInit, valueOrThrow } from "~/server/upstream/result.server";

export const meta = () => [{ title: "My Settings · SafeWindow" }];

type Panel = "password" | "username" | "delete" | null;

function panelOf(url: URL): Panel {
  const panel = url.searchParams.get("panel");
  return panel === "password" || panel === "username" || panel === "delete" ? panel : null;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  // The business API says whether this person checks visitors in somewhere (docs/venues.md); when it
  // cannot be asked, the card is left out rather than the page failing.
  // The extensions the cards below need are learnt from the upstreams (app/server/upstream/extensions.server.ts):
  // an upstream that answers only as docs/product.md §7 says gets My Settings without them.
  const consumer = consumerApi(context);
  const [profileAnswer, administrator, checkins, ownData, accountDeletion] = await Promise.all([
    consumer.getProfile(),
    businessApi(context).locationAdministrator(undefined, { optional: true }),
    consumer.checkinsSupported(),
    consumer.ownDataSupported(),
    identityApi(context).accountDeletionSupported(),
  ]);
  const profile = valueOrThrow(profileAnswer);
  if (!profile) throw redirect("/checkaccountstatus");
  rememberPostalTimeZone(context, profile.postalCode);
  const flash = takeFlash(context);
  const clock = await clockOf(request, context);
  return {
    panel: panelOf(new URL(request.url)),
    clock,
    timeZones: selectableTimeZones,
    userName: user.userName,
    notice: flash.notice,
    // The reviewers' screens (an extension screen name, docs/architecture.md §6.1): linked only for a reviewer.
    reviewer: (user.enabledScreens ?? []).includes("DisputeReviews"),
    // Venue Check-In needs the consumer API's check-in extension too (app/routes/checkin.tsx).
    locationAdministrator: checkins && administrator.ok && administrator.value.isLocationAdministrator,
    // Download my data needs the consumer API's export; Delete my account that and the authority's deletion.
    downloadData: ownData,
    deleteAccount: ownData && accountDeletion,
    profile: {
      fullName: [profile.firstName, profile.middleName, profile.lastName].filter(Boolean).join(" "),
      dob: toUsDate(profile.dob),
      postalCode: profile.postalCode,
      safeWindowId: profile.safeWindowId,
    },
  };
}

const hideFields = ["currentPassword", "newPassword", "confirmPassword"];

async function changePassword(formData: FormData, context: Readonly<RouterContextProvider>) {
  const submission = parseWithZod(formData, { schema: changePasswordSchema });
  if (submission.status !== "success") return data({ intent: "password", result: submission.reply({ hideFields }) }, { status: 400 });
  const { currentPassword, newPassword } = submission.value;
  const changed = await identityApi(context).changePasswordUsingCurrent(currentPassword, newPassword);
  if (!changed.ok) return data({ intent: "password", result: submission.reply({ formErrors: [changed.message], hideFields }) }, failureInit(changed));
  // Success closes the panel and clears its fields (docs/product.md §4 settings panels).
  // Every other browser signed in to the account is signed out; this one stays.
  await revokeOtherSessions(context);
  setFlash(context, "notice", messages.passwordChanged);
  return redirect("/settings");
}

/**
 * Checks the signed-in user's current password like a sign-in (the password grant), counted like one
 * against the sign-in attempt limits. @returns null when it is right; else the refusal to show:
 * on the password field (wrong, or too many attempts), or for the form with `unavailableMessage` when
 * the authority could not judge it.
 */
async function passwordRefusal(
  context: Readonly<RouterContextProvider>,
  user: SessionUser,
  password: string,
  unavailableMessage: string,
): Promise<{ message: string; init: number | ResponseInit; field?: "currentPassword" } | null> {
  const refused = await attemptRefused(context, "signIn", user.userName);
  if (refused) return { message: refused.message, init: refused.init, field: "currentPassword" };
  const checked = await signIn(user.userName, password, context.get(requestContext).clientIp, context);
  if (!checked.ok) {
    if (checked.reason === "tooManyAttempts") return { message: checked.message, init: failureInit(checked), field: "currentPassword" };
    // The authority could not judge the password: the change cannot be made now (docs/product.md §8 wording).
    if (checked.reason !== "refused") return { message: unavailableMessage, init: failureInit(checked) };
    return { message: messages.currentPasswordWrong, init: 400, field: "currentPassword" };
  }
  await forgiveAttempt(context, "signIn", user.userName);
  return null;
}

async function changeEmail(formData: FormData, context: Readonly<RouterContextProvider>, user: SessionUser) {
  const submission = parseWithZod(formData, { schema: changeUserNameSchema });
  const hideFields = ["currentPassword"];
  if (submission.status !== "success") return data({ intent: "username", result: submission.reply({ hideFields }) }, { status: 400 });
  const { userName, currentPassword } = submission.value;
  const fail = (message: string, init: number | ResponseInit, field: "userName" | "currentPassword" = "userName") =>
    data({ intent: "username", result: submission.reply({ fieldErrors: { [field]: [message] }, hideFields }) }, init);
  // The password first: whoever holds only the session learns nothing, not even whether the new
  // address is taken.
  const wrong = await passwordRefusal(context, user, currentPassword, messages.userNameValidationFailed);
  if (wrong) return fail(wrong.message, wrong.init, wrong.field);
  const identity = identityApi(context);
  const validated = await identity.validateRequestedEmail(userName);
  if (!validated.ok) return fail(validated.message, failureInit(validated));
  const check = validated.value;
  if (!check.valid) return fail(messages.userNameInvalid, 400);
  if (!check.available) return fail(messages.userNameTaken, 409);
  // The change mails the new address: counted per recipient.
  const refused = await attemptRefused(context, "mail", userName);
  if (refused) return fail(refused.message, refused.init);
  const changed = await identity.changeUserName(userName);
  if (!changed.ok) return fail(changed.message, failureInit(changed));
  const normalized = userName.trim().toLowerCase();
  await changeSessionUserName(context, normalized);
  setFlash(context, "notice", messages.userNameChanged);
  return redirect("/settings", { headers: { "Set-Cookie": await rememberUserName(normalized) } });
}

/**
 * Deletes the account (issue 13; docs/product.md §2.5): the password is checked first, like a sign-in and
 * counted like one, so nothing is deleted on a wrong one; then the consumer API forgets the profile and
 * everything hanging from it (visits included), the business API the person's business user info, then
 * the identity authority the account (it mails the confirmation, and removes the account's other mails);
 * then every session of the account is deleted from the session store, on every browser (with their access
 * tokens; docs/security.md "Deleting an account"), and this one lands on Sign In with the news. The consumer
 * and business APIs go first: should the authority fail after them, the user can still sign in and finish.
 */
async function deleteAccount(formData: FormData, context: Readonly<RouterContextProvider>, user: SessionUser) {
  const submission = parseWithZod(formData, { schema: deleteAccountSchema });
  const hideFields = ["currentPassword"];
  if (submission.status !== "success") return data({ intent: "deleteAccount", result: submission.reply({ hideFields }) }, { status: 400 });
  const fail = (message: string, init: number | ResponseInit, field?: "currentPassword") =>
    data({ intent: "deleteAccount", result: submission.reply(field ? { fieldErrors: { [field]: [message] }, hideFields } : { formErrors: [message], hideFields }) }, init);
  const { currentPassword } = submission.value;
  const wrong = await passwordRefusal(context, user, currentPassword, messages.deleteAccountFailed);
  if (wrong) return fail(wrong.message, wrong.init, wrong.field);
  const forgotten = await consumerApi(context).deleteProfile();
  if (!forgotten.ok) return fail(forgotten.message, failureInit(forgotten));
  const forgottenBusiness = await businessApi(context).deleteUserInfo();
  if (!forgottenBusiness.ok) return fail(forgottenBusiness.message, failureInit(forgottenBusiness));
  const closed = await identityApi(context).deleteAccount(currentPassword);
  if (!closed.ok) return fail(closed.reason === "refused" ? messages.deleteAccountIncomplete : closed.message, failureInit(closed));
  await forgetAccountSessions(context, messages.accountDeleted);
  const headers = new Headers();
  for (const cookie of await forgetLocalData()) headers.append("Set-Cookie", cookie);
  return redirect("/login", { headers });
}

/** Keeps the time zone chosen on this device ("" is Automatic); docs/architecture.md §4 "One clock". */
async function chooseTimeZone(formData: FormData, context: Readonly<RouterContextProvider>) {
  const zone = formData.get("timeZone");
  if (zone !== "" && !isSelectableTimeZone(zone)) return data({ intent: "timeZone" as const, error: messages.timeZoneUnknown }, { status: 400 });
  setFlash(context, "notice", zone === "" ? messages.timeZoneAutomaticSaved : messages.timeZoneSaved);
  return redirect("/settings", { headers: { "Set-Cookie": await rememberTimeZone(zone === "" ? null : zone) } });
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const formData = await request.formData();
  const intent = formData.get("intent");
  if (intent === "password") return changePassword(formData, context);
  if (intent === "username") return changeEmail(formData, context, user);
  if (intent === "timeZone") return chooseTimeZone(formData, context);
  if (intent === "deleteAccount") return deleteAccount(formData, context, user);
  throw data(null, { status: 400 });
}

export default function Settings() {
  const { panel, userName, notice, profile, clock, timeZones, reviewer, locationAdministrator, downloadData, deleteAccount } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  // After a failed post the panel that posted stays open, whatever the URL says.
  const open: Panel =
    actionData?.intent === "password" || actionData?.intent === "username" ? actionData.intent : actionData?.intent === "deleteAccount" ? "delete" : panel;
  return (
    <section className="settings">
      <h1>My Settings</h1>
      {notice ? <FormMessage tone="success" errors={[notice]} /> : null}

      <section className="card" aria-labelledby="personal-info-heading">
        <h2 id="personal-info-heading">Personal Info</h2>
        <dl className="summary">
          <dt>Name</dt>
          <dd>{profile.fullName}</dd>
          <dt>Date of Birth</dt>
          <dd>{profile.dob}</dd>
          <dt>Postal Code</dt>
          <dd>{profile.postalCode}</dd>
        </dl>
        <Link className="button secondary" to="/personalinfo" aria-label="Change personal info">
          Change
        </Link>
      </section>

      <section className="card" aria-labelledby="password-heading">
        <h2 id="password-heading">Password</h2>
        {open === "password" ? (
          <PasswordPanel result={actionData?.intent === "password" ? actionData.result : undefined} />
        ) : (
          <Link className="button secondary" to="?panel=password" aria-label="Change password">
            Change
          </Link>
        )}
      </section>

      <section className="card" aria-labelledby="username-heading">
        <h2 id="username-heading">Username/Email</h2>
        <p>{userName}</p>
        {open === "username" ? (
          <UserNamePanel result={actionData?.intent === "username" ? actionData.result : undefined} />
        ) : (
          <Link className="button secondary" to="?panel=username" aria-label="Change username or email">
            Change
          </Link>
        )}
      </section>

      <TimeZoneCard clock={clock} chosen={clock.source === "setting" ? clock.timeZone : null} zones={timeZones} error={actionData && "error" in actionData ? actionData.error : undefined} />

      <section className="card" aria-labelledby="product-id-heading">
        <h2 id="product-id-heading">Product ID</h2>
        <p>
          <code className="product-id">{profile.safeWindowId}</code>
        </p>
      </section>

      {downloadData ? (
        <section className="card" aria-labelledby="your-data-heading">
          <h2 id="your-data-heading">{messages.yourDataTitle}</h2>
          <p>{messages.yourDataHint}</p>
          <Link className="button secondary" to="/settings/data" reloadDocument download>
            {messages.downloadMyData}
          </Link>
        </section>
      ) : null}

      {reviewer ? (
        <section className="card" aria-labelledby="reviews-heading">
          <h2 id="reviews-heading">{messages.reviewsTitle}</h2>
          <p>The disputes waiting for a provider&apos;s review, and the decisions made.</p>
          <Link className="button secondary" to={reviewPaths.queue}>
            Open {messages.reviewsTitle}
          </Link>
        </section>
      ) : null}

      {locationAdministrator ? (
        <section className="card" aria-labelledby="checkin-heading">
          <h2 id="checkin-heading">{messages.checkinTitle}</h2>
          <p>Check a visitor&apos;s safe window at the door of a location you administer, with the code they show.</p>
          <Link className="button secondary" to="/checkin">
            Open {messages.checkinTitle}
          </Link>
        </section>
      ) : null}

      <section className="card" aria-labelledby="account-heading">
        <h2 id="account-heading">Account</h2>
        <Form method="post" action="/logout">
          <button type="submit" className="button secondary">
            Logout
          </button>
        </Form>
        <p>{messages.signOutEverywhereHint}</p>
        <Form method="post" action="/logout">
          <input type="hidden" name="everywhere" value="1" />
          <button type="submit" className="button secondary">
            {messages.signOutEverywhere}
          </button>
        </Form>
      </section>

      {deleteAccount ? (
        <section className="card" aria-labelledby="delete-account-heading">
          <h2 id="delete-account-heading">{messages.deleteAccountTitle}</h2>
          <p>{messages.deleteAccountHint}</p>
          {open === "delete" ? (
            <DeleteAccountPanel result={actionData?.intent === "deleteAccount" ? actionData.result : undefined} />
          ) : (
            <Link className="button danger" to="?panel=delete">
              {messages.deleteAccountButton}
            </Link>
          )}
        </section>
      ) : null}

      <section className="card" aria-labelledby="local-data-heading">
        <h2 id="local-data-heading">Local Data</h2>
        <p>Signs you out and forgets the email address and choices remembered on this device.</p>
        <Form method="post" action="/wipe">
          <button type="submit" className="button danger">
            Wipe
          </button>
        </Form>
      </section>
    </section>
  );
}

type Result = SubmissionResult<string[]> | undefined;

/** A zone as people read it: `America/Los_Angeles` → `America/Los Angeles`. */
const zoneLabel = (zone: string) => zone.replace(/_/g, " ");

/** The zone every time is shown in, where it came from, and the choice of another (a plain form post). */
function TimeZoneCard({ clock, chosen, zones, error }: { clock: Clock; chosen: string | null; zones: readonly string[]; error?: string }) {
  const navigation = useNavigation();
  return (
    <section className="card" aria-labelledby="time-zone-heading">
      <h2 id="time-zone-heading">Time Zone</h2>
      <p id="time-zone-current">
        Times are shown in <strong>{zoneLabel(clock.timeZone)}</strong> ({messages.timeZoneSources[clock.source]}).
      </p>
      <Form method="post" aria-describedby="time-zone-current">
        <input type="hidden" name="intent" value="timeZone" />
        <div className="field">
          <label htmlFor="time-zone">Time zone</label>
          <select
            id="time-zone"
            name="timeZone"
            defaultValue={chosen ?? ""}
            aria-describedby={error ? "time-zone-hint time-zone-error" : "time-zone-hint"}
            aria-invalid={error ? true : undefined}
          >
            <option value="">{messages.timeZoneAutomatic}</option>
            {zones.map((zone) => (
              <option key={zone} value={zone}>
                {zoneLabel(zone)}
              </option>
            ))}
          </select>
          <p id="time-zone-hint" className="field-hint">
            {messages.timeZoneHint}
          </p>
          {error ? (
            <p id="time-zone-error" className="field-error" role="alert">
              {error}
            </p>
          ) : null}
        </div>
        <button type="submit" className="button secondary" disabled={navigation.state === "submitting"}>
          Save
        </button>
      </Form>
    </section>
  );
}

function PasswordPanel({ result }: { result: Result }) {
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const [form, fields] = useValidatedForm(() => import("~/forms/settings").then((m) => m.changePasswordSchema), result, { id: "change-password" });
  const current = String(fields.currentPassword.value ?? "");
  const next = String(fields.newPassword.value ?? "");
  const confirm = String(fields.confirmPassword.value ?? "");
  // docs/product.md §5: new is disabled until current has 8+ characters, confirm until new has; Update needs
  // new and confirm non-empty and equal (the product's intent). Only JavaScript can follow the typing.
  const newDisabled = hydrated && current.length < passwordMinLength;
  const confirmDisabled = hydrated && next.length < passwordMinLength;
  const updateDisabled = (hydrated && (!next || next !== confirm)) || navigation.state === "submitting";
  return (
    <Form method="post" {...getFormProps(form)} aria-describedby={form.errorId}>
      <input type="hidden" name="intent" value="password" />
      <FormMessage id={form.errorId} errors={form.errors} />
      <PasswordField label="Current Password" field={fields.currentPassword} autoComplete="current-password" />
      <PasswordField label="New Password" field={fields.newPassword} autoComplete="new-password" showRule disabled={newDisabled} />
      <PasswordField label="Confirm New Password" field={fields.confirmPassword} autoComplete="new-password" disabled={confirmDisabled} />
      <PanelActions label="Update" disabled={updateDisabled} />
    </Form>
  );
}

/** A settings panel's buttons: its submit (red for an irreversible one), and Cancel back to the closed panels. */
function PanelActions({ label, disabled, danger = false }: { label: string; disabled: boolean; danger?: boolean }) {
  return (
    <div className="button-row">
      <button type="submit" className={danger ? "button danger" : "button"} disabled={disabled}>
        {label}
      </button>{" "}
      <Link className="button secondary" to="/settings">
        Cancel
      </Link>
    </div>
  );
}

/** Delete my account: the current password, then the irreversible button (a plain form post). */
function DeleteAccountPanel({ result }: { result: Result }) {
  const navigation = useNavigation();
  const [form, fields] = useValidatedForm(() => import("~/forms/settings").then((m) => m.deleteAccountSchema), result, { id: "delete-account" });
  return (
    <Form method="post" {...getFormProps(form)} aria-describedby={form.errorId}>
      <input type="hidden" name="intent" value="deleteAccount" />
      <FormMessage id={form.errorId} errors={form.errors} />
      <p>{messages.deleteAccountConfirm}</p>
      <PasswordField label="Current Password" field={fields.currentPassword} autoComplete="current-password" />
      <PanelActions label={messages.deleteAccountButton} danger disabled={navigation.state === "submitting"} />
    </Form>
  );
}

function UserNamePanel({ result }: { result: Result }) {
  const navigation = useNavigation();
  const [form, fields] = useValidatedForm(() => import("~/forms/settings").then((m) => m.changeUserNameSchema), result, { id: "change-username" });
  return (
    <Form method="post" {...getFormProps(form)} aria-describedby={form.errorId}>
      <input type="hidden" name="intent" value="username" />
      <FormMessage id={form.errorId} errors={form.errors} />
      <Field
        label="New Email"
        inputProps={{ ...getInputProps(fields.userName, { type: "email" }), autoComplete: "email", required: false }}
        errorId={fields.userName.errorId}
        errors={fields.userName.errors}
      />
      <PasswordField label="Current Password" field={fields.currentPassword} autoComplete="current-password" />
      <PanelActions label="Update" disabled={navigation.state === "submitting"} />
    </Form>
  );
}
