/**
 * The safety icon of a test result (docs/product/screens.md §2 Test Detail, §4): for a valid result, strong if its
 * strong date is in the future, else weak if its weak date is, else expired; for an invalid one
 * (valid 0) in the list, a red exclamation when disputed (disputeStatus 1), else a ban icon.
 */
import type { TestResult } from "~/server/upstream/consumer.server";
import { windowStrength } from "~/windows";

export type ResultState = "strong" | "weak" | "expired" | "disputed" | "invalid";

/** docs/product/screens.md §2: the state an icon shows for `result` at `now` (epoch ms). */
export function resultState(result: Pick<TestResult, "valid" | "disputeStatus" | "strongSafetyDate" | "weakSafetyDate">, now: number): ResultState {
  if (result.valid !== 1) return result.disputeStatus === 1 ? "disputed" : "invalid";
  const strength = windowStrength(result, now);
  return strength === "Strong" ? "strong" : strength === "Weak" ? "weak" : "expired";
}

/**
 * What each state's icon says, in the page's language (the catalogue's `resultStateLabels` and
 * `resultStateWords`, picked by the loader): `label` is its accessible name (and the text shown beside
 * it on Test Detail), `word` the state in one word wherever results are listed.
 */
export type ResultStateText = Record<ResultState, string>;

const shapes: Record<ResultState, string> = {
  strong: "M12 2l8 3v6c0 5-3.5 9.5-8 11-4.5-1.5-8-6-8-11V5l8-3zM8 12l3 3 5-6",
  weak: "M12 2l8 3v6c0 5-3.5 9.5-8 11-4.5-1.5-8-6-8-11V5l8-3zM12 7v6M12 16v.5",
  expired: "M12 3a9 9 0 100 18 9 9 0 000-18zM12 7v5l3 3",
  disputed: "M12 3a9 9 0 100 18 9 9 0 000-18zM12 7v6M12 16v.5",
  invalid: "M12 3a9 9 0 100 18 9 9 0 000-18zM5.6 5.6l12.8 12.8",
};

/**
 * The icon alone, named by its label (Test Detail shows the label beside it for sighted users too).
 * @param label the state's label in the page's language (`resultStateLabels[state]`)
 */
export function ResultIcon({ state, label }: { state: ResultState; label: string }) {
  return <StateIcon state={state} label={label} />;
}

/** The icon of `state`: named by `label` (an image), or decorative without one, when words stand beside it. */
function StateIcon({ state, label }: { state: ResultState; label?: string }) {
  return (
    <svg viewBox="0 0 24 24" className={`result-icon ${state}`} {...(label !== undefined ? { role: "img", "aria-label": label } : { "aria-hidden": true, focusable: false })}>
      {label !== undefined ? <title>{label}</title> : null}
      <path d={shapes[state]} />
    </svg>
  );
}

/**
 * The state as a badge: the icon and its word, coloured by state. The word carries the meaning, so
 * the icon is decorative here; `title` gives the longer label on hover.
 * @param word the state in one word, `label` its longer label, both in the page's language
 */
export function ResultBadge({ state, word, label }: { state: ResultState; word: string; label: string }) {
  return (
    <span className={`status-badge ${state}`} title={label}>
      <StateIcon state={state} />
      {word}
    </span>
  );
}
