/**
 * The safe window card (docs/product/screens.md §2 /safewindow; §4 safe window): full name, date of birth (own card
 * only; docs/product/data.md §6), and the window's state: 'Strong' while strongSafetyDate is in the future, else
 * 'Weak' while weakSafetyDate is, with the strong or weak icon (strong takes precedence, docs/product/data.md §4),
 * the end of each window still open, and safeWindowDescription (docs/product/data.md §3) when the upstream gives
 * one; else the empty card with 'Submit Test' for the user's own card, which leads to the file picker.
 */
import { ProofBadge, proofBadgeText, type ProofText } from "~/components/ProofBadge";
import { Link } from "react-router";
import { formatInstant, localizeTimes, toUsDate } from "~/dates";
import type { Language } from "~/i18n";
import type { Messages } from "~/messages/catalogues";
import { windowStrength } from "~/windows";
import { ResultIcon } from "./ResultIcon";

export interface CardPerson {
  firstName: string;
  middleName?: string | null;
  lastName: string;
  /** YYYY-MM-DD; left out for other people's cards */
  dob?: string;
  strongSafetyDate: string | null;
  weakSafetyDate: string | null;
  /** The product ID (other people's cards show it, so the person can be told apart from a namesake). */
  safeWindowId?: string;
  /** docs/product/data.md §3: what the window rests on, e.g. "PCR (NAAT), collected 2026-11-20 16:15 UTC" */
  safeWindowDescription?: string | null;
  /** docs/product/labs.md §10.9: the proof of the result the window comes from, e.g. "signed (EU DCC, DE)" */
  safeWindowProof?: string | null;
}

/** A card's words in the page's language, picked by `safeWindowCardText` in a loader. */
export interface CardText {
  language: Language;
  label: string;
  dateOfBirth: string;
  productId: string;
  window: string;
  strong: string;
  weak: string;
  /** The strong and weak icons' labels (ResultIcon). */
  strongIcon: string;
  weakIcon: string;
  strongUntil: string;
  weakUntil: string;
  basedOn: string;
  timesIn: string;
  emptyWindow: string;
  submitTest: string;
  proof: ProofText | null;
}

/** The words of `person`'s card from the catalogue `m` of `language`, with times in `timeZone` (an IANA zone). */
export function safeWindowCardText(m: Messages, language: Language, person: CardPerson, timeZone: string): CardText {
  return {
    language,
    label: m.cardLabel(fullNameOf(person)),
    dateOfBirth: m.dateOfBirthLabel,
    productId: m.productIdLabel,
    window: m.windowLabel,
    strong: m.strongWindow,
    weak: m.weakWindow,
    strongIcon: m.resultStateLabels.strong,
    weakIcon: m.resultStateLabels.weak,
    strongUntil: m.strongUntil,
    weakUntil: m.weakUntil,
    basedOn: m.basedOn,
    timesIn: m.timesIn(timeZone.replace(/_/g, " ")),
    emptyWindow: m.emptyWindow,
    submitTest: m.submitTest,
    proof: person.safeWindowProof ? proofBadgeText(m, person.safeWindowProof) : null,
  };
}

function fullNameOf(person: CardPerson): string {
  return [person.firstName, person.middleName, person.lastName].filter(Boolean).join(" ");
}

/**
 * `showWindow` false leaves the window out: a follower's card shows their window only to people
 * who follow them (docs/product/README.md §1: confirmed followers see the followed person's window).
 */
export function SafeWindowCard({
  person,
  own,
  now,
  timeZone,
  showWindow = true,
  onUploadScreen = false,
  hiddenNote,
  text,
}: {
  person: CardPerson;
  text: CardText;
  own: boolean;
  now: number;
  timeZone: string;
  showWindow?: boolean;
  /** The card sits on My Tests, above the upload form. */
  onUploadScreen?: boolean;
  /** Why the window is not shown (with `showWindow` false), e.g. what it takes to see it. */
  hiddenNote?: string;
}) {
  const fullName = fullNameOf(person);
  const strength = windowStrength(person, now);
  return (
    <article className={`safe-window-card ${strength ? `open ${strength.toLowerCase()}` : "closed"}`} aria-label={text.label}>
      <h2 className="card-name">{fullName}</h2>
      {own && person.dob ? (
        <p className="card-dob">
          <span className="label">{text.dateOfBirth}</span> {toUsDate(person.dob)}
        </p>
      ) : null}
      {!own && person.safeWindowId ? (
        <p className="card-id">
          <span className="label">{text.productId}</span> <code className="product-id">{person.safeWindowId}</code>
        </p>
      ) : null}
      {!showWindow ? (
        hiddenNote ? (
          <p className="window-hidden">{hiddenNote}</p>
        ) : null
      ) : strength ? (
        <div className="window-state">
          <p className="strength">
            <span className="label">{text.window}</span> <strong>{strength === "Strong" ? text.strong : text.weak}</strong> <ResultIcon state={strength === "Strong" ? "strong" : "weak"} label={strength === "Strong" ? text.strongIcon : text.weakIcon} />
          </p>
          {strength === "Strong" && person.strongSafetyDate ? (
            <p>
              <span className="label">{text.strongUntil}</span> {formatInstant(person.strongSafetyDate, timeZone, text.language)}
            </p>
          ) : null}
          {person.weakSafetyDate && Date.parse(person.weakSafetyDate) > now ? (
            <p>
              <span className="label">{text.weakUntil}</span> {formatInstant(person.weakSafetyDate, timeZone, text.language)}
            </p>
          ) : null}
          {person.safeWindowDescription ? (
            <p className="window-description">
              <span className="label">{text.basedOn}</span> {localizeTimes(person.safeWindowDescription, timeZone, text.language)}
            </p>
          ) : null}
          {text.proof ? <ProofBadge text={text.proof} className="window-proof" /> : null}
          <p className="zone-note">{text.timesIn}</p>
        </div>
      ) : (
        <div className="window-state empty">
          <p>{text.emptyWindow}</p>
          {own ? (
            // Straight to the file picker: from another screen as the screen's one primary action,
            // on My Tests (where the upload form is the primary) as a secondary link down to it.
            <Link className={onUploadScreen ? "button secondary" : "button"} to={onUploadScreen ? "#result-file" : "/mytests#result-file"}>
              {text.submitTest}
            </Link>
          ) : null}
        </div>
      )}
    </article>
  );
}
