// app/routes/reviews.history.tsx: the audit trail of dispute decisions for reviewers (docs/architecture/upstream-calls.md
// §6.1 extensions "Dispute reviews"): who decided, when, what, and what changed, newest first.
import { Link, useLoaderData } from "react-router";
import type { Route } from "./+types/reviews.history";
import { formatInstant } from "~/dates";
import { languageOf, messagesOf } from "~/server/i18n.server";
import { reviewPaths } from "~/screens";
import { valueOr404ForReviewers } from "~/server/reviews.server";
import { timeZoneOf } from "~/server/timezone.server";
import { consumerApi } from "~/server/upstream/consumer.server";

// The page's words come in its loader data, in the request's language (docs/architecture/behaviour.md §4 "Language").
export const meta: Route.MetaFunction = ({ loaderData }) => (loaderData ? [{ title: loaderData.text.pageTitle }] : []);

export async function loader({ request, context }: Route.LoaderArgs) {
  const [trail, timeZone] = await Promise.all([consumerApi(context).disputeReviews(), timeZoneOf(request, context)]);
  const language = languageOf(context);
  const m = messagesOf(context);
  const text = {
    title: m.reviewHistoryTitle,
    pageTitle: m.reviewHistoryPageTitle,
    empty: m.reviewHistoryEmpty,
    when: m.whenColumn,
    reviewer: m.reviewerColumn,
    decision: m.decisionColumn,
    result: m.resultColumn,
    response: m.responseColumn,
    backToReviews: m.backToReviews,
  };
  return {
    text,
    reviews: valueOr404ForReviewers(trail).map((r) => ({
      id: r.sF_DisputeReviewId,
      resultId: r.sF_TestResultId,
      reviewer: r.reviewerEmail,
      decision: r.decision === "accept" ? m.decisionAccepted : m.decisionDeclined,
      change: r.validBefore === r.validAfter ? (r.validAfter === 1 ? m.stayedValid : m.stayedInvalid) : r.validAfter === 1 ? m.becameValid : m.becameInvalid,
      response: r.responseComment,
      at: formatInstant(r.reviewedAt, timeZone, language),
    })),
  };
}

export default function ReviewHistory() {
  const { reviews, text } = useLoaderData<typeof loader>();
  return (
    <section className="reviews">
      <h1>{text.title}</h1>
      {reviews.length === 0 ? (
        <p className="empty">{text.empty}</p>
      ) : (
        <div className="table-frame" tabIndex={0} role="group" aria-label={text.title}>
          <table className="review-trail">
            <thead>
              <tr>
                <th scope="col">{text.when}</th>
                <th scope="col">{text.reviewer}</th>
                <th scope="col">{text.decision}</th>
                <th scope="col">{text.result}</th>
                <th scope="col">{text.response}</th>
              </tr>
            </thead>
            <tbody>
              {reviews.map((r) => (
                <tr key={r.id}>
                  <td>{r.at}</td>
                  <td>{r.reviewer}</td>
                  <td>{r.decision}</td>
                  <td>
                    <span className="result-id">{r.resultId.slice(0, 8)}</span> {r.change}
                  </td>
                  <td>{r.response}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p>
        <Link to={reviewPaths.queue}>{text.backToReviews}</Link>
      </p>
    </section>
  );
}
