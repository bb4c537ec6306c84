/**
 * A result page's JPEG as the app serves it (routes/testresultimage.tsx to its owner, routes/reviews.image.tsx
 * to a reviewer): the query that names it and the answer, never cached.
 */
import { data } from "react-router";
import { pageParameter } from "~/components/ResultPager";

/**
 * The result id and 1-based page of `request`'s query (`id`, `page`, default 1).
 * @throws a 404 route response when the id is missing or `page` is not exactly a page number.
 */
export function imageQuery(request: Request): { id: string; page: number } {
  const url = new URL(request.url);
  const id = url.searchParams.get("id") ?? "";
  const pageText = url.searchParams.get("page") ?? "1";
  const page = pageParameter(pageText, Number.MAX_SAFE_INTEGER);
  if (!id || String(page) !== pageText) throw data(null, { status: 404 });
  return { id, page };
}

/** `jpeg` as an image/jpeg response that no cache keeps (a health document). */
export function jpegResponse(jpeg: Buffer): Response {
  return new Response(new Uint8Array(jpeg), {
    headers: { "Content-Type": "image/jpeg", "Cache-Control": "no-store", "Content-Length": String(jpeg.length) },
  });
}
