// app/routes/reviews.dispute.tsx: one open dispute for a reviewer (docs/architecture/upstream-calls.md §6.1 extensions
// "Dispute reviews"): whose result, the page image (every page, ResultPager), the checks with
// their match information, the user's comment, and the decision: Accept (the result becomes valid) or
// Decline, each with the response the user reads on Test Detail. A plain form post; the consumer API
// checks the role and takes one decision per dispute. A dispute of the reviewer's own result answers
// 404 to GET and POST: the upstream refuses to name it to them (403, valueOr404ForReviewers).
import { data, Form, Link, redirect, useActionData, useLoaderData, useNavigation } from "react-router";
import { getFormProps, getTextareaProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { Route } from "./+types/reviews.dispute";
import { FormMessage, TextareaField } from "~/components/Field";
import { ResultPager, pageParameter } from "~/components/ResultPager";
import { formatInstant, localizeTimes } from "~/dates";
import { reviewSchema } from "~/forms/review";
import { htmlConstraints } from "~/server/form-constraints.server";
import { useValidatedForm } from "~/hooks/useValidatedForm";
import * as messages from "~/messages";
import { reviewPaths } from "~/screens";
import { reviewDeadlineState, valueOr404ForReviewers } from "~/server/reviews.server";
import { setFlash } from "~/server/session.server";
import { timeZoneOf } from "~/server/timezone.server";
import { consumerApi } from "~/server/upstream/consumer.server";
import { failureInit } from "~/server/upstream/result.server";

export const meta = () => [{ title: `Dispute · ${messages.reviewsTitle} · SafeWindow` }];

/** The open dispute of the `id` in `request`'s query: a redirect to the queue, with reviewGone, when it is not open (decided, or never was). */
async function openDispute(request: Request, context: Route.LoaderArgs["context"]) {
  const id = new URL(request.url).searchParams.get("id") ?? "";
  const [dispute] = id ? valueOr404ForReviewers(await consumerApi(context).disputeQueue(id)) : [];
  if (!dispute) {
    setFlash(context, "error", messages.reviewGone);
    throw redirect(reviewPaths.queue);
  }
  return dispute;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const [dispute, timeZone] = await Promise.all([openDispute(request, context), timeZoneOf(request, context)]);
  return {
    // The decision form's HTML constraints, from the schema its action parses with.
    constraint: htmlConstraints(reviewSchema),
    id: dispute.sF_TestResultId,
    name: `${dispute.firstName} ${dispute.lastName}`,
    safeWindowId: dispute.safeWindowId,
    lab: `${dispute.publicName} (${dispute.testingCompanyName})`,
    test: `${dispute.testName} · ${dispute.result}`,
    testDate: formatInstant(dispute.testDate, timeZone),
    disputedAt: formatInstant(dispute.disputedAt, timeZone),
    comment: dispute.disputeComment,
    checks: dispute.propertyValues.map((p) => ({ id: p.sF_TestResultPropertyValueId, name: p.name, matchInfo: p.matchInfo === null ? null : localizeTimes(p.matchInfo, timeZone) })),
    page: pageParameter(url.searchParams.get("page"), dispute.pageCount),
    pageCount: dispute.pageCount,
    paged: url.searchParams.has("page"),
    ...reviewDeadlineState(dispute.disputedAt, Date.now()),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const dispute = await openDispute(request, context);
  const submission = parseWithZod(await request.formData(), { schema: reviewSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const { decision, responseComment } = submission.value;
  const decided = await consumerApi(context).reviewDispute(dispute.sF_TestResultId, decision, responseComment);
  if (!decided.ok) return data({ result: submission.reply({ formErrors: [decided.message] }) }, failureInit(decided));
  const name = `${dispute.firstName} ${dispute.lastName}`;
  setFlash(context, "notice", decision === "accept" ? messages.reviewAccepted(name) : messages.reviewDeclined(name));
  return redirect(reviewPaths.queue);
}

export default function ReviewDispute() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useValidatedForm(() => import("~/forms/review").then((m) => m.reviewSchema), actionData?.result, { constraint: d.constraint });
  const here = `${reviewPaths.dispute}?id=${encodeURIComponent(d.id)}`;
  const imageUrl = `${reviewPaths.image}?id=${encodeURIComponent(d.id)}&page=${d.page}`;
  return (
    <section className="review">
      <hgroup>
        <h1>Dispute of {d.name}</h1>
        <p>
          Product ID {d.safeWindowId} · {d.lab}
        </p>
      </hgroup>
      <p>
        {d.test}, collected {d.testDate}
      </p>
      <p>
        Disputed {d.disputedAt}, open for {d.openFor}. <strong className="promise">{d.overdue ? messages.reviewOverdueBy(d.left) : messages.reviewDueIn(d.left)}</strong>
      </p>

      <h2>The user&apos;s comment</h2>
      <blockquote className="dispute-comment">{d.comment}</blockquote>

      <h2>Checks</h2>
      <ul className="review-checks">
        {d.checks.map((c) => (
          <li key={c.id} className={c.matchInfo === null ? "matched" : "mismatch"}>
            <strong>{c.name}</strong>: {c.matchInfo ?? "matches the profile"}
          </li>
        ))}
      </ul>

      <h2>The result</h2>
      <ResultPager page={d.page} pageCount={d.pageCount} hrefOf={(n) => `${here}&page=${n}`} focus={d.paged} />
      <a className="review-page" href={imageUrl}>
        <img src={imageUrl} alt={`Page ${d.page} of the disputed result`} width={625} height={500} />
      </a>

      <h2>Decision</h2>
      <Form method="post" {...getFormProps(form)} className="review-decision" aria-describedby={form.errorId}>
        <FormMessage id={form.errorId} errors={form.errors} />
        <TextareaField
          label="Response to the user"
          hint="They read it on the result's Dispute tab."
          textareaProps={{ ...getTextareaProps(fields.responseComment), required: false, rows: 5 }}
          errorId={fields.responseComment.errorId}
          errors={fields.responseComment.errors}
        />
        <div className="field-error" id={fields.decision.errorId} aria-live="polite">
          {fields.decision.errors?.map((error) => <p key={error}>{error}</p>)}
        </div>
        <div className="button-row">
          <button type="submit" className="button" name={fields.decision.name} value="accept" disabled={navigation.state === "submitting"}>
            Accept: make the result valid
          </button>{" "}
          <button type="submit" className="button secondary" name={fields.decision.name} value="decline" disabled={navigation.state === "submitting"}>
            Decline
          </button>
        </div>
      </Form>
      <p>
        <Link to={reviewPaths.queue}>Back to {messages.reviewsTitle}</Link>
      </p>
    </section>
  );
}
