// docs/architecture/results-pipeline.md §5 step 3, issuer: which testing company wrote this PDF (docs/product/labs.md §10, "recognised
// by"), and whether the lab's own software produced it ("PDF Producer"). An unknown issuer is
// not validated.
import { LABS } from "../labs/index.ts";
import type { LabFormat } from "../labs/types.ts";
import { UploadRejectedError } from "./errors.ts";
import { pageText, textLines } from "./extract.ts";
import type { TextLine } from "./extract.ts";
import type { ParsedPdf } from "./worker.ts";

/** Lower case without any white space: how recognition texts are compared. */
function squeeze(text: string): string {
  return text.normalize("NFC").replace(/\s+/gu, "").toLowerCase();
}

function startsWithOneOf(value: string | null, prefixes: readonly string[]): boolean {
  return value !== null && prefixes.some((p) => value.trim().toLowerCase().startsWith(p.toLowerCase()));
}

/**
 * Recognises the lab of `pdf` from page 1's text and checks its Producer (and Creator, when
 * the lab's data names one).
 * @param labs the accepted labs (default LABS).
 * @throws UploadRejectedError "unknown_lab" when no lab, or more than one, is recognised;
 *   "printed" when the lab is recognised but its own software did not write the file.
 */
export function recogniseIssuer(pdf: ParsedPdf, labs: readonly LabFormat[] = LABS): LabFormat {
  const text = squeeze(pageText(textLines(pdf.page1.items)));
  const matches = labs.filter((lab) => recognisedIn(text, lab));
  const lab = matches.length === 1 ? matches[0] : undefined;
  if (!lab) throw new UploadRejectedError("unknown_lab", (w) => w.unknown_lab(labs.map((l) => l.publicName)));
  const ownSoftware = startsWithOneOf(pdf.producer, lab.producerPrefixes) && (!lab.creatorPrefixes || startsWithOneOf(pdf.creator, lab.creatorPrefixes));
  if (!ownSoftware) throw new UploadRejectedError("printed", (w) => w.printed());
  return lab;
}

function recognisedIn(squeezed: string, lab: LabFormat): boolean {
  return lab.recognisedBy.every((marker) => squeezed.includes(squeeze(marker)));
}

/**
 * Whether a lab's HTML result page (page.ts lines) carries every text that recognises `lab`: a
 * page fetched from the lab's host that does not is not one of its result pages.
 */
export function recognisesPage(lines: readonly TextLine[], lab: LabFormat): boolean {
  return recognisedIn(squeeze(pageText(lines)), lab);
}
