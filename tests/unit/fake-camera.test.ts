// The e2e tests' fake camera (tests/e2e/fake-camera.ts): the Y4M file it writes is read back as
// Chromium reads it (the header's fields, then frames of a header line and 4:2:0 planes of the
// stated size), and the first frame's luma, taken as a grey picture, reads with zxing-wasm to the
// URL of a real pass.
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { generateKeyPair } from "jose";
import { describe, expect, it } from "vitest";
import { passClaims, passUrl, signPass } from "../../contracts/pass";
import { fakeCameraFps, fakeCameraFrames, fakeCameraVideo } from "../e2e/fake-camera";
import { qrReader } from "../fixtures/qr-reader";

const iss = "https://safewindow.example.com";

/** A signed pass's URL, as a pass's QR code carries it. */
async function aPassUrl(): Promise<string> {
  const now = new Date("2026-11-28T12:00:00Z");
  const { privateKey } = await generateKeyPair("ES256");
  const claims = passClaims(iss, { firstName: "Ada", lastName: "Lovelace", dob: "1990-12-10" }, { strongSafetyDate: new Date(now.getTime() + 20 * 3600_000), weakSafetyDate: new Date(now.getTime() + 44 * 3600_000) }, now);
  return passUrl(iss, await signPass(claims!, { kid: "k1", privateKey }));
}

/** A Y4M file's header fields by their letter, and its frames' planes. */
function parseY4m(file: Buffer): { fields: Map<string, string>; frames: { y: Buffer; u: Buffer; v: Buffer }[] } {
  const end = file.indexOf(0x0a);
  const [magic, ...tokens] = file.subarray(0, end).toString("ascii").split(" ");
  expect(magic).toBe("YUV4MPEG2");
  const fields = new Map(tokens.map((token) => [token[0]!, token.slice(1)]));
  const width = Number(fields.get("W"));
  const height = Number(fields.get("H"));
  const lumaBytes = width * height;
  const chromaBytes = (width / 2) * (height / 2);
  const frames = [];
  for (let at = end + 1; at < file.length; ) {
    const lineEnd = file.indexOf(0x0a, at);
    expect(file.subarray(at, lineEnd).toString("ascii")).toBe("FRAME");
    const y = file.subarray(lineEnd + 1, lineEnd + 1 + lumaBytes);
    const u = file.subarray(lineEnd + 1 + lumaBytes, lineEnd + 1 + lumaBytes + chromaBytes);
    const v = file.subarray(lineEnd + 1 + lumaBytes + chromaBytes, lineEnd + 1 + lumaBytes + 2 * chromaBytes);
    expect(v.length, "a whole frame").toBe(chromaBytes);
    frames.push({ y, u, v });
    at = lineEnd + 1 + lumaBytes + 2 * chromaBytes;
  }
  return { fields, frames };
}

describe("fakeCameraVideo", () => {
  it("writes a 4:2:0 Y4M video whose first frame's luma reads as the pass's URL", async () => {
    const text = await aPassUrl();
    const file = path.join(tmpdir(), `fake-camera-${process.pid}`, "pass.y4m");
    await fakeCameraVideo(text, file);
    const { fields, frames } = parseY4m(await readFile(file));

    expect(Object.fromEntries(fields)).toEqual({ W: "640", H: "480", F: `${fakeCameraFps}:1`, I: "p", A: "1:1", C: "420jpeg" });
    expect(frames).toHaveLength(fakeCameraFrames);
    for (const { y, u, v } of frames) {
      expect(y.length).toBe(640 * 480);
      expect(u.every((byte) => byte === 128) && v.every((byte) => byte === 128), "no colour").toBe(true);
      expect(y.every((byte) => byte === 0 || byte === 255), "black modules on white").toBe(true);
      expect(y.equals(frames[0]!.y), "every frame the same picture").toBe(true);
    }
    // The quiet zone: the top and bottom rows are white.
    const white = (row: number) => frames[0]!.y.subarray(row * 640, (row + 1) * 640).every((byte) => byte === 255);
    expect(white(0) && white(479)).toBe(true);

    const grey = frames[0]!.y;
    const rgba = new Uint8ClampedArray(grey.length * 4);
    for (let i = 0; i < grey.length; i++) {
      rgba.fill(grey[i]!, i * 4, i * 4 + 3);
      rgba[i * 4 + 3] = 255;
    }
    const { readBarcodes } = await qrReader();
    const found = await readBarcodes({ data: rgba, width: 640, height: 480, colorSpace: "srgb" } as ImageData, { formats: ["QRCode"] });
    expect(found.filter((code) => code.isValid).map((code) => code.text)).toEqual([text]);
  });

  it("refuses a file Chromium would not read as Y4M", async () => {
    await expect(fakeCameraVideo("x", path.join(tmpdir(), "camera.mjpeg"))).rejects.toThrow(/\.y4m/);
  });
});
