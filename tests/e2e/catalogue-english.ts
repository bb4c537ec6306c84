/**
 * The English that must not appear on a Spanish page (docs/architecture/behaviour.md §4 "Language"):
 * every string of the English catalogue (app/messages/*.ts) and of what the reference services write
 * (`servicesEnglish`) that the Spanish catalogue does not also use,
 * and what a page shows a person in text or in the attributes read aloud, to look for them in.
 */
import type { Page } from "@playwright/test";
import { catalogues } from "../../app/messages/catalogues.ts";
import { rejectionMessages } from "../../services/consumer/results/errors.ts";
import { resultWords } from "../../contracts/result-words.ts";
import { windowDescription } from "../../services/consumer/results/windows.ts";

/** Marks a function message's parameter, to cut its fixed words out around it. */
const hole = "\u0001";
/** A fragment of an English message needs this many letters to be told apart from a name, a value or a token ("OK", "PDF"). */
const shortest = 4;

/** Every string in a catalogue entry: strings as they are, an object's strings, a function's fixed words between its parameters. */
function stringsOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (typeof value === "function") {
    // A text parameter gets the hole; one read as a table (`table.NAAT.weakHours`) gets holes all the way down.
    const holes: unknown = new Proxy({}, { get: (_, key) => (key === Symbol.toPrimitive ? () => hole : holes) });
    for (const argument of [hole, holes]) {
      try {
        const out: unknown = value(...Array.from({ length: value.length }, () => argument));
        // A message answering an object (the reasons of a refusal, by kind): each of its strings.
        return (typeof out === "string" ? [out] : stringsOf(out)).flatMap((text) => text.split(hole));
      } catch {
        // Not this kind of argument: try the next.
      }
    }
    // A parameter that is neither (a list, a count): its message is left out of the set.
    return [];
  }
  if (value && typeof value === "object") return Object.values(value).flatMap(stringsOf);
  return [];
}

/**
 * The English the reference services write into what the app shows (docs/product/calls.md §7.4 "What
 * the upstream writes"), which a Spanish page must word or get in Spanish: the consumer API's
 * refusals, its outcome, proof and checked-field words (its wire grammar, contracts/result-words.ts),
 * and its window description.
 */
const servicesEnglish = {
  rejectionMessages,
  resultWords: resultWords.en,
  windowDescription: windowDescription("\u0001", new Date(0)).split("\u0001").map((rest) => rest.replace(/\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/, "")),
};

/** Whitespace run together, a `{placeholder}` of prose cut out (its parts are looked for one by one). */
function fragments(text: string): string[] {
  return text
    .split(/\{\w+\}/)
    .map((part) => part.replace(/\s+/g, " ").trim())
    .filter((part) => (part.match(/[A-Za-z]/g) ?? []).length >= shortest);
}

/**
 * The English catalogue's strings and fragments that the Spanish catalogue does not also contain
 * (names, "SafeWindow", lab values, "Email" where Spanish keeps it), longest first.
 * Shape: string[]; each whitespace-normalized.
 */
export function englishOnlyStrings(): string[] {
  const spanish = new Set(Object.values(catalogues.es).flatMap(stringsOf).flatMap(fragments));
  const spanishText = [...spanish].join("\n");
  const english = new Set([...Object.values(catalogues.en), ...Object.values(servicesEnglish)].flatMap(stringsOf).flatMap(fragments));
  return [...english].filter((text) => !spanish.has(text) && !containsWord(spanishText, text)).sort((a, b) => b.length - a.length);
}

/** True when `text` holds `phrase` as whole words (case-sensitive): "Confirm" is not found in "Confirmar". */
export function containsWord(text: string, phrase: string): boolean {
  let pattern = patterns.get(phrase);
  if (!pattern) {
    const escaped = phrase.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    pattern = new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, "u");
    patterns.set(phrase, pattern);
  }
  return text.includes(phrase) && pattern.test(text);
}

/** Each phrase's whole-word pattern, made once. */
const patterns = new Map<string, RegExp>();

/**
 * What `page` shows a person: its visible text (innerText) and every aria-label, title, alt,
 * placeholder and button value, each whitespace-normalized. Shape: string[].
 */
export async function shownText(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const texts = [document.title, document.body.innerText];
    for (const element of document.querySelectorAll("[aria-label], [title], [alt], [placeholder], input[type=submit], input[type=button]")) {
      for (const name of ["aria-label", "title", "alt", "placeholder"]) {
        const value = element.getAttribute(name);
        if (value) texts.push(value);
      }
      if (element instanceof HTMLInputElement && (element.type === "submit" || element.type === "button")) texts.push(element.value);
    }
    return texts.map((t) => t.replace(/\s+/g, " ").trim()).filter(Boolean);
  });
}

/** The strings of `english` that `page` shows, each with where (the text or an attribute's value, up to 80 characters around it). */
export async function englishOn(page: Page, english: string[]): Promise<string[]> {
  const shown = await shownText(page);
  const found: string[] = [];
  for (const phrase of english) {
    const where = shown.find((text) => containsWord(text, phrase));
    if (where === undefined) continue;
    const at = where.indexOf(phrase);
    found.push(`"${phrase}" in "…${where.slice(Math.max(0, at - 30), at + phrase.length + 30)}…"`);
  }
  return found;
}
