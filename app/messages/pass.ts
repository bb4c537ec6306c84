/**
 * The SafeWindow Pass (docs/product/pass.md): the holder's pass screen, its printable PDF, and the
 * checker at /verify, read in the checker's own language. All ours.
 */
import { productName } from "./shell.ts";

// The holder's pass screen.
export const passTitle = `${productName} Pass`;
export const passLink = "Show my pass";
export const passOffer = `Prove your safe window to anyone, even outside ${productName}: they scan your pass with their phone's camera.`;
export const passHint = "Anyone can check this pass with a phone camera, without an account. It shows only your initials, your birthday without the year, and until when your safe window is open.";
export const passQrLabel = (initials: string) => `QR code of the ${productName} Pass of ${initials}`;
export const passInitials = "Initials";
export const passBirthday = "Birthday";
export const passStrongUntil = "Strong until";
export const passWeakUntil = "Weak until";
export const passIssued = "Issued";
export const passPrint = "Print or save as PDF";
export const passFresh = "Each time you open this page, you get a fresh pass. A pass ends with your safe window, and cannot be withdrawn before.";
export const passNoWindow = "Your safe window is not open now, so there is no pass to show. Upload a recent negative test result to open one.";
export const passBackToWindow = "Back to My Safe Window";
export const passPdfCheckLine = (address: string) => `Scan with a phone camera, or open ${address} and scan there. Compare the initials and birthday with a photo ID.`;
export const passPdfFileName = "safewindow-pass.pdf";

// The checker (/verify).
export const verifyTitle = `Check a ${productName} Pass`;
export const verifyIntro = `Scan the QR code of a ${productName} Pass, or paste its text. Nothing you check is kept.`;
export const verifyOnlyHere = (host: string) => `A real pass is checked only at ${host}. If a scanned code opened another address, it is not ours.`;
export const verifyDomainLabel = "You are checking at";
export const verifyPasteLabel = "The pass's text, or the address its QR code opens";
export const verifyPhotoLabel = "Or a photo of the QR code";
/** The photo field's hint; `megabytes` is the photo cap (app/limits.ts maxPassPhotoMegabytes). */
export const verifyPhotoHint = (megabytes: number) => `A JPEG, PNG or WebP photo, up to ${megabytes} MB.`;
export const verifyCheck = "Check";
export const verifyCheckAnother = "Check another pass";
export const verifyNothingGiven = "Paste a pass's text, or choose a photo of its QR code.";
export const verifyStrongOnly = "Accept strong windows only";
export const verifyStrongOnlyHint = "Remembered on this device. A weak window then shows as not accepted.";
export const verifySave = "Save";
export const verifyStrong = "Strong";
export const verifyWeak = "Weak";
export const verifyNotValid = "Not valid";
export const verifyWeakRefused = "Weak: not accepted here, where only strong windows are accepted.";
export const verifyUntil = "until";
export const verifyIssuedAt = "Issued";
export const verifyCompareId = "Compare the initials and birthday with a photo ID.";
export const verifyReasons = {
  expired: "This pass has expired.",
  not_yet_valid: "This pass was issued in the future: check this device's clock.",
  other_issuer: "This pass was issued by another address, not this one.",
  unknown_key: "This pass is signed with a key we do not know.",
  damaged: "This is not a pass, or it is damaged or incomplete.",
};
/** Why a photo was not read, by reason; `megabytes` is the photo cap (app/limits.ts maxPassPhotoMegabytes). */
export const verifyPhotoReasons = (megabytes: number) => ({
  not_image: "That file is not a photo we can read. Choose a JPEG, PNG or WebP photo.",
  too_large: `That photo is too large. Choose one of up to ${megabytes} MB.`,
  too_many_pixels: "That photo has too many pixels. Choose a smaller one.",
  no_code: "We found no QR code in that photo. Take it again, closer and in focus.",
  busy: "We are reading many photos right now. Please try again in a moment.",
});
export const verifyUnavailable = "Passes cannot be checked here right now. Please try again later.";
/** The clock notice; `minutes` is the clocks' tolerance (contracts/pass.ts passClockToleranceSeconds). */
export const verifyClockOff = (minutes: number) =>
  `This device's clock is more than ${minutes} minutes away from ours, so a pass may be checked wrongly here. Set the clock right before checking passes.`;
export const verifyTolerance = (minutes: number) => `A difference of up to ${minutes} minutes between clocks is allowed.`;
export const verifyTooMany = "Too many checks from this address. Please wait a minute.";
export const scanStart = "Scan with camera";
export const scanStop = "Stop camera";
export const scanStarting = "Starting the camera…";
export const scanDenied = "The camera is not allowed. Allow it in the browser's settings, or paste the pass's text.";
export const scanUnavailable = "No camera can be used here. Paste the pass's text or choose a photo instead.";
export const scanHint = "Point the camera at the QR code.";
export const scanVideoLabel = "Camera view";
