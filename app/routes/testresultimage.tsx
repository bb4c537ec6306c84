// app/routes/testresultimage.tsx: one page's JPEG of one of the user's results (docs/product/data.md §3: the
// consumer API answers base64; here it is served as an image, only to its owner, never cached). `page`
// (1-based, default 1) asks for a later page: the getimage extension (docs/architecture/upstream-calls.md §6.1).
import type { Route } from "./+types/testresultimage";
import { imageQuery, jpegResponse } from "~/server/result-image.server";
import { consumerApi } from "~/server/upstream/consumer.server";
import { valueOrThrow } from "~/server/upstream/result.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { id, page } = imageQuery(request);
  // Another user's result, or none, or a page it does not have: 404 (valueOrThrow), alike.
  return jpegResponse(valueOrThrow(await consumerApi(context).image(id, page)));
}
