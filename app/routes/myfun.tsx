// app/routes/myfun.tsx: 'My Fun' (docs/product/data.md §6 screen `MyFun`; docs/venues.md "My Fun"): every check a
// venue made of the person's window, newest first: the venue, when, what the venue saw, whether they
// were checked in; and 1 to 5 stars for a visit they were checked in at. Each rating is a small form
// (five radio buttons and Save) posted to the action, so it works without JavaScript.
import { data, Form, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/myfun";
import { FormMessage } from "~/components/Field";
import { formatInstant } from "~/dates";
import { languageOf, messagesOf } from "~/server/i18n.server";
import { timeZoneOf } from "~/server/timezone.server";
import { consumerApi } from "~/server/upstream/consumer.server";
import { failureInit, valueOrThrow } from "~/server/upstream/result.server";
import { readForm } from "~/server/form.server";

// The page's words come in its loader data, in the request's language (docs/architecture/behaviour.md §4 "Language").
export const meta: Route.MetaFunction = ({ loaderData }) => (loaderData ? [{ title: loaderData.text.pageTitle }] : []);

export async function loader({ request, context }: Route.LoaderArgs) {
  const visits = valueOrThrow(await consumerApi(context).visits());
  const m = messagesOf(context);
  const text = {
    title: m.myFunTitle,
    pageTitle: m.myFunPageTitle,
    noVisits: m.noVisits,
    visits: m.visitsLabel,
    checked: m.checkedLabel,
    seen: { Strong: m.strongWindowSeen, Weak: m.weakWindowSeen, None: m.noOpenWindowSeen },
    checkedIn: m.visitCheckedIn,
    notCheckedIn: m.visitNotCheckedIn,
    stars: [1, 2, 3, 4, 5].map((count) => ({ count, label: m.stars(count) })),
    saveRating: m.saveRating,
    ratingSaved: m.ratingSaved,
  };
  // Each visit's venue, in the words of the rating's legend.
  const rated = visits.map((visit) => ({ ...visit, ratingLegend: m.yourRatingOf(visit.locationName) }));
  return { visits: rated, timeZone: await timeZoneOf(request, context), language: languageOf(context), text };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request, context);
  const visitId = String(form.get("visitId") ?? "");
  const rating = Number(form.get("rating"));
  if (!visitId) throw data(null, { status: 400 });
  if (!Number.isInteger(rating) || rating < 1 || rating > 5) return data({ visitId, error: messagesOf(context).ratingRequired, saved: false }, { status: 400 });
  const saved = await consumerApi(context).setRating(visitId, rating);
  return saved.ok ? { visitId, error: undefined, saved: true } : data({ visitId, error: saved.message, saved: false }, failureInit(saved));
}

export default function MyFun() {
  const { visits, timeZone, language, text } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  return (
    <section>
      <h1>{text.title}</h1>
      {visits.length === 0 ? (
        <p className="empty">{text.noVisits}</p>
      ) : (
        <ul className="visit-list" aria-label={text.visits}>
          {visits.map((visit) => {
            const here = actionData?.visitId === visit.visitId;
            return (
              <li key={visit.visitId} className="visit">
                <h2 className="venue-name">{visit.locationName}</h2>
                <p>
                  {visit.city}, {visit.state} · <time dateTime={visit.checkedAt}>{formatInstant(visit.checkedAt, timeZone, language)}</time>
                </p>
                <p className={`visit-window window-${visit.windowState.toLowerCase()}`}>
                  {text.checked} {text.seen[visit.windowState]} · {visit.checkedInAt ? text.checkedIn : text.notCheckedIn}
                </p>
                {visit.checkedInAt ? (
                  <Form method="post" className="rating-form" preventScrollReset>
                    <input type="hidden" name="visitId" value={visit.visitId} />
                    <fieldset>
                      <legend>{visit.ratingLegend}</legend>
                      <span className="stars">
                        {text.stars.map(({ count, label }) => (
                          <label key={count} className="star">
                            <input type="radio" name="rating" value={count} defaultChecked={visit.rating === count} required />
                            <span>{label}</span>
                          </label>
                        ))}
                      </span>
                    </fieldset>
                    <button type="submit" className="button secondary" disabled={navigation.state !== "idle"}>
                      {text.saveRating}
                    </button>
                    {here && actionData?.saved ? (
                      <p role="status" className="form-success">
                        {text.ratingSaved}
                      </p>
                    ) : null}
                    {here ? <FormMessage errors={actionData?.error ? [actionData.error] : undefined} /> : null}
                  </Form>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
