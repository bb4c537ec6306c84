// app/routes/testresultviewer.tsx: docs/product.md §2 /testresultviewer: a result's full-size image (1250x1000)
import { Link, useLoaderData } from "react-router";
import type { Route } from "./+types/testresultviewer";
import { consumerApi } from "~/server/upstream/consumer.server";
import { valueOrThrow } from "~/server/upstream/result.server";

export const meta = () => [{ title: "Test Result · SafeWindow" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const id = new URL(request.url).searchParams.get("id") ?? "";
  const result = valueOrThrow(await consumerApi(context).testResult(id));
  return { id, publicName: result.publicName };
}

export default function TestResultViewer() {
  const { id, publicName } = useLoaderData<typeof loader>();
  return (
    <section className="viewer">
      <h1>{publicName} result</h1>
      <img src={`/testresultviewer/image?id=${encodeURIComponent(id)}`} alt={`Page 1 of the ${publicName} result`} width={1250} height={1000} />
      <p>
        <Link to={`/testdetail?id=${encodeURIComponent(id)}`}>Back to the test detail</Link>
      </p>
    </section>
  );
}
