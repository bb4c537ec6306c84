// app/routes/reviews.dispute.tsx: one open dispute for a reviewer (docs/architecture/upstream-calls.md §6.1 extensions
// "Dispute reviews"): whose result, the page image (every page, ResultPager), the checks with
// their match information, the user's comment, and the decision: Accept (the result becomes valid) or
// Decline, each with the response the user reads on Test Detail. A plain form post; the consumer API
// checks the role and takes one decision per dispute. A dispute of the reviewer's own result answers
// 404 to GET and POST: the upstream refuses to name it to them (403, valueOr404ForReviewers).
import { data, Form, Link, redirect, useActionData, useLoaderData, useNavigation } from "react-router";
import { parseWithZod } from "@conform-to/zod/v4";
import type { Route } from "./+types/reviews.dispute";
import { FormMessage, TextareaField } from "~/components/Field";
import { ResultPager, pageParameter, resultPagerText } from "~/components/ResultPager";
import { formatInstant, localizeTimes } from "~/dates";
import { reviewSchema, reviewWordKeys } from "~/forms/review";
import { formWords } from "~/forms/words";
import { htmlConstraints } from "~/server/form-constraints.server";
import { textareaProps, useValidatedForm } from "~/hooks/useValidatedForm";
import { languageOf, messagesOf } from "~/server/i18n.server";
import { checkedFieldInfo, checkedFieldName, outcomeWord } from "~/result-words";
import { reviewPaths } from "~/screens";
import { reviewDeadlineState, valueOr404ForReviewers } from "~/server/reviews.server";
import { setFlash } from "~/server/session.server";
import { timeZoneOf } from "~/server/timezone.server";
import { consumerApi } from "~/server/upstream/consumer.server";
import { failureInit } from "~/server/upstream/result.server";
import { readForm } from "~/server/form.server";

// The page's words come in its loader data, in the request's language (docs/architecture/behaviour.md §4 "Language").
export const meta: Route.MetaFunction = ({ loaderData }) => (loaderData ? [{ title: loaderData.text.pageTitle }] : []);

/** The open dispute of the `id` in `request`'s query: a redirect to the queue, with reviewGone, when it is not open (decided, or never was). */
async function openDispute(request: Request, context: Route.LoaderArgs["context"]) {
  const id = new URL(request.url).searchParams.get("id") ?? "";
  const [dispute] = id ? valueOr404ForReviewers(await consumerApi(context).disputeQueue(id)) : [];
  if (!dispute) {
    setFlash(context, "error", messagesOf(context).reviewGone);
    throw redirect(reviewPaths.queue);
  }
  return dispute;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const [dispute, timeZone] = await Promise.all([openDispute(request, context), timeZoneOf(request, context)]);
  const language = languageOf(context);
  const m = messagesOf(context);
  const page = pageParameter(url.searchParams.get("page"), dispute.pageCount);
  const deadline = reviewDeadlineState(dispute.disputedAt, Date.now(), language);
  const name = `${dispute.firstName} ${dispute.lastName}`;
  const text = {
    pageTitle: m.reviewDisputePageTitle,
    heading: m.disputeOfHeading(name),
    productId: m.productIdLabel,
    collected: m.collectedOn(`${dispute.testName} · ${outcomeWord(m.resultWords, dispute.result)}`, formatInstant(dispute.testDate, timeZone, language)),
    disputed: m.disputedOpenFor(formatInstant(dispute.disputedAt, timeZone, language), deadline.openFor),
    promise: deadline.overdue ? m.reviewOverdueBy(deadline.left) : m.reviewDueIn(deadline.left),
    usersComment: m.usersComment,
    checks: m.checksHeading,
    matchesProfile: m.matchesProfile,
    theResult: m.theResultHeading,
    pageAlt: m.disputedPageAlt(page),
    pager: resultPagerText(m, page, dispute.pageCount),
    decision: m.decisionHeading,
    response: m.responseLabel,
    responseHint: m.responseHint,
    accept: m.acceptDecision,
    decline: m.declineDecision,
    backToReviews: m.backToReviews,
    // The decision form's checks, worded for the browser's validation on blur (app/forms/words.ts).
    form: formWords(m, reviewWordKeys),
  };
  return {
    text,
    // The decision form's HTML constraints, from the schema its action parses with.
    constraint: htmlConstraints(reviewSchema(m)),
    id: dispute.sF_TestResultId,
    safeWindowId: dispute.safeWindowId,
    lab: `${dispute.publicName} (${dispute.testingCompanyName})`,
    comment: dispute.disputeComment,
    checks: dispute.propertyValues.map((p) => ({
      id: p.sF_TestResultPropertyValueId,
      name: checkedFieldName(m, p.name),
      matchInfo: p.matchInfo === null ? null : localizeTimes(checkedFieldInfo(m, p.name, p.matchInfo), timeZone, language),
    })),
    page,
    pageCount: dispute.pageCount,
    paged: url.searchParams.has("page"),
    overdue: deadline.overdue,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const dispute = await openDispute(request, context);
  const m = messagesOf(context);
  const submission = parseWithZod(await readForm(request, context), { schema: reviewSchema(m) });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const { decision, responseComment } = submission.value;
  const decided = await consumerApi(context).reviewDispute(dispute.sF_TestResultId, decision, responseComment);
  if (!decided.ok) return data({ result: submission.reply({ formErrors: [decided.message] }) }, failureInit(decided));
  const name = `${dispute.firstName} ${dispute.lastName}`;
  setFlash(context, "notice", decision === "accept" ? m.reviewAccepted(name) : m.reviewDeclined(name));
  return redirect(reviewPaths.queue);
}

export default function ReviewDispute() {
  const d = useLoaderData<typeof loader>();
  const { text } = d;
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [, , formView] = useValidatedForm(() => import("~/forms/review").then((m) => m.reviewSchema(text.form)), actionData?.result, { constraint: d.constraint });
  const responseField = formView.field("responseComment", d.constraint.responseComment);
  const decision = formView.field("decision");
  const here = `${reviewPaths.dispute}?id=${encodeURIComponent(d.id)}`;
  const imageUrl = `${reviewPaths.image}?id=${encodeURIComponent(d.id)}&page=${d.page}`;
  return (
    <section className="review">
      <hgroup>
        <h1>{text.heading}</h1>
        <p>
          {text.productId} {d.safeWindowId} · {d.lab}
        </p>
      </hgroup>
      <p>{text.collected}</p>
      <p>
        {text.disputed} <strong className="promise">{text.promise}</strong>
      </p>

      <h2>{text.usersComment}</h2>
      <blockquote className="dispute-comment">{d.comment}</blockquote>

      <h2>{text.checks}</h2>
      <ul className="review-checks">
        {d.checks.map((c) => (
          <li key={c.id} className={c.matchInfo === null ? "matched" : "mismatch"}>
            <strong>{c.name}</strong>: {c.matchInfo ?? text.matchesProfile}
          </li>
        ))}
      </ul>

      <h2>{text.theResult}</h2>
      <ResultPager page={d.page} pageCount={d.pageCount} hrefOf={(n) => `${here}&page=${n}`} focus={d.paged} text={d.text.pager} />
      <a className="review-page" href={imageUrl}>
        <img src={imageUrl} alt={text.pageAlt} width={625} height={500} />
      </a>

      <h2>{text.decision}</h2>
      <Form method="post" {...formView.props} className="review-decision">
        <FormMessage id={formView.errorId} errors={formView.errors} />
        <TextareaField
          label={text.response}
          hint={text.responseHint}
          textareaProps={{ ...textareaProps(responseField), required: false, rows: 5 }}
          errorId={responseField.errorId}
          errors={responseField.errors}
        />
        <div className="field-error" id={decision.errorId} aria-live="polite">
          {decision.errors?.map((error) => <p key={error}>{error}</p>)}
        </div>
        <div className="button-row">
          <button type="submit" className="button" name={decision.name} value="accept" disabled={navigation.state === "submitting"}>
            {text.accept}
          </button>{" "}
          <button type="submit" className="button secondary" name={decision.name} value="decline" disabled={navigation.state === "submitting"}>
            {text.decline}
          </button>
        </div>
      </Form>
      <p>
        <Link to={reviewPaths.queue}>{text.backToReviews}</Link>
      </p>
    </section>
  );
}
