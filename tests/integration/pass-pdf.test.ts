// The SafeWindow Pass as a printable PDF (app/server/pass-pdf.server.ts, docs/product/pass.md §11):
// one US Letter page whose QR code, drawn by pdf.js and read back by zxing-wasm from the pixels,
// is the pass's URL exactly (the worst case of §11.1: a 60-character address, the longest
// claims); its words as pdf.js reads them, in English and in Spanish; everything within the box
// that prints on Letter and on A4; characters Helvetica cannot encode replaced, never thrown on.
// Real pdf-lib, qrcode, pdf.js, @napi-rs/canvas and zxing-wasm, offline.
import { createRequire } from "node:module";
import path from "node:path";
import { createCanvas } from "@napi-rs/canvas";
import type { TextItem } from "pdfjs-dist/types/src/display/api";
import { beforeAll, describe, expect, it } from "vitest";
import { passPdf, type PassPdfText } from "../../app/server/pass-pdf.server";
import { passUrl, signPass } from "../../contracts/pass";
import { generateKeyPair } from "jose";
import { qrReader } from "../fixtures/qr-reader";

const require = createRequire(import.meta.url);
const pdfjs: typeof import("pdfjs-dist/legacy/build/pdf.mjs") = await import(require.resolve("pdfjs-dist/legacy/build/pdf.mjs"));
const assets = path.dirname(require.resolve("pdfjs-dist/package.json"));

/** The drawing box of pass-pdf.server.ts, in points: Letter's page less 44 pt at the sides and 36 pt top and bottom. */
const BOX = { left: 44, right: 568, bottom: 36, top: 756 };
/** The scale pages are drawn at to read QR codes (services/consumer/results/worker.ts QR_SCALE). */
const SCALE = 1.5;

const english: PassPdfText = {
  title: "SafeWindow Pass",
  initials: "AL",
  birthLabel: "Birthday (day and month)",
  birthDayMonth: "10 December",
  windowLine: "Strong until Tuesday, 1 December 2026, 14:00 (CET)",
  weakLine: "Weak until Wednesday, 2 December 2026, 10:00 (CET)",
  issuedLine: "Issued 29 November 2026, 10:00",
  checkLine: "Scan with a phone camera, or open safewindow.example/verify and scan there. Compare the initials and birthday with a photo ID.",
  address: "safewindow.example/verify",
};

const spanish: PassPdfText = {
  title: "Pase SafeWindow",
  initials: "ÁÑ",
  birthLabel: "Cumpleaños (día y mes)",
  birthDayMonth: "10 de diciembre",
  windowLine: "Fuerte hasta el martes, 1 de diciembre de 2026, 14:00 (CET)",
  weakLine: "Débil hasta el miércoles, 2 de diciembre de 2026, 10:00 (CET)",
  issuedLine: "Emitido el 29 de noviembre de 2026, 10:00",
  checkLine:
    "¿Sin teléfono? Escanee con la cámara de un teléfono, o abra safewindow.example/verify y escanee allí. ¡Compare las iniciales y el cumpleaños con un documento con foto! Pingüino.",
  address: "safewindow.example/verify",
};

let url: string;

beforeAll(async () => {
  // docs/product/pass.md §11.1's worst case (tests/unit/pass.test.ts): a 60-character public
  // address, two 4-byte letters, dates with 11 digits and an 8-character key id.
  const address = `https://${"a".repeat(60 - "https://".length - "/sw".length)}/sw`;
  const { privateKey } = await generateKeyPair("ES256");
  const pass = await signPass({ iss: address, n: "𝔄𝔅", b: "12-31", s: 99_999_999_999, iat: 99_999_999_999, exp: 99_999_999_999 }, { kid: "abcdefgh", privateKey });
  url = passUrl(address, pass);
  expect(url.length).toBeGreaterThanOrEqual(380);
});

interface Seen {
  pages: number;
  /** Page 1's media box, [x0, y0, x1, y1] in points. */
  view: number[];
  text: TextItem[];
  info: Record<string, unknown>;
  /** Page 1 drawn at SCALE: RGBA, `width` x `height` pixels. */
  pixels: { data: Uint8ClampedArray; width: number; height: number };
}

/** What pdf.js reads and draws of `bytes` (as worker.ts opens and renders a page). */
async function seen(bytes: Uint8Array): Promise<Seen> {
  const loading = pdfjs.getDocument({
    data: bytes.slice(),
    standardFontDataUrl: `${assets}/standard_fonts/`,
    cMapUrl: `${assets}/cmaps/`,
    cMapPacked: true,
    wasmUrl: `${assets}/wasm/`,
    iccUrl: `${assets}/iccs/`,
    useSystemFonts: false,
    verbosity: 0,
  });
  try {
    const pdf = await loading.promise;
    const page = await pdf.getPage(1);
    const viewport = page.getViewport({ scale: SCALE });
    const canvas = createCanvas(Math.floor(viewport.width), Math.floor(viewport.height));
    const ctx = canvas.getContext("2d");
    // The page's white paper, so that only what the PDF draws is not white.
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    await page.render({ canvas: canvas as unknown as HTMLCanvasElement, viewport }).promise;
    const image = ctx.getImageData(0, 0, canvas.width, canvas.height);
    const text = (await page.getTextContent()).items.filter((item): item is TextItem => "str" in item && item.str.trim() !== "");
    const { info } = await pdf.getMetadata();
    return { pages: pdf.numPages, view: page.view, text, info: info as Record<string, unknown>, pixels: { data: image.data, width: image.width, height: image.height } };
  } finally {
    await loading.destroy();
  }
}

/** The page's words as one line, in drawing order. */
const wordsOf = (items: TextItem[]) => items.map((item) => item.str).join(" ").replace(/\s+/g, " ");

/** Pixels (x, y from the top left) to points (from the lower left) on a Letter page drawn at SCALE. */
const toPoints = (p: { x: number; y: number }) => ({ x: p.x / SCALE, y: 792 - p.y / SCALE });

describe("the SafeWindow Pass as a PDF", () => {
  let bytes: Uint8Array;
  let page: Seen;
  let ms: number;

  beforeAll(async () => {
    await passPdf(url, english); // load and compile once: the measure below is a request's
    const started = performance.now();
    bytes = await passPdf(url, english);
    ms = performance.now() - started;
    page = await seen(bytes);
  });

  it("is one US Letter page, made in well under a second, the same bytes every time", async () => {
    expect(page.pages).toBe(1);
    expect(page.view).toEqual([0, 0, 612, 792]);
    expect(ms).toBeLessThan(1000);
    expect(Buffer.from(await passPdf(url, english)).equals(Buffer.from(bytes))).toBe(true);
    expect(bytes.length).toBeLessThan(30_000);
  });

  it("carries the pass's URL exactly in a QR code a phone reads from paper (at least 200 pt, about 7 cm)", async () => {
    const { readBarcodes } = await qrReader();
    const found = await readBarcodes(page.pixels as unknown as ImageData, { formats: ["QRCode"], tryHarder: false, maxNumberOfSymbols: 2 });
    expect(found.map((code) => code.text)).toEqual([url]);
    const [code] = found;
    // The symbol's corners as the decoder found them, the quiet zone of 4 modules around them.
    const corners = Object.values(code!.position).map(toPoints);
    const modules = 17 + 4 * Number(code!.version);
    const symbol = { left: Math.min(...corners.map((p) => p.x)), right: Math.max(...corners.map((p) => p.x)), bottom: Math.min(...corners.map((p) => p.y)), top: Math.max(...corners.map((p) => p.y)) };
    const quiet = (4 * (symbol.right - symbol.left)) / modules;
    expect(symbol.right - symbol.left + 2 * quiet).toBeGreaterThanOrEqual(200);
    expect(symbol.right - symbol.left + 2 * quiet).toBeLessThanOrEqual(300);
    expect(symbol.left - quiet).toBeGreaterThanOrEqual(BOX.left - 1);
    expect(symbol.right + quiet).toBeLessThanOrEqual(BOX.right + 1);
    expect(symbol.bottom - quiet).toBeGreaterThanOrEqual(BOX.bottom - 1);
    expect(symbol.top + quiet).toBeLessThanOrEqual(BOX.top + 1);
    // Centred on the page.
    expect(Math.abs((symbol.left + symbol.right) / 2 - 306)).toBeLessThan(2);
  });

  it("prints the words given", () => {
    const words = wordsOf(page.text);
    for (const value of Object.values(english)) expect(words).toContain(value);
    // The initials and the address large, the check line small.
    const sizeOf = (s: string) => Math.max(...page.text.filter((item) => item.str === s).map((item) => Math.hypot(item.transform[2]!, item.transform[3]!)));
    expect(sizeOf("AL")).toBeGreaterThanOrEqual(36);
    expect(sizeOf("safewindow.example/verify")).toBeGreaterThanOrEqual(20);
  });

  it("draws everything within the box that prints on Letter and on A4", () => {
    for (const item of page.text) {
      const [, , , size = 0, x = 0, baseline = 0] = item.transform;
      expect(x, item.str).toBeGreaterThanOrEqual(BOX.left);
      expect(x + item.width, item.str).toBeLessThanOrEqual(BOX.right);
      expect(baseline - 0.25 * size, item.str).toBeGreaterThanOrEqual(BOX.bottom);
      expect(baseline + size, item.str).toBeLessThanOrEqual(BOX.top);
    }
    // Every pixel that is not white paper, in points.
    const { data, width, height } = page.pixels;
    const drawn = { left: Infinity, right: -Infinity, top: -Infinity, bottom: Infinity };
    for (let y = 0; y < height; y += 1) {
      for (let x = 0; x < width; x += 1) {
        const i = (y * width + x) * 4;
        if (data[i]! > 250 && data[i + 1]! > 250 && data[i + 2]! > 250) continue;
        const p = toPoints({ x, y });
        drawn.left = Math.min(drawn.left, p.x);
        drawn.right = Math.max(drawn.right, p.x + 1 / SCALE);
        drawn.top = Math.max(drawn.top, p.y);
        drawn.bottom = Math.min(drawn.bottom, p.y - 1 / SCALE);
      }
    }
    expect(drawn.left).toBeGreaterThanOrEqual(BOX.left);
    expect(drawn.right).toBeLessThanOrEqual(BOX.right);
    expect(drawn.bottom).toBeGreaterThanOrEqual(BOX.bottom);
    expect(drawn.top).toBeLessThanOrEqual(BOX.top);
    // Centred on Letter, so that A4's narrower sheet loses the same on each side.
    expect(Math.abs(drawn.left + drawn.right - 612)).toBeLessThan(24);
  });

  it("holds its title and producer and nothing else about who or what made it", () => {
    expect(page.info.Title).toBe("SafeWindow Pass");
    expect(page.info.Producer).toBe("SafeWindow");
    for (const key of ["Author", "Creator", "Subject", "Keywords", "CreationDate", "ModDate"]) expect(page.info[key], key).toBeUndefined();
    expect(Buffer.from(bytes).toString("latin1")).not.toMatch(/pdf-lib/i);
  });

  it("prints Spanish with its accents, and its QR code still reads", async () => {
    const spanishPage = await seen(await passPdf(url, spanish));
    const words = wordsOf(spanishPage.text);
    for (const value of Object.values(spanish)) expect(words).toContain(value);
    expect(spanishPage.info.Title).toBe("Pase SafeWindow");
    const { readBarcodes } = await qrReader();
    expect((await readBarcodes(spanishPage.pixels as unknown as ImageData, { formats: ["QRCode"] })).map((code) => code.text)).toEqual([url]);
  });

  it("replaces what Helvetica cannot encode instead of throwing", async () => {
    const odd = {
      ...english,
      title: "Pass 中文",
      initials: "Łź",
      birthDayMonth: "10\u202fDecember", // a narrow no-break space, as Intl writes some dates
      issuedLine: "Issued\n29 November 2026 😀 ﬁne",
      weakLine: undefined,
    };
    const oddPage = await seen(await passPdf(url, odd));
    const words = wordsOf(oddPage.text);
    expect(words).toContain("?z");
    expect(words).toContain("10 December");
    expect(words).toContain("Issued 29 November 2026 ? fine");
    expect(words).not.toContain("Weak until");
    expect(oddPage.info.Title).toBe("Pass ??");
  });
});
