/**
 * QR codes as inline SVG (docs/venues.md "Check-in": the check-in code is shown as text and as a QR
 * code), drawn on the server by `qrcode` (MIT), so that the page needs no script to show one.
 */
import QRCode from "qrcode";

/**
 * An SVG document of the QR code of `text` (error correction M), black on white, sized by its
 * container (viewBox only).
 * @param margin the quiet zone, in modules: 2 for a code read on the screen beside the page's white,
 *   4 (the standard's) for one a camera reads from any background or from paper (the SafeWindow Pass)
 */
export function qrSvg(text: string, margin = 2): Promise<string> {
  return QRCode.toString(text, { type: "svg", errorCorrectionLevel: "M", margin });
}
