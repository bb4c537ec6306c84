// app/routes/testresultimage.tsx: the page-1 JPEG of one of the user's results (docs/product.md §3: the
// consumer API answers base64; here it is served as an image, only to its owner, never cached)
import { data } from "react-router";
import type { Route } from "./+types/testresultimage";
import { consumerApi } from "~/server/upstream/consumer.server";
import { valueOrThrow } from "~/server/upstream/result.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const id = new URL(request.url).searchParams.get("id") ?? "";
  if (!id) throw data(null, { status: 404 });
  // Another user's result, or none: 404 (valueOrThrow), like a result that does not exist.
  const jpeg = valueOrThrow(await consumerApi(context).image(id));
  return new Response(new Uint8Array(jpeg), {
    headers: { "Content-Type": "image/jpeg", "Cache-Control": "no-store", "Content-Length": String(jpeg.length) },
  });
}
