// app/routes/reviews.image.tsx: one page's JPEG of a disputed result, for a reviewer (the disputeimage
// extension, docs/architecture/upstream-calls.md §6.1 "Dispute reviews"); never cached. Anything but an open or decided
// dispute's page answers 404.
import type { Route } from "./+types/reviews.image";
import { imageQuery, jpegResponse } from "~/server/result-image.server";
import { valueOr404ForReviewers } from "~/server/reviews.server";
import { consumerApi } from "~/server/upstream/consumer.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { id, page } = imageQuery(request);
  return jpegResponse(valueOr404ForReviewers(await consumerApi(context).disputeImage(id, page)));
}
