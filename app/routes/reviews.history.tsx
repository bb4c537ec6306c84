// app/routes/reviews.history.tsx: the audit trail of dispute decisions for reviewers (docs/architecture/upstream-calls.md
// §6.1 extensions "Dispute reviews"): who decided, when, what, and what changed, newest first.
import { Link, useLoaderData } from "react-router";
import type { Route } from "./+types/reviews.history";
import { formatInstant } from "~/dates";
import * as messages from "~/messages";
import { reviewPaths } from "~/screens";
import { valueOr404ForReviewers } from "~/server/reviews.server";
import { timeZoneOf } from "~/server/timezone.server";
import { consumerApi } from "~/server/upstream/consumer.server";

export const meta = () => [{ title: `Decided disputes · ${messages.reviewsTitle} · SafeWindow` }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const [trail, timeZone] = await Promise.all([consumerApi(context).disputeReviews(), timeZoneOf(request, context)]);
  return {
    reviews: valueOr404ForReviewers(trail).map((r) => ({
      id: r.sF_DisputeReviewId,
      resultId: r.sF_TestResultId,
      reviewer: r.reviewerEmail,
      decision: r.decision === "accept" ? "Accepted" : "Declined",
      change: r.validBefore === r.validAfter ? (r.validAfter === 1 ? "stayed valid" : "stayed invalid") : r.validAfter === 1 ? "invalid → valid" : "valid → invalid",
      response: r.responseComment,
      at: formatInstant(r.reviewedAt, timeZone),
    })),
  };
}

export default function ReviewHistory() {
  const { reviews } = useLoaderData<typeof loader>();
  return (
    <section className="reviews">
      <h1>Decided disputes</h1>
      {reviews.length === 0 ? (
        <p className="empty">{messages.reviewHistoryEmpty}</p>
      ) : (
        <div className="table-frame" tabIndex={0} role="group" aria-label="Decided disputes">
          <table className="review-trail">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Reviewer</th>
                <th scope="col">Decision</th>
                <th scope="col">Result</th>
                <th scope="col">Response</th>
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
        <Link to={reviewPaths.queue}>Back to {messages.reviewsTitle}</Link>
      </p>
    </section>
  );
}
