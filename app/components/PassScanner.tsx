/**
 * The camera scanner of the SafeWindow Pass checker (/verify, docs/product/pass.md §11.2): reads
 * the QR code of a pass with the device's camera and hands its text to the page, which checks it as
 * it checks a pasted one. JavaScript only: nothing of it is rendered on the server or before
 * hydration, so a page without JavaScript shows no button that cannot work.
 *
 * QR codes are read by the browser's BarcodeDetector where it reads them; elsewhere by zxing-wasm
 * (./qr-decoder.client.ts), loaded only when the camera is started, its WebAssembly from our own
 * assets. The page must allow the camera (Permissions-Policy `camera=(self)`) and, for zxing-wasm,
 * compiling WebAssembly (CSP `script-src 'wasm-unsafe-eval'`).
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { useHydrated } from "~/hooks/useHydrated";

/** The scanner's words in the page's language, from the route's loader. */
export interface ScannerText {
  /** The button that starts the camera ("Scan with camera"). */
  start: string;
  /** The same button while the camera runs ("Stop camera"). */
  stop: string;
  /** Said while the browser asks for the camera and the reader loads. */
  starting: string;
  /** Said when the camera was refused (by the person or the browser's settings). */
  denied: string;
  /** Said when there is no camera, it is in use, the page is not on HTTPS, or the reader cannot load. */
  unavailable: string;
  /** Said while the camera runs: what to do ("Hold the pass's QR code inside the picture"). */
  hint: string;
  /** The camera picture's name for screen readers. */
  videoLabel: string;
}

type ScannerState = "idle" | "starting" | "scanning" | "denied" | "unavailable";

/** Pause between two reads of the picture, in milliseconds: about 7 reads a second. */
const readPauseMs = 140;

/** Reads the QR code in the frame a video shows now: its text, or undefined for none. */
type FrameReader = (video: HTMLVideoElement) => Promise<string | undefined>;

/** The part of the BarcodeDetector API the scanner uses (not in TypeScript's DOM types). */
interface BarcodeDetectorClass {
  new (options: { formats: string[] }): { detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]> };
  getSupportedFormats(): Promise<string[]>;
}

/** The browser's QR reader when it has one, else zxing-wasm's, loaded and prepared now. */
async function frameReader(): Promise<FrameReader> {
  const Detector = (globalThis as { BarcodeDetector?: BarcodeDetectorClass }).BarcodeDetector;
  if (Detector && (await Detector.getSupportedFormats().catch((): string[] => [])).includes("qr_code")) {
    const detector = new Detector({ formats: ["qr_code"] });
    return async (video) => (await detector.detect(video)).find((code) => code.rawValue !== "")?.rawValue;
  }
  const decoder = await import("./qr-decoder.client");
  await decoder.prepareQrReader();
  return decoder.readQrFromVideo;
}

/** One run of the camera, from the button's press to its stop. */
interface Run {
  stopped: boolean;
  stream?: MediaStream;
  timer?: number;
}

/**
 * The scan button, the camera picture while it runs, and a status line.
 * @param text its words in the page's language
 * @param onText called once with the text of the first QR code read, after the camera has stopped
 */
export function PassScanner({ text, onText }: { text: ScannerText; onText: (text: string) => void }) {
  const hydrated = useHydrated();
  const [state, setState] = useState<ScannerState>("idle");
  const videoRef = useRef<HTMLVideoElement>(null);
  const runRef = useRef<Run | undefined>(undefined);
  const onTextRef = useRef(onText);
  useEffect(() => {
    onTextRef.current = onText;
  }, [onText]);

  /** Stops the current run: no more reads, every track of the camera stopped, the picture cleared. */
  const stop = useCallback((next: ScannerState = "idle") => {
    const run = runRef.current;
    runRef.current = undefined;
    if (run) {
      run.stopped = true;
      window.clearTimeout(run.timer);
      for (const track of run.stream?.getTracks() ?? []) track.stop();
    }
    if (videoRef.current) videoRef.current.srcObject = null;
    setState(next);
  }, []);

  const start = useCallback(async () => {
    if (!navigator.mediaDevices?.getUserMedia) return setState("unavailable");
    const run: Run = { stopped: false };
    runRef.current = run;
    setState("starting");
    // The reader loads while the browser asks for the camera.
    const reader = frameReader();
    reader.catch(() => {});
    try {
      run.stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" }, audio: false });
    } catch (err) {
      if (!run.stopped) stop(err instanceof DOMException && (err.name === "NotAllowedError" || err.name === "SecurityError") ? "denied" : "unavailable");
      return;
    }
    const read = await reader.catch(() => undefined);
    const video = videoRef.current;
    if (run.stopped || !read || !video) {
      // Stopped while the browser asked (this run's tracks were not known to stop() yet), or no reader.
      for (const track of run.stream.getTracks()) track.stop();
      if (!run.stopped) stop("unavailable");
      return;
    }
    video.srcObject = run.stream;
    try {
      await video.play();
    } catch {
      // Stop pressed while the picture started (its play is then aborted), or the picture cannot play.
      if (!run.stopped) stop("unavailable");
      return;
    }
    if (run.stopped) return;
    setState("scanning");
    const tick = async () => {
      let found: string | undefined;
      try {
        found = await read(video);
      } catch {
        // A frame the reader refuses (one not decoded yet) is skipped: the next one is read.
      }
      if (run.stopped) return;
      if (found === undefined) {
        run.timer = window.setTimeout(tick, readPauseMs);
        return;
      }
      stop();
      onTextRef.current(found);
    };
    void tick();
  }, [stop]);

  // The camera is never left on: stopped when the page is hidden (another tab, the phone locked) and when the scanner goes.
  useEffect(() => {
    const onVisibility = () => {
      if (document.visibilityState === "hidden" && runRef.current) stop();
    };
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      document.removeEventListener("visibilitychange", onVisibility);
      stop();
    };
  }, [stop]);

  if (!hydrated) return null;
  const running = state === "starting" || state === "scanning";
  const said = { idle: "", starting: text.starting, scanning: text.hint, denied: text.denied, unavailable: text.unavailable }[state];
  return (
    <div className="pass-scanner">
      {/* One button whose words change, so focus stays on it from start to stop. */}
      <button type="button" className={running ? "button secondary" : "button"} onClick={running ? () => stop() : () => void start()}>
        {running ? text.stop : text.start}
      </button>
      <video ref={videoRef} playsInline muted hidden={state !== "scanning"} aria-label={text.videoLabel} />
      <p role="status" className={`form-message ${state === "denied" || state === "unavailable" ? "error" : "info"}`}>
        {said}
      </p>
    </div>
  );
}
