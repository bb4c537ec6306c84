// Text as the pipeline reads it (docs/architecture/results-pipeline.md §5 step 4): lines of runs, the one shape a PDF's
// page 1 (extract.ts textLines) and a lab's HTML result page (page.ts) are both read into. No imports:
// the worker, the page reader and extraction all use it.

/** A line of text: its baseline (PDF points; a page's lines count down from 0) and its runs, left to right, white space collapsed. */
export interface TextLine {
  y: number;
  runs: string[];
}

/** Unicode NFC with every run of white space made one space, trimmed. */
export function collapse(text: string): string {
  return text.normalize("NFC").replace(/\s+/gu, " ").trim();
}
