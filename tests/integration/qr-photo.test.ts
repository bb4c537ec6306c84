// The QR photo reader of /verify (server/qr-photo.ts and its thread server/qr-photo-worker.ts;
// docs/product/pass.md §11.5): a pass's URL read back from a clean PNG of its QR code and from a
// 12-megapixel phone-like JPEG (grey noise, the code small, turned and scaled; also with an EXIF
// orientation), and every refusal: not an image (random bytes, SVG), no code, a header declaring
// too many pixels (answered without decoding), too many bytes (answered without a thread), a full
// queue and an overrun budget (busy, and the reader reads again after); threads that stop when idle
// and at close. The decode runs off the main thread: the main event loop stays idle through it.
// Real piscina threads, @napi-rs/canvas, qrcode and zxing-wasm, offline; the images are made here.
import { randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import { crc32, deflateSync } from "node:zlib";
import { createCanvas, Image, ImageData } from "@napi-rs/canvas";
import QRCode from "qrcode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { maxPassPhotoBytes, maxPassPhotoPixels } from "../../app/limits.ts";
import { createQrPhotoReader, type QrPhotoReader } from "../../server/qr-photo.ts";
import { imageHeader } from "../../server/qr-photo-worker.ts";

/** A pass's URL as its QR code carries it (docs/product/pass.md §11.1: about 310 characters). */
const passUrl = `https://safewindow.example/verify#${randomBytes(210).toString("base64url")}`;

/** A PNG chunk: length, type, data, CRC-32 of type and data. */
function pngChunk(type: string, data: Uint8Array): Buffer {
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const head = Buffer.alloc(4);
  head.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([head, body, crc]);
}

/** A PNG whose header declares `width` x `height` (RGBA, 8 bits) and whose pixel data is a few bytes. */
function declaredPng(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, pngChunk("IHDR", ihdr), pngChunk("IDAT", deflateSync(Buffer.alloc(64))), pngChunk("IEND", new Uint8Array(0))]);
}

/** A baseline JPEG's first segments up to a frame header declaring `width` x `height`; nothing decodable follows. */
function declaredJpeg(width: number, height: number): Buffer {
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, ...Buffer.from("JFIF\0", "latin1"), 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.alloc(64)]);
}

/** A GIF whose logical screen is 10 x 10 and whose first frame is `width` x `height`. */
function declaredGif(width: number, height: number): Buffer {
  const header = Buffer.from("GIF89a\x0a\x00\x0a\x00\x00\x00\x00", "latin1");
  const descriptor = Buffer.alloc(10);
  descriptor[0] = 0x2c;
  descriptor.writeUInt16LE(width, 5);
  descriptor.writeUInt16LE(height, 7);
  return Buffer.concat([header, descriptor, Buffer.from([0x02, 0x02, 0x44, 0x01, 0x00, 0x3b])]);
}

/** `jpeg` with an EXIF segment saying it is to be turned by `orientation` (1-8) when shown. */
function withOrientation(jpeg: Buffer, orientation: number): Buffer {
  // A big-endian TIFF header and one IFD entry: 0x0112 Orientation, SHORT, count 1.
  const tiff = Buffer.from([0x4d, 0x4d, 0x00, 0x2a, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, orientation, 0, 0, 0, 0, 0, 0]);
  const payload = Buffer.concat([Buffer.from("Exif\0\0", "latin1"), tiff]);
  const head = Buffer.from([0xff, 0xe1, 0, 0]);
  head.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), head, payload, jpeg.subarray(2)]);
}

async function decoded(bytes: Uint8Array): Promise<Image> {
  const image = new Image();
  const loaded = new Promise<void>((resolve, reject) => {
    image.onload = () => resolve();
    image.onerror = reject;
  });
  image.src = bytes;
  await loaded;
  return image;
}

/** A canvas `width` x `height` of grey noise (a deterministic generator: the same photo every run). */
function noisyCanvas(width: number, height: number) {
  const canvas = createCanvas(width, height);
  const pixels = new Uint32Array(width * height);
  let seed = 0x2545f491;
  for (let i = 0; i < pixels.length; i += 1) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    const grey = 105 + (seed >>> 26);
    // Little-endian RGBA: a faintly warm grey, opaque.
    pixels[i] = 0xff000000 | ((grey - 6) << 16) | (grey << 8) | (grey + 4);
  }
  canvas.getContext("2d").putImageData(new ImageData(new Uint8ClampedArray(pixels.buffer), width, height), 0, 0);
  return canvas;
}

let qrPng: Buffer;
let photo: Buffer;
let noCodePng: Buffer;
let noCodeJpeg: Buffer;
let noCodePhoto: Buffer;
const readers: QrPhotoReader[] = [];
const reader = (opts: Parameters<typeof createQrPhotoReader>[0] = {}) => {
  const made = createQrPhotoReader(opts);
  readers.push(made);
  return made;
};
let shared: QrPhotoReader;

beforeAll(async () => {
  qrPng = await QRCode.toBuffer(passUrl, { type: "png", errorCorrectionLevel: "M", margin: 4, scale: 6 });
  // The phone's photo: 3000 x 4000 of grey noise, saved as JPEG at quality 85 as a camera saves it;
  // once as it is, and once with the code a quarter of the width, off centre, turned by 7 degrees
  // and drawn smoothly (scaled from the PNG's modules).
  const canvas = noisyCanvas(3000, 4000);
  noCodePhoto = canvas.encodeSync("jpeg", 85);
  const ctx = canvas.getContext("2d");
  ctx.translate(1300, 2300);
  ctx.rotate((7 * Math.PI) / 180);
  ctx.drawImage(await decoded(qrPng), -400, -400, 800, 800);
  photo = canvas.encodeSync("jpeg", 85);
  const blank = noisyCanvas(800, 600);
  noCodePng = blank.encodeSync("png");
  noCodeJpeg = blank.encodeSync("jpeg", 85);
  // Reads take 0.5-2.5 s here; a generous budget keeps a loaded machine from turning them busy (the
  // budget itself is tested below).
  shared = reader({ timeoutMs: 20_000 });
});

afterAll(async () => {
  await Promise.all(readers.map((made) => made.close()));
});

describe("the header, read without decoding", () => {
  it("gives the size that the decoder gives, for JPEG, PNG, WebP (lossy and lossless) and GIF", async () => {
    const canvas = noisyCanvas(321, 123);
    const made: [Buffer, string][] = [
      [canvas.encodeSync("jpeg", 80), "jpeg"],
      [canvas.encodeSync("png"), "png"],
      [canvas.encodeSync("webp", 80), "webp"],
      [canvas.encodeSync("webp", 100), "webp"],
      [canvas.encodeSync("gif"), "gif"],
    ];
    for (const [bytes, type] of made) {
      const image = await decoded(bytes);
      expect(imageHeader(bytes), type).toEqual({ type, width: image.width, height: image.height });
      expect(image.width * image.height).toBe(321 * 123);
    }
  });

  it("counts a GIF's first frame where it overflows the logical screen", () => {
    expect(imageHeader(declaredGif(9000, 9000))).toEqual({ type: "gif", width: 9000, height: 9000 });
  });

  it("knows no other format, nor a cut-short header", () => {
    expect(imageHeader(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'))).toBeUndefined();
    expect(imageHeader(declaredPng(100, 100).subarray(0, 20))).toBeUndefined();
    expect(imageHeader(declaredJpeg(100, 100).subarray(0, 12))).toBeUndefined();
    expect(imageHeader(declaredPng(0, 100))).toBeUndefined();
  });

  it("is what the worker relies on for EXIF: the decoder turns a photo upright by its orientation", async () => {
    const canvas = createCanvas(200, 100);
    const upright = await decoded(withOrientation(canvas.encodeSync("jpeg", 80), 6));
    expect([upright.width, upright.height]).toEqual([100, 200]);
  });
});

describe("reading", () => {
  it("reads the pass's URL from a PNG of its QR code", async () => {
    expect(await shared.read(qrPng)).toEqual({ ok: true, text: passUrl });
  });

  it("reads it from a 12-megapixel JPEG photo, the code small and turned", async () => {
    expect(photo.byteLength).toBeLessThan(maxPassPhotoBytes);
    expect(await shared.read(photo)).toEqual({ ok: true, text: passUrl });
  });

  it("decodes off the main thread: its event loop stays idle and its CPU time small through a 12-megapixel read", async () => {
    // A photo without a code is the longest read: decoded, then searched at both sizes. Run on the
    // main thread it keeps its loop busy about two thirds of the time and costs it 0.5-0.8 s of CPU
    // (the decode itself runs on libuv's pool either way); here the main thread only copies the bytes.
    // Measured in CPU time, not wall time: a faster machine reads it sooner, but the work is the
    // same, and other threads must do it.
    const loopBefore = performance.eventLoopUtilization();
    const cpuBefore = process.threadCpuUsage();
    const processBefore = process.cpuUsage();
    const started = performance.now();
    const answer = await shared.read(noCodePhoto);
    const ms = performance.now() - started;
    const loop = performance.eventLoopUtilization(loopBefore);
    const cpu = process.threadCpuUsage(cpuBefore);
    const all = process.cpuUsage(processBefore);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    const elsewhereMs = (all.user + all.system) / 1000 - cpuMs;
    console.log(`12 MP photo without a code read in ${Math.round(ms)} ms; main loop ${(loop.utilization * 100).toFixed(1)}% busy, main thread CPU ${Math.round(cpuMs)} ms, other threads ${Math.round(elsewhereMs)} ms`);
    expect(answer).toEqual({ ok: false, reason: "no_code" });
    expect(elsewhereMs).toBeGreaterThan(150);
    expect(loop.utilization).toBeLessThan(0.2);
    expect(cpuMs).toBeLessThan(Math.min(150, elsewhereMs / 5));
  });

  it("reads a photo whose EXIF says to turn it", async () => {
    // ZXing reads a code at any angle, so this shows that the EXIF segment does no harm; that the
    // photo is turned upright is the decoder's (checked above).
    expect(await shared.read(withOrientation(photo, 6))).toEqual({ ok: true, text: passUrl });
  });

  it("answers not_image for random bytes, an SVG and an empty file", async () => {
    expect(await shared.read(randomBytes(50_000))).toEqual({ ok: false, reason: "not_image" });
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><rect width="100" height="100"/></svg>`;
    expect(await shared.read(Buffer.from(svg))).toEqual({ ok: false, reason: "not_image" });
    expect(await shared.read(new Uint8Array(0))).toEqual({ ok: false, reason: "not_image" });
  });

  it("answers no_code for a PNG and a JPEG without a code", async () => {
    expect(await shared.read(noCodePng)).toEqual({ ok: false, reason: "no_code" });
    expect(await shared.read(noCodeJpeg)).toEqual({ ok: false, reason: "no_code" });
  });

  it("answers too_many_pixels from the header alone (a PNG, a JPEG and a GIF declaring 81-100 million pixels)", async () => {
    await shared.read(qrPng);
    for (const bytes of [declaredPng(10_000, 10_000), declaredJpeg(10_000, 10_000), declaredGif(9000, 9000)]) {
      const started = performance.now();
      expect(await shared.read(bytes)).toEqual({ ok: false, reason: "too_many_pixels" });
      // Decoding the 10000 x 10000 PNG takes seconds and 400 MB; its header, nothing.
      expect(performance.now() - started).toBeLessThan(250);
    }
    // Exactly the cap goes on to the decoder (whose pixels, invalid here, hold no code).
    expect(await shared.read(declaredPng(10_000, maxPassPhotoPixels / 10_000))).toEqual({ ok: false, reason: "no_code" });
  });

  it("answers too_large over 12 MiB without starting a thread", async () => {
    const fresh = reader();
    const big = new Uint8Array(maxPassPhotoBytes + 1);
    big.set(qrPng);
    expect(await fresh.read(big)).toEqual({ ok: false, reason: "too_large" });
    expect(fresh.threadCount()).toBe(0);
  });
});

describe("load and budgets", () => {
  it("answers busy to reads past a full queue, none fails, and it reads after", async () => {
    const small = reader({ threads: 1, maxQueue: 2 });
    const answers = await Promise.all(Array.from({ length: 20 }, () => small.read(qrPng)));
    const busy = answers.filter((answer) => !answer.ok && answer.reason === "busy").length;
    const read = answers.filter((answer) => answer.ok && answer.text === passUrl).length;
    expect(read).toBe(3);
    expect(busy).toBe(17);
    expect(await small.read(qrPng)).toEqual({ ok: true, text: passUrl });
  });

  it("answers busy past the time budget, and reads again on a fresh thread", async () => {
    // Decoding the 12-megapixel photo alone takes 0.3-0.7 s; a small code reads in a few ms.
    const hasty = reader({ timeoutMs: 100 });
    expect(await hasty.read(photo)).toEqual({ ok: false, reason: "busy" });
    const short = "https://safewindow.example/verify";
    expect(await hasty.read(await QRCode.toBuffer(short, { type: "png", margin: 2, scale: 2 }))).toEqual({ ok: true, text: short });
  });

  it("stops an idle thread, and close() stops them all; a read after close is busy", async () => {
    const idle = reader({ idleStopMs: 200 });
    expect(idle.threadCount()).toBe(0);
    expect(await idle.read(qrPng)).toEqual({ ok: true, text: passUrl });
    expect(idle.threadCount()).toBe(1);
    await expect.poll(() => idle.threadCount(), { timeout: 3000, interval: 50 }).toBe(0);

    const kept = reader({ threads: 2, idleStopMs: Infinity });
    expect(await kept.read(qrPng)).toEqual({ ok: true, text: passUrl });
    expect(kept.threadCount()).toBe(2);
    await kept.close();
    expect(kept.threadCount()).toBe(0);
    expect(await kept.read(qrPng)).toEqual({ ok: false, reason: "busy" });
  });
});
