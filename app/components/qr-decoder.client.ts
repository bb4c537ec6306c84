/**
 * The QR reader of the pass scanner (app/components/PassScanner.tsx) in browsers without a
 * BarcodeDetector that reads QR codes: ZXing-C++ as WebAssembly (zxing-wasm's reader). Only
 * PassScanner's dynamic import loads this module, once the camera is started, so neither the
 * reader's JavaScript nor its WebAssembly is part of any page's first load; `.client` keeps it out
 * of the server build.
 *
 * The WebAssembly is one of our own hashed assets (Vite's `?url`), never the package's default CDN:
 * it is fetched from our origin once, when the reader is prepared, and stays compiled in memory, so
 * later scans on the same page work with the network off.
 */
import { prepareZXingModule, readBarcodes } from "zxing-wasm/reader";
import wasmUrl from "zxing-wasm/reader/zxing_reader.wasm?url";

let prepared: Promise<unknown> | undefined;

/**
 * Fetches and compiles the reader's WebAssembly once (at most one fetch in flight); a failure (the
 * network off before the first scan) is forgotten, so that the next start tries again.
 * @throws what fetching or compiling the WebAssembly throws
 */
export async function prepareQrReader(): Promise<void> {
  prepared ??= prepareZXingModule({
    overrides: { locateFile: (path: string, prefix: string) => (path.endsWith(".wasm") ? wasmUrl : prefix + path) },
    fireImmediately: true,
  }).catch((err: unknown) => {
    prepared = undefined;
    throw err;
  });
  await prepared;
}

/**
 * The text of the QR code in `frame` (RGBA pixels), or undefined when the frame shows none that
 * reads. The first valid one when it shows several.
 */
export async function readQrFromFrame(frame: ImageData): Promise<string | undefined> {
  await prepareQrReader();
  const found = await readBarcodes(frame, { formats: ["QRCode"], maxNumberOfSymbols: 1 });
  return found.find((result) => result.isValid && result.text !== "")?.text;
}

let canvas: HTMLCanvasElement | undefined;

/**
 * The text of the QR code in the frame `video` shows now, or undefined when it shows none (or no
 * frame yet). The frame is read at the video's own size, through one canvas kept for every call.
 */
export async function readQrFromVideo(video: HTMLVideoElement): Promise<string | undefined> {
  const { videoWidth: width, videoHeight: height } = video;
  if (width === 0 || height === 0) return undefined;
  canvas ??= document.createElement("canvas");
  if (canvas.width !== width) canvas.width = width;
  if (canvas.height !== height) canvas.height = height;
  const context = canvas.getContext("2d", { willReadFrequently: true });
  if (!context) return undefined;
  context.drawImage(video, 0, 0, width, height);
  return readQrFromFrame(context.getImageData(0, 0, width, height));
}
