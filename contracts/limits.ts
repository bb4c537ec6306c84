/**
 * The consumer API's upload limits, and the pass checker's photo limits, without zod, so that code
 * which must import nothing heavy (app/limits.ts, read by the browser bundle; server/qr-photo.ts,
 * run from source) can share them. contracts/consumer.ts re-exports the upload's; import them from
 * there unless weight matters.
 */

/** Largest test-result PDF a user may upload: 10 MiB, in bytes (docs/product/data.md §5 Upload, §9). Larger files answer 413 `too_large`. */
export const maxUploadBytes = 10 * 1024 * 1024;

/** docs/product/calls.md §7.2 POST /testresult/addtestresultmultipart/: the form field that carries the file. */
export const uploadField = "multipartData";

/** Largest photo of a pass's QR code that /verify reads, in bytes (a phone's photo is 2-6 MiB; docs/product/pass.md §11.5). */
export const maxPassPhotoBytes = 12 * 1024 * 1024;

/** Most pixels a photo read by /verify may declare (a 48-megapixel phone camera's full size is 48 million). */
export const maxPassPhotoPixels = 50_000_000;
