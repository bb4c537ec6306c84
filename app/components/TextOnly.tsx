/**
 * Words only a browser without CSS shows (text browsers such as w3m, reader modes): `.text-only` is
 * `display: none` in app.css, so graphical browsers and screen readers skip them; they say by layout,
 * colour, roles and aria-current what these say in text (docs/architecture/behaviour.md §4, text browsers).
 */
import type { ReactNode } from "react";

/** `children` for browsers without CSS only. */
export function TextOnly({ children }: { children: ReactNode }) {
  return <span className="text-only">{children}</span>;
}

/** " | " between inline items (links, tabs) that CSS lays apart, so they never read as one word. */
export function TextSeparator() {
  return <TextOnly> | </TextOnly>;
}
