/**
 * A camera for the end-to-end tests of the pass scanner (app/components/PassScanner.tsx): a video
 * file that Chromium plays as its camera when started with `--use-fake-device-for-media-stream
 * --use-file-for-fake-video-capture=<file>.y4m` (and `--use-fake-ui-for-media-stream`, or the
 * context's `camera` permission, to skip the prompt). It loops the file for as long as the camera runs.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import QRCode from "qrcode";

/** The picture's width and height in pixels: a common camera size, small enough to write fast. */
export const fakeCameraWidth = 640;
export const fakeCameraHeight = 480;
/** Frames a second (the `F` of the header). */
export const fakeCameraFps = 10;
/** Frames in the file: half a second, which Chromium plays in a loop. */
export const fakeCameraFrames = 5;
/** The blank border around the code, in modules (the 4 that ISO/IEC 18004 asks for). */
const quietModules = 4;

/**
 * Writes to `file` a Y4M (YUV4MPEG2) video of the QR code of `text`, black on white, centred.
 *
 * The format: one header line `YUV4MPEG2 W640 H480 F10:1 Ip A1:1 C420jpeg`, then
 * `fakeCameraFrames` frames, each the line `FRAME` followed by its planes in 8-bit 4:2:0: Y
 * (luma, width × height bytes, row by row from the top left; 0 for a dark module, 255 for light,
 * the quiet zone and the rest of the picture), then U and V (each width/2 × height/2 bytes, all
 * 128: no colour). Every frame is the same picture. The code is `QRCode.create(text,
 * { errorCorrectionLevel: "M" })`'s module matrix, each module drawn as a square of whole pixels, as
 * large as fits the picture's height with its quiet zone.
 *
 * @param text what the QR code says (e.g. a pass's URL, `<iss>/verify#<pass>`)
 * @param file the path to write, ending in `.y4m` (Chromium picks the format by the extension);
 *   its directory is made when missing
 * @throws when `file` does not end in `.y4m`, or the code has too many modules to draw each at 2
 *   pixels or more
 */
export async function fakeCameraVideo(text: string, file: string): Promise<void> {
  if (!file.endsWith(".y4m")) throw new Error(`A fake camera's file must end in .y4m: ${file}`);
  const width = fakeCameraWidth;
  const height = fakeCameraHeight;
  const modules = QRCode.create(text, { errorCorrectionLevel: "M" }).modules;
  const span = modules.size + 2 * quietModules;
  const scale = Math.floor(Math.min(width, height) / span);
  if (scale < 2) throw new Error(`A QR code of ${modules.size} modules does not fit ${width}x${height} at 2 pixels a module`);
  const luma = Buffer.alloc(width * height, 255);
  const left = Math.floor((width - modules.size * scale) / 2);
  const top = Math.floor((height - modules.size * scale) / 2);
  for (let row = 0; row < modules.size; row++) {
    for (let col = 0; col < modules.size; col++) {
      if (!modules.get(row, col)) continue;
      for (let y = top + row * scale; y < top + (row + 1) * scale; y++) luma.fill(0, y * width + left + col * scale, y * width + left + (col + 1) * scale);
    }
  }
  const chroma = Buffer.alloc((width / 2) * (height / 2) * 2, 128);
  const frame = Buffer.concat([Buffer.from("FRAME\n"), luma, chroma]);
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F${fakeCameraFps}:1 Ip A1:1 C420jpeg\n`);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, Buffer.concat([header, ...Array.from({ length: fakeCameraFrames }, () => frame)]));
}
