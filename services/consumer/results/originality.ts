// docs/architecture/results-pipeline.md §5 step 2, originality (docs/product/labs.md §10.5): a result counts only from
// the PDF the lab issued. Refused here: an encrypted file that opens without a password (an
// owner password restricting printing, copying or editing: no accepted lab encrypts its
// reports, and encrypting rewrites every string and stream, so the file is not the one the lab
// wrote even when its Producer and dates still are; one that needs a password never gets here,
// intake refuses it); no text layer on page 1 (scanned, faxed, photographed); a Producer or
// Creator of a known print-to-PDF or save-as driver; more than one revision in the file, or a
// ModDate more than 10 minutes after the CreationDate (changed after the lab wrote it). Whether
// the Producer is the recognised lab's own is checked with the issuer (step 3).
import { UploadRejectedError } from "./errors.ts";
import type { ParsedPdf } from "./worker.ts";

/** A ModDate this much later than the CreationDate means the file was edited. */
export const MAX_MODIFICATION_AFTER_CREATION_MS = 10 * 60 * 1000;

/**
 * Producers and Creators of programs that print or re-save a PDF (matched case-insensitively
 * anywhere in the string). Not exhaustive: the issuer step also requires the lab's own software.
 */
export const PRINT_OR_SAVE_PROGRAMS: readonly string[] = [
  "Print To PDF",
  "Microsoft: Print",
  "Quartz PDFContext",
  "Skia/PDF",
  "cairo",
  "Ghostscript",
  "PDFCreator",
  "CutePDF",
  "Bullzip",
  "doPDF",
  "PDF24",
  "novaPDF",
  "PrimoPDF",
  "Foxit",
  "Nitro",
  "LibreOffice",
  "OpenOffice",
  "Microsoft® Word",
  "Microsoft Word",
  "Acrobat Distiller",
  "Adobe PDF Library",
  "HylaFAX",
  "RightFax",
  "eFax",
];

/**
 * Reads a PDF date string (`D:YYYYMMDDHHmmSSOHH'mm'`, every part after the year optional,
 * `O` one of `Z`, `+`, `-`; no zone read as UTC).
 * @returns the instant, or null when it does not read.
 */
export function readPdfDate(text: string | null): Date | null {
  if (!text) return null;
  const m = /^(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(?:([Zz])|([+-])(\d{2})'?(?:(\d{2})'?)?)?/.exec(text.trim());
  if (!m) return null;
  const [year, month, day, hour, minute, second] = [m[1], m[2] ?? "01", m[3] ?? "01", m[4] ?? "00", m[5] ?? "00", m[6] ?? "00"].map(Number) as [
    number, number, number, number, number, number,
  ];
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return null;
  const offsetMin = m[8] ? (m[8] === "-" ? -1 : 1) * (Number(m[9]) * 60 + Number(m[10] ?? 0)) : 0;
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second) - offsetMin * 60_000);
}

/** The print or save program named by the Producer or Creator, if any. */
export function printOrSaveProgram(pdf: Pick<ParsedPdf, "producer" | "creator">): string | undefined {
  const names = [pdf.producer, pdf.creator].filter((n): n is string => n !== null).map((n) => n.toLowerCase());
  return PRINT_OR_SAVE_PROGRAMS.find((p) => names.some((n) => n.includes(p.toLowerCase())));
}

/**
 * Checks that `pdf` is an original (docs/architecture/results-pipeline.md §5 step 2).
 * @throws UploadRejectedError "encrypted" (consumerMessage rejectionMessages.locked) for an
 *   encrypted file that opened without a password, "no_text" when page 1 has no text,
 *   "printed" for a print or save program, "changed" for an incremental update or a late ModDate.
 */
export function checkOriginality(pdf: ParsedPdf): void {
  if (pdf.encrypted) throw new UploadRejectedError("encrypted", (w) => w.locked());
  if (!pdf.page1.items.some((item) => /\S/.test(item.str))) throw new UploadRejectedError("no_text", (w) => w.no_text());
  if (printOrSaveProgram(pdf)) throw new UploadRejectedError("printed", (w) => w.printed());
  if (pdf.revisions > 1) throw new UploadRejectedError("changed", (w) => w.changed());
  const created = readPdfDate(pdf.creationDate);
  const modified = readPdfDate(pdf.modDate);
  if (created && modified && modified.getTime() - created.getTime() > MAX_MODIFICATION_AFTER_CREATION_MS) {
    throw new UploadRejectedError("changed", (w) => w.changed());
  }
}
