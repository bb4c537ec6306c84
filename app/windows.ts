/**
 * Which safe window is open (docs/product/data.md §4 "safe window"): the rule the screens share, so that
 * the card, the result icons and the people list can never disagree.
 */

/** The two validity dates of a window: ISO 8601 UTC instants, or null when there is none. */
export interface WindowDates {
  strongSafetyDate: string | null;
  weakSafetyDate: string | null;
}

/**
 * 'Strong' while strongSafetyDate is after `now`, else 'Weak' while weakSafetyDate is, else null
 * (strong takes precedence; docs/product/data.md §4).
 * @param now epoch ms
 */
export function windowStrength(dates: WindowDates, now: number): "Strong" | "Weak" | null {
  if (dates.strongSafetyDate && Date.parse(dates.strongSafetyDate) > now) return "Strong";
  if (dates.weakSafetyDate && Date.parse(dates.weakSafetyDate) > now) return "Weak";
  return null;
}
