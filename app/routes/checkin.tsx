// app/routes/checkin.tsx: 'Venue Check-In' (docs/venues.md "Check-in"), for the people the business API
// calls location administrators; a 404 for everyone else, and when the business API lacks the check or
// the consumer API the check-in extension.
// The administrator chooses the location and enters the code the visitor shows; the page answers at a
// glance whether the visitor's safe window is open (Strong, Weak, or none) with their name, never their
// date of birth; Check in records the visit. Both steps are plain form posts to the action.
import { data, Form, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/checkin";
import { FormMessage } from "~/components/Field";
import { formatInstant } from "~/dates";
import { checkinCodeMinutes } from "../../contracts/consumer.ts";
import { checkinCodeSchema } from "~/forms/venue";
import { languageOf, messagesOf } from "~/server/i18n.server";
import { htmlConstraints } from "~/server/form-constraints.server";
import { timeZoneOf } from "~/server/timezone.server";
import { businessApi } from "~/server/upstream/business.server";
import { consumerApi, type Check } from "~/server/upstream/consumer.server";
import { failureInit, valueOrThrow } from "~/server/upstream/result.server";
import type { Language } from "~/i18n";
import { readForm } from "~/server/form.server";

// The page's words come in its loader data, in the request's language (docs/architecture/behaviour.md §4 "Language").
export const meta: Route.MetaFunction = ({ loaderData }) => (loaderData ? [{ title: loaderData.text.pageTitle }] : []);

async function administeredLocations(context: Route.LoaderArgs["context"]) {
  // A business API that refuses the token (one that does not know this product's tokens) has no location for
  // this person either: 404, not the end of the session.
  const [answer, checkins] = await Promise.all([businessApi(context).locationAdministrator(undefined, { optional: true }), consumerApi(context).checkinsSupported()]);
  // A consumer API without the check-in extension: the page does not exist.
  if (!checkins) throw data(null, { status: 404 });
  // No role (or a business API without the check): the page does not exist for this person.
  if (!answer.ok && (answer.reason === "notFound" || answer.reason === "refused")) throw data(null, { status: 404 });
  const value = valueOrThrow(answer);
  if (!value.isLocationAdministrator) throw data(null, { status: 404 });
  return value.locations;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const locations = await administeredLocations(context);
  const asked = new URL(request.url).searchParams.get("location");
  const selected = locations.find((l) => l.locationId === asked)?.locationId ?? locations[0]!.locationId;
  // The code box's HTML constraints, from the schema the action checks the code with.
  const m = messagesOf(context);
  const constraint = htmlConstraints(checkinCodeSchema(m)).code;
  const text = {
    title: m.checkinTitle,
    pageTitle: m.checkinPageTitle,
    glance: {
      seen: { Strong: m.strongWindowSeen, Weak: m.weakWindowSeen, None: m.noOpenWindowSeen },
      until: m.windowUntil,
      noOpenWindow: m.noOpenWindowVisitor,
      checked: m.checkedAt,
    },
    checkedIn: m.checkedIn,
    checkIn: m.checkInButton,
    location: m.locationLabel,
    visitorCode: m.visitorCodeLabel,
    nextVisitor: m.nextVisitor,
    lookUp: m.lookUp,
    hint: m.checkinPageHint(checkinCodeMinutes),
  };
  return { locations, selected, constraint, timeZone: await timeZoneOf(request, context), language: languageOf(context), text };
}

type ActionData = { check?: Check; code?: string; error?: string; codeError?: string; locationId?: string | undefined };

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request, context);
  const api = consumerApi(context);
  const messages = messagesOf(context);
  if (form.get("intent") === "checkin") {
    const visitId = String(form.get("visitId") ?? "");
    if (!visitId) throw data(null, { status: 400 });
    // The location chosen stays chosen for the next visitor (the page is rendered anew without JavaScript).
    const kept = String(form.get("locationId") ?? "") || undefined;
    const done = await api.checkIn(visitId);
    return done.ok ? ({ check: done.value, locationId: kept } satisfies ActionData) : data({ error: done.message, locationId: kept } satisfies ActionData, failureInit(done));
  }
  // Who administers the location is the consumer API's to ask the business API (it refuses with 403,
  // shown as notLocationAdministrator); asking here too would make every lookup cost one call more.
  const locationId = String(form.get("locationId") ?? "");
  if (!locationId) return data({ error: messages.notLocationAdministrator } satisfies ActionData, { status: 403 });
  const checked = checkinCodeSchema(messages).safeParse({ code: String(form.get("code") ?? "") });
  const code = checked.success ? checked.data.code : undefined;
  if (!code) return data({ codeError: messages.checkinCodeInvalid, locationId, code: String(form.get("code") ?? "").slice(0, 20) } satisfies ActionData, { status: 400 });
  const check = await api.redeemCheckinCode(code, locationId);
  if (!check.ok) return data({ error: check.message, locationId, code } satisfies ActionData, failureInit(check));
  // The check is recorded: a reload must not post the used code again (Post/Redirect/Get would lose the
  // glance, which is shown once), so the answer is the page itself with the check.
  return { check: check.value, locationId } satisfies ActionData;
}

/** The window at a glance: what the venue needs to know, in words and colour. */
function Glance({
  check,
  timeZone,
  language,
  text,
}: {
  check: Check;
  timeZone: string;
  language: Language;
  text: { seen: Record<Check["windowState"], string>; until: string; noOpenWindow: string; checked: string };
}) {
  const until = check.windowState === "Strong" ? check.strongSafetyDate : check.windowState === "Weak" ? check.weakSafetyDate : null;
  const verdict = text.seen[check.windowState];
  return (
    <div className={`glance glance-${check.windowState.toLowerCase()}`} role="status" aria-labelledby="glance-verdict">
      <p id="glance-verdict" className="glance-verdict">
        {verdict}
      </p>
      <p className="glance-name">
        {check.firstName} {check.lastName}
      </p>
      {until ? (
        <p>
          {text.until} {formatInstant(until, timeZone, language)}
        </p>
      ) : (
        <p>{text.noOpenWindow}</p>
      )}
      <p className="glance-where">
        {check.locationName} · {text.checked} {formatInstant(check.checkedAt, timeZone, language)}
      </p>
    </div>
  );
}

export default function CheckinPage() {
  const { locations, selected, constraint, timeZone, language, text } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as ActionData | undefined;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const check = actionData?.check;
  const locationId = actionData?.locationId ?? selected;
  return (
    <section>
      <h1>{text.title}</h1>
      {check ? (
        <>
          <Glance check={check} timeZone={timeZone} language={language} text={text.glance} />
          {check.checkedInAt ? (
            <FormMessage tone="success" errors={[`${text.checkedIn} ${check.firstName} ${check.lastName}, ${formatInstant(check.checkedInAt, timeZone, language)}.`]} />
          ) : (
            <Form method="post" className="form-actions">
              <input type="hidden" name="intent" value="checkin" />
              <input type="hidden" name="visitId" value={check.visitId} />
              <input type="hidden" name="locationId" value={locationId} />
              <button type="submit" className="button" disabled={busy}>
                {text.checkIn}
              </button>
            </Form>
          )}
        </>
      ) : null}
      <FormMessage errors={actionData?.error ? [actionData.error] : undefined} />
      <Form method="post" className="checkin-form" key={check?.visitId ?? "new"}>
        <input type="hidden" name="intent" value="lookup" />
        <p>
          <label htmlFor="locationId">{text.location}</label>{" "}
          <select id="locationId" name="locationId" defaultValue={locationId}>
            {locations.map((location) => (
              <option key={location.locationId} value={location.locationId}>
                {location.name}, {location.city}
              </option>
            ))}
          </select>
        </p>
        <p>
          <label htmlFor="code">{text.visitorCode}</label>{" "}
          <input
            id="code"
            name="code"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={constraint?.maxLength}
            required
            defaultValue={check ? "" : (actionData?.code ?? "")}
            aria-describedby="code-error"
            aria-invalid={actionData?.codeError ? true : undefined}
            className="code-input"
          />
        </p>
        <div id="code-error" className="field-error" aria-live="polite">
          {actionData?.codeError ? <p>{actionData.codeError}</p> : null}
        </div>
        <button type="submit" className="button" disabled={busy}>
          {check ? text.nextVisitor : text.lookUp}
        </button>
      </Form>
      <p className="hint">{text.hint}</p>
    </section>
  );
}

