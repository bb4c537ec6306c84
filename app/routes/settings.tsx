// app/routes/settings.tsx: docs/product/screens.md §2 /settings 'My Settings': personal info summary (Change →
// /personalinfo), the password panel, the username/e-mail panel (never both open; the URL's
// ?panel= holds which, so it works without JavaScript), the Time Zone card (docs/architecture/behaviour.md §4
// "One clock"), product ID, Logout, 'Local Data' Wipe.
// §5 settings rules; §8 username and settings-password messages.
import { data, Link, redirect, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/settings";
import { FormMessage } from "~/components/Field";
import { AccountCard, LinkCard, LocalDataCard, PersonalInfoCard } from "~/components/settings/Cards";
import { DeleteAccountPanel, PasswordPanel, UserNamePanel } from "~/components/settings/Panels";
import { TimeZoneCard } from "~/components/settings/TimeZoneCard";
import { LanguageCard } from "~/components/settings/LanguageCard";
import { changePasswordSchema, changePasswordWordKeys, changeUserNameSchema, changeUserNameWordKeys, deleteAccountSchema, deleteAccountWordKeys } from "~/forms/settings";
import { formWords } from "~/forms/words";
import { toUsDate } from "~/dates";
import { reviewPaths } from "~/screens";
import { requireUser } from "~/server/auth.server";
import { htmlConstraints } from "~/server/form-constraints.server";
import { messagesOf } from "~/server/i18n.server";
import { changePassword, changeUserName, chooseTimeZone, deleteAccount } from "~/server/settings-actions.server";
import { takeFlash } from "~/server/session.server";
import { clockOf, rememberPostalTimeZone, selectableTimeZones } from "~/server/timezone.server";
import { businessApi } from "~/server/upstream/business.server";
import { consumerApi } from "~/server/upstream/consumer.server";
import { identityApi } from "~/server/upstream/identity.server";
import { valueOrThrow } from "~/server/upstream/result.server";
import { readForm } from "~/server/form.server";

// The page's words come in its loader data, in the request's language (docs/architecture/behaviour.md §4 "Language").
export const meta: Route.MetaFunction = ({ loaderData }) => (loaderData ? [{ title: loaderData.text.pageTitle }] : []);

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
  // an upstream that answers only as docs/product/calls.md §7 says gets My Settings without them.
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
  const words = messagesOf(context);
  // The reviewers' screens (an extension screen name, docs/architecture/upstream-calls.md §6.1): linked only for a reviewer.
  const reviewer = (user.enabledScreens ?? []).includes("DisputeReviews");
  // Venue Check-In needs the consumer API's check-in extension too (app/routes/checkin.tsx).
  const locationAdministrator = checkins && administrator.ok && administrator.value.isLocationAdministrator;
  // Download my data needs the consumer API's export; Delete my account that and the authority's deletion.
  const deletion = ownData && accountDeletion;
  return {
    panel: panelOf(new URL(request.url)),
    clock,
    timeZones: selectableTimeZones,
    // The Language card's words, in the page's language (shown only while more than one language is offered).
    languageCard: { hint: words.languageHint, save: words.languageSave },
    text: {
      pageTitle: words.settingsPageTitle,
      title: words.settingsTitle,
      personalInfo: words.personalInfoTitle,
      name: words.fullNameLabel,
      dob: words.dateOfBirthLabel,
      postalCode: words.postalCodeLabel,
      change: words.changeButton,
      changePersonalInfo: words.changePersonalInfoLabel,
      password: words.passwordLabel,
      changePassword: words.changePasswordLabel,
      userName: words.userNameTitle,
      changeUserName: words.changeUserNameLabel,
      productId: words.productIdTitle,
      account: words.accountTitle,
      logout: words.logoutButton,
      signOutEverywhere: words.signOutEverywhere,
      signOutEverywhereHint: words.signOutEverywhereHint,
      localData: words.localDataTitle,
      localDataHint: words.localDataHint,
      wipe: words.wipeButton,
    },
    panelText: {
      cancel: words.cancelButton,
      currentPassword: words.currentPasswordLabel,
      newPassword: words.newPasswordLabel,
      confirmNewPassword: words.confirmNewPasswordLabel,
      passwordRule: words.passwordRuleHint,
      update: words.updateButton,
      newEmail: words.newEmailLabel,
      // The panels' checks, worded for the browser's validation on blur (app/forms/words.ts).
      passwordForm: formWords(words, changePasswordWordKeys),
      userNameForm: formWords(words, changeUserNameWordKeys),
    },
    // The cards of the extensions, with their words only when offered: a page carries the words it shows.
    yourDataText: ownData ? { title: words.yourDataTitle, hint: words.yourDataHint, download: words.downloadMyData } : null,
    reviewsText: reviewer ? { title: words.reviewsTitle, hint: words.reviewsCardHint, open: words.openScreen(words.reviewsTitle) } : null,
    checkinText: locationAdministrator ? { title: words.checkinTitle, hint: words.checkinCardHint, open: words.openScreen(words.checkinTitle) } : null,
    deleteText: deletion
      ? {
          title: words.deleteAccountTitle,
          hint: words.deleteAccountHint,
          button: words.deleteAccountButton,
          confirm: words.deleteAccountConfirm,
          form: formWords(words, deleteAccountWordKeys),
        }
      : null,
    timeZoneText: {
      title: words.timeZoneTitle,
      shownIn: words.timeZoneShownIn,
      label: words.timeZoneLabel,
      automatic: words.timeZoneAutomatic,
      hint: words.timeZoneHint,
      sources: words.timeZoneSources,
      save: words.saveButton,
    },
    userName: user.userName,
    notice: flash.notice,
    // The panels' HTML constraints, from the schemas the action validates with.
    constraints: {
      password: htmlConstraints(changePasswordSchema(words)),
      username: htmlConstraints(changeUserNameSchema(words)),
      delete: htmlConstraints(deleteAccountSchema(words)),
    },
    profile: {
      fullName: [profile.firstName, profile.middleName, profile.lastName].filter(Boolean).join(" "),
      dob: toUsDate(profile.dob),
      postalCode: profile.postalCode,
      safeWindowId: profile.safeWindowId,
    },
  };
}

/** The four posts, by intent (app/server/settings-actions.server.ts). */
export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  // The password check reads the body itself (the sign-in strategy): this reads a clone.
  const formData = await readForm(request.clone(), context);
  const intent = formData.get("intent");
  if (intent === "password") return changePassword(formData, context);
  if (intent === "username") return changeUserName(request, formData, context, user);
  if (intent === "timeZone") return chooseTimeZone(formData, context);
  if (intent === "deleteAccount") return deleteAccount(request, formData, context, user);
  throw data(null, { status: 400 });
}

export default function Settings() {
  const { panel, userName, notice, profile, clock, timeZones, languageCard, text, panelText, timeZoneText, yourDataText, reviewsText, checkinText, deleteText, constraints } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  // After a failed post the panel that posted stays open, whatever the URL says.
  const open: Panel =
    actionData?.intent === "password" || actionData?.intent === "username" ? actionData.intent : actionData?.intent === "deleteAccount" ? "delete" : panel;
  return (
    <section className="settings">
      <h1>{text.title}</h1>
      {notice ? <FormMessage tone="success" errors={[notice]} /> : null}

      <PersonalInfoCard text={text} profile={profile} />

      <section className="card" aria-labelledby="password-heading">
        <h2 id="password-heading">{text.password}</h2>
        {open === "password" ? (
          <PasswordPanel result={actionData?.intent === "password" ? actionData.result : undefined} constraint={constraints.password} text={panelText} />
        ) : (
          <Link className="button secondary" to="?panel=password" aria-label={text.changePassword}>
            {text.change}
          </Link>
        )}
      </section>

      <section className="card" aria-labelledby="username-heading">
        <h2 id="username-heading">{text.userName}</h2>
        <p>{userName}</p>
        {open === "username" ? (
          <UserNamePanel result={actionData?.intent === "username" ? actionData.result : undefined} constraint={constraints.username} text={panelText} />
        ) : (
          <Link className="button secondary" to="?panel=username" aria-label={text.changeUserName}>
            {text.change}
          </Link>
        )}
      </section>

      <TimeZoneCard text={timeZoneText} clock={clock} chosen={clock.source === "setting" ? clock.timeZone : null} zones={timeZones} error={actionData && "error" in actionData ? actionData.error : undefined} />

      <LanguageCard hint={languageCard.hint} save={languageCard.save} />

      <section className="card" aria-labelledby="product-id-heading">
        <h2 id="product-id-heading">{text.productId}</h2>
        <p>
          <code className="product-id">{profile.safeWindowId}</code>
        </p>
      </section>

      {yourDataText ? <LinkCard id="your-data" title={yourDataText.title} hint={yourDataText.hint} link={yourDataText.download} to="/settings/data" download /> : null}

      {reviewsText ? <LinkCard id="reviews" title={reviewsText.title} hint={reviewsText.hint} link={reviewsText.open} to={reviewPaths.queue} /> : null}

      {checkinText ? <LinkCard id="checkin" title={checkinText.title} hint={checkinText.hint} link={checkinText.open} to="/checkin" /> : null}

      <AccountCard text={text} />

      {deleteText ? (
        <section className="card" aria-labelledby="delete-account-heading">
          <h2 id="delete-account-heading">{deleteText.title}</h2>
          <p>{deleteText.hint}</p>
          {open === "delete" ? (
            <DeleteAccountPanel result={actionData?.intent === "deleteAccount" ? actionData.result : undefined} constraint={constraints.delete} text={panelText} words={deleteText} />
          ) : (
            <Link className="button danger" to="?panel=delete">
              {deleteText.button}
            </Link>
          )}
        </section>
      ) : null}

      <LocalDataCard text={text} />
    </section>
  );
}
