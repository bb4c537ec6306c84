/**
 * The SafeWindow Pass as a one-page printable PDF (docs/product/pass.md §11): its QR code, which
 * carries `<iss>/verify#<pass>` (§11.1), and in words what a checker compares with a photo ID
 * (§11.2 step 5), for a person without a smartphone and a door without a network. Drawn by
 * `@cantoo/pdf-lib` with the standard Helvetica fonts (nothing embedded), the QR code by `qrcode`
 * as vector squares, so that it prints sharp at any resolution.
 */
import { PDFDocument, StandardFonts, concatTransformationMatrix, fill, popGraphicsState, pushGraphicsState, rectangle, rgb, setFillingRgbColor } from "@cantoo/pdf-lib";
import type { PDFFont, PDFOperator, PDFPage } from "@cantoo/pdf-lib";
import QRCode from "qrcode";
import type { BitMatrix } from "qrcode";

/** The words printed with the QR code, already worded in the reader's language. */
export interface PassPdfText {
  /** The heading and the document's title, e.g. "SafeWindow Pass". */
  title: string;
  /** The initials, e.g. "AL", printed large. */
  initials: string;
  /** e.g. "Birthday (day and month)". */
  birthLabel: string;
  /** e.g. "10 December". */
  birthDayMonth: string;
  /** e.g. "Strong until Tuesday, 1 December 2026, 14:00 (CET)". */
  windowLine: string;
  /** e.g. "Weak until ...", printed under `windowLine`. */
  weakLine?: string;
  /** e.g. "Issued 29 November 2026, 10:00". */
  issuedLine: string;
  /** How to check the pass, e.g. "Scan with a phone camera, or open <host>/verify and scan there. ..." */
  checkLine: string;
  /** The checker's address, e.g. "safewindow.example/verify", printed large. */
  address: string;
}

/** US Letter, in points (1/72 inch). */
const PAGE = { width: 612, height: 792 };
/**
 * Where everything is drawn, in points from the page's lower left corner: 44 pt in from Letter's
 * sides (so about 36 pt in from A4's 595 pt width when a printer centres the page on A4) and 36 pt from
 * its top and bottom (A4 is 50 pt taller): the page prints on either paper without cropping.
 */
const BOX = { left: 44, right: 568, bottom: 36, top: 756 };
/** The QR code's side with its quiet zone, in points: 4 inches, about 10 cm, at most. */
const QR_MAX = 288;
/** ... and at least 200 pt, about 7 cm, that a phone reads from paper at arm's length. */
const QR_MIN = 200;
/** Modules of white around the code, as ISO/IEC 18004 asks. */
const QUIET_ZONE = 4;
/** Space above and below the QR code, in points. */
const QR_GAP = 14;

type Style = { bold: boolean; size: number; gap: number; fit: "wrap" | "shrink" };

/** The title (above the QR code), then the lines under it, top to bottom: size in points, space before, and how a line too wide fits. */
const STYLES = {
  title: { bold: true, size: 22, gap: 0, fit: "shrink" },
  initials: { bold: true, size: 44, gap: 0, fit: "shrink" },
  birthLabel: { bold: false, size: 12, gap: 6, fit: "wrap" },
  birthDayMonth: { bold: true, size: 20, gap: 2, fit: "wrap" },
  windowLine: { bold: true, size: 15, gap: 12, fit: "wrap" },
  weakLine: { bold: false, size: 13, gap: 4, fit: "wrap" },
  issuedLine: { bold: false, size: 12, gap: 6, fit: "wrap" },
  address: { bold: true, size: 24, gap: 14, fit: "shrink" },
  checkLine: { bold: false, size: 12, gap: 6, fit: "wrap" },
} satisfies Record<keyof PassPdfText, Style>;

/** A line as drawn: its text, font, size in points, and space before it. */
interface Line {
  text: string;
  font: PDFFont;
  size: number;
  gap: number;
}

/**
 * The pass `url` (`<iss>/verify#<pass>`, docs/product/pass.md §11.1; about 300-400 characters) as a
 * PDF of one US Letter page (612 x 792 pt) that also prints on A4: top to bottom, `text.title`, the
 * QR code of `url` (error correction M, a quiet zone of 4 modules, white, 288 pt wide, less when the
 * words need the room but never under 200 pt), then the initials, the birthday, the window line(s),
 * the issued line, the address and the check line, centred, all within x 44-568 pt and y 36-756 pt.
 *
 * Helvetica's WinAnsi encoding covers Spanish (á é í ó ú ñ ü ¿ ¡); any other character is printed
 * as its letter without accents when there is one, else "?", so no text makes it throw. The
 * document's title is `text.title`, its producer "SafeWindow", and it holds no dates, author or
 * other metadata: the same arguments give the same bytes.
 * @throws when `url` is too long for any QR code (about 2,300 characters at error correction M).
 */
export async function passPdf(url: string, text: PassPdfText): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const fonts = { regular: { font: regular, clean: printable(regular) }, bold: { font: bold, clean: printable(bold) } };
  doc.setTitle(fonts.regular.clean(text.title) || "SafeWindow", { showInWindowTitleBar: true });
  doc.setProducer("SafeWindow");

  const code = QRCode.create(url, { errorCorrectionLevel: "M" }).modules;
  const width = BOX.right - BOX.left;
  const linesAt = (scale: number): Line[][] =>
    (Object.keys(STYLES) as (keyof PassPdfText)[]).map((key) => {
      const style: Style = STYLES[key];
      const { font, clean } = style.bold ? fonts.bold : fonts.regular;
      const words = clean(text[key] ?? "");
      if (!words) return [];
      return layOut(words, font, style.size * scale, style.gap * scale, width, style.fit);
    });
  // The QR code takes what the words leave, up to QR_MAX; words too long for QR_MIN are made smaller.
  let lines = linesAt(1);
  const room = BOX.top - BOX.bottom - 2 * QR_GAP;
  const needed = heightOf(lines.flat());
  if (room - needed < QR_MIN) lines = linesAt((room - QR_MIN) / needed);
  const qrSide = Math.min(QR_MAX, room - heightOf(lines.flat()));

  const page = doc.addPage([PAGE.width, PAGE.height]);
  const centre = (BOX.left + BOX.right) / 2;
  let top = BOX.top;
  // The title above the QR code (STYLES' first), the other lines under it.
  const [titleLines, ...rest] = lines;
  top = drawLines(page, titleLines ?? [], centre, top);
  top -= QR_GAP;
  drawQr(page, code, centre - qrSide / 2, top - qrSide, qrSide);
  top -= qrSide + QR_GAP;
  drawLines(page, rest.flat(), centre, top);
  return doc.save({ useObjectStreams: true });
}

/**
 * A function that makes `text` printable in `font`: one line (every space, tab and line break a
 * plain space, runs of them one), invisible format characters left out, and each character the
 * font cannot encode replaced by its base letters (NFKD without marks: "ő" -> "o", "ﬁ" -> "fi")
 * when the font has those, else by "?". pdf-lib throws on a character its font cannot encode.
 */
function printable(font: PDFFont): (text: string) => string {
  const known = new Set(font.getCharacterSet());
  const has = (s: string) => [...s].every((c) => known.has(c.codePointAt(0)!));
  return (text) => {
    const plain = text
      .normalize("NFC")
      .replace(/[\p{Cf}]/gu, "")
      .replace(/[\s\p{Zs}\p{Cc}]+/gu, " ")
      .trim();
    let out = "";
    for (const c of plain) {
      if (has(c)) out += c;
      else {
        const base = c.normalize("NFKD").replace(/\p{M}/gu, "");
        out += base !== "" && has(base) ? base : "?";
      }
    }
    return out;
  };
}

/**
 * `text` in lines at most `width` points wide: broken between words ("wrap"; a word wider than a
 * line is broken between characters), or one line made smaller until it fits ("shrink").
 */
function layOut(text: string, font: PDFFont, size: number, gap: number, width: number, fit: Style["fit"]): Line[] {
  const wide = (s: string, at = size) => font.widthOfTextAtSize(s, at);
  if (fit === "shrink") return [{ text, font, size: Math.min(size, (size * width) / Math.max(1, wide(text))), gap }];
  const lines: string[] = [];
  let current = "";
  for (const word of text.split(" ")) {
    const tried = current ? `${current} ${word}` : word;
    if (wide(tried) <= width) {
      current = tried;
      continue;
    }
    if (current) lines.push(current);
    current = "";
    for (const c of word) {
      if (current && wide(current + c) > width) {
        lines.push(current);
        current = "";
      }
      current += c;
    }
  }
  if (current) lines.push(current);
  return lines.map((line, i) => ({ text: line, font, size, gap: i === 0 ? gap : 0 }));
}

/**
 * How far a line reaches above and below its baseline, in points: the whole em above (the fonts'
 * boxes reach 0.931 and 0.962 em, an accented capital as high), 0.23 em below (-0.225 and -0.228).
 */
function extent(line: Line): { ascent: number; descent: number } {
  return { ascent: line.size, descent: 0.23 * line.size };
}

/** The height `lines` take, from the first one's top to the last one's bottom, in points. */
function heightOf(lines: Line[]): number {
  return lines.reduce((sum, line) => {
    const { ascent, descent } = extent(line);
    return sum + line.gap + ascent + descent;
  }, 0);
}

/** Draws `lines` centred on `centre`, the first one's top at `top`; answers the y under the last one. */
function drawLines(page: PDFPage, lines: Line[], centre: number, top: number): number {
  let y = top;
  for (const line of lines) {
    const { ascent, descent } = extent(line);
    y -= line.gap + ascent;
    page.drawText(line.text, { x: centre - line.font.widthOfTextAtSize(line.text, line.size) / 2, y, size: line.size, font: line.font, color: rgb(0, 0, 0) });
    y -= descent;
  }
  return y;
}

/**
 * The QR code `modules` as black squares on a white square `side` points wide whose lower left
 * corner is (`x`, `y`), the quiet zone included: each row's runs of dark modules one rectangle, all
 * filled as one path (no hairline seams between neighbours when a viewer smooths edges), in module
 * units under one transformation.
 */
function drawQr(page: PDFPage, modules: BitMatrix, x: number, y: number, side: number): void {
  const n = modules.size;
  const units = n + 2 * QUIET_ZONE;
  page.drawRectangle({ x, y, width: side, height: side, color: rgb(1, 1, 1) });
  const ops: PDFOperator[] = [pushGraphicsState(), setFillingRgbColor(0, 0, 0), concatTransformationMatrix(side / units, 0, 0, side / units, x, y)];
  for (let row = 0; row < n; row += 1) {
    const v = units - QUIET_ZONE - row - 1;
    for (let col = 0; col < n; ) {
      if (!modules.get(row, col)) {
        col += 1;
        continue;
      }
      const start = col;
      while (col < n && modules.get(row, col)) col += 1;
      ops.push(rectangle(QUIET_ZONE + start, v, col - start, 1));
    }
  }
  ops.push(fill(), popGraphicsState());
  page.pushOperators(...ops);
}
