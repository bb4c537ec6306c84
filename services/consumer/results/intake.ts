// DESIGN.md §5 step 1, intake: the upload is read as a stream (multipart/form-data, field
// multipartData, SPEC §7) and never buffered past the 10 MB limit; it must be a PDF (`%PDF-` in
// the first KiB), not a file this user already stored (SHA-256 of the file), and readable by
// the worker pool within its page, time and memory budgets.
import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import busboy from "busboy";
import type { Kysely } from "kysely";
import type { ConsumerDatabase } from "../schema/tables.ts";
import { UploadRejectedError, rejectionMessages } from "./errors.ts";
import type { PdfPool } from "./pool.ts";
import type { ParsedPdf } from "./worker.ts";

/** SPEC §7 POST /testresult/addtestresultmultipart/: the file's form field. */
export const UPLOAD_FIELD = "multipartData";
/** Largest accepted file: 10 MB (MiB). Lab reports are tens of KB. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** Room for multipart boundaries, part headers and small fields around the file. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
/** `%PDF-` must start within this many bytes (ISO 32000 lets a header follow some junk). */
export const PDF_MAGIC_WINDOW = 1024;

/** A file as received. */
export interface Upload {
  bytes: Uint8Array;
  /** SHA-256 of the bytes, lower-case hex. */
  sha256: string;
  /** The file name the browser sent, if any (never trusted for anything but logs). */
  filename: string | null;
}

function tooLarge(): UploadRejectedError {
  return new UploadRejectedError("too_large", rejectionMessages.too_large(MAX_UPLOAD_BYTES / (1024 * 1024)));
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
      reject(new UploadRejectedError("no_file", rejectionMessages.no_file()));
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
        fail(new UploadRejectedError("no_file", rejectionMessages.no_file()));
        return;
      }
      settled = true;
      const bytes = Buffer.concat(chunks, size);
      resolve({ bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), sha256: hash.digest("hex"), filename });
    });
    parser.on("error", () => fail(new UploadRejectedError("no_file", rejectionMessages.no_file())));
    req.on("error", () => fail(new UploadRejectedError("no_file", rejectionMessages.no_file())));
    // A client that goes away mid-upload: settle, so nothing waits for a body that never ends.
    req.on("close", () => {
      if (!req.complete) fail(new UploadRejectedError("no_file", rejectionMessages.no_file()));
    });
    req.pipe(parser);
  });
}

/** True when `%PDF-` starts within the first PDF_MAGIC_WINDOW bytes. */
export function hasPdfMagic(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, PDF_MAGIC_WINDOW + 5));
  const at = head.indexOf("%PDF-");
  return at !== -1 && at < PDF_MAGIC_WINDOW;
}

/**
 * DESIGN.md §5 step 1 for a received file: a PDF, not already stored for this consumer, and
 * readable in the pool's budgets.
 * @param consumerId the profile's id.
 * @returns what the worker read (page 1's text, metadata, revisions).
 * @throws UploadRejectedError "not_pdf" (empty or no magic), "duplicate", and the pool's
 *   corrupt / encrypted (a password is needed to open it) / too_many_pages / too_complex / busy.
 *   An encrypted file that opens without a password is read (ParsedPdf.encrypted) and refused
 *   by originality.ts.
 */
export async function checkIntake(db: Kysely<ConsumerDatabase>, pool: PdfPool, consumerId: string, upload: Upload): Promise<ParsedPdf> {
  if (upload.bytes.byteLength === 0) throw new UploadRejectedError("not_pdf", rejectionMessages.empty());
  if (!hasPdfMagic(upload.bytes)) throw new UploadRejectedError("not_pdf", rejectionMessages.not_pdf());
  const stored = await db
    .selectFrom("consumer_test_results")
    .select("id")
    .where("consumer_id", "=", consumerId)
    .where("file_sha256", "=", upload.sha256)
    .executeTakeFirst();
  if (stored) throw new UploadRejectedError("duplicate", rejectionMessages.duplicate());
  return pool.parse(upload.bytes);
}
