// docs/architecture/results-pipeline.md §5 step 6, image: each page as a JPEG that fits 1250x1000 (docs/product/messages.md §9
// large view), drawn by the worker pool; served only to the owner (store.ts resultImage). Page 1 is
// drawn at upload; a later page when it is first asked for, from the kept PDF.
import type { PdfPool } from "./pool.ts";

/** A rendered page: JPEG bytes and their pixel size (within pool.ts IMAGE_BOX). */
export interface ResultImage {
  jpeg: Uint8Array;
  width: number;
  height: number;
}

/**
 * Renders one page (1-based, default 1) of `bytes` (fit-to-box scale; an image over the pool's
 * pixel limit is left out, never decoded).
 * @throws UploadRejectedError too_complex (over a budget), corrupt (also a page the PDF lacks), busy.
 */
export async function renderResultImage(pool: PdfPool, bytes: Uint8Array, page = 1): Promise<ResultImage> {
  return pool.render(bytes, page);
}
