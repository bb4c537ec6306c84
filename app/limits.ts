/**
 * Size limits of what the browser sends (docs/product/data.md §5 upload; docs/operating.md "Every variable").
 *
 * Imported both by server/app.ts (run by Node's type stripping) and by the app bundle, so it imports
 * only contracts/limits.ts, which imports nothing.
 */
import { maxPassPhotoBytes, maxPassPhotoPixels, maxUploadBytes } from "../contracts/limits.ts";

/** Largest PDF a user may upload: 10 MiB, in bytes: the consumer API's own limit (contracts/limits.ts). */
export { maxUploadBytes };

/** The same cap in MB as messages write it (MiB: 10). */
export const maxUploadMegabytes = maxUploadBytes / 2 ** 20;

/** Largest upload form body: the PDF and its multipart framing, in bytes. */
export const maxUploadBodyBytes = maxUploadBytes + 64 * 1024;

/**
 * Upload bodies up to this size (bytes) are read and thrown away when they are over
 * `maxUploadBodyBytes`, so that the upload form can answer with its own message (a browser that is
 * still sending shows nothing when the server answers and closes early); larger ones are refused
 * before anything reads them.
 */
export const uploadDiscardLimitBytes = 64 * 1024 * 1024;

/** Largest body of every other form, in bytes. */
export const maxFormBodyBytes = 64 * 1024;

/** The pass checker's photo limits: bytes, and pixels its header may declare (contracts/limits.ts). */
export { maxPassPhotoBytes, maxPassPhotoPixels };

/** The photo cap in MB as messages write it (MiB: 12). */
export const maxPassPhotoMegabytes = maxPassPhotoBytes / 2 ** 20;

/** Largest body of the /verify form: the photo and the pasted text, with their multipart framing, in bytes. */
export const maxVerifyBodyBytes = maxPassPhotoBytes + 64 * 1024;
