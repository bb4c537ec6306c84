/**
 * Reading QR codes in the end-to-end tests as a phone would from what the app shows: a screenshot of
 * the pass screen's code (PNG bytes), or the pass PDF drawn by pdf.js on a canvas (as a printer
 * would print it) at 1.5 px per point. zxing-wasm's reader from the package's own WebAssembly file;
 * pdf.js's legacy build with its own fonts; nothing fetched.
 */
import { createRequire } from "node:module";
import path from "node:path";
import { createCanvas } from "@napi-rs/canvas";
import { qrReader } from "../fixtures/qr-reader";

const require = createRequire(import.meta.url);

/** The text of the first QR code in an image file's bytes (PNG, JPEG), or undefined. */
export async function readQrImage(bytes: Uint8Array): Promise<string | undefined> {
  const { readBarcodes } = await qrReader();
  const found = await readBarcodes(new Blob([bytes.slice()]), { formats: ["QRCode"], tryHarder: true });
  return found.find((r) => r.isValid)?.text;
}

/** The text of the first QR code on page 1 of a PDF, drawn at 1.5 px per point on white, or undefined. */
export async function readQrPdf(bytes: Uint8Array): Promise<{ text: string | undefined; pages: number }> {
  const pdfjs: typeof import("pdfjs-dist/legacy/build/pdf.mjs") = await import(require.resolve("pdfjs-dist/legacy/build/pdf.mjs"));
  const assets = path.dirname(require.resolve("pdfjs-dist/package.json"));
  const loading = pdfjs.getDocument({ data: bytes.slice(), standardFontDataUrl: `${assets}/standard_fonts/`, wasmUrl: `${assets}/wasm/`, useSystemFonts: false, verbosity: 0 });
  try {
    const pdf = await loading.promise;
    const page = await pdf.getPage(1);
    const viewport = page.getViewport({ scale: 1.5 });
    const canvas = createCanvas(Math.floor(viewport.width), Math.floor(viewport.height));
    const context = canvas.getContext("2d");
    context.fillStyle = "#ffffff";
    context.fillRect(0, 0, canvas.width, canvas.height);
    await page.render({ canvas: canvas as unknown as HTMLCanvasElement, viewport }).promise;
    const { readBarcodes } = await qrReader();
    const image = context.getImageData(0, 0, canvas.width, canvas.height);
    const found = await readBarcodes(image as unknown as ImageData, { formats: ["QRCode"], tryHarder: true });
    return { text: found.find((r) => r.isValid)?.text, pages: pdf.numPages };
  } finally {
    await loading.destroy();
  }
}
