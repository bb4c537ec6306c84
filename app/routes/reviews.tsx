// app/routes/reviews.tsx: the dispute reviewers' queue (docs/architecture/upstream-calls.md §6.1 extensions "Dispute
// reviews"): the open disputes, oldest first, each with how long it has been open against the
// 3-hour promise users are given, and a link to decide it. Only with the DisputeReviews screen enabled.
import { Link, useLoaderData } from "react-router";
import type { Route } from "./+types/reviews";
import { FormMessage } from "~/components/Field";
import { formatInstant } from "~/dates";
import * as messages from "~/messages";
import { reviewPaths } from "~/screens";
import { disputeQueueMax, reviewDeadlineState, valueOr404ForReviewers } from "~/server/reviews.server";
import { takeFlash } from "~/server/session.server";
import { timeZoneOf } from "~/server/timezone.server";
import { consumerApi } from "~/server/upstream/consumer.server";

export const meta = () => [{ title: `${messages.reviewsTitle} · SafeWindow` }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const [queue, timeZone] = await Promise.all([consumerApi(context).disputeQueue(), timeZoneOf(request, context)]);
  const disputes = valueOr404ForReviewers(queue);
  const flash = takeFlash(context);
  const now = Date.now();
  return {
    notice: flash.notice,
    error: flash.error,
    limited: disputes.length >= disputeQueueMax,
    disputes: disputes.map((d) => ({
      id: d.sF_TestResultId,
      name: `${d.firstName} ${d.lastName}`,
      safeWindowId: d.safeWindowId,
      lab: d.publicName,
      test: `${d.testName} · ${d.result}`,
      testDate: formatInstant(d.testDate, timeZone),
      disputedAt: formatInstant(d.disputedAt, timeZone),
      ...reviewDeadlineState(d.disputedAt, now),
    })),
  };
}

export default function Reviews() {
  const { notice, error, limited, disputes } = useLoaderData<typeof loader>();
  return (
    <section className="reviews">
      <h1>{messages.reviewsTitle}</h1>
      {notice ? <FormMessage tone="success" errors={[notice]} /> : null}
      {error ? <FormMessage errors={[error]} /> : null}
      <p>{messages.reviewsPromise}</p>
      {disputes.length === 0 ? (
        <p className="empty">{messages.reviewsEmpty}</p>
      ) : (
        <ol className="review-queue">
          {disputes.map((d) => (
            <li key={d.id} className={d.overdue ? "overdue" : undefined}>
              <Link to={`${reviewPaths.dispute}?id=${encodeURIComponent(d.id)}`}>
                {d.name} · {d.lab}
              </Link>
              <p>
                {d.test}, collected {d.testDate}
              </p>
              <p>
                Disputed {d.disputedAt}, open for {d.openFor}.{" "}
                <strong className="promise">{d.overdue ? messages.reviewOverdueBy(d.left) : messages.reviewDueIn(d.left)}</strong>
              </p>
            </li>
          ))}
        </ol>
      )}
      {limited ? <p>{messages.reviewsLimited(disputes.length)}</p> : null}
      <p>
        <Link to={reviewPaths.history}>Decided disputes</Link>
      </p>
      <p>
        <Link to="/settings">Back to My Settings</Link>
      </p>
    </section>
  );
}
