/**
 * Shared components word themselves in the page's language (docs/architecture/behaviour.md §4
 * "Language"): each is given its words by the page (loader data, from the request's catalogue) and
 * holds none of its own. Rendered to HTML as the server sends it with the Spanish catalogue, none of
 * the English words of it appear; with the English catalogue, the English words do.
 */
import { useForm } from "@conform-to/react";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { PasswordField } from "../../app/components/PasswordField";
import { ResultBadge, ResultIcon } from "../../app/components/ResultIcon";
import { ResultPager, resultPagerText } from "../../app/components/ResultPager";
import { catalogues } from "../../app/messages/catalogues";

const en = catalogues.en;
/** `text` as it stands in HTML text (the markup escapes `&`, `<`, `>`, and `"`). */
const html = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const es = catalogues.es;

/** A new-password field with the rule hint of `rule`, as the server renders it. */
function passwordField(rule: string | undefined): string {
  function Form() {
    const [, fields] = useForm<{ password: string }>({ id: "f" });
    return createElement(PasswordField, { label: "L", field: fields.password, autoComplete: "new-password", rule });
  }
  return renderToStaticMarkup(createElement(Form));
}

describe("PasswordField", () => {
  it("shows the rule hint it is given: Spanish in Spanish, no English of it", () => {
    const page = passwordField(es.passwordRuleHint);
    expect(page).toContain(html(es.passwordRuleHint));
    expect(page).not.toMatch(/upper case|lower case|characters/);
  });

  it("English unchanged; no rule, no hint", () => {
    expect(passwordField(en.passwordRuleHint)).toContain(`<p class="field-hint" id="f-password-hint">${html(en.passwordRuleHint)}</p>`);
    expect(passwordField(undefined)).not.toContain("field-hint");
  });
});

describe("ResultIcon and ResultBadge", () => {
  const states = ["strong", "weak", "expired", "disputed", "invalid"] as const;
  /** Every English word of the states' labels and words ("Strong", "within", "dispute", ...). */
  const englishWords = new Set(states.flatMap((s) => `${en.resultStateLabels[s]} ${en.resultStateWords[s]}`.match(/[A-Za-z]{2,}/g) ?? []));

  it("in Spanish, the icon's name, its title and the badge's word carry no English of them", () => {
    for (const state of states) {
      const icon = renderToStaticMarkup(createElement(ResultIcon, { state, label: es.resultStateLabels[state] }));
      expect(icon).toContain(`aria-label="${html(es.resultStateLabels[state])}"`);
      expect(icon).toContain(`<title>${html(es.resultStateLabels[state])}</title>`);
      const badge = renderToStaticMarkup(createElement(ResultBadge, { state, word: es.resultStateWords[state], label: es.resultStateLabels[state] }));
      expect(badge).toContain(`title="${html(es.resultStateLabels[state])}"`);
      expect(badge).toContain(`</svg>${html(es.resultStateWords[state])}</span>`);
      // What a person reads or hears: the text between tags, the aria-label and the title (not the class names).
      const read = [...`${icon}${badge}`.matchAll(/>([^<]+)<|(?:aria-label|title)="([^"]*)"/g)].map((m) => m[1] ?? m[2]).join(" ");
      expect(read).toContain(es.resultStateWords[state]);
      for (const word of englishWords) expect(read, `${state}: ${word}`).not.toMatch(new RegExp(`\\b${word}\\b`));
    }
  });

  it("in English, the same words as before", () => {
    const icon = renderToStaticMarkup(createElement(ResultIcon, { state: "strong", label: en.resultStateLabels.strong }));
    expect(icon).toBe('<svg viewBox="0 0 24 24" class="result-icon strong" role="img" aria-label="Strong: within the strong safe window"><title>Strong: within the strong safe window</title><path d="M12 2l8 3v6c0 5-3.5 9.5-8 11-4.5-1.5-8-6-8-11V5l8-3zM8 12l3 3 5-6"></path></svg>');
    const badge = renderToStaticMarkup(createElement(ResultBadge, { state: "disputed", word: en.resultStateWords.disputed, label: en.resultStateLabels.disputed }));
    expect(badge).toMatch(/^<span class="status-badge disputed" title="Invalid, dispute submitted"><svg [^>]*aria-hidden="true"[^>]*>.*<\/svg>Disputed<\/span>$/);
  });
});

/** The pager as the server renders it, with its words from the Spanish catalogue. */
function spanishPager(page: number, pageCount: number | undefined): string {
  const text = resultPagerText(es, page, pageCount);
  return renderToStaticMarkup(createElement(MemoryRouter, null, createElement(ResultPager, { page, pageCount, hrefOf: (n: number) => `/v?page=${n}`, focus: false, text })));
}

describe("ResultPager", () => {
  /** Every English word of the pager's catalogue entries. */
  const englishWords = `${en.pagesOfResult} ${en.previousPage} ${en.nextPage} ${en.pageOf(2, 3)} ${en.onlyFirstPage}`.match(/[A-Za-z]{2,}/g) ?? [];

  it("in Spanish, its name, links, status line and note carry no English of them", () => {
    const middle = spanishPager(2, 3);
    for (const words of [es.pagesOfResult, es.previousPage, es.nextPage, es.pageOf(2, 3)]) expect(middle).toContain(words);
    const only = spanishPager(1, undefined);
    expect(only).toContain(html(es.onlyFirstPage));
    const read = [...`${middle}${only}`.matchAll(/>([^<]+)<|aria-label="([^"]*)"/g)].map((m) => m[1] ?? m[2]).join(" ");
    for (const word of englishWords) expect(read, word).not.toMatch(new RegExp(`\\b${word}\\b`));
  });
});

