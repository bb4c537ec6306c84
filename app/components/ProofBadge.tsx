/**
 * The proof a result carries (docs/product/labs.md §10.9), in words with an icon that has a text
 * alternative: a signed code verified (SMART Health Card or EU DCC), fetched from the lab's own site,
 * or the document checks alone. Test Detail shows a result's; the window's card shows the proof of
 * the result the window comes from.
 */
import type { Messages } from "~/messages/catalogues";
import { proofWordsOf } from "~/result-words";

export type ProofKind = "signed" | "link" | "document" | "disagrees";

/** The kind of a proof label as the consumer API words it (`signed (…)`, `fetched from the lab`, `document checks`). */
export function proofKindOf(label: string): ProofKind {
  if (label.startsWith("signed")) return "signed";
  return label === "fetched from the lab" ? "link" : "document";
}

const shapes: Record<ProofKind, string> = {
  // A seal with a check mark; a globe with an arrow down; a page.
  signed: "M12 2l2.4 1.8 3-.2.9 2.9 2.5 1.7-1 2.8 1 2.8-2.5 1.7-.9 2.9-3-.2L12 22l-2.4-1.8-3 .2-.9-2.9-2.5-1.7 1-2.8-1-2.8 2.5-1.7.9-2.9 3 .2zM8.5 12l2.5 2.5 4.5-5",
  link: "M12 3a9 9 0 100 18 9 9 0 000-18zM3 12h18M12 3c3 3 3 15 0 18M12 3c-3 3-3 15 0 18",
  document: "M6 2h8l4 4v16H6zM14 2v4h4M9 12h6M9 16h6",
  // A warning triangle: the signed code and the report's text disagree.
  disagrees: "M12 3l10 18H2zM12 10v5M12 18v.5",
};

/** A proof badge's words, in the page's language: picked by `proofBadgeText` in a loader. */
export interface ProofText {
  kind: ProofKind;
  /** The icon's text alternative. */
  icon: string;
  /** The word before the proof ("Proof"). */
  proof: string;
  /** The proof itself as the consumer API words it, or, when it disagrees, that said. */
  words: string;
}

/**
 * The words of a badge for the proof `label` (as the consumer API words it) from the catalogue `m`,
 * the label itself reworded in `m`'s language (app/result-words.ts);
 * `disagrees` when a verified signed code disagrees with the report's text (the result is invalid,
 * never shown as a verified seal).
 */
export function proofBadgeText(m: Messages, label: string, disagrees = false): ProofText {
  const kind = disagrees ? "disagrees" : proofKindOf(label);
  const words = proofWordsOf(m, label);
  return { kind, icon: m.proofIconLabels[kind], proof: m.proofLabel, words: disagrees ? m.proofDisagrees(words) : words };
}

/** The proof's icon (named by its text alternative) and its words. */
export function ProofBadge({ text, className }: { text: ProofText; className?: string }) {
  const { kind } = text;
  return (
    <p className={`proof ${kind}${className ? ` ${className}` : ""}`}>
      <svg viewBox="0 0 24 24" className="proof-icon" role="img" aria-label={text.icon}>
        <title>{text.icon}</title>
        <path d={shapes[kind]} />
      </svg>{" "}
      <span className="label">{text.proof}</span> {text.words}
    </p>
  );
}
