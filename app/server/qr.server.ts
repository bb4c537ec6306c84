/**
 * QR codes as inline SVG (docs/venues.md "Check-in": the check-in code is shown as text and as a QR
 * code), drawn on the server by `qrcode` (MIT), so that the page needs no script to show one.
 */
import QRCode from "qrcode";

/**
 * An SVG document of the QR code of `text` (error correction M, a 2-module margin), black on white,
 * sized by its container (viewBox only).
 */
export function qrSvg(text: string): Promise<string> {
  return QRCode.toString(text, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
}
