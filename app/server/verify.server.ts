/**
 * The words of /verify, the SafeWindow Pass checker (docs/product/pass.md §11.5): its loader picks
 * them in the checker's language (docs/architecture/behaviour.md §4 "Language").
 */
import { passClockToleranceSeconds } from "../../contracts/pass.ts";
import { maxPassPhotoMegabytes } from "~/limits";
import type { Messages } from "~/messages/catalogues";

/** /verify's words in the checker's language (catalogue `m`); `host` is the address a genuine pass's QR names. */
export function verifyText(m: Messages, host: string) {
  return {
    title: m.verifyTitle,
    intro: m.verifyIntro,
    onlyHere: m.verifyOnlyHere(host),
    domainLabel: m.verifyDomainLabel,
    pasteLabel: m.verifyPasteLabel,
    photoLabel: m.verifyPhotoLabel,
    photoHint: m.verifyPhotoHint(maxPassPhotoMegabytes),
    check: m.verifyCheck,
    strongOnly: m.verifyStrongOnly,
    strongOnlyHint: m.verifyStrongOnlyHint,
    save: m.verifySave,
    tolerance: m.verifyTolerance(passClockToleranceSeconds / 60),
    clockOff: m.verifyClockOff(passClockToleranceSeconds / 60),
    verdict: {
      strong: m.verifyStrong,
      weak: m.verifyWeak,
      notValid: m.verifyNotValid,
      weakRefused: m.verifyWeakRefused,
      until: m.verifyUntil,
      issuedAt: m.verifyIssuedAt,
      initials: m.passInitials,
      birthday: m.passBirthday,
      compareId: m.verifyCompareId,
      reasons: m.verifyReasons,
      photoReasons: m.verifyPhotoReasons(maxPassPhotoMegabytes),
    },
    scanner: { start: m.scanStart, stop: m.scanStop, starting: m.scanStarting, denied: m.scanDenied, unavailable: m.scanUnavailable, hint: m.scanHint, videoLabel: m.scanVideoLabel },
  };
}
