/**
 * What the app has learnt about each upstream's extensions (docs/product/calls.md §7 "Without the
 * extensions"): an upstream that answers only as the product rules say lacks our extension calls, and the screens
 * that need one leave it out instead of failing. The app never reads a setting for this; it learns
 * from the upstream's answers: a call that answers 404 where it would answer a refusal (400) is
 * absent, any other answer means it is there. Kept in memory per extension and per upstream base
 * URL for 10 minutes, so a change of upstream (or an upgrade) is seen within that time.
 */
import type { Result } from "./result.server";

/**
 * The extensions a screen asks about before offering what needs them:
 * - `checkin`: the consumer API's check-in codes (/checkin/…; docs/venues.md "Check-in");
 * - `ownData`: the consumer API's export, original PDFs and profile deletion (/consumer/export,
 *   /testresult/getpdf/, /consumer/deleteprofile);
 * - `accountDeletion`: the identity authority's POST /api/account/delete;
 * - `pass`: the consumer API's SafeWindow Pass (POST /consumer/pass, GET /consumer/passkeys).
 */
export type ExtensionName = "checkin" | "ownData" | "accountDeletion" | "pass";

/** How long what was learnt about an extension is trusted, ms. */
export const extensionTtlMs = 10 * 60 * 1000;

const learnt = new Map<string, { supported: boolean; at: number }>();
const keyOf = (baseUrl: string, extension: ExtensionName) => `${extension} ${baseUrl}`;

/** Notes that the upstream at `baseUrl` serves `extension` (true) or lacks it (false), as of now. */
export function learnExtension(baseUrl: string, extension: ExtensionName, supported: boolean): void {
  learnt.set(keyOf(baseUrl, extension), { supported, at: Date.now() });
}

/** What was learnt in the last 10 minutes about `extension` at `baseUrl`; undefined when nothing was. */
export function knownExtension(baseUrl: string, extension: ExtensionName): boolean | undefined {
  const known = learnt.get(keyOf(baseUrl, extension));
  return known && Date.now() - known.at < extensionTtlMs ? known.supported : undefined;
}

/**
 * Notes what one answer of an extension call says: a 404 (`notFound`) that the call does not give
 * for a missing object, absent; a success or a refusal, present. Other failures (no answer, a server
 * error) say nothing.
 */
export function learnFromAnswer(baseUrl: string, extension: ExtensionName, answer: Result<unknown>): void {
  if (answer.ok || answer.reason === "refused") learnExtension(baseUrl, extension, true);
  else if (answer.reason === "notFound") learnExtension(baseUrl, extension, false);
}

/**
 * Whether the upstream at `baseUrl` serves `extension`: what was learnt in the last 10 minutes, else
 * the answer of `probe`, a side-effect-free call of the extension that the upstream refuses (400)
 * where it exists and answers 404 where it does not. An upstream
 * that does not answer the probe counts as serving it, learning nothing (the screen then shows its
 * own load error rather than hiding a feature the upstream has).
 */
export async function extensionSupported(baseUrl: string, extension: ExtensionName, probe: () => Promise<Result<unknown>>): Promise<boolean> {
  const known = knownExtension(baseUrl, extension);
  if (known !== undefined) return known;
  // Each asker probes with their own token (a shared probe would pass one user's sign-in redirect to another).
  const answer = await probe();
  learnFromAnswer(baseUrl, extension, answer);
  return answer.ok || answer.reason !== "notFound";
}
