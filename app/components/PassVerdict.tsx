/**
 * A checked SafeWindow Pass at a glance (docs/product/pass.md §11.5), readable at arm's length:
 * green Strong or amber Weak with until when and when it was issued, or red Not valid with the reason
 * in words; with the initials, the birthday without its year, and the line telling the checker to
 * compare them with a photo ID. The same on the server (a check posted without JavaScript) and in the
 * browser (a check made there).
 */
import { formatInstant, formatMonthDay } from "~/dates";
import type { Language } from "~/i18n";
import type { PassCheck, PassRefusal } from "../../contracts/pass.ts";

/** Why a photo gave no pass (app/server/context.ts PhotoRead). */
export type PhotoRefusal = "not_image" | "too_large" | "too_many_pixels" | "no_code" | "busy";

/** A check's outcome as a page carries it: instants as ISO 8601 strings. */
export type Verdict =
  | { ok: true; window: "strong" | "weak"; strongUntil: string; weakUntil: string; issuedAt: string; initials: string; birthMonthDay: string }
  | { ok: false; reason: PassRefusal }
  | { ok: false; photo: PhotoRefusal };

/** The verdict of `check` (contracts/pass.ts checkPass). */
export function verdictOf(check: PassCheck): Verdict {
  if (!check.ok) return { ok: false, reason: check.reason };
  return {
    ok: true,
    window: check.window,
    strongUntil: check.strongUntil.toISOString(),
    weakUntil: check.weakUntil.toISOString(),
    issuedAt: check.issuedAt.toISOString(),
    initials: check.initials,
    birthMonthDay: check.birthMonthDay,
  };
}

/** The words of a verdict, from the loader in the checker's language. */
export interface VerdictText {
  strong: string;
  weak: string;
  notValid: string;
  weakRefused: string;
  until: string;
  issuedAt: string;
  initials: string;
  birthday: string;
  compareId: string;
  reasons: Record<PassRefusal, string>;
  photoReasons: Record<PhotoRefusal, string>;
}

export function PassVerdict({ verdict, strongOnly, text, timeZone, language }: { verdict: Verdict; strongOnly: boolean; text: VerdictText; timeZone: string; language: Language }) {
  if (!verdict.ok) {
    return (
      <div className="glance glance-none" role="alert" aria-labelledby="verdict-word">
        <p className="glance-verdict" id="verdict-word">
          {text.notValid}
        </p>
        <p>{"reason" in verdict ? text.reasons[verdict.reason] : text.photoReasons[verdict.photo]}</p>
      </div>
    );
  }
  const refused = verdict.window === "weak" && strongOnly;
  const word = verdict.window === "strong" ? text.strong : refused ? text.notValid : text.weak;
  const until = verdict.window === "strong" ? verdict.strongUntil : verdict.weakUntil;
  return (
    <div className={`glance ${refused ? "glance-none" : `glance-${verdict.window}`}`} role="alert" aria-labelledby="verdict-word">
      <p className="glance-verdict" id="verdict-word">
        {word}
      </p>
      {refused ? <p>{text.weakRefused}</p> : null}
      <p>
        {text.until} <time dateTime={until}>{formatInstant(until, timeZone, language)}</time>
      </p>
      <p className="glance-name">
        {text.initials}: <strong>{verdict.initials}</strong> · {text.birthday}: <strong>{formatMonthDay(verdict.birthMonthDay, language) ?? verdict.birthMonthDay}</strong>
      </p>
      <p>{text.compareId}</p>
      <p className="hint">
        {text.issuedAt} <time dateTime={verdict.issuedAt}>{formatInstant(verdict.issuedAt, timeZone, language)}</time>
      </p>
    </div>
  );
}
