// app/routes/myfun.tsx: 'My Fun' (docs/product/data.md §6 screen `MyFun`; docs/venues.md "My Fun"): every check a
// venue made of the person's window, newest first: the venue, when, what the venue saw, whether they
// were checked in; and 1 to 5 stars for a visit they were checked in at. Each rating is a small form
// (five radio buttons and Save) posted to the action, so it works without JavaScript.
import { data, Form, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/myfun";
import { FormMessage } from "~/components/Field";
import { formatInstant } from "~/dates";
import * as messages from "~/messages";
import { timeZoneOf } from "~/server/timezone.server";
import { consumerApi } from "~/server/upstream/consumer.server";
import { windowStateWords } from "~/windows";
import { failureInit, valueOrThrow } from "~/server/upstream/result.server";

export const meta = () => [{ title: "My Fun · SafeWindow" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const visits = valueOrThrow(await consumerApi(context).visits());
  return { visits, timeZone: await timeZoneOf(request, context) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const visitId = String(form.get("visitId") ?? "");
  const rating = Number(form.get("rating"));
  if (!visitId) throw data(null, { status: 400 });
  if (!Number.isInteger(rating) || rating < 1 || rating > 5) return data({ visitId, error: "Choose 1 to 5 stars.", saved: false }, { status: 400 });
  const saved = await consumerApi(context).setRating(visitId, rating);
  return saved.ok ? { visitId, error: undefined, saved: true } : data({ visitId, error: saved.message, saved: false }, failureInit(saved));
}

export default function MyFun() {
  const { visits, timeZone } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  return (
    <section>
      <h1>{messages.myFunTitle}</h1>
      {visits.length === 0 ? (
        <p className="empty">{messages.noVisits}</p>
      ) : (
        <ul className="visit-list" aria-label="Visits">
          {visits.map((visit) => {
            const here = actionData?.visitId === visit.visitId;
            return (
              <li key={visit.visitId} className="visit">
                <h2 className="venue-name">{visit.locationName}</h2>
                <p>
                  {visit.city}, {visit.state} · <time dateTime={visit.checkedAt}>{formatInstant(visit.checkedAt, timeZone)}</time>
                </p>
                <p className={`visit-window window-${visit.windowState.toLowerCase()}`}>
                  Checked: {windowStateWords(visit.windowState)} · {visit.checkedInAt ? "Checked in" : "Not checked in"}
                </p>
                {visit.checkedInAt ? (
                  <Form method="post" className="rating-form" preventScrollReset>
                    <input type="hidden" name="visitId" value={visit.visitId} />
                    <fieldset>
                      <legend>Your rating of {visit.locationName}</legend>
                      <span className="stars">
                        {[1, 2, 3, 4, 5].map((stars) => (
                          <label key={stars} className="star">
                            <input type="radio" name="rating" value={stars} defaultChecked={visit.rating === stars} required />
                            <span>
                              {stars} {stars === 1 ? "star" : "stars"}
                            </span>
                          </label>
                        ))}
                      </span>
                    </fieldset>
                    <button type="submit" className="button secondary" disabled={navigation.state !== "idle"}>
                      Save rating
                    </button>
                    {here && actionData?.saved ? (
                      <p role="status" className="form-success">
                        {messages.ratingSaved}
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
