/**
 * The consumer API's upload limits, without zod, so that code which must import nothing heavy
 * (app/limits.ts, read by server.ts and the browser bundle) can share them. contracts/consumer.ts
 * re-exports them; import them from there unless weight matters.
 */

/** Largest test-result PDF a user may upload: 10 MiB, in bytes (docs/product/data.md §5 Upload, §9). Larger files answer 413 `too_large`. */
export const maxUploadBytes = 10 * 1024 * 1024;

/** docs/product/calls.md §7.2 POST /testresult/addtestresultmultipart/: the form field that carries the file. */
export const uploadField = "multipartData";
