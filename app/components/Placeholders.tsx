/**
 * A catalogue sentence with markup inside it (a link, an emphasized button name): the sentence stays
 * whole in every language, and names the marked-up words by placeholders such as `{button}` that the
 * route fills with elements (app/messages/pages.ts, docs/architecture/behaviour.md §4 "Language").
 */
import { Fragment, type ReactNode } from "react";

/** `{name}`: a placeholder, a name of letters and digits in braces. */
const placeholder = /\{(\w+)\}/g;

/** The placeholders' names in `text`, in order of appearance (each once). */
export function placeholdersOf(text: string): string[] {
  return [...new Set(Array.from(text.matchAll(placeholder), (match) => match[1]!))];
}

/**
 * `text` with each `{name}` replaced by `values[name]`, as React children.
 * Throws an Error naming the placeholder when `text` has one that `values` lacks, so a translation
 * that renamed a placeholder fails loudly rather than showing braces.
 */
export function fillPlaceholders(text: string, values: Readonly<Record<string, ReactNode>>): ReactNode[] {
  const parts = text.split(placeholder);
  // split with one capture group: even indexes are text, odd ones placeholder names.
  return parts.map((part, index) => {
    if (index % 2 === 0) return part;
    if (!(part in values)) throw new Error(`No value for the placeholder {${part}} in "${text}"`);
    return <Fragment key={index}>{values[part]}</Fragment>;
  });
}
