// app/routes/mytests.tsx: docs/product/screens.md §2 /mytests 'My Tests': the 'Before You Add' guidelines modal (shown
// until read, remembered in a cookie, reopened with `?guidelines`), the PDF picker and Upload (a multipart form post that works
// without JavaScript), Add by link (docs/product/labs.md §10.8: a plain form post of the lab's link), the server's consumerMessage, the scrollable result list with its icons;
// a result opens /testdetail. After an upload the outcome shows here with the updated card.
import { data, Form, Link, redirect, useActionData, useLoaderData, useLocation, useNavigation, useRouteLoaderData } from "react-router";
import type { loader as rootLoader } from "~/root";
import type { Route } from "./+types/mytests";
import * as z from "zod/mini";
import { Field, FileField, FormMessage } from "~/components/Field";
import { Guidelines } from "~/components/mytests/Guidelines";
import { resultLinkSchema } from "~/forms/link";
import { htmlConstraints } from "~/server/form-constraints.server";
import { ResultBadge, resultState } from "~/components/ResultIcon";
import { TextOnly, TextSeparator } from "~/components/TextOnly";
import { SafeWindowCard, safeWindowCardText } from "~/components/SafeWindowCard";
import { useHydrated } from "~/hooks/useHydrated";
import { formatInstant, localizeTimes } from "~/dates";
import { maxUploadBodyBytes, maxUploadBytes, maxUploadMegabytes } from "~/limits";
import { languageOf, messagesOf } from "~/server/i18n.server";
import { guidelinesRead, rememberGuidelinesRead } from "~/server/guidelines.server";
import { setFlash, takeFlash } from "~/server/session.server";
import { timeZoneOf } from "~/server/timezone.server";
import { consumerApi } from "~/server/upstream/consumer.server";
import { failureInit, valueOrThrow } from "~/server/upstream/result.server";
import { readForm } from "~/server/form.server";
import { outcomeWord } from "~/result-words";

// The page's words come in its loader data, in the request's language (docs/architecture/behaviour.md §4 "Language").
export const meta: Route.MetaFunction = ({ loaderData }) => (loaderData ? [{ title: loaderData.text.pageTitle }] : []);


export async function loader({ request, context }: Route.LoaderArgs) {
  const api = consumerApi(context);
  const [results, card, read] = await Promise.all([api.testResults(), api.getSafeWindow(), guidelinesRead(request)]);
  const flash = takeFlash(context);
  const showGuidelines = !read || new URL(request.url).searchParams.has("guidelines");
  const timeZone = await timeZoneOf(request, context);
  // The provider's message writes its times in UTC; the page shows them on the user's clock.
  const language = languageOf(context);
  const notice = flash.notice ? localizeTimes(flash.notice, timeZone, language) : undefined;
  // The link form's HTML constraints, from the schema its action parses with.
  const m = messagesOf(context);
  const linkConstraint = htmlConstraints(resultLinkSchema(m));
  const person = valueOrThrow(card);
  const text = {
    title: m.myTestsTitle,
    pageTitle: m.myTestsPageTitle,
    addResult: m.addResultHeading,
    resultFile: m.resultFileLabel,
    uploadRules: `${m.uploadRuleOriginal} ${m.uploadRuleNoCopies} ${m.uploadRuleMatch}`,
    guidelines: { title: m.guidelinesTitle, rules: [m.uploadRuleOriginal, m.uploadRuleNoCopies, m.uploadRuleMatch, m.pdfOnly], understood: m.guidelinesUnderstood },
    upload: m.uploadButton,
    uploading: m.uploadingButton,
    addByLink: m.addByLinkHeading,
    resultLink: m.resultLinkLabel,
    resultLinkHint: m.resultLinkHint,
    addByLinkButton: m.addByLinkButton,
    fetching: m.fetchingButton,
    yourResults: m.yourResultsHeading,
    resultList: m.resultListLabel,
    noResults: m.noResults,
    stateLabels: m.resultStateLabels,
    stateWords: m.resultStateWords,
    card: safeWindowCardText(m, language, person, timeZone),
  };
  // Each result's outcome in words (app/result-words.ts), here on the server: the page's script carries no wording code.
  const listed = valueOrThrow(results).map((result) => ({ ...result, outcomeWord: outcomeWord(m.resultWords, result.result) }));
  return { results: listed, card: person, showGuidelines, notice, error: flash.error, now: Date.now(), timeZone, language, linkConstraint, text };
}

export async function action({ request, context }: Route.ActionArgs) {
  // Over the limit: the body is read and dropped, never parsed, and the form says why (docs/product/data.md §5).
  const messages = messagesOf(context);
  if (Number(request.headers.get("content-length") ?? 0) > maxUploadBodyBytes) {
    await discardBody(request);
    return data({ error: messages.uploadTooLarge(maxUploadMegabytes) }, { status: 413, headers: { Connection: "close" } });
  }
  const form = await readForm(request, context);
  if (form.get("intent") === "guidelines-read") {
    return redirect("/mytests", { headers: { "Set-Cookie": await rememberGuidelinesRead() } });
  }
  if (form.get("intent") === "link") return addByLink(request, context, form);
  const file = form.get("file");
  // No file chosen: browsers send an empty, nameless part. The consumer API judges the content.
  if (!(file instanceof File) || (file.size === 0 && !file.name)) return data({ error: messages.uploadFileRequired }, { status: 400 });
  if (file.size > maxUploadBytes) return data({ error: messages.uploadTooLarge(maxUploadMegabytes) }, { status: 413 });
  if (!/\.pdf$/i.test(file.name) && file.type !== "application/pdf") return data({ error: messages.uploadNotPdf }, { status: 400 });
  const uploaded = await consumerApi(context).upload(file);
  // A refused file is 422 (the provider's consumerMessage says why); anything else as failureInit says.
  if (!uploaded.ok) {
    const error = localizeTimes(uploaded.message, await timeZoneOf(request, context), languageOf(context));
    return data({ error }, uploaded.reason === "refused" ? { status: 422 } : failureInit(uploaded));
  }
  // The outcome shows on the next page: the new result in the list and the updated card.
  setFlash(context, "notice", uploaded.value.consumerMessage);
  return redirect("/mytests");
}

/**
 * Add by link: the link is checked for presence and length here, then the consumer API fetches the
 * result from the lab's site and checks it as an upload. A refusal keeps the link in the field.
 */
async function addByLink(request: Request, context: Route.ActionArgs["context"], form: FormData) {
  const raw = form.get("url");
  const link = typeof raw === "string" ? raw : "";
  const m = messagesOf(context);
  const parsed = z.safeParse(resultLinkSchema(m), { url: link });
  if (!parsed.success) return data({ linkError: parsed.error.issues[0]?.message ?? m.resultLinkRequired, link }, { status: 400 });
  const added = await consumerApi(context).addByLink(parsed.data.url);
  if (!added.ok) {
    const linkError = localizeTimes(added.message, await timeZoneOf(request, context), languageOf(context));
    return data({ linkError, link }, added.reason === "refused" ? { status: 422 } : failureInit(added));
  }
  setFlash(context, "notice", added.value.consumerMessage);
  return redirect("/mytests");
}

/** Reads the request's body to its end without keeping it (server.ts bounds its size). */
async function discardBody(request: Request): Promise<void> {
  if (!request.body) return;
  for await (const _chunk of request.body) {
    // dropped
  }
}

export default function MyTests() {
  const { results, card, showGuidelines, notice, now, timeZone, language, linkConstraint, text } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const uploading = navigation.state === "submitting" && navigation.formData?.has("file");
  const fetching = navigation.state === "submitting" && navigation.formData?.get("intent") === "link";
  const linkError = actionData && "linkError" in actionData ? actionData.linkError : undefined;
  const uploadError = actionData && "error" in actionData ? actionData.error : undefined;
  const location = useLocation();
  const hydrated = useHydrated();
  const consentAnswered = useRouteLoaderData<typeof rootLoader>("root")?.consentAnswered ?? true;
  // See Guidelines: a true modal only once JavaScript runs and no banner waits for an answer.
  const modal = hydrated && consentAnswered;
  return (
    <section>
      <h1>{text.title}</h1>
      {showGuidelines ? <Guidelines key={location.key} modal={modal} text={text.guidelines} /> : null}
      <div className="behind-dialog" inert={showGuidelines && !modal ? true : undefined}>
        {/* The consumerMessage says whether the result validated; the tone stays neutral. */}
        {notice ? <FormMessage tone="info" errors={[notice]} /> : null}
        <SafeWindowCard person={card} own now={now} timeZone={timeZone} onUploadScreen text={text.card} />

        {/* A new key after each stored upload clears the picker. */}
        <Form key={results.length} method="post" encType="multipart/form-data" className="card upload-form" aria-labelledby="upload-heading">
          <h2 id="upload-heading">{text.addResult}</h2>
          <FileField
            label={text.resultFile}
            inputProps={{ id: "result-file", name: "file", accept: ".pdf,application/pdf" }}
            errorId="upload-error"
            errors={uploadError ? [uploadError] : undefined}
            hint={
              <>
                {text.uploadRules}{" "}
                <Link to="?guidelines" preventScrollReset>
                  {text.guidelines.title}
                </Link>
              </>
            }
          />
          <button type="submit" className="button" disabled={uploading}>
            {uploading ? text.uploading : text.upload}
          </button>
        </Form>
        <Form key={`link-${results.length}`} method="post" className="card upload-form link-form" aria-labelledby="link-heading">
          <h2 id="link-heading">{text.addByLink}</h2>
          <Field
            label={text.resultLink}
            inputProps={{
              id: "result-link",
              name: "url",
              // Text, not url: a link pasted without its scheme reaches the server, which says what is wrong.
              type: "text",
              inputMode: "url",
              autoComplete: "off",
              spellCheck: false,
              maxLength: linkConstraint.url?.maxLength,
              placeholder: "https://",
              defaultValue: actionData && "link" in actionData ? actionData.link : undefined,
              "aria-invalid": linkError ? true : undefined,
              "aria-describedby": linkError ? "link-error" : undefined,
            }}
            errorId="link-error"
            errors={linkError ? [linkError] : undefined}
            alert
            hint={text.resultLinkHint}
          />
          <button type="submit" name="intent" value="link" className="button secondary" disabled={fetching}>
            {fetching ? text.fetching : text.addByLinkButton}
          </button>
        </Form>

        <h2>{text.yourResults}</h2>
        {results.length === 0 ? (
          <p className="empty">{text.noResults}</p>
        ) : (
          <ul className="result-list" aria-label={text.resultList}>
            {results.map((result) => (
              <li key={result.sF_TestResultId}>
                <Link to={`/testdetail?id=${encodeURIComponent(result.sF_TestResultId)}`} className="result-row">
                  <ResultBadge state={resultState(result, now)} word={text.stateWords[resultState(result, now)]} label={text.stateLabels[resultState(result, now)]} />
                  <TextSeparator />
                  <span className="result-text">
                    <span className="result-name">{result.publicName}</span>
                    <TextOnly>: </TextOnly>
                    <span className="result-meta">
                      {result.testName} · {result.outcomeWord} · {formatInstant(result.testDate, timeZone, language)}
                    </span>
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
