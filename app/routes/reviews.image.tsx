// app/routes/reviews.image.tsx: one page's JPEG of a disputed result, for a reviewer (the disputeimage
// extension, docs/architecture.md §6.1 "Dispute reviews"); never cached. Anything but an open or decided
// dispute's page answers 404.
import { data } from "react-router";
import type { Route } from "./+types/reviews.image";
import { pageParameter } from "~/components/ResultPager";
import { reviewerValue } from "~/server/reviews.server";
import { consumerApi } from "~/server/upstream/consumer.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const id = url.searchParams.get("id") ?? "";
  const pageText = url.searchParams.get("page") ?? "1";
  const page = pageParameter(pageText, Number.MAX_SAFE_INTEGER);
  if (!id || String(page) !== pageText) throw data(null, { status: 404 });
  const jpeg = reviewerValue(await consumerApi(context).disputeImage(id, page));
  return new Response(new Uint8Array(jpeg), {
    headers: { "Content-Type": "image/jpeg", "Cache-Control": "no-store", "Content-Length": String(jpeg.length) },
  });
}
