// app/routes/testresultviewer.tsx: docs/product/screens.md §2 /testresultviewer: a result's full-size image
// (1250x1000), one page at a time (`page=`, components/ResultPager.tsx)
import { Link, useLoaderData } from "react-router";
import type { Route } from "./+types/testresultviewer";
import { ResultPager, pageParameter, resultImageUrl, resultPagerText } from "~/components/ResultPager";
import { consumerApi } from "~/server/upstream/consumer.server";
import { valueOrThrow } from "~/server/upstream/result.server";
import { messagesOf } from "~/server/i18n.server";

// The page's words come in its loader data, in the request's language (docs/architecture/behaviour.md §4 "Language").
export const meta: Route.MetaFunction = ({ loaderData }) => (loaderData ? [{ title: loaderData.text.pageTitle }] : []);

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const id = url.searchParams.get("id") ?? "";
  const result = valueOrThrow(await consumerApi(context).testResult(id));
  const page = pageParameter(url.searchParams.get("page"), result.pageCount);
  const m = messagesOf(context);
  const text = {
    pageTitle: m.testResultPageTitle,
    heading: m.resultHeading(result.publicName),
    frame: m.fullSizeFrameLabel,
    pageAlt: m.resultPageAlt(page, result.publicName),
    backToDetail: m.backToTestDetail,
    pager: resultPagerText(m, page, result.pageCount),
  };
  return {
    id,
    pageCount: result.pageCount,
    page,
    paged: url.searchParams.has("page"),
    text,
  };
}

export default function TestResultViewer() {
  const { id, pageCount, page, paged, text } = useLoaderData<typeof loader>();
  const href = `/testresultviewer?id=${encodeURIComponent(id)}`;
  return (
    <section className="viewer">
      <h1>{text.heading}</h1>
      <ResultPager page={page} pageCount={pageCount} hrefOf={(n) => `${href}&page=${n}`} focus={paged} text={text.pager} />
      {/* Drawn 1250x1000 like the large view (app.css .large-frame), in a frame the keyboard can scroll. */}
      <div className="large-frame" tabIndex={0} role="group" aria-label={text.frame}>
        <img src={resultImageUrl(id, page)} alt={text.pageAlt} width={1250} height={1000} />
      </div>
      <p>
        <Link to={`/testdetail?id=${encodeURIComponent(id)}`}>{text.backToDetail}</Link>
      </p>
    </section>
  );
}
