/**
 * Interstitial pages for the screens that work in their loader (docs/architecture/behaviour.md §4 "Working
 * screens on a full load"): /checkaccountstatus and /confirmemail. Opened as a document (a click on
 * the e-mail link, a redirect after a sign-in without JavaScript), the browser would show nothing but
 * the previous page while the loader works; instead the first answer is the screen's working text,
 * which goes on at once to the same address with `step=go` (`app/components/Interstitial.tsx`), and
 * that second request does the work. Client-side navigations and clients that do not say they load
 * a document (scripts, mail scanners) get the work done in one request, as before.
 */

import { interstitialStep } from "~/paths";

/**
 * True when `request` should be answered with the interstitial: a browser loads it as a document
 * (`Sec-Fetch-Dest: document`) and it is not already the step that does the work.
 */
export function wantsInterstitial(request: Request): boolean {
  if (request.method !== "GET") return false;
  if (new URL(request.url).searchParams.get(interstitialStep.name) === interstitialStep.value) return false;
  return request.headers.get("Sec-Fetch-Dest") === "document";
}
