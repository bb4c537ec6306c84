// Intake (services/consumer/README.md "The pipeline", step 1): what a file is made of, read
// from its bytes without pdf.js: where the `%PDF-` header sits, what follows the last `%%EOF`,
// and the active content no lab report carries (JavaScript, OpenAction and additional actions,
// Launch actions, embedded files; docs/decisions/0010-forged-originals.md). The object scan
// reads every object the way a viewer can reach it: each `n g obj` in the file (comments and any
// PDF white space between the three tokens, as pdf.js's lexer allows), every trailer, and the
// objects inside object streams (decoded here), with names spelt in `#xx` escapes decoded, so
// that compressing the catalog into an object stream or writing `/J#61vaScript` hides nothing.
// worker.ts runs the scan beside pdf.js's own reading of the same document (which sees what
// pdf.js resolves, whatever filter hides it); intake.ts runs the header and end checks before
// the file reaches a worker.
import zlib from "node:zlib";

/** What a lab report never carries; each one is refused with its own consumerMessage. */
export type ActiveContent =
  /** A JavaScript action or a document-level script (the /JavaScript name tree). */
  | "javascript"
  /** A Launch action: opens another program or file. */
  | "launch"
  /** An embedded file: the /EmbeddedFiles name tree, a file attachment annotation, an /EF file. */
  | "embedded_file"
  /** An /OpenAction that is an action (not a page to open at), or /AA additional actions. */
  | "actions";

/** In the order a refusal names them when a file has several: the most specific first. */
export const ACTIVE_CONTENT_ORDER: readonly ActiveContent[] = ["launch", "javascript", "embedded_file", "actions"];

/** What scanObjects found. */
export interface ObjectScan {
  /** Kinds of active content found, in ACTIVE_CONTENT_ORDER, each once. */
  found: ActiveContent[];
  /**
   * Object streams that could not be read here (a filter or predictor this file does not
   * decode, damaged data, or more decoded bytes than the budget): what they hold is unknown.
   */
  unreadableObjectStreams: number;
}

/** Decoded bytes of object streams one scan may produce (a zip bomb stops here). */
export const MAX_DECODED_OBJECT_STREAM_BYTES = 32 * 1024 * 1024;

// ---------------------------------------------------------------- bytes

/** PDF white space for the header and end rules: tab, LF, FF, CR, space (NUL is not accepted). */
function isBlank(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09 || byte === 0x0c;
}

const PDF_MAGIC = [0x25, 0x50, 0x44, 0x46, 0x2d]; // %PDF-
const ZIP_LOCAL_FILE = [0x50, 0x4b, 0x03, 0x04]; // PK\3\4
const ZIP_EMPTY_ARCHIVE = [0x50, 0x4b, 0x05, 0x06]; // PK\5\6: an archive with no entries
const ZIP_SPANNED = [0x50, 0x4b, 0x07, 0x08]; // PK\7\8: a split archive's first part

function startsWith(bytes: Uint8Array, at: number, sig: readonly number[]): boolean {
  if (at + sig.length > bytes.length) return false;
  for (let i = 0; i < sig.length; i += 1) if (bytes[at + i] !== sig[i]) return false;
  return true;
}

function indexOf(bytes: Uint8Array, sig: readonly number[], from = 0): number {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf(Uint8Array.from(sig), from);
}

/**
 * Where a file's `%PDF-` header stands (intake's rule: first, after at most white space or a
 * UTF-8 byte-order mark).
 * @returns "pdf" when the header comes first; "empty" for no bytes; "archive" for a ZIP archive
 *   (whatever it holds); "wrapped" when `%PDF-` comes later, after another format's bytes (a PDF
 *   inside or behind another file); "not_pdf" when there is no `%PDF-` at all.
 */
export function headerPlacement(bytes: Uint8Array): "pdf" | "empty" | "archive" | "wrapped" | "not_pdf" {
  if (bytes.byteLength === 0) return "empty";
  let at = startsWith(bytes, 0, [0xef, 0xbb, 0xbf]) ? 3 : 0;
  while (isBlank(bytes[at])) at += 1;
  if (startsWith(bytes, at, PDF_MAGIC)) return "pdf";
  if ([ZIP_LOCAL_FILE, ZIP_EMPTY_ARCHIVE, ZIP_SPANNED].some((sig) => startsWith(bytes, 0, sig))) return "archive";
  return indexOf(bytes, PDF_MAGIC) === -1 ? "not_pdf" : "wrapped";
}

const EOF_MARKER = [0x25, 0x25, 0x45, 0x4f, 0x46]; // %%EOF
/** How far before the last `%%EOF` its `startxref <offset>` is looked for. */
const STARTXREF_WINDOW = 64;

/**
 * Whether anything but white space follows the PDF's end: a file whose last `%%EOF` is followed
 * by other bytes, or whose last `%%EOF` does not close a `startxref <offset>` (bytes put between
 * the cross-reference offset and a `%%EOF` added behind them). A file with no `%%EOF` at all is
 * not judged here (the worker refuses it as cut short).
 */
export function hasDataAfterEnd(bytes: Uint8Array): boolean {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const last = buffer.lastIndexOf(Uint8Array.from(EOF_MARKER));
  if (last === -1) return false;
  for (let i = last + EOF_MARKER.length; i < buffer.length; i += 1) if (!isBlank(buffer[i])) return true;
  const before = buffer.subarray(Math.max(0, last - STARTXREF_WINDOW), last).toString("latin1");
  return !/startxref[\t\n\f\r ]+\d+[\t\n\f\r ]*$/.test(before);
}

// ---------------------------------------------------------------- a PDF lexer and parser

type Token =
  | { t: "num"; v: number; int: boolean }
  | { t: "name"; v: string }
  | { t: "str" }
  | { t: "kw"; v: string }
  | { t: "<<" | ">>" | "[" | "]" | "{" | "}" };

/** A parsed object; strings, booleans and null are "other" (what they say is never needed). */
type Value =
  | { k: "dict"; entries: Map<string, Value> }
  | { k: "array"; items: Value[] }
  | { k: "ref"; num: number }
  | { k: "name"; v: string }
  | { k: "num"; v: number }
  | { k: "other" };

const OTHER: Value = { k: "other" };
/** Deeper nesting is not read further (no lab writes more than a few levels). */
const MAX_DEPTH = 64;

/** ISO 32000 white space (NUL included, as every reader's lexer does) and delimiters. */
function isWhite(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x0c || c === 0x00;
}
function isDelimiter(c: number): boolean {
  // ( ) < > [ ] { } / %
  return c === 0x28 || c === 0x29 || c === 0x3c || c === 0x3e || c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d || c === 0x2f || c === 0x25;
}
function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}

class Lexer {
  readonly bytes: Uint8Array;
  pos: number;
  readonly #end: number;
  #peeked: (Token | null)[] = [];

  constructor(bytes: Uint8Array, pos = 0, end = bytes.length) {
    this.bytes = bytes;
    this.pos = pos;
    this.#end = end;
  }

  /** The next token without consuming it (`ahead` 0 or 1). */
  peek(ahead = 0): Token | null {
    while (this.#peeked.length <= ahead) this.#peeked.push(this.#read());
    return this.#peeked[ahead] ?? null;
  }

  next(): Token | null {
    return this.#peeked.length > 0 ? (this.#peeked.shift() ?? null) : this.#read();
  }

  /** Position just after the last consumed token (no token may be peeked). */
  get offset(): number {
    return this.pos;
  }

  #skipWhiteAndComments(): void {
    const b = this.bytes;
    while (this.pos < this.#end) {
      const c = b[this.pos]!;
      if (isWhite(c)) this.pos += 1;
      else if (c === 0x25) {
        while (this.pos < this.#end && b[this.pos] !== 0x0a && b[this.pos] !== 0x0d) this.pos += 1;
      } else return;
    }
  }

  #read(): Token | null {
    this.#skipWhiteAndComments();
    const b = this.bytes;
    if (this.pos >= this.#end) return null;
    const c = b[this.pos]!;
    if (c === 0x2f) return this.#name();
    if (c === 0x28) return this.#literalString();
    if (c === 0x3c) {
      if (b[this.pos + 1] === 0x3c) {
        this.pos += 2;
        return { t: "<<" };
      }
      // A hex string: skip to its '>'.
      while (this.pos < this.#end && b[this.pos] !== 0x3e) this.pos += 1;
      this.pos += 1;
      return { t: "str" };
    }
    if (c === 0x3e) {
      this.pos += b[this.pos + 1] === 0x3e ? 2 : 1;
      return { t: ">>" };
    }
    if (c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d || c === 0x29) {
      this.pos += 1;
      if (c === 0x29) return { t: "kw", v: ")" };
      return { t: String.fromCharCode(c) as "[" | "]" | "{" | "}" };
    }
    const start = this.pos;
    while (this.pos < this.#end && !isWhite(b[this.pos]!) && !isDelimiter(b[this.pos]!)) this.pos += 1;
    const word = Buffer.from(b.buffer, b.byteOffset + start, this.pos - start).toString("latin1");
    if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(word)) return { t: "num", v: Number(word), int: /^[+-]?\d+$/.test(word) };
    return { t: "kw", v: word };
  }

  /** `/Name` with `#xx` escapes decoded (ISO 32000 §7.3.5), as every reader decodes it. */
  #name(): Token {
    const b = this.bytes;
    this.pos += 1;
    const out: number[] = [];
    while (this.pos < this.#end && !isWhite(b[this.pos]!) && !isDelimiter(b[this.pos]!)) {
      const c = b[this.pos]!;
      const hi = c === 0x23 ? hexValue(b[this.pos + 1] ?? -1) : -1;
      const lo = c === 0x23 ? hexValue(b[this.pos + 2] ?? -1) : -1;
      if (hi >= 0 && lo >= 0) {
        out.push(hi * 16 + lo);
        this.pos += 3;
      } else {
        out.push(c);
        this.pos += 1;
      }
    }
    return { t: "name", v: Buffer.from(out).toString("latin1") };
  }

  /** `( … )` with nested parentheses and backslash escapes; its text is not kept. */
  #literalString(): Token {
    const b = this.bytes;
    let depth = 0;
    while (this.pos < this.#end) {
      const c = b[this.pos]!;
      this.pos += 1;
      if (c === 0x5c) this.pos += 1;
      else if (c === 0x28) depth += 1;
      else if (c === 0x29 && --depth === 0) break;
    }
    return { t: "str" };
  }
}

/** Called with every dictionary as it is parsed, with its entries, and with every name. */
interface Visitor {
  dict(entries: Map<string, Value>): void;
  name(name: string): void;
}

/** Parses one object whose first token is `first`; every dictionary and name met goes to `visit`. */
function parseValue(lexer: Lexer, first: Token | null, visit: Visitor, depth = 0): Value {
  if (!first) return OTHER;
  switch (first.t) {
    case "num": {
      if (first.int) {
        const gen = lexer.peek(0);
        const r = lexer.peek(1);
        if (gen?.t === "num" && gen.int && r?.t === "kw" && r.v === "R") {
          lexer.next();
          lexer.next();
          return { k: "ref", num: first.v };
        }
      }
      return { k: "num", v: first.v };
    }
    case "name":
      visit.name(first.v);
      return { k: "name", v: first.v };
    case "[": {
      const items: Value[] = [];
      for (let tok = lexer.next(); tok && tok.t !== "]"; tok = lexer.next()) {
        if (depth >= MAX_DEPTH) continue;
        if (tok.t === "kw" && (tok.v === "endobj" || tok.v === "stream")) break;
        items.push(parseValue(lexer, tok, visit, depth + 1));
      }
      return { k: "array", items };
    }
    case "<<": {
      const entries = new Map<string, Value>();
      for (let tok = lexer.next(); tok && tok.t !== ">>"; tok = lexer.next()) {
        if (tok.t === "kw" && (tok.v === "endobj" || tok.v === "stream")) break;
        if (tok.t !== "name") continue;
        visit.name(tok.v);
        const value = depth >= MAX_DEPTH ? OTHER : parseValue(lexer, lexer.peek()?.t === ">>" ? null : lexer.next(), visit, depth + 1);
        // A key written twice: a reader keeps one of them; both are looked at.
        if (entries.has(tok.v)) visit.dict(new Map([[tok.v, value]]));
        else entries.set(tok.v, value);
      }
      visit.dict(entries);
      return { k: "dict", entries };
    }
    default:
      return OTHER;
  }
}

// ---------------------------------------------------------------- finding the objects

/**
 * `n g obj`, with any PDF white space or comments between the tokens (as pdf.js lexes them).
 * Linear: a number never starts inside a digit run, and a comment runs to its end of line.
 */
const OBJECT_HEADER = /(?<!\d)(\d+)(?:[\0\t\n\f\r ]|%[^\r\n]*[\r\n])+(\d+)(?:[\0\t\n\f\r ]|%[^\r\n]*[\r\n])+obj(?![^\0\t\n\f\r ()<>[\]{}/%])/g;
const TRAILER = /trailer(?![^\0\t\n\f\r ()<>[\]{}/%])/g;

interface StreamAt {
  dict: Map<string, Value>;
  /** Byte range of the stream's data. */
  start: number;
  end: number;
}

/** The data range of a stream whose `stream` keyword ends at `afterKeyword`. */
function streamRange(bytes: Uint8Array, afterKeyword: number, dict: Map<string, Value>, integers: Map<number, number>): { start: number; end: number } {
  let start = afterKeyword;
  if (bytes[start] === 0x0d) start += 1;
  if (bytes[start] === 0x0a) start += 1;
  const length = dict.get("Length");
  const declared = length?.k === "num" ? length.v : length?.k === "ref" ? integers.get(length.num) : undefined;
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (declared !== undefined && Number.isInteger(declared) && declared >= 0 && start + declared <= bytes.length) {
    let at = start + declared;
    while (at < bytes.length && isWhite(bytes[at]!)) at += 1;
    if (buffer.toString("latin1", at, at + 9) === "endstream") return { start, end: start + declared };
  }
  const end = buffer.indexOf("endstream", start, "latin1");
  return { start, end: end === -1 ? bytes.length : end };
}

/** Every `n 0 obj <integer> endobj` of the file: indirect /Length and /First values. */
function integerObjects(text: string): Map<number, number> {
  const integers = new Map<number, number>();
  const re = /(?<!\d)(\d+)[\0\t\n\f\r ]+\d+[\0\t\n\f\r ]+obj[\0\t\n\f\r ]+(\d+)[\0\t\n\f\r ]+endobj/g;
  for (let m = re.exec(text); m; m = re.exec(text)) integers.set(Number(m[1]), Number(m[2]));
  return integers;
}

// ---------------------------------------------------------------- decoding object streams

function nameList(value: Value | undefined): string[] | null {
  if (value === undefined) return [];
  if (value.k === "name") return [value.v];
  if (value.k === "array" && value.items.every((i) => i.k === "name")) return value.items.map((i) => (i as { v: string }).v);
  return null;
}

function dictList(value: Value | undefined, count: number): (Map<string, Value> | null)[] | null {
  if (value === undefined) return new Array<null>(count).fill(null);
  if (value.k === "dict") return [value.entries];
  if (value.k === "array") return value.items.map((i) => (i.k === "dict" ? i.entries : null));
  return null;
}

function numberIn(dict: Map<string, Value> | null, key: string, fallback: number): number | null {
  const v = dict?.get(key);
  if (v === undefined) return fallback;
  return v.k === "num" ? v.v : null;
}

/** PNG predictors (ISO 32000 §7.4.4.4, Predictor 10-15) undone; null when malformed. */
function undoPngPredictor(data: Uint8Array, params: Map<string, Value> | null): Uint8Array | null {
  const colors = numberIn(params, "Colors", 1);
  const bits = numberIn(params, "BitsPerComponent", 8);
  const columns = numberIn(params, "Columns", 1);
  if (colors === null || bits === null || columns === null || colors < 1 || bits < 1 || columns < 1) return null;
  const pixelBytes = Math.max(1, Math.ceil((colors * bits) / 8));
  const rowBytes = Math.ceil((colors * bits * columns) / 8);
  const rows = Math.floor(data.length / (rowBytes + 1));
  const out = new Uint8Array(rows * rowBytes);
  let prev = new Uint8Array(rowBytes);
  for (let r = 0; r < rows; r += 1) {
    const type = data[r * (rowBytes + 1)]!;
    const row = out.subarray(r * rowBytes, (r + 1) * rowBytes);
    row.set(data.subarray(r * (rowBytes + 1) + 1, (r + 1) * (rowBytes + 1)));
    for (let i = 0; i < rowBytes; i += 1) {
      const left = i >= pixelBytes ? row[i - pixelBytes]! : 0;
      const up = prev[i]!;
      const upLeft = i >= pixelBytes ? prev[i - pixelBytes]! : 0;
      if (type === 1) row[i] = row[i]! + left;
      else if (type === 2) row[i] = row[i]! + up;
      else if (type === 3) row[i] = row[i]! + ((left + up) >> 1);
      else if (type === 4) {
        const p = left + up - upLeft;
        const pa = Math.abs(p - left);
        const pb = Math.abs(p - up);
        const pc = Math.abs(p - upLeft);
        row[i] = row[i]! + (pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft);
      } else if (type !== 0) return null;
    }
    prev = row;
  }
  return out;
}

function asciiHex(data: Uint8Array): Uint8Array {
  const out: number[] = [];
  let high = -1;
  for (const c of data) {
    if (c === 0x3e) break;
    const v = hexValue(c);
    if (v < 0) continue;
    if (high < 0) high = v;
    else {
      out.push(high * 16 + v);
      high = -1;
    }
  }
  if (high >= 0) out.push(high * 16);
  return Uint8Array.from(out);
}

function ascii85(data: Uint8Array): Uint8Array | null {
  const out: number[] = [];
  let group: number[] = [];
  for (let i = 0; i < data.length; i += 1) {
    const c = data[i]!;
    if (c === 0x7e) break; // ~>
    if (isWhite(c)) continue;
    if (c === 0x7a && group.length === 0) {
      out.push(0, 0, 0, 0);
      continue;
    }
    if (c < 0x21 || c > 0x75) return null;
    group.push(c - 0x21);
    if (group.length === 5) {
      let n = 0;
      for (const d of group) n = n * 85 + d;
      out.push((n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255);
      group = [];
    }
  }
  if (group.length > 0) {
    const kept = group.length - 1;
    while (group.length < 5) group.push(84);
    let n = 0;
    for (const d of group) n = n * 85 + d;
    out.push(...[(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].slice(0, kept));
  }
  return Uint8Array.from(out);
}

/**
 * An object stream's data decoded by its filters: FlateDecode (with or without PNG predictors),
 * ASCIIHexDecode and ASCII85Decode, under their abbreviations too. Anything else (LZW,
 * RunLength, a TIFF predictor, crypt filters), damaged data or more than `budget` bytes: null.
 */
function decodeStream(data: Uint8Array, dict: Map<string, Value>, budget: number): Uint8Array | null {
  const filters = nameList(dict.get("Filter") ?? dict.get("F"));
  if (!filters) return null;
  const params = dictList(dict.get("DecodeParms") ?? dict.get("DP"), filters.length);
  if (!params) return null;
  let out = data;
  for (const [i, filter] of filters.entries()) {
    const p = params[i] ?? null;
    const predictor = numberIn(p, "Predictor", 1);
    if (filter === "FlateDecode" || filter === "Fl") {
      try {
        out = zlib.inflateSync(out, { maxOutputLength: Math.max(1, budget), finishFlush: zlib.constants.Z_SYNC_FLUSH });
      } catch {
        return null;
      }
      if (predictor !== null && predictor >= 10 && predictor <= 15) {
        const undone = undoPngPredictor(out, p);
        if (!undone) return null;
        out = undone;
      } else if (predictor !== 1) return null;
    } else if ((filter === "ASCIIHexDecode" || filter === "AHx") && predictor === 1) out = asciiHex(out);
    else if ((filter === "ASCII85Decode" || filter === "A85") && predictor === 1) {
      const decoded = ascii85(out);
      if (!decoded) return null;
      out = decoded;
    } else return null;
    if (out.length > budget) return null;
  }
  return out;
}

// ---------------------------------------------------------------- what a lab report never carries

/**
 * Names that mean active content wherever they stand: as a key (/JavaScript and /EmbeddedFiles
 * name trees), as a value (/S /JavaScript, /S /Launch, /Type /EmbeddedFile, /Subtype
 * /FileAttachment), or as an object of their own that a value refers to (`/S 12 0 R`).
 */
const ACTIVE_NAMES = new Map<string, ActiveContent>([
  ["JavaScript", "javascript"],
  ["Launch", "launch"],
  ["EmbeddedFiles", "embedded_file"],
  ["EmbeddedFile", "embedded_file"],
  ["FileAttachment", "embedded_file"],
]);

/** Keys that mean active content in the dictionary that holds them. */
function kindsOf(entries: Map<string, Value>): ActiveContent[] {
  const kinds: ActiveContent[] = [];
  const nameIs = (v: Value | undefined, ...names: string[]) => v?.k === "name" && names.includes(v.v);
  for (const [key, value] of entries) {
    // An action's script (a JavaScript or Rendition action).
    if (key === "JS" && entries.has("S")) kinds.push("javascript");
    // A file specification's embedded file stream(s).
    if (key === "EF" && (value.k === "dict" || value.k === "ref") && (entries.has("F") || entries.has("UF") || nameIs(entries.get("Type"), "Filespec", "F"))) {
      kinds.push("embedded_file");
    }
    // Associated files (PDF 2.0): an array of file specifications.
    if (key === "AF" && value.k === "array") kinds.push("embedded_file");
    if (key === "AA") kinds.push("actions");
  }
  return kinds;
}

/**
 * Finds active content in a PDF's objects as written (see the file comment): every object at an
 * `n g obj` header and every trailer, and every object inside the object streams, whatever their
 * cross-reference says. An /OpenAction counts when it is an action other than a plain GoTo; one
 * that is a destination (the page and zoom to open at) does not. Never throws.
 * @param maxDecodedBytes budget of decoded object-stream bytes (default 32 MiB).
 */
export function scanObjects(bytes: Uint8Array, maxDecodedBytes = MAX_DECODED_OBJECT_STREAM_BYTES): ObjectScan {
  const found = new Set<ActiveContent>();
  const openActions: Value[] = [];
  const objects = new Map<number, Value[]>();
  const visit: Visitor = {
    dict(entries) {
      for (const kind of kindsOf(entries)) found.add(kind);
      const open = entries.get("OpenAction");
      if (open) openActions.push(open);
    },
    name(name) {
      const kind = ACTIVE_NAMES.get(name);
      if (kind) found.add(kind);
    },
  };
  const remember = (num: number, value: Value) => {
    const list = objects.get(num) ?? [];
    list.push(value);
    objects.set(num, list);
  };

  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
  const integers = integerObjects(text);
  const objectStreams: StreamAt[] = [];
  for (const m of text.matchAll(OBJECT_HEADER)) {
    const lexer = new Lexer(bytes, m.index + m[0].length);
    const value = parseValue(lexer, lexer.next(), visit);
    remember(Number(m[1]), value);
    const after = lexer.peek();
    if (value.k === "dict" && after?.t === "kw" && after.v === "stream") {
      lexer.next();
      // An object stream: pdf.js reads one by its /First and /N whatever its /Type says.
      const type = value.entries.get("Type");
      const objStm = (type?.k === "name" && type.v === "ObjStm") || (value.entries.has("First") && value.entries.has("N"));
      if (objStm) objectStreams.push({ dict: value.entries, ...streamRange(bytes, lexer.offset, value.entries, integers) });
    }
  }
  for (const m of text.matchAll(TRAILER)) {
    const lexer = new Lexer(bytes, m.index + m[0].length);
    parseValue(lexer, lexer.next(), visit);
  }

  let budget = maxDecodedBytes;
  let unreadableObjectStreams = 0;
  for (const stream of objectStreams) {
    const decoded = decodeStream(bytes.subarray(stream.start, stream.end), stream.dict, budget);
    const resolve = (v: Value | undefined) => (v?.k === "num" ? v.v : v?.k === "ref" ? integers.get(v.num) : undefined);
    const first = resolve(stream.dict.get("First"));
    const count = resolve(stream.dict.get("N"));
    if (!decoded || first === undefined || count === undefined || !Number.isInteger(first) || !Number.isInteger(count) || first < 0 || first > decoded.length) {
      unreadableObjectStreams += 1;
      continue;
    }
    budget -= decoded.length;
    // The header: N pairs "object-number offset"; each object is read at First + offset.
    const header = new Lexer(decoded, 0, first);
    for (let i = 0; i < count; i += 1) {
      const num = header.next();
      const offset = header.next();
      if (num?.t !== "num" || offset?.t !== "num" || !num.int || !offset.int || first + offset.v > decoded.length || offset.v < 0) {
        unreadableObjectStreams += 1;
        break;
      }
      const lexer = new Lexer(decoded, first + offset.v);
      remember(num.v, parseValue(lexer, lexer.next(), visit));
    }
    // Whatever else the decoded data holds is looked at too (a reader may be pointed at it).
    const rest = new Lexer(decoded, first);
    for (let tok = rest.next(); tok; tok = rest.next()) parseValue(rest, tok, visit);
  }

  for (const open of openActions) if (isOpenAction(open, objects)) found.add("actions");
  return { found: ACTIVE_CONTENT_ORDER.filter((k) => found.has(k)), unreadableObjectStreams };
}

/** Whether an /OpenAction value is an action (a destination array, or a plain GoTo, is not). */
function isOpenAction(value: Value, objects: Map<number, Value[]>, depth = 0): boolean {
  if (value.k === "ref") {
    const targets = objects.get(value.num);
    // A reference to nothing this scan read (an unreadable object stream): counted as an action.
    if (!targets || depth > 8) return true;
    return targets.some((t) => isOpenAction(t, objects, depth + 1));
  }
  if (value.k !== "dict") return false;
  const s = value.entries.get("S");
  const kind = s?.k === "ref" ? objects.get(s.num)?.[0] : s;
  return !(kind?.k === "name" && kind.v === "GoTo" && !value.entries.has("Next"));
}
