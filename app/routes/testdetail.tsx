// app/routes/testdetail.tsx: docs/product/screens.md §2 Test Detail: company and public name, test date, the safety
// icon (none when valid is 0), the 250x200 thumbnail (blue border when valid, red otherwise) that
// opens the 1250x1000 view, which its image, Close and Escape close (?view=large, so it works
// without JavaScript), the errors
// list or 'This test result was processed successfully.', the Dispute button rule, the
// Details/Dispute tabs (?tab=), the dispute form, 'Your Submission' and the response branch.
import { data, Link, useActionData, useLoaderData } from "react-router";
import { parseWithZod } from "@conform-to/zod/v4";
import type { Route } from "./+types/testdetail";
import { ResultIcon, resultState } from "~/components/ResultIcon";
import { pageParameter, resultImageUrl, resultPagerText } from "~/components/ResultPager";
import { DisputeTab } from "~/components/testdetail/DisputeTab";
import { LargeView, thumbnailId } from "~/components/testdetail/LargeView";
import { ResultChecks } from "~/components/testdetail/ResultChecks";
import { formatInstant, localizeTimes } from "~/dates";
import { disputeSchema, disputeWordKeys } from "~/forms/dispute";
import { formWords } from "~/forms/words";
import { htmlConstraints } from "~/server/form-constraints.server";
import { ProofBadge, proofBadgeText } from "~/components/ProofBadge";
import { checkedFieldInfo, checkedFieldName, outcomeWord } from "~/result-words";
import { languageOf, messagesOf } from "~/server/i18n.server";
import { getConfig } from "~/server/config.server";
import { timeZoneOf } from "~/server/timezone.server";
import { consumerApi } from "~/server/upstream/consumer.server";
import { failureInit, valueOrThrow } from "~/server/upstream/result.server";
import { TextOnly, TextSeparator } from "~/components/TextOnly";
import { readForm } from "~/server/form.server";

// The page's words come in its loader data, in the request's language (docs/architecture/behaviour.md §4 "Language").
export const meta: Route.MetaFunction = ({ loaderData }) => (loaderData ? [{ title: loaderData.text.pageTitle }] : []);

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const id = url.searchParams.get("id") ?? "";
  const api = consumerApi(context);
  const [found, checks] = await Promise.all([api.testResult(id), id ? api.propertyValues(id) : undefined]);
  // Another user's result, or none: 404.
  const result = valueOrThrow(found);
  const propertyValues = checks?.ok ? checks.value : [];
  // docs/product/messages.md §8: test detail errors are shown in the error list with the error's text.
  const m = messagesOf(context);
  const language = languageOf(context);
  const loadError = checks && !checks.ok ? m.checksLoadFailed(checks.message) : undefined;
  // docs/product/screens.md §2, §6: the tabs exist only for a result that can be or has been disputed.
  const tab = disputable(result) ? url.searchParams.get("tab") : null;
  const timeZone = await timeZoneOf(request, context);
  const page = pageParameter(url.searchParams.get("page"), result.pageCount);
  const testDate = formatInstant(result.testDate, timeZone, language);
  // In the reader's language (app/result-words.ts), times in their zone.
  const mismatches = propertyValues.flatMap((p) =>
    p.matchInfo === null ? [] : [{ ...p, name: checkedFieldName(m, p.name), matchInfo: localizeTimes(checkedFieldInfo(m, p.name, p.matchInfo), timeZone, language) }],
  );
  // A valid result with differences: a reviewer accepted them on dispute. Only the words the page shows travel.
  const reviewed = !loadError && result.valid === 1 && mismatches.length > 0;
  const text = {
    pageTitle: m.testDetailPageTitle,
    heading: m.resultHeading(result.publicName),
    outcome: outcomeWord(m.resultWords, result.result),
    issuedBy: m.issuedBy(result.testingCompanyName),
    fetchedFrom: result.fetchedFrom ? m.fetchedFromLab(result.fetchedFrom) : null,
    proof: result.proof ? proofBadgeText(m, result.proof.label, Boolean(result.proof.disagreement)) : null,
    unverifiedSignature: result.proof?.unverifiedSignature ? m.unverifiedSignature(result.proof.unverifiedSignature) : null,
    testDateLabel: m.testDateLabel,
    testDate,
    stateLabels: m.resultStateLabels,
    tabs: m.resultTabsLabel,
    details: m.detailsTab,
    dispute: m.disputeTab,
    current: m.currentTab,
    openLargeView: m.openLargeView,
    thumbnailAlt: m.resultPageAlt(1, result.publicName),
    largeAlt: m.resultPageLargeAlt(page, result.publicName),
    pager: resultPagerText(m, page, result.pageCount),
    reviewed: reviewed ? { accepted: m.resultAcceptedOnReview, differences: m.resultReviewedDifferences } : null,
    errorsHeading: m.resultErrorsHeading,
    processed: m.resultProcessed,
    disputeButton: m.disputeButton,
    disputeMailSubject: m.disputeMailSubject(result.publicName, testDate),
    backToMyTests: m.backToMyTests,
    yourSubmission: m.yourSubmission,
    ourResponse: m.ourResponse,
    followUp: m.disputeFollowUp,
    contact: m.contactButton,
    thanks: m.disputeThanks,
    intro: m.disputeIntro,
    describeDifference: m.describeDifference,
    submit: m.submitButton,
    largeView: m.largeViewLabel,
    close: m.closeButton,
    fullSize: m.fullSize,
    fitToScreen: m.fitToScreen,
    backToDetail: m.backToTestDetail,
    backToDetailFullSize: m.backToTestDetailFullSize,
    // The dispute form's checks, worded for the browser's validation on blur (app/forms/words.ts).
    disputeForm: formWords(m, disputeWordKeys),
  };
  return {
    result,
    // The dispute form's HTML constraints, from the schema its action parses with.
    disputeConstraint: htmlConstraints(disputeSchema(m)),
    mismatches,
    loadError,
    tab: tab === "dispute" || tab === "details" ? tab : null,
    large: url.searchParams.get("view") === "large",
    fitted: url.searchParams.get("fit") === "1",
    // The large view's page (ResultPager), and whether a page link brought the user here.
    page,
    paged: url.searchParams.has("page"),
    supportEmail: getConfig().SUPPORT_EMAIL,
    now: Date.now(),
    text,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const id = new URL(request.url).searchParams.get("id") ?? "";
  const api = consumerApi(context);
  const result = valueOrThrow(await api.testResult(id));
  const submission = parseWithZod(await readForm(request, context), { schema: disputeSchema(messagesOf(context)) });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  // A stale or hand-made post: docs/product/data.md §6 offers a dispute only for valid 0, and only once.
  if (result.valid !== 0 || result.disputeStatus !== 0) return data({ result: submission.reply({ formErrors: [messagesOf(context).disputeNotOffered] }) }, { status: 409 });
  const sent = await api.dispute(result, submission.value.disputeComment);
  if (!sent.ok) return data({ result: submission.reply({ formErrors: [sent.message] }) }, failureInit(sent));
  return { result: submission.reply({ resetForm: true }) };
}

/** docs/product/screens.md §2, §6: a result with the Details/Dispute tabs: not validated (valid 0), or already disputed. */
function disputable(result: { valid: number; disputeStatus: number }): boolean {
  return result.valid === 0 || result.disputeStatus !== 0;
}

export default function TestDetail() {
  const { result, disputeConstraint, mismatches, loadError, tab, large, fitted, page, paged, supportEmail, now, text } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const base = `/testdetail?id=${encodeURIComponent(result.sF_TestResultId)}`;
  const imageUrl = resultImageUrl(result.sF_TestResultId, 1);
  const tabsShown = tab !== null || result.disputeStatus !== 0;
  const state = resultState(result, now);
  const activeTab = tab ?? "details";
  const showDisputeButton = result.valid === 0 && !tabsShown && result.disputeStatus === 0;
  const tabQuery = tab ? `&tab=${tab}` : "";
  // The lab's everyday name leads; its legal name says who issued the report.
  const heading = (
    <hgroup>
      <h1>{text.heading}</h1>
      <p className="issuer">{text.issuedBy}</p>
      {text.fetchedFrom ? <p className="issuer fetched">{text.fetchedFrom}</p> : null}
    </hgroup>
  );
  const proof = text.proof ? (
    <>
      <ProofBadge text={text.proof} />
      {text.unverifiedSignature ? <p className="proof-note">{text.unverifiedSignature}</p> : null}
    </>
  ) : null;
  if (large) {
    return (
      <section className="test-detail">
        {heading}
        {proof}
        <LargeView
          imageUrl={resultImageUrl(result.sF_TestResultId, page)}
          alt={text.largeAlt}
          viewHref={`${base}${tabQuery}&view=large`}
          closeHref={`${base}${tabQuery}#${thumbnailId}`}
          fitted={fitted}
          page={page}
          pageCount={result.pageCount}
          paged={paged}
          text={text}
        />
      </section>
    );
  }
  return (
    <section className="test-detail">
      {heading}
      {proof}
      <p className="test-date">
        {text.testDateLabel} {text.testDate} · {result.testName}
        {text.outcome ? ` · ${text.outcome}` : ""}
      </p>
      {result.valid === 1 ? (
        <p className="result-state">
          <ResultIcon state={state} label={text.stateLabels[state]} />
          <span aria-hidden="true">{text.stateLabels[state]}</span>
        </p>
      ) : null}

      {tabsShown ? (
        <nav className="tabs" aria-label={text.tabs}>
          <Link to={`${base}&tab=details`} className={activeTab === "details" ? "tab-link active" : "tab-link"} aria-current={activeTab === "details" ? "page" : undefined}>
            {text.details}
            {activeTab === "details" ? <TextOnly>{text.current}</TextOnly> : null}
          </Link>
          <TextSeparator />
          <Link to={`${base}&tab=dispute`} className={activeTab === "dispute" ? "tab-link active" : "tab-link"} aria-current={activeTab === "dispute" ? "page" : undefined}>
            {text.dispute}
            {activeTab === "dispute" ? <TextOnly>{text.current}</TextOnly> : null}
          </Link>
        </nav>
      ) : null}

      {activeTab === "details" ? (
        <>
          <Link id={thumbnailId} to={`${base}${tabQuery}&view=large`} className={`thumbnail ${result.valid === 1 ? "valid" : "invalid"}`} aria-label={text.openLargeView}>
            <img src={imageUrl} alt={text.thumbnailAlt} width={250} height={200} />
          </Link>
          <ResultChecks mismatches={mismatches} loadError={loadError} text={text} />
          {showDisputeButton ? (
            <Link className="button" to={`${base}&tab=dispute`}>
              {text.disputeButton}
            </Link>
          ) : null}
        </>
      ) : (
        <DisputeTab
          disputeStatus={result.disputeStatus}
          comment={result.disputeComment}
          response={result.disputeResponseComment}
          contactHref={`mailto:${supportEmail}?subject=${encodeURIComponent(text.disputeMailSubject)}`}
          actionData={actionData}
          disputeConstraint={disputeConstraint}
          text={text}
        />
      )}

      <p>
        <Link to="/mytests">{text.backToMyTests}</Link>
      </p>
    </section>
  );
}
