// docs/architecture/results-pipeline.md §5 step 1, intake: the upload is read as a stream (multipart/form-data, field
// multipartData, docs/product/calls.md §7.2) and never buffered past the 10 MB limit; it must be a PDF and nothing
// else (its `%PDF-` header first, after at most white space or a byte-order mark; nothing but
// white space after its end), not a file this user already stored (SHA-256 of the file), readable
// by the worker pool within its page, time and memory budgets, and free of the active content no
// lab report carries (JavaScript, OpenAction and additional actions, Launch actions, embedded
// files). Once the report is read (step 4), the same report already stored for this user, in
// whatever bytes, is refused too (step 5, checkNewReport; its identity: lab, name, date of birth,
// collection time, test).
// docs/decisions/0010-forged-originals.md says why each rule and what else was tried.
import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import busboy from "busboy";
import type { Kysely } from "kysely";
import { maxUploadBytes, uploadField } from "../../../contracts/consumer.ts";
import type { LabFormat } from "../labs/types.ts";
import { reportIdentityKey } from "../schema/0004_report_identity.ts";
import type { ConsumerDatabase } from "../schema/tables.ts";
import { UploadRejectedError } from "./errors.ts";
import type { Extracted } from "./extract.ts";
import type { PdfPool } from "./pool.ts";
import { hasDataAfterEnd, headerPlacement } from "./structure.ts";
import type { ActiveContent } from "./structure.ts";
import type { ParsedPdf } from "./worker.ts";

/** docs/product/calls.md §7.2 POST /testresult/addtestresultmultipart/: the file's form field (the contract's). */
export const UPLOAD_FIELD = uploadField;
/** Largest accepted file: 10 MiB, the contract's maxUploadBytes (contracts/consumer.ts). Lab reports are tens of KB. */
export const MAX_UPLOAD_BYTES = maxUploadBytes;
/** Room for multipart boundaries, part headers and small fields around the file. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

/** A file as received. */
export interface Upload {
  bytes: Uint8Array;
  /** SHA-256 of the bytes, lower-case hex. */
  sha256: string;
  /** The file name the browser sent, if any (never trusted for anything but logs). */
  filename: string | null;
}

function tooLarge(): UploadRejectedError {
  return new UploadRejectedError("too_large", (w) => w.too_large(MAX_UPLOAD_BYTES / (1024 * 1024)));
}

/**
 * Reads the file of field `multipartData` from a multipart/form-data request, streaming: the
 * SHA-256 is computed as chunks arrive and at most MAX_UPLOAD_BYTES are kept. Other fields and
 * files are skipped. On a rejection the rest of the body is drained so the answer can be read.
 * @throws UploadRejectedError "no_file" (not multipart, malformed, or no such field),
 *   "too_large" (declared or actual size over the limit).
 */
export function readUpload(req: IncomingMessage, maxBytes = MAX_UPLOAD_BYTES): Promise<Upload> {
  return new Promise<Upload>((resolve, reject) => {
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > maxBytes + MULTIPART_OVERHEAD_BYTES) {
      req.resume();
      reject(tooLarge());
      return;
    }
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: { fileSize: maxBytes, files: 4, fields: 20, parts: 24, fieldSize: 8 * 1024, headerPairs: 32 },
      });
    } catch {
      // Not multipart/form-data, or no boundary.
      req.resume();
      reject(new UploadRejectedError("no_file", (w) => w.no_file()));
      return;
    }
    const hash = createHash("sha256");
    const chunks: Buffer[] = [];
    let size = 0;
    let found = false;
    let filename: string | null = null;
    let settled = false;

    const fail = (err: UploadRejectedError) => {
      if (settled) return;
      settled = true;
      chunks.length = 0;
      req.unpipe(parser);
      req.resume();
      reject(err);
    };

    parser.on("file", (name, stream, info) => {
      if (name !== UPLOAD_FIELD || found) {
        stream.resume();
        return;
      }
      found = true;
      filename = info.filename ?? null;
      stream.on("data", (chunk: Buffer) => {
        if (settled) return;
        size += chunk.length;
        hash.update(chunk);
        chunks.push(chunk);
      });
      stream.on("limit", () => fail(tooLarge()));
    });
    parser.on("close", () => {
      if (settled) return;
      if (!found) {
        fail(new UploadRejectedError("no_file", (w) => w.no_file()));
        return;
      }
      settled = true;
      const bytes = Buffer.concat(chunks, size);
      resolve({ bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), sha256: hash.digest("hex"), filename });
    });
    parser.on("error", () => fail(new UploadRejectedError("no_file", (w) => w.no_file())));
    req.on("error", () => fail(new UploadRejectedError("no_file", (w) => w.no_file())));
    // A client that goes away mid-upload: settle, so nothing waits for a body that never ends.
    req.on("close", () => {
      if (!req.complete) fail(new UploadRejectedError("no_file", (w) => w.no_file()));
    });
    req.pipe(parser);
  });
}

/** True when the file's `%PDF-` header comes first, after at most white space or a UTF-8 byte-order mark. */
export function hasPdfMagic(bytes: Uint8Array): boolean {
  return headerPlacement(bytes) === "pdf";
}

/**
 * The bytes of a received file are a PDF and only a PDF (structure.ts headerPlacement,
 * hasDataAfterEnd). Cheap: runs before the file reaches a worker.
 * @throws UploadRejectedError "not_pdf" (empty, or no `%PDF-` at all), "archive" (a ZIP
 *   archive), "wrapped" (`%PDF-` after another format's header), "appended" (data after the end).
 */
export function checkPdfBytes(bytes: Uint8Array): void {
  switch (headerPlacement(bytes)) {
    case "empty":
      throw new UploadRejectedError("not_pdf", (w) => w.empty());
    case "not_pdf":
      throw new UploadRejectedError("not_pdf", (w) => w.not_pdf());
    case "archive":
      throw new UploadRejectedError("archive", (w) => w.archive());
    case "wrapped":
      throw new UploadRejectedError("wrapped", (w) => w.wrapped());
    case "pdf":
      break;
  }
  if (hasDataAfterEnd(bytes)) throw new UploadRejectedError("appended", (w) => w.appended());
}

/**
 * Refuses a read PDF that carries active content (ParsedPdf.activeContent); when it carries
 * several kinds, the first in structure.ts ACTIVE_CONTENT_ORDER names the refusal.
 * @throws UploadRejectedError "launch", "javascript", "embedded_file" or "actions", each with its
 *   own consumerMessage.
 */
export function checkActiveContent(pdf: Pick<ParsedPdf, "activeContent">): void {
  const kind: ActiveContent | undefined = pdf.activeContent[0];
  if (kind) throw new UploadRejectedError(kind, (w) => w[kind]());
}

/**
 * Intake (step 1) for a received file: a PDF and nothing else, not already stored for this
 * consumer, readable in the pool's budgets, without active content.
 * @param consumerId the profile's id.
 * @returns what the worker read (page 1's text, metadata, revisions, active content).
 * @throws UploadRejectedError checkPdfBytes's "not_pdf" / "archive" / "wrapped" / "appended";
 *   "duplicate" (this file's SHA-256 is stored for the consumer); the pool's corrupt / encrypted
 *   (a password is needed to open it) / too_many_pages / too_complex (over a budget, or an
 *   object stream it cannot read) / busy; checkActiveContent's. An encrypted file that opens
 *   without a password is read (ParsedPdf.encrypted) and refused by originality.ts.
 */
export async function checkIntake(db: Kysely<ConsumerDatabase>, pool: PdfPool, consumerId: string, upload: Upload): Promise<ParsedPdf> {
  checkPdfBytes(upload.bytes);
  await checkNewFile(db, consumerId, upload.sha256);
  const pdf = await pool.parse(upload.bytes);
  checkActiveContent(pdf);
  return pdf;
}

/**
 * Step 1's cheap duplicate check: these bytes (their SHA-256) are not stored for the consumer already.
 * @throws UploadRejectedError "duplicate".
 */
export async function checkNewFile(db: Kysely<ConsumerDatabase>, consumerId: string, sha256: string): Promise<void> {
  const stored = await db
    .selectFrom("consumer_test_results")
    .select("id")
    .where("consumer_id", "=", consumerId)
    .where("file_sha256", "=", sha256)
    .executeTakeFirst();
  if (stored) throw new UploadRejectedError("duplicate", (w) => w.duplicate());
}

/**
 * Step 5, same report, once the report is read (step 4): the same report is not already stored for
 * this consumer, in whatever bytes (saved again, white space appended), by its identity
 * (schema/0004_report_identity.ts reportIdentityKey: lab, name, date of birth, collection time,
 * test). A cheap early answer before the image is drawn; store.ts's unique index on the same key
 * is what holds when two uploads of one report race.
 * @param consumerId the profile's id.
 * @throws UploadRejectedError "duplicate".
 */
export async function checkNewReport(db: Kysely<ConsumerDatabase>, consumerId: string, lab: LabFormat, report: Extracted): Promise<void> {
  const stored = await db
    .selectFrom("consumer_test_results")
    .select("id")
    .where("consumer_id", "=", consumerId)
    .where("report_key", "=", reportIdentityKey({ labId: lab.id, ...report }))
    .executeTakeFirst();
  if (stored) throw new UploadRejectedError("duplicate", (w) => w.duplicate());
}
