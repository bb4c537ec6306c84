// app/routes/reviews.tsx: the dispute reviewers' queue (docs/architecture/upstream-calls.md §6.1 extensions "Dispute
// reviews"): the open disputes, oldest first, each with how long it has been open against the
// 3-hour promise users are given, and a link to decide it. Only with the DisputeReviews screen enabled.
import { Link, useLoaderData } from "react-router";
import type { Route } from "./+types/reviews";
import { FormMessage } from "~/components/Field";
import { formatInstant } from "~/dates";
import { languageOf, messagesOf } from "~/server/i18n.server";
import { outcomeWord } from "~/result-words";
import { reviewPaths } from "~/screens";
import { disputeQueueMax, reviewDeadlineState, valueOr404ForReviewers } from "~/server/reviews.server";
import { takeFlash } from "~/server/session.server";
import { timeZoneOf } from "~/server/timezone.server";
import { consumerApi } from "~/server/upstream/consumer.server";

// The page's words come in its loader data, in the request's language (docs/architecture/behaviour.md §4 "Language").
export const meta: Route.MetaFunction = ({ loaderData }) => (loaderData ? [{ title: loaderData.text.pageTitle }] : []);

export async function loader({ request, context }: Route.LoaderArgs) {
  const [queue, timeZone] = await Promise.all([consumerApi(context).disputeQueue(), timeZoneOf(request, context)]);
  const disputes = valueOr404ForReviewers(queue);
  const flash = takeFlash(context);
  const now = Date.now();
  const language = languageOf(context);
  const m = messagesOf(context);
  const text = {
    title: m.reviewsTitle,
    pageTitle: m.reviewsPageTitle,
    promise: m.reviewsPromise,
    empty: m.reviewsEmpty,
    limited: m.reviewsLimited(disputes.length),
    history: m.reviewHistoryTitle,
    backToSettings: m.backToSettings,
  };
  return {
    text,
    notice: flash.notice,
    error: flash.error,
    limited: disputes.length >= disputeQueueMax,
    disputes: disputes.map((d) => {
      const deadline = reviewDeadlineState(d.disputedAt, now, language);
      return {
        id: d.sF_TestResultId,
        name: `${d.firstName} ${d.lastName}`,
        safeWindowId: d.safeWindowId,
        lab: d.publicName,
        collected: m.collectedOn(`${d.testName} · ${outcomeWord(m.resultWords, d.result)}`, formatInstant(d.testDate, timeZone, language)),
        disputed: m.disputedOpenFor(formatInstant(d.disputedAt, timeZone, language), deadline.openFor),
        overdue: deadline.overdue,
        promise: deadline.overdue ? m.reviewOverdueBy(deadline.left) : m.reviewDueIn(deadline.left),
      };
    }),
  };
}

export default function Reviews() {
  const { notice, error, limited, disputes, text } = useLoaderData<typeof loader>();
  return (
    <section className="reviews">
      <h1>{text.title}</h1>
      {notice ? <FormMessage tone="success" errors={[notice]} /> : null}
      {error ? <FormMessage errors={[error]} /> : null}
      <p>{text.promise}</p>
      {disputes.length === 0 ? (
        <p className="empty">{text.empty}</p>
      ) : (
        <ol className="review-queue">
          {disputes.map((d) => (
            <li key={d.id} className={d.overdue ? "overdue" : undefined}>
              <Link to={`${reviewPaths.dispute}?id=${encodeURIComponent(d.id)}`}>
                {d.name} · {d.lab}
              </Link>
              <p>{d.collected}</p>
              <p>
                {d.disputed} <strong className="promise">{d.promise}</strong>
              </p>
            </li>
          ))}
        </ol>
      )}
      {limited ? <p>{text.limited}</p> : null}
      <p>
        <Link to={reviewPaths.history}>{text.history}</Link>
      </p>
      <p>
        <Link to="/settings">{text.backToSettings}</Link>
      </p>
    </section>
  );
}
