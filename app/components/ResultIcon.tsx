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

/** What each state's icon says (its accessible name, and the text shown beside it on Test Detail). */
export const resultStateLabels: Record<ResultState, string> = {
  strong: "Strong: within the strong safe window",
  weak: "Weak: within the weak safe window",
  expired: "Expired: outside the safe window",
  disputed: "Invalid, dispute submitted",
  invalid: "Invalid",
};

/** The state in one word, shown beside the icon wherever results are listed (never the icon alone). */
export const resultStateWords: Record<ResultState, string> = {
  strong: "Strong",
  weak: "Weak",
  expired: "Expired",
  disputed: "Disputed",
  invalid: "Invalid",
};

const shapes: Record<ResultState, string> = {
  strong: "M12 2l8 3v6c0 5-3.5 9.5-8 11-4.5-1.5-8-6-8-11V5l8-3zM8 12l3 3 5-6",
  weak: "M12 2l8 3v6c0 5-3.5 9.5-8 11-4.5-1.5-8-6-8-11V5l8-3zM12 7v6M12 16v.5",
  expired: "M12 3a9 9 0 100 18 9 9 0 000-18zM12 7v5l3 3",
  disputed: "M12 3a9 9 0 100 18 9 9 0 000-18zM12 7v6M12 16v.5",
  invalid: "M12 3a9 9 0 100 18 9 9 0 000-18zM5.6 5.6l12.8 12.8",
};

/** The icon alone, named by its label (Test Detail shows the label beside it for sighted users too). */
export function ResultIcon({ state }: { state: ResultState }) {
  return <StateIcon state={state} named />;
}

/** The icon of `state`: named (an image with its label), or decorative when words stand beside it. */
function StateIcon({ state, named }: { state: ResultState; named: boolean }) {
  return (
    <svg viewBox="0 0 24 24" className={`result-icon ${state}`} {...(named ? { role: "img", "aria-label": resultStateLabels[state] } : { "aria-hidden": true, focusable: false })}>
      {named ? <title>{resultStateLabels[state]}</title> : null}
      <path d={shapes[state]} />
    </svg>
  );
}

/**
 * The state as a badge: the icon and its word, coloured by state. The word carries the meaning, so
 * the icon is decorative here; `title` gives the longer label (resultStateLabels) on hover.
 */
export function ResultBadge({ state }: { state: ResultState }) {
  return (
    <span className={`status-badge ${state}`} title={resultStateLabels[state]}>
      <StateIcon state={state} named={false} />
      {resultStateWords[state]}
    </span>
  );
}
