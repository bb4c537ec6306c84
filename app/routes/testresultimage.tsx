// app/routes/testresultimage.tsx: one page's JPEG of one of the user's results (docs/product.md §3: the
// consumer API answers base64; here it is served as an image, only to its owner, never cached). `page`
// (1-based, default 1) asks for a later page: the getimage extension (docs/architecture.md §6.1).
import { data } from "react-router";
import type { Route } from "./+types/testresultimage";
import { pageParameter } from "~/components/ResultPager";
import { consumerApi } from "~/server/upstream/consumer.server";
import { valueOrThrow } from "~/server/upstream/result.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const id = url.searchParams.get("id") ?? "";
  const pageText = url.searchParams.get("page") ?? "1";
  const page = pageParameter(pageText, Number.MAX_SAFE_INTEGER);
  if (!id || String(page) !== pageText) throw data(null, { status: 404 });
  // Another user's result, or none, or a page it does not have: 404 (valueOrThrow), alike.
  const jpeg = valueOrThrow(await consumerApi(context).image(id, page));
  return new Response(new Uint8Array(jpeg), {
    headers: { "Content-Type": "image/jpeg", "Cache-Control": "no-store", "Content-Length": String(jpeg.length) },
  });
}
