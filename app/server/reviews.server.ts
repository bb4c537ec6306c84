/**
 * The dispute reviewers' screens on the server (docs/architecture/upstream-calls.md §6.1 extensions "Dispute
 * reviews"): the review deadline's clock and the loaders' answer to a caller the upstream does not
 * take for a reviewer. The screens are reached only with the DisputeReviews screen enabled
 * (app/server/permissions.server.ts); the consumer API checks the role again on every call.
 */
import { data } from "react-router";
import type { Result } from "./upstream/result.server";
import { valueOrThrow } from "./upstream/result.server";
import { catalogueLanguages, intlLocales, type Language } from "~/i18n";

/** The most disputes one queue answer lists (the contract's limit). */
export { disputeQueueMax } from "../../contracts/consumer.ts";

/** The review deadline users are told of (docs/product/screens.md §2 test detail, disputeThanks): a review within 3 hours, in ms. */
export const REVIEW_DEADLINE_MS = 3 * 3600_000;

/** The duration formats of each language (app/i18n.ts `intlLocales`): the usual one, and the one that writes "0 min". */
const durations = Object.fromEntries(
  catalogueLanguages.map((language) => [
    language,
    {
      duration: new Intl.DurationFormat(intlLocales[language], { style: "short" }),
      underAMinute: new Intl.DurationFormat(intlLocales[language], { style: "short", minutesDisplay: "always" }),
    },
  ]),
) as Record<Language, { duration: Intl.DurationFormat; underAMinute: Intl.DurationFormat }>;

/**
 * `ms` as "2 hr, 5 min" (days, hours, minutes; "0 min" under a minute), in `language` ("2 h y 5 min" in
 * Spanish). Server-only: Intl.DurationFormat is not in every browser.
 */
export function reviewDuration(ms: number, language: Language = "en"): string {
  const { duration, underAMinute } = durations[language];
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes === 0) return underAMinute.format({ minutes: 0 });
  return duration.format({ days: Math.floor(minutes / 1440), hours: Math.floor((minutes % 1440) / 60), minutes: minutes % 60 });
}

/**
 * Where a dispute submitted at `disputedAt` (ISO) stands against the review deadline (REVIEW_DEADLINE_MS)
 * at `now` (ms since the epoch): how long it has been open, whether it is past the deadline, and the
 * time left before it or past it, worded in `language` (reviewDuration).
 */
export function reviewDeadlineState(disputedAt: string, now: number, language: Language = "en"): { openFor: string; overdue: boolean; left: string } {
  const open = now - Date.parse(disputedAt);
  return { openFor: reviewDuration(open, language), overdue: open > REVIEW_DEADLINE_MS, left: reviewDuration(Math.abs(REVIEW_DEADLINE_MS - open), language) };
}

/**
 * For the reviewers' loaders: the value, or 404 when the upstream refuses the caller (403: no longer a
 * reviewer, or the result is the reviewer's own, which they never decide: docs/security/data.md "Dispute
 * reviews") or lacks the call (404: a real upstream without the extension), as for any screen that
 * is not enabled; other failures as valueOrThrow.
 * @throws a React Router `data()` response
 */
export function valueOr404ForReviewers<T>(result: Result<T>): T {
  if (!result.ok && (result.reason === "refused" || result.reason === "notFound")) throw data(null, { status: 404 });
  return valueOrThrow(result);
}
