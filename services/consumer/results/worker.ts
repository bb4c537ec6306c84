// The piscina task that touches PDF bytes (docs/architecture/README.md §2 "PDF", docs/architecture/results-pipeline.md §5 steps 1 and 6): pdfjs-dist's
// legacy build reads page 1's text with positions, the document's metadata, its revision count,
// whether it is encrypted, and the active content it carries, seen both by structure.ts's scan
// of the objects as written and by pdf.js's reading of the document ("parse"; a file that needs
// a password to open answers "encrypted"), or draws page 1 into a JPEG that fits a box
// ("render") with @napi-rs/canvas.
// It runs in a worker thread so that a hostile PDF costs one worker, never the event loop:
// pool.ts gives each task a time budget (the worker is terminated past it) and this file
// enforces a memory budget (the worker exits past it). pdfjs is loaded by the first task, never
// at module top level: Node 24 aborts the whole process when a worker that is still evaluating
// its module is terminated.
import { createRequire } from "node:module";
import path from "node:path";
import type { MessagePort } from "node:worker_threads";
import type { PDFDocumentProxy } from "pdfjs-dist/legacy/build/pdf.mjs";
import type { TextLine } from "./text.ts";
import { persistCompileCache } from "../../../lib/compile-cache.ts";
import { ACTIVE_CONTENT_ORDER, scanObjects } from "./structure.ts";
import type { ActiveContent } from "./structure.ts";

/** One text item of page 1, in PDF user space (points, y grows upwards). */
export interface TextItem {
  str: string;
  /** Left edge and baseline of the item. */
  x: number;
  y: number;
  /** Advance width of the item. */
  width: number;
  /** Font size (the text matrix's vertical scale). */
  size: number;
}

/** What "parse" learns about a PDF. */
export interface ParsedPdf {
  pageCount: number;
  /**
   * Revisions written into the file: one per `%%EOF` marker (a linearized file's first-page
   * marker not counted). More than one means an incremental update after the first save.
   */
  revisions: number;
  /** The document information dictionary's strings; null when absent. */
  producer: string | null;
  creator: string | null;
  /** PDF date strings as written, e.g. `D:20261120081500-08'00'`. */
  creationDate: string | null;
  modDate: string | null;
  /**
   * Whether the file is encrypted (the trailer names an /Encrypt dictionary) and yet opened
   * without a password: an owner password only, i.e. an empty user password, as "restrict
   * printing / copying / editing" tools write. A file that needs a password to open is never
   * parsed: the worker answers WorkerFailure "encrypted".
   */
  encrypted: boolean;
  /**
   * Active content no lab report carries (JavaScript, Launch actions, embedded files, an
   * OpenAction or additional actions), in structure.ts ACTIVE_CONTENT_ORDER; empty for a plain
   * report. The union of structure.ts scanObjects and documentActiveContent.
   */
  activeContent: ActiveContent[];
  /** Page 1's size in points and its text items (empty strings dropped). */
  page1: { width: number; height: number; items: TextItem[] };
}

/** Why the worker could not read a PDF. */
export type WorkerFailure = "corrupt" | "encrypted" | "too_many_pages" | "too_complex";

export type ParseAnswer = { ok: true; pdf: ParsedPdf } | { ok: false; reason: WorkerFailure; pageCount?: number };
export type RenderAnswer =
  | {
      ok: true;
      jpeg: Uint8Array;
      width: number;
      height: number;
      /** With `codesPages`: the text of every QR code found on the first pages, in page order. */
      codes?: string[];
    }
  | { ok: false; reason: WorkerFailure };
/** A result page's lines (page.ts) and, when asked, their drawing as a JPEG. */
export type PageAnswer = { ok: true; lines: TextLine[]; image?: { jpeg: Uint8Array; width: number; height: number } } | { ok: false; reason: WorkerFailure };

export type WorkerTask =
  | { op: "warmup" }
  | {
      op: "parse";
      /** Told (one message) once pdfjs is loaded and reading starts: the pool's budget starts then. */
      started?: MessagePort;
      bytes: Uint8Array;
      maxPages: number;
      /** A PDF declaring a larger image XObject is refused as too complex (an image bomb). */
      maxImagePixels: number;
      memoryLimitBytes: number;
    }
  | {
      op: "render";
      started?: MessagePort;
      bytes: Uint8Array;
      /** The page to draw, 1-based; a page the PDF does not have answers corrupt. */
      page: number;
      /** The JPEG fits this box (docs/product/messages.md §9: large view 1250x1000), keeping the page's proportions. */
      box: { width: number; height: number };
      /** JPEG quality 0-100. */
      quality: number;
      /** Larger images are left out of the drawing, never decoded (pdfjs maxImageSize). */
      maxImagePixels: number;
      memoryLimitBytes: number;
      /**
       * Also find and decode the QR codes on the first `codesPages` pages (docs/product/labs.md §10.9 signed
       * results), each drawn at QR_SCALE within MAX_QR_PIXELS; page 1's image is its drawing scaled down.
       */
      codesPages?: number;
    }
  | {
      /** A lab's HTML result page (results by link): its lines, and a drawing of them when `draw` is set. */
      op: "page";
      started?: MessagePort;
      /** The page as fetched, UTF-8. */
      bytes: Uint8Array;
      /** Drawn above the lines: where the page came from. */
      draw?: { caption: string[]; box: { width: number; height: number }; quality: number };
      memoryLimitBytes: number;
    };

/** Exit code of a worker that went over its memory budget (pool.ts maps it to too_complex). */
export const MEMORY_EXIT_CODE = 75;
/** How often the memory budget is checked while a task runs. */
const MEMORY_CHECK_MS = 20;

type PdfJs = typeof import("pdfjs-dist/legacy/build/pdf.mjs");
type Canvas = typeof import("@napi-rs/canvas");

let libraries: Promise<{ pdfjs: PdfJs; canvas: Canvas; assets: string }> | undefined;

/**
 * pdfjs, the canvas and pdfjs's asset folder, loaded on first use (see the file comment), then
 * warmed by reading and drawing a one-line PDF: pdfjs loads its worker code, font data and
 * wasm lazily on first use, and none of that should count against a real task's time budget.
 */
function load(): Promise<{ pdfjs: PdfJs; canvas: Canvas; assets: string }> {
  libraries ??= (async () => {
    const require = createRequire(import.meta.url);
    const assets = path.dirname(require.resolve("pdfjs-dist/package.json"));
    const [pdfjs, canvas] = await Promise.all([import("pdfjs-dist/legacy/build/pdf.mjs"), import("@napi-rs/canvas")]);
    const loaded = { pdfjs, canvas, assets };
    libraries = Promise.resolve(loaded);
    // A failed warm-up only means the first real task pays for what it did not load.
    await render({ op: "render", bytes: warmupPdf(), page: 1, box: { width: 125, height: 100 }, quality: 50, maxImagePixels: 1_000_000, memoryLimitBytes: 0 }).catch(() => {});
    persistCompileCache();
    return loaded;
  })();
  return libraries;
}

/** A one-page PDF with one line of Helvetica (cross-reference offsets computed). */
function warmupPdf(): Uint8Array {
  const objects: string[] = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
  ];
  const content = "BT /F1 12 Tf 10 50 Td (Warm up) Tj ET";
  objects.push(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
  let text = "%PDF-1.7\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(text.length);
    text += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = text.length;
  text += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  text += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(text);
}

/**
 * Exits this worker thread (not the process) when its JS heap plus ArrayBuffers pass the
 * budget. pdfjs yields between time slots, so the check runs while a big stream is inflated;
 * a long synchronous stretch is caught by the pool's time budget instead.
 */
function watchMemory(limitBytes: number): () => void {
  const timer = setInterval(() => {
    const usage = process.memoryUsage();
    if (usage.heapUsed + usage.arrayBuffers > limitBytes) process.exit(MEMORY_EXIT_CODE);
  }, MEMORY_CHECK_MS);
  return () => clearInterval(timer);
}

/** Counts `%%EOF` markers: each save of a PDF, the first included, ends with one. */
function countEofMarkers(bytes: Uint8Array): number {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let count = 0;
  for (let at = buffer.indexOf("%%EOF"); at !== -1; at = buffer.indexOf("%%EOF", at + 5)) count += 1;
  return count;
}

/**
 * Whether an image XObject declares more than `maxPixels` pixels. Image XObjects are streams,
 * and streams never sit inside object streams, so their dictionaries are in the file as
 * written: each `/Subtype /Image` is read with the /Width and /Height between its object's
 * start and its stream. (Inline images inside content streams are not seen here; pdfjs's
 * maxImageSize leaves large ones undrawn.)
 */
export function declaresOversizedImage(bytes: Uint8Array, maxPixels: number): boolean {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
  const image = /\/Subtype\s*\/Image\b/g;
  for (let m = image.exec(text); m; m = image.exec(text)) {
    const start = Math.max(text.lastIndexOf(" obj", m.index), m.index - 4096);
    const streamAt = text.indexOf("stream", m.index);
    const end = streamAt === -1 ? Math.min(text.length, m.index + 4096) : Math.min(streamAt, m.index + 4096);
    const dict = text.slice(start, end);
    const width = Number(/\/Width\s+(\d+)/.exec(dict)?.[1] ?? 0);
    const height = Number(/\/Height\s+(\d+)/.exec(dict)?.[1] ?? 0);
    if (width * height > maxPixels) return true;
  }
  return false;
}

function failureOf(err: unknown): WorkerFailure {
  const name = err instanceof Error ? err.name : "";
  if (name === "PasswordException") return "encrypted";
  // InvalidPDFException, FormatError, or anything else pdfjs gave up on.
  return "corrupt";
}

function text(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

async function open(task: { bytes: Uint8Array; maxImagePixels?: number }) {
  const { pdfjs, assets } = await load();
  return pdfjs.getDocument({
    // pdfjs may take ownership of (detach) the buffer; the task's copy is not used afterwards.
    data: task.bytes,
    standardFontDataUrl: `${assets}/standard_fonts/`,
    cMapUrl: `${assets}/cmaps/`,
    cMapPacked: true,
    wasmUrl: `${assets}/wasm/`,
    iccUrl: `${assets}/iccs/`,
    maxImageSize: task.maxImagePixels ?? -1,
    enableXfa: false,
    useSystemFonts: false,
    verbosity: 0,
  });
}

/**
 * Link targets a viewer opens in a browser or mail program (a scheme-less `www.` address
 * included); anything else opens a file or a program.
 */
const WEB_LINK = /^(https?:|mailto:|www\.)/i;

/**
 * The active content pdf.js finds in an open document (the complement of structure.ts
 * scanObjects: what pdf.js resolves, through any filter it reads): document, page, annotation
 * and form-field JavaScript (getJSActions, hasJSActions, annotations' actions); an OpenAction
 * that is an action (getOpenAction answers its name, e.g. Print); the /EmbeddedFiles name tree
 * (getAttachments); file attachment annotations and links into attachments; links whose target
 * is a file or a program rather than a web or mail address (Launch, GoToR). Every page is read,
 * up to the page limit the caller already checked.
 * @returns the kinds found, in ACTIVE_CONTENT_ORDER.
 */
export async function documentActiveContent(pdf: PDFDocumentProxy): Promise<ActiveContent[]> {
  const { AnnotationType } = (await load()).pdfjs;
  const found = new Set<ActiveContent>();
  const [jsActions, hasJs, openAction, attachments] = await Promise.all([pdf.getJSActions(), pdf.hasJSActions(), pdf.getOpenAction(), pdf.getAttachments()]);
  if ((jsActions && jsActions.size > 0) || hasJs) found.add("javascript");
  if (openAction?.has("action")) found.add("actions");
  if (attachments && attachments.size > 0) found.add("embedded_file");
  for (let n = 1; n <= pdf.numPages; n += 1) {
    const page = await pdf.getPage(n);
    const pageJs = await page.getJSActions();
    if (pageJs && pageJs.size > 0) found.add("javascript");
    for (const a of (await page.getAnnotations({ intent: "any" })) as Record<string, unknown>[]) {
      if (a.annotationType === AnnotationType.FILEATTACHMENT || a.attachment) found.add("embedded_file");
      if (a.actions instanceof Map ? a.actions.size > 0 : a.actions && typeof a.actions === "object" && Object.keys(a.actions).length > 0) found.add("javascript");
      if (typeof a.unsafeUrl === "string" && !WEB_LINK.test(a.unsafeUrl.trim())) found.add("launch");
    }
  }
  return ACTIVE_CONTENT_ORDER.filter((k) => found.has(k));
}

async function parse(task: Extract<WorkerTask, { op: "parse" }>): Promise<ParseAnswer> {
  const revisions = countEofMarkers(task.bytes);
  // A file cut short has no end marker; pdfjs would quietly rebuild it.
  if (revisions === 0) return { ok: false, reason: "corrupt" };
  if (declaresOversizedImage(task.bytes, task.maxImagePixels)) return { ok: false, reason: "too_complex" };
  // Before pdfjs may take the buffer over.
  const scan = scanObjects(task.bytes);
  const loading = await open(task);
  try {
    const pdf = await loading.promise;
    if (pdf.numPages > task.maxPages) return { ok: false, reason: "too_many_pages", pageCount: pdf.numPages };
    const { info } = (await pdf.getMetadata()) as { info: Record<string, unknown> };
    const encrypted = typeof info.EncryptFilterName === "string";
    const seen = new Set([...scan.found, ...(await documentActiveContent(pdf))]);
    // An object stream the scan cannot read may hold anything pdf.js does not report (a Launch
    // or URI OpenAction, additional actions): refused as too complex to check, as no accepted
    // lab writes one. An encrypted file's object streams are encrypted too; originality.ts
    // refuses it as encrypted whatever they hold.
    if (seen.size === 0 && scan.unreadableObjectStreams > 0 && !encrypted) return { ok: false, reason: "too_complex" };
    const page = await pdf.getPage(1);
    const [, , width, height] = page.view;
    const content = await page.getTextContent();
    const items: TextItem[] = [];
    for (const item of content.items) {
      if (!("str" in item) || item.str.trim() === "") continue;
      const [a, b, c, d, e, f] = item.transform as number[];
      items.push({ str: item.str, x: e ?? 0, y: f ?? 0, width: item.width, size: Math.hypot(c ?? 0, d ?? 0) || Math.hypot(a ?? 0, b ?? 0) });
    }
    return {
      ok: true,
      pdf: {
        pageCount: pdf.numPages,
        revisions: Math.max(1, revisions - (info.IsLinearized === true ? 1 : 0)),
        producer: text(info.Producer),
        creator: text(info.Creator),
        creationDate: text(info.CreationDate),
        modDate: text(info.ModDate),
        encrypted,
        activeContent: ACTIVE_CONTENT_ORDER.filter((k) => seen.has(k)),
        page1: { width: (width ?? 0) - (page.view[0] ?? 0), height: (height ?? 0) - (page.view[1] ?? 0), items },
      },
    };
  } catch (err) {
    return { ok: false, reason: failureOf(err) };
  } finally {
    await loading.destroy();
  }
}

async function render(task: Extract<WorkerTask, { op: "render" }>): Promise<RenderAnswer> {
  const { canvas: napi } = await load();
  const loading = await open({ bytes: task.bytes, maxImagePixels: task.maxImagePixels });
  try {
    const pdf = await loading.promise;
    if (!Number.isInteger(task.page) || task.page < 1 || task.page > pdf.numPages) return { ok: false, reason: "corrupt" };
    const page = await pdf.getPage(task.page);
    const natural = page.getViewport({ scale: 1 });
    const scale = Math.min(task.box.width / natural.width, task.box.height / natural.height);
    const viewport = page.getViewport({ scale });
    const width = Math.max(1, Math.min(task.box.width, Math.floor(viewport.width)));
    const height = Math.max(1, Math.min(task.box.height, Math.floor(viewport.height)));
    const canvas = napi.createCanvas(width, height);
    if (!task.codesPages) {
      await page.render({ canvas: canvas as unknown as HTMLCanvasElement, viewport }).promise;
      return { ...(await jpegOf(canvas, task.quality)), width, height };
    }
    // With the codes: each page is drawn once at QR_SCALE (a printed code's modules need 2-3 pixels
    // each to be read), at most MAX_QR_PIXELS (a page declared huge, or with a large UserUnit, is
    // drawn smaller), and page 1's image is that drawing scaled down into the box.
    const codes: string[] = [];
    for (let n = task.page; n <= Math.min(pdf.numPages, Math.max(task.page, task.codesPages)); n += 1) {
      const current = n === task.page ? page : await pdf.getPage(n);
      const size = current.getViewport({ scale: 1 });
      const fit = Math.sqrt(MAX_QR_PIXELS / Math.max(1, size.width * size.height));
      const large = current.getViewport({ scale: Math.min(Math.max(n === task.page ? scale : 0, QR_SCALE), fit) });
      const drawing = napi.createCanvas(Math.max(1, Math.floor(large.width)), Math.max(1, Math.floor(large.height)));
      await current.render({ canvas: drawing as unknown as HTMLCanvasElement, viewport: large }).promise;
      codes.push(...(await qrCodes(drawing)));
      if (n === task.page) canvas.getContext("2d").drawImage(drawing, 0, 0, width, height);
    }
    return { ...(await jpegOf(canvas, task.quality)), width, height, codes };
  } catch (err) {
    return { ok: false, reason: failureOf(err) };
  } finally {
    await loading.destroy();
  }
}

/** The scale pages are drawn at to find QR codes: 108 dots per inch (bench/pdf-pipeline.results.md: 1.5 reads every fixture code, 2 costs a third more). */
const QR_SCALE = 1.5;
/** Most pixels a page is drawn with to find QR codes (a Letter page at QR_SCALE is 1.1 million). */
const MAX_QR_PIXELS = 4_000_000;

async function jpegOf(canvas: import("@napi-rs/canvas").Canvas, quality: number): Promise<{ ok: true; jpeg: Uint8Array }> {
  const jpeg = await canvas.encode("jpeg", quality);
  return { ok: true, jpeg: new Uint8Array(jpeg.buffer, jpeg.byteOffset, jpeg.byteLength) };
}

type ZXing = typeof import("zxing-wasm/reader");
let zxing: Promise<ZXing> | undefined;

/**
 * zxing-wasm's reader, loaded on first use from the package's own WebAssembly file (offline: never
 * fetched from a CDN).
 */
function qrReader(): Promise<ZXing> {
  zxing ??= (async () => {
    const reader = await import("zxing-wasm/reader");
    const require = createRequire(import.meta.url);
    const { readFile } = await import("node:fs/promises");
    const wasm = await readFile(require.resolve("zxing-wasm/reader/zxing_reader.wasm"));
    reader.prepareZXingModule({ overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer }, fireImmediately: true });
    return reader;
  })();
  return zxing;
}

/** The texts of the QR codes a drawn page shows (at most 8), top to bottom. */
async function qrCodes(canvas: import("@napi-rs/canvas").Canvas): Promise<string[]> {
  const { readBarcodes } = await qrReader();
  const image = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height);
  const found = await readBarcodes(image as unknown as ImageData, { formats: ["QRCode"], tryHarder: true, maxNumberOfSymbols: 8 });
  return found.filter((r) => r.isValid && r.text !== "").map((r) => r.text);
}

/** Font of the drawn result page: Liberation Sans, which pdfjs-dist ships (standard_fonts/, SIL OFL). */
const PAGE_FONT = "SafeWindow Liberation Sans";
let pageFontRegistered = false;

/**
 * Reads a result page (page.ts) and, with `draw`, draws its lines as the image shown for the
 * result: the caption, then each line's runs in columns (a label and its value side by side).
 */
async function page(task: Extract<WorkerTask, { op: "page" }>): Promise<PageAnswer> {
  const { PageTooComplexError, readResultPage } = await import("./page.ts");
  let lines: TextLine[];
  try {
    lines = readResultPage(new TextDecoder("utf-8", { fatal: false }).decode(task.bytes));
  } catch (err) {
    return { ok: false, reason: err instanceof PageTooComplexError ? "too_complex" : "corrupt" };
  }
  if (!task.draw) return { ok: true, lines };
  const { canvas: napi, assets } = await load();
  if (!pageFontRegistered) {
    napi.GlobalFonts.registerFromPath(`${assets}/standard_fonts/LiberationSans-Regular.ttf`, PAGE_FONT);
    pageFontRegistered = true;
  }
  const { box, caption, quality } = task.draw;
  const lineHeight = 26;
  const margin = 40;
  // A letter-sized sheet at most, shorter for a short page.
  const width = Math.min(box.width, 800);
  const height = Math.min(box.height, Math.max(300, margin * 2 + (caption.length + 1 + lines.length) * lineHeight));
  const canvas = napi.createCanvas(width, height);
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(0, 0, width, height);
  ctx.textBaseline = "alphabetic";
  let y = margin;
  ctx.fillStyle = "#444444";
  ctx.font = `14px "${PAGE_FONT}"`;
  for (const text of caption) {
    ctx.fillText(text, margin, y, width - margin * 2);
    y += lineHeight;
  }
  y += lineHeight / 2;
  ctx.fillStyle = "#111111";
  ctx.font = `17px "${PAGE_FONT}"`;
  for (const line of lines) {
    if (y > height - margin / 2) break;
    const column = (width - margin * 2) / Math.max(2, line.runs.length);
    line.runs.forEach((run, i) => ctx.fillText(run, margin + i * column, y, column - 12));
    y += lineHeight;
  }
  const { jpeg } = await jpegOf(canvas, quality);
  return { ok: true, lines, image: { jpeg, width, height } };
}

/**
 * The piscina task function.
 * @returns "warmup": true once pdfjs and the canvas are loaded; "parse": ParseAnswer;
 *   "render": RenderAnswer; "page": PageAnswer. Unreadable files answer `{ok:false, reason}`; they never throw.
 */
export default async function run(task: WorkerTask): Promise<ParseAnswer | RenderAnswer | PageAnswer | true> {
  if (task.op === "warmup") {
    await load();
    return true;
  }
  await load();
  task.started?.postMessage("started");
  task.started?.close();
  const stopWatching = watchMemory(task.memoryLimitBytes);
  try {
    if (task.op === "page") return await page(task);
    return task.op === "parse" ? await parse(task) : await render(task);
  } finally {
    stopWatching();
  }
}
