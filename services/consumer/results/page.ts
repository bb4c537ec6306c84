// A lab's HTML result page as lines of text (docs/product/labs.md §10.8; docs/architecture/results-pipeline.md §5 "Results by
// link"), the shape extract.ts reads a PDF's page 1 in: each table row, list item, heading or other
// block is a line, and each table cell (or definition term and description) starts a new run, so
// that `<tr><th>Date of birth</th><td>04/03/1990</td></tr>` reads as a label followed by its value,
// as on the lab's PDF. Only what a reader sees is kept: scripts, styles, templates, the head and
// elements marked `hidden` are skipped; character references are decoded (htmlparser2).
// It runs in the PDF worker pool (worker.ts "page"), under the same time and memory budgets.
import { Parser } from "htmlparser2";
import { collapse } from "./text.ts";
import type { TextLine } from "./text.ts";

/** Elements whose content is never shown. */
const SKIPPED = new Set(["head", "title", "script", "style", "template", "noscript", "iframe", "object", "svg", "math", "select", "textarea", "button"]);
/** Elements that start and end a line. */
const BLOCKS = new Set([
  "address", "article", "aside", "blockquote", "br", "caption", "details", "dialog", "div", "dl", "fieldset", "figcaption", "figure",
  "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "legend", "li", "main", "nav", "ol", "p", "pre", "section", "summary",
  "table", "tbody", "tfoot", "thead", "tr", "ul", "body", "html",
]);
/** Elements that start a new run on their line (a column); a definition term also starts a new line. */
const CELLS = new Set(["td", "th", "dt", "dd"]);
/** Elements that have no content and no end tag. */
const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"]);

/** Most lines kept from one page; a result page has a few dozen. */
export const MAX_PAGE_LINES = 5000;
/** Most runs on one line, and on the whole page; more are dropped. */
export const MAX_LINE_RUNS = 64;
export const MAX_PAGE_RUNS = 20_000;
/** Longest run kept, characters; the rest of a longer one is dropped. */
export const MAX_RUN_LENGTH = 4096;
/** Deepest nesting of elements read; a deeper page is refused as too complex (PageTooComplexError). */
export const MAX_PAGE_DEPTH = 256;

/** A page nested deeper than MAX_PAGE_DEPTH: no result page is, and reading it would cost time. */
export class PageTooComplexError extends Error {
  constructor() {
    super(`The page nests elements deeper than ${MAX_PAGE_DEPTH}.`);
    this.name = "PageTooComplexError";
  }
}

/** Whether an inline style hides the element (display: none, visibility: hidden). */
function hiddenByStyle(style: string | undefined): boolean {
  return style !== undefined && /(^|;)\s*(display\s*:\s*none|visibility\s*:\s*hidden)\s*(!important)?\s*(;|$)/i.test(style);
}

/**
 * Reads an HTML result page into lines (top to bottom, `y` counting down from 0) of runs.
 * @param html the page's text (decoded as UTF-8 by the caller).
 * @returns at most MAX_PAGE_LINES lines of at most MAX_LINE_RUNS runs (MAX_PAGE_RUNS in all), runs
 *   white-space collapsed, empty runs and lines dropped.
 * @throws PageTooComplexError past MAX_PAGE_DEPTH open elements.
 */
export function readResultPage(html: string): TextLine[] {
  const lines: TextLine[] = [];
  let runs: string[] = [];
  let run = "";
  let runCount = 0;
  // Depth inside a skipped element (0: showing); the stack of open elements to find their ends.
  let skipping = 0;
  const open: { name: string; skipped: boolean }[] = [];

  const endRun = () => {
    const text = run.length > 0 ? collapse(run) : "";
    if (text !== "" && runs.length < MAX_LINE_RUNS && runCount < MAX_PAGE_RUNS) {
      runs.push(text);
      runCount += 1;
    }
    run = "";
  };
  const endLine = () => {
    endRun();
    if (runs.length > 0 && lines.length < MAX_PAGE_LINES) lines.push({ y: -lines.length, runs });
    runs = [];
  };

  const parser = new Parser(
    {
      onopentag(name, attributes) {
        const skipped = skipping > 0 || SKIPPED.has(name) || "hidden" in attributes || attributes["aria-hidden"] === "true" || hiddenByStyle(attributes.style);
        if (!VOID.has(name)) {
          if (open.length >= MAX_PAGE_DEPTH) throw new PageTooComplexError();
          open.push({ name, skipped });
        }
        if (skipped) {
          if (!VOID.has(name)) skipping += 1;
          return;
        }
        if (BLOCKS.has(name) || name === "dt") endLine();
        else if (CELLS.has(name)) endRun();
        else if (name === "img" && attributes.alt) run += ` ${attributes.alt} `;
      },
      onclosetag(name, implied) {
        if (VOID.has(name)) {
          if (name === "br" && skipping === 0 && !implied) endLine();
          return;
        }
        // Close up to the matching open element (htmlparser2 reports implied ends too).
        let at = open.length - 1;
        while (at >= 0 && open[at]?.name !== name) at -= 1;
        if (at === -1) return;
        for (const element of open.splice(at).reverse()) {
          if (element.skipped) skipping -= 1;
          else if (BLOCKS.has(element.name)) endLine();
          else if (CELLS.has(element.name)) endRun();
        }
      },
      ontext(text) {
        // A run longer than any value on a result page is cut, not grown without end.
        if (skipping === 0 && run.length < MAX_RUN_LENGTH) run += text.slice(0, MAX_RUN_LENGTH - run.length);
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: false },
  );
  parser.write(html);
  parser.end();
  endLine();
  return lines;
}
