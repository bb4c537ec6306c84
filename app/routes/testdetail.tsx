// app/routes/testdetail.tsx: docs/product/screens.md §2 Test Detail: company and public name, test date, the safety
// icon (none when valid is 0), the 250x200 thumbnail (blue border when valid, red otherwise) that
// opens the 1250x1000 view, which its image, Close and Escape close (?view=large, so it works
// without JavaScript), the errors
// list or 'This test result was processed successfully.', the Dispute button rule, the
// Details/Dispute tabs (?tab=), the dispute form, 'Your Submission' and the response branch.
import { useEffect } from "react";
import { data, Form, Link, useActionData, useLoaderData, useNavigate, useNavigation } from "react-router";
import { getFormProps, getTextareaProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useValidatedForm } from "~/hooks/useValidatedForm";
import type { Route } from "./+types/testdetail";
import { FormMessage, TextareaField } from "~/components/Field";
import { ResultIcon, resultState, resultStateLabels } from "~/components/ResultIcon";
import { ResultPager, pageParameter, resultImageUrl } from "~/components/ResultPager";
import { formatInstant, localizeTimes } from "~/dates";
import { disputeSchema } from "~/forms/dispute";
import { htmlConstraints } from "~/server/form-constraints.server";
import { useHydrated } from "~/hooks/useHydrated";
import * as messages from "~/messages";
import { ProofBadge } from "~/components/ProofBadge";
import { getConfig } from "~/server/config.server";
import { timeZoneOf } from "~/server/timezone.server";
import { consumerApi } from "~/server/upstream/consumer.server";
import { failureInit, valueOrThrow } from "~/server/upstream/result.server";
import { TextOnly, TextSeparator } from "~/components/TextOnly";

export const meta = () => [{ title: "Test Detail · SafeWindow" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const id = url.searchParams.get("id") ?? "";
  const api = consumerApi(context);
  const [found, checks] = await Promise.all([api.testResult(id), id ? api.propertyValues(id) : undefined]);
  // Another user's result, or none: 404.
  const result = valueOrThrow(found);
  const propertyValues = checks?.ok ? checks.value : [];
  // docs/product/messages.md §8: test detail errors are shown in the error list with the error's text.
  const loadError = checks && !checks.ok ? `Could not load the checks of this result: ${checks.message}` : undefined;
  // docs/product/screens.md §2, §6: the tabs exist only for a result that can be or has been disputed.
  const tab = disputable(result) ? url.searchParams.get("tab") : null;
  const timeZone = await timeZoneOf(request, context);
  return {
    result,
    // The dispute form's HTML constraints, from the schema its action parses with.
    disputeConstraint: htmlConstraints(disputeSchema),
    mismatches: propertyValues.flatMap((p) => (p.matchInfo === null ? [] : [{ ...p, matchInfo: localizeTimes(p.matchInfo, timeZone) }])),
    loadError,
    tab: tab === "dispute" || tab === "details" ? tab : null,
    large: url.searchParams.get("view") === "large",
    fitted: url.searchParams.get("fit") === "1",
    // The large view's page (ResultPager), and whether a page link brought the user here.
    page: pageParameter(url.searchParams.get("page"), result.pageCount),
    paged: url.searchParams.has("page"),
    supportEmail: getConfig().SUPPORT_EMAIL,
    now: Date.now(),
    timeZone,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const id = new URL(request.url).searchParams.get("id") ?? "";
  const api = consumerApi(context);
  const result = valueOrThrow(await api.testResult(id));
  const submission = parseWithZod(await request.formData(), { schema: disputeSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  // A stale or hand-made post: docs/product/data.md §6 offers a dispute only for valid 0, and only once.
  if (result.valid !== 0 || result.disputeStatus !== 0) return data({ result: submission.reply({ formErrors: [messages.disputeNotOffered] }) }, { status: 409 });
  const sent = await api.dispute(result, submission.value.disputeComment);
  if (!sent.ok) return data({ result: submission.reply({ formErrors: [sent.message] }) }, failureInit(sent));
  return { result: submission.reply({ resetForm: true }) };
}

/** docs/product/screens.md §2, §6: a result with the Details/Dispute tabs: not validated (valid 0), or already disputed. */
function disputable(result: { valid: number; disputeStatus: number }): boolean {
  return result.valid === 0 || result.disputeStatus !== 0;
}

export default function TestDetail() {
  const { result, mismatches, loadError, tab, large, fitted, page, paged, supportEmail, now, timeZone } = useLoaderData<typeof loader>();
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
      <h1>{result.publicName} result</h1>
      <p className="issuer">Issued by {result.testingCompanyName}</p>
      {result.fetchedFrom ? <p className="issuer fetched">{messages.fetchedFromLab(result.fetchedFrom)}</p> : null}
    </hgroup>
  );
  const proof = result.proof ? (
    <>
      <ProofBadge label={result.proof.label} disagrees={Boolean(result.proof.disagreement)} />
      {result.proof.unverifiedSignature ? <p className="proof-note">{messages.unverifiedSignature(result.proof.unverifiedSignature)}</p> : null}
    </>
  ) : null;
  if (large) {
    return (
      <section className="test-detail">
        {heading}
        {proof}
        <LargeView
          imageUrl={resultImageUrl(result.sF_TestResultId, page)}
          alt={`Page ${page} of the ${result.publicName} result, large`}
          viewHref={`${base}${tabQuery}&view=large`}
          closeHref={`${base}${tabQuery}#${thumbnailId}`}
          fitted={fitted}
          page={page}
          pageCount={result.pageCount}
          paged={paged}
        />
      </section>
    );
  }
  return (
    <section className="test-detail">
      {heading}
      {proof}
      <p className="test-date">
        Test date: {formatInstant(result.testDate, timeZone)} · {result.testName}
        {result.result ? ` · ${result.result}` : ""}
      </p>
      {result.valid === 1 ? (
        <p className="result-state">
          <ResultIcon state={state} />
          <span aria-hidden="true">{resultStateLabels[state]}</span>
        </p>
      ) : null}

      {tabsShown ? (
        <nav className="tabs" aria-label="Test result">
          <Link to={`${base}&tab=details`} className={activeTab === "details" ? "tab-link active" : "tab-link"} aria-current={activeTab === "details" ? "page" : undefined}>
            Details
            {activeTab === "details" ? <TextOnly> (current)</TextOnly> : null}
          </Link>
          <TextSeparator />
          <Link to={`${base}&tab=dispute`} className={activeTab === "dispute" ? "tab-link active" : "tab-link"} aria-current={activeTab === "dispute" ? "page" : undefined}>
            Dispute
            {activeTab === "dispute" ? <TextOnly> (current)</TextOnly> : null}
          </Link>
        </nav>
      ) : null}

      {activeTab === "details" ? (
        <>
          <Link id={thumbnailId} to={`${base}${tabQuery}&view=large`} className={`thumbnail ${result.valid === 1 ? "valid" : "invalid"}`} aria-label="Open the large view of the result">
            <img src={imageUrl} alt={`Page 1 of the ${result.publicName} result`} width={250} height={200} />
          </Link>
          {!loadError && result.valid === 1 && mismatches.length > 0 ? (
            // A valid result with differences: a reviewer accepted them on dispute (the 'Manual Review' row says who and when).
            <div className="result-reviewed">
              <p className="result-ok">{messages.resultAcceptedOnReview}</p>
              <p>{messages.resultReviewedDifferences}</p>
              <ul>
                {mismatches.map((p) => (
                  <li key={p.sF_TestResultPropertyValueId}>
                    <strong>{p.name}</strong>: {p.matchInfo}
                  </li>
                ))}
              </ul>
            </div>
          ) : loadError || mismatches.length > 0 ? (
            <div className="result-errors" role="alert">
              <p>{messages.resultErrorsHeading}</p>
              <ul>
                {mismatches.map((p) => (
                  <li key={p.sF_TestResultPropertyValueId}>
                    <strong>{p.name}</strong>: {p.matchInfo}
                  </li>
                ))}
                {loadError ? <li>{loadError}</li> : null}
              </ul>
            </div>
          ) : (
            <p className="result-ok">{messages.resultProcessed}</p>
          )}
          {showDisputeButton ? (
            <Link className="button" to={`${base}&tab=dispute`}>
              Dispute
            </Link>
          ) : null}
        </>
      ) : (
        <DisputeTab
          disputeStatus={result.disputeStatus}
          comment={result.disputeComment}
          response={result.disputeResponseComment}
          contactHref={`mailto:${supportEmail}?subject=${encodeURIComponent(`Dispute: ${result.publicName} result of ${formatInstant(result.testDate, timeZone)}`)}`}
        />
      )}

      <p>
        <Link to="/mytests">Back to My Tests</Link>
      </p>
    </section>
  );
}

/**
 * The Dispute tab (docs/product/screens.md §2 Test Detail): the form, or 'Your Submission' with the 3-hour text or
 * the provider's response. the product's Contact button "does nothing"; here it opens a mail to
 * SUPPORT_EMAIL about this result, which is what the text above it promises.
 */
function DisputeTab({
  disputeStatus,
  comment,
  response,
  contactHref,
}: {
  disputeStatus: 0 | 1;
  comment: string | null;
  response: string | null;
  contactHref: string;
}) {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const { disputeConstraint } = useLoaderData<typeof loader>();
  const [form, fields] = useValidatedForm(() => import("~/forms/dispute").then((m) => m.disputeSchema), actionData?.result, { constraint: disputeConstraint });
  if (disputeStatus !== 0) {
    return (
      <div className="dispute">
        <h2>Your Submission</h2>
        <blockquote>{comment}</blockquote>
        {response ? (
          <>
            <h3>Our response</h3>
            <blockquote>{response}</blockquote>
            <p>{messages.disputeFollowUp}</p>
            <a className="button secondary" href={contactHref}>
              Contact
            </a>
          </>
        ) : actionData ? (
          // Just submitted: the thanks is the post's message, and takes focus (docs/architecture/behaviour.md §4 focus).
          <FormMessage tone="success" errors={[messages.disputeThanks]} />
        ) : (
          <p>{messages.disputeThanks}</p>
        )}
      </div>
    );
  }
  const empty = !String(fields.disputeComment.value ?? "").trim();
  return (
    <Form method="post" {...getFormProps(form)} className="dispute" aria-describedby={form.errorId}>
      <p>{messages.disputeIntro}</p>
      <FormMessage id={form.errorId} errors={form.errors} />
      <TextareaField
        label="Describe the difference"
        textareaProps={{ ...getTextareaProps(fields.disputeComment), required: false, rows: 5 }}
        errorId={fields.disputeComment.errorId}
        errors={fields.disputeComment.errors}
      />
      <button type="submit" className="button" disabled={(hydrated && empty) || navigation.state === "submitting"}>
        Submit
      </button>
    </Form>
  );
}

/** The thumbnail's id: closing the large view returns to it (the link's fragment). */
const thumbnailId = "result-thumbnail";

/**
 * The large view of a result (docs/product/screens.md §2.4, docs/architecture/behaviour.md §4 modals): a page of its
 * own, not an overlay, so nothing is hidden behind it and Tab reaches only what is shown. The page
 * is drawn 1250x1000 in a frame that scrolls both ways where the screen is smaller, or fitted to the
 * screen (`fit=1`). The image itself, Close and (once JavaScript runs) Escape close it: all return
 * to the thumbnail (a fragment link: focus and scroll follow it with and without JavaScript). One
 * page at a time (`page=`, ResultPager), the fit kept from page to page.
 */
function LargeView({
  imageUrl,
  alt,
  viewHref,
  closeHref,
  fitted,
  page,
  pageCount,
  paged,
}: {
  imageUrl: string;
  alt: string;
  /** The large view's URL without its fit and page. */
  viewHref: string;
  closeHref: string;
  fitted: boolean;
  page: number;
  pageCount: number | undefined;
  /** A page link brought the user here: the pager's line takes focus, not Close. */
  paged: boolean;
}) {
  const navigate = useNavigate();
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape" && !event.defaultPrevented) void navigate(closeHref);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [navigate, closeHref]);
  const pageQuery = (n: number) => (n > 1 ? `&page=${n}` : "");
  const closeFocus = paged ? {} : { autoFocus: true, "data-focus-target": "" };
  return (
    <div className="large-view" role="region" aria-label="Large view of the result">
      <div className="button-row">
        <Link className="button" to={closeHref} {...closeFocus}>
          Close
        </Link>{" "}
        <Link className="button secondary" to={`${viewHref}${fitted ? "" : "&fit=1"}${pageQuery(page)}`} replace preventScrollReset>
          {fitted ? "Full size" : "Fit to screen"}
        </Link>
      </div>
      <ResultPager page={page} pageCount={pageCount} hrefOf={(n) => `${viewHref}${fitted ? "&fit=1" : ""}&page=${n}`} focus={paged} />
      {/* The frame is the link back: clicking the image closes the view; at full size the link is also the scrolling frame, so the keyboard scrolls it once focused. */}
      <Link to={closeHref} className={fitted ? "large-frame fitted" : "large-frame"} aria-label={fitted ? "Back to the test detail" : "Back to the test detail (the page is at full size: scroll to see all of it)"}>
        <img src={imageUrl} alt={alt} width={1250} height={1000} />
      </Link>
    </div>
  );
}
