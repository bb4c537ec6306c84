// app/routes/testresultviewer.tsx: docs/product/screens.md §2 /testresultviewer: a result's full-size image
// (1250x1000), one page at a time (`page=`, components/ResultPager.tsx)
import { Link, useLoaderData } from "react-router";
import type { Route } from "./+types/testresultviewer";
import { ResultPager, pageParameter, resultImageUrl } from "~/components/ResultPager";
import { consumerApi } from "~/server/upstream/consumer.server";
import { valueOrThrow } from "~/server/upstream/result.server";

export const meta = () => [{ title: "Test Result · SafeWindow" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const id = url.searchParams.get("id") ?? "";
  const result = valueOrThrow(await consumerApi(context).testResult(id));
  return {
    id,
    publicName: result.publicName,
    pageCount: result.pageCount,
    page: pageParameter(url.searchParams.get("page"), result.pageCount),
    paged: url.searchParams.has("page"),
  };
}

export default function TestResultViewer() {
  const { id, publicName, pageCount, page, paged } = useLoaderData<typeof loader>();
  const href = `/testresultviewer?id=${encodeURIComponent(id)}`;
  return (
    <section className="viewer">
      <h1>{publicName} result</h1>
      <ResultPager page={page} pageCount={pageCount} hrefOf={(n) => `${href}&page=${n}`} focus={paged} />
      {/* Drawn 1250x1000 like the large view (app.css .large-frame), in a frame the keyboard can scroll. */}
      <div className="large-frame" tabIndex={0} role="group" aria-label="The page at full size; scroll to see all of it">
        <img src={resultImageUrl(id, page)} alt={`Page ${page} of the ${publicName} result`} width={1250} height={1000} />
      </div>
      <p>
        <Link to={`/testdetail?id=${encodeURIComponent(id)}`}>Back to the test detail</Link>
      </p>
    </section>
  );
}
