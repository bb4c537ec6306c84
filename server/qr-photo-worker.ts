// The thread that reads the QR code in a checker's photo (server/qr-photo.ts runs it through
// piscina; docs/product/pass.md §11.5). In this order, and it stops at the first answer:
// 1. the image's size from its header, before any pixel is decoded (too_many_pixels over the cap,
//    not_image for anything but JPEG, PNG, WebP or GIF: SVG and the rest never reach a decoder);
// 2. the pixels, decoded by Skia (@napi-rs/canvas), which turns a phone photo upright as its EXIF
//    orientation says;
// 3. the QR code, read by zxing-wasm from a copy at most READ_LONG_SIDES[0] pixels on its long side,
//    then, if none was read there, from a larger one.
// The photo and the text are only in this thread's memory while the task runs: never logged, never kept.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { MessagePort } from "node:worker_threads";
import { persistCompileCache } from "../lib/compile-cache.ts";

/** One read (docs/product/pass.md §11.5): the photo's bytes (transferred), the pixel cap and the port on which the budget starts. */
export interface QrPhotoTask {
  /** The photo as uploaded (JPEG, PNG, WebP or GIF bytes). */
  bytes: Uint8Array;
  /** Most pixels (width × height) the header may declare (contracts/limits.ts maxPassPhotoPixels). */
  maxPixels: number;
  /** Told "started" once the decoders are loaded: the task's time budget runs from then (qr-photo.ts). */
  started?: MessagePort;
}

/** The worker's answer: PhotoRead (app/server/context.ts) without the reasons only qr-photo.ts gives (too_large, busy). */
export type QrPhotoAnswer = { ok: true; text: string } | { ok: false; reason: "not_image" | "too_many_pixels" | "no_code" };

/** An image's format and size as its header declares them, in pixels (imageHeader; docs/product/pass.md §11.5). */
export interface ImageHeader {
  type: "jpeg" | "png" | "webp" | "gif";
  width: number;
  height: number;
}

/**
 * The long sides, in pixels, of the copies of a /verify photo (docs/product/pass.md §11.5) the
 * code is looked for in, in order: a QR code that a phone
 * photographed on a screen or on paper at 12 megapixels is still about 4 pixels a module at 1600;
 * 3200 finds a code that fills a small part of the frame. A photo smaller than a size is read at its
 * own size, once.
 */
export const READ_LONG_SIDES = [1600, 3200] as const;

const u16be = (b: Uint8Array, i: number) => (b[i]! << 8) | b[i + 1]!;
const u16le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8);
const u24le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16);
const u32be = (b: Uint8Array, i: number) => b[i]! * 0x1000000 + ((b[i + 1]! << 16) | (b[i + 2]! << 8) | b[i + 3]!);
const u32le = (b: Uint8Array, i: number) => b[i + 3]! * 0x1000000 + ((b[i + 2]! << 16) | (b[i + 1]! << 8) | b[i]!);
const ascii = (b: Uint8Array, i: number, text: string) => [...text].every((c, k) => b[i + k] === c.charCodeAt(0));

/** JPEG start-of-frame markers (SOF0-SOF15 but DHT C4, JPG C8 and DAC CC), which carry the frame's size. */
const isStartOfFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

/** The JPEG frame's size: the first start-of-frame segment, found by walking the segments as libjpeg does. */
function jpegSize(b: Uint8Array): { width: number; height: number } | undefined {
  let i = 2;
  while (i < b.length) {
    // Every segment starts with 0xFF; more 0xFF are fill. Bytes between segments that libjpeg would
    // skip with a warning are refused here, so that both read the same frame header.
    if (b[i] !== 0xff) return undefined;
    while (b[i] === 0xff) i += 1;
    const marker = b[i];
    i += 1;
    if (marker === undefined || marker === 0x00 || marker === 0xd8 || marker === 0xd9 || marker === 0xda) return undefined;
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) continue;
    if (i + 2 > b.length) return undefined;
    const length = u16be(b, i);
    if (length < 2) return undefined;
    if (isStartOfFrame(marker)) return i + 7 <= b.length ? { height: u16be(b, i + 3), width: u16be(b, i + 5) } : undefined;
    i += length;
  }
  return undefined;
}

/** The WebP canvas's size: from VP8X (extended), VP8L (lossless) or VP8 (lossy), whichever chunk comes first. */
function webpSize(b: Uint8Array): { width: number; height: number } | undefined {
  if (b.length < 30) return undefined;
  if (ascii(b, 12, "VP8X")) return { width: u24le(b, 24) + 1, height: u24le(b, 27) + 1 };
  if (ascii(b, 12, "VP8L")) {
    if (b[20] !== 0x2f) return undefined;
    const bits = u32le(b, 21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (ascii(b, 12, "VP8 ")) {
    if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) return undefined;
    return { width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
  }
  return undefined;
}

/**
 * The GIF's size: its logical screen, grown to hold its first frame (a decoder may draw a first
 * frame that overflows the screen; only the first frame is decoded).
 */
function gifSize(b: Uint8Array): { width: number; height: number } | undefined {
  if (b.length < 13) return undefined;
  const screenWidth = u16le(b, 6);
  const screenHeight = u16le(b, 8);
  const flags = b[10]!;
  let i = 13 + (flags & 0x80 ? 3 * (1 << ((flags & 0x07) + 1)) : 0);
  while (i < b.length) {
    const block = b[i];
    if (block === 0x21) {
      // An extension: its label, then sub-blocks of (length, bytes) up to an empty one.
      i += 2;
      for (;;) {
        if (i >= b.length) return undefined;
        const size = b[i]!;
        i += 1 + size;
        if (size === 0) break;
      }
    } else if (block === 0x2c) {
      if (i + 9 > b.length) return undefined;
      const right = u16le(b, i + 1) + u16le(b, i + 5);
      const bottom = u16le(b, i + 3) + u16le(b, i + 7);
      return { width: Math.max(screenWidth, right), height: Math.max(screenHeight, bottom) };
    } else return undefined;
  }
  return undefined;
}

/**
 * The format and size an image declares in its header, read without decoding a pixel, so that a
 * photo posted to /verify over maxPassPhotoPixels is refused unread (docs/product/pass.md §11.5;
 * contracts/limits.ts): JPEG (its
 * first start-of-frame), PNG (IHDR), WebP (VP8X, VP8L or VP8) and GIF (the logical screen and the
 * first frame). Sizes are in pixels, as stored (a JPEG's EXIF orientation may swap them when drawn;
 * the product is the same).
 * @returns undefined for any other format, and for a header that is cut short, malformed or
 *   declares a side of 0 pixels.
 */
export function imageHeader(bytes: Uint8Array): ImageHeader | undefined {
  const b = bytes;
  let found: ImageHeader | undefined;
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) {
    const size = jpegSize(b);
    found = size && { type: "jpeg", ...size };
  } else if (b.length >= 24 && ascii(b, 0, "\x89PNG\r\n\x1a\n") && u32be(b, 8) === 13 && ascii(b, 12, "IHDR")) {
    found = { type: "png", width: u32be(b, 16), height: u32be(b, 20) };
  } else if (b.length >= 12 && ascii(b, 0, "RIFF") && ascii(b, 8, "WEBP")) {
    const size = webpSize(b);
    found = size && { type: "webp", ...size };
  } else if (b.length >= 6 && (ascii(b, 0, "GIF87a") || ascii(b, 0, "GIF89a"))) {
    const size = gifSize(b);
    found = size && { type: "gif", ...size };
  }
  return found && found.width > 0 && found.height > 0 ? found : undefined;
}

type Canvas = typeof import("@napi-rs/canvas");
type ZXing = typeof import("zxing-wasm/reader");
let libraries: Promise<{ canvas: Canvas; zxing: ZXing }> | undefined;

/**
 * The canvas and zxing-wasm's reader, loaded on the thread's first task; zxing's WebAssembly comes
 * from the package's own file (never fetched from a CDN), as services/consumer/results/worker.ts does.
 */
function load(): Promise<{ canvas: Canvas; zxing: ZXing }> {
  libraries ??= (async () => {
    const require = createRequire(import.meta.url);
    const [canvas, zxing, wasm] = await Promise.all([
      import("@napi-rs/canvas"),
      import("zxing-wasm/reader"),
      readFile(require.resolve("zxing-wasm/reader/zxing_reader.wasm")),
    ]);
    await zxing.prepareZXingModule({
      overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer },
      fireImmediately: true,
    });
    persistCompileCache();
    return { canvas, zxing };
  })();
  return libraries;
}

/** The decoded image, or undefined when the decoder refuses the bytes. Skia applies the EXIF orientation. */
async function decode(canvas: Canvas, bytes: Uint8Array): Promise<InstanceType<Canvas["Image"]> | undefined> {
  const image = new canvas.Image();
  const loaded = new Promise<boolean>((resolve) => {
    image.onload = () => resolve(true);
    image.onerror = () => resolve(false);
  });
  image.src = bytes;
  return (await loaded) && image.width > 0 && image.height > 0 ? image : undefined;
}

/** The first QR code's text in `image` drawn at most `longSide` pixels on its long side (never enlarged). */
async function readAt(libs: { canvas: Canvas; zxing: ZXing }, image: InstanceType<Canvas["Image"]>, longSide: number): Promise<string | undefined> {
  const scale = Math.min(1, longSide / Math.max(image.width, image.height));
  const width = Math.max(1, Math.round(image.width * scale));
  const height = Math.max(1, Math.round(image.height * scale));
  const drawn = libs.canvas.createCanvas(width, height);
  const ctx = drawn.getContext("2d");
  // White under a transparent image: a transparent pixel reads as black, and a code drawn on
  // transparency would be all black.
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(0, 0, width, height);
  ctx.imageSmoothingQuality = "high";
  ctx.drawImage(image, 0, 0, width, height);
  const pixels = ctx.getImageData(0, 0, width, height);
  const found = await libs.zxing.readBarcodes(pixels as unknown as ImageData, { formats: ["QRCode"], tryHarder: true, textMode: "Plain", maxNumberOfSymbols: 1 });
  return found.find((symbol) => symbol.isValid && symbol.text !== "")?.text;
}

/**
 * Reads the QR code in one photo of a pass (docs/product/pass.md §11.5; piscina's task function,
 * server/qr-photo.ts its only caller). Posts "started" on `task.started` once the decoders are loaded.
 * @returns `{ ok: true, text }`, the first valid code's text; or `{ ok: false, reason }`: not_image
 *   (no JPEG, PNG, WebP or GIF header, or bytes the decoder refuses), too_many_pixels (over
 *   `task.maxPixels` pixels, from the header: nothing is decoded), or no_code.
 * @throws only what the decoders throw unexpectedly (qr-photo.ts answers it `busy`).
 */
export default async function readQrPhoto(task: QrPhotoTask): Promise<QrPhotoAnswer> {
  try {
    return await read(task);
  } finally {
    task.started?.close();
  }
}

async function read(task: QrPhotoTask): Promise<QrPhotoAnswer> {
  const header = imageHeader(task.bytes);
  if (!header) return { ok: false, reason: "not_image" };
  if (header.width * header.height > task.maxPixels) return { ok: false, reason: "too_many_pixels" };
  const libs = await load();
  task.started?.postMessage("started");
  const image = await decode(libs.canvas, task.bytes);
  if (!image) return { ok: false, reason: "not_image" };
  // The header and the decoder agree on the size of every file imageHeader accepts; this is the
  // guard should they ever not.
  if (image.width * image.height > task.maxPixels) return { ok: false, reason: "too_many_pixels" };
  const longSide = Math.max(image.width, image.height);
  let text = await readAt(libs, image, READ_LONG_SIDES[0]);
  if (text === undefined && longSide > READ_LONG_SIDES[0]) text = await readAt(libs, image, Math.min(longSide, READ_LONG_SIDES[1]));
  return text === undefined ? { ok: false, reason: "no_code" } : { ok: true, text };
}
