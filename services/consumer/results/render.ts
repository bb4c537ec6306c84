// docs/architecture.md §5 step 7, image: page 1 as a JPEG that fits 1250x1000 (docs/product.md §9 large view),
// drawn by the worker pool; served only to the owner (store.ts resultImage).
import type { PdfPool } from "./pool.ts";

/** A rendered page: JPEG bytes and their pixel size (within pool.ts IMAGE_BOX). */
export interface ResultImage {
  jpeg: Uint8Array;
  width: number;
  height: number;
}

/**
 * Renders page 1 of `bytes` (fit-to-box scale; an image over the pool's pixel limit is left
 * out, never decoded).
 * @throws UploadRejectedError too_complex (over a budget), corrupt, busy.
 */
export async function renderResultImage(pool: PdfPool, bytes: Uint8Array): Promise<ResultImage> {
  return pool.render(bytes);
}
