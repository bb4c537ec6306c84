// docs/architecture/results-pipeline.md §5 step 9, windows (docs/product/labs.md §10.7): counted from specimen
// collection in UTC by the rules table (labs/rules.ts); a window is open while now < end (the
// end is exclusive). Only a negative result opens one. The consumer's window is that of their
// most recent valid result by collection time; a positive result ends it. Inconclusive results
// (Inconclusive, Void, Invalid) neither open nor end a window: they say nothing about the
// person's state, so an earlier negative result still stands. Every function takes `now`.
import { COLLECTION_CLOCK_SKEW_MS, WINDOW_RULES } from "../labs/rules.ts";
import type { Method, Outcome } from "../labs/types.ts";
import type { MailLanguage } from "../../shared/language.ts";
import { UploadRejectedError } from "./errors.ts";

const HOUR_MS = 60 * 60 * 1000;

/** A result's window: both ends null when it opens none. */
export interface ResultWindow {
  strongSafetyDate: Date | null;
  weakSafetyDate: Date | null;
}

/**
 * The window a result opens: for a negative result, collection + the method's strong and weak
 * hours; for any other result, none.
 */
export function resultWindow(method: Method, outcome: Outcome, collectedAt: Date): ResultWindow {
  if (outcome !== "Negative") return { strongSafetyDate: null, weakSafetyDate: null };
  const rule = WINDOW_RULES[method];
  return {
    strongSafetyDate: new Date(collectedAt.getTime() + rule.strongHours * HOUR_MS),
    weakSafetyDate: new Date(collectedAt.getTime() + rule.weakHours * HOUR_MS),
  };
}

/** docs/product/data.md §4: a window is valid while its end is in the future; the end itself is outside. */
export function isOpen(end: Date | null, now: Date): boolean {
  return end !== null && now.getTime() < end.getTime();
}

/** An instant as messages and descriptions write it: `2026-11-20 16:15 UTC`. */
export function utcText(at: Date): string {
  return `${at.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/**
 * Refuses a collection time in the future (beyond COLLECTION_CLOCK_SKEW_MS of the server's clock).
 * @throws UploadRejectedError "future".
 */
export function checkCollectionTime(collectedAt: Date, now: Date): void {
  if (collectedAt.getTime() - now.getTime() > COLLECTION_CLOCK_SKEW_MS) {
    throw new UploadRejectedError("future", (w) => w.future(utcText(collectedAt)));
  }
}

/**
 * Step 9 for a report: refuses a future collection time, then gives the window the result opens.
 * @throws UploadRejectedError "future".
 */
export function reportWindow(report: { method: Method; outcome: Outcome; collectedAt: Date }, now: Date): ResultWindow {
  checkCollectionTime(report.collectedAt, now);
  return resultWindow(report.method, report.outcome, report.collectedAt);
}

/** What decides the consumer's window: a stored result's validity, outcome and window. */
export interface WindowCandidate {
  valid: boolean;
  outcome: Outcome;
  collectedAt: Date;
  strongSafetyDate: Date | null;
  weakSafetyDate: Date | null;
  /** The window's description, e.g. "PCR (NAAT), collected 2026-11-20 16:15 UTC". */
  description: string;
  /** The result's proof in words (proof/check.ts proofLabel), e.g. "signed (EU DCC, DE)". */
  proof?: string;
}

/** The consumer's window (docs/product/data.md §3 strongSafetyDate, weakSafetyDate, safeWindowDescription). */
export interface ConsumerWindow {
  strongSafetyDate: Date | null;
  weakSafetyDate: Date | null;
  safeWindowDescription: string | null;
  /** The proof of the result the window comes from; null without a window. */
  safeWindowProof: string | null;
}

/**
 * The consumer's window from their results: that of the most recent valid Negative or Positive
 * result by collection time (a Positive one gives none); at equal times a Positive result wins.
 */
export function consumerWindow(results: readonly WindowCandidate[]): ConsumerWindow {
  let latest: WindowCandidate | undefined;
  for (const r of results) {
    if (!r.valid || r.outcome === "Inconclusive") continue;
    const t = r.collectedAt.getTime();
    const best = latest?.collectedAt.getTime() ?? -Infinity;
    if (t > best || (t === best && r.outcome === "Positive")) latest = r;
  }
  if (!latest || latest.outcome !== "Negative") return { strongSafetyDate: null, weakSafetyDate: null, safeWindowDescription: null, safeWindowProof: null };
  return { strongSafetyDate: latest.strongSafetyDate, weakSafetyDate: latest.weakSafetyDate, safeWindowDescription: latest.description, safeWindowProof: latest.proof ?? null };
}

/** The description stored with a result's window: `<method wording>, collected <UTC time>`. */
export function windowDescription(methodDescription: string, collectedAt: Date): string {
  return `${methodDescription}, collected ${utcText(collectedAt)}`;
}

/**
 * A stored window description in the language of the request that reads it (docs/product/calls.md
 * §7.4 "What the upstream writes"): windowDescription's `<method wording>, collected <UTC time>`
 * becomes `<method wording>, muestra tomada el <UTC time>` in Spanish, in the terms of
 * docs/glossary-es.md; the method's wording (the lab's own term, e.g. "PCR (NAAT)") and the
 * instant stay as written, so the app still shows the instant in the person's time zone. English,
 * null and any text of another shape are returned unchanged.
 * @param language the request's language (services/shared/language.ts requestedMailLanguage; English when it says none).
 */
export function windowDescriptionIn(description: string | null, language: MailLanguage): string | null {
  if (description === null || language === "en") return description;
  const parts = /^(.+), collected (\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC)$/.exec(description);
  return parts ? `${parts[1]}, muestra tomada el ${parts[2]}` : description;
}
