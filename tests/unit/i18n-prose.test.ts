/**
 * The long prose pages in every language (app/messages/pages.ts, docs/architecture/behaviour.md §4
 * "Language"): each catalogue sentence keeps the placeholders of its English (so markup inside a
 * sentence lands in the same words), the placeholders are filled, and the Terms, the Privacy Policy
 * and the testing philosophy render every paragraph of the request's language and none of another.
 */
import { createElement, type ComponentType } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { catalogueLanguages } from "../../app/i18n";
import * as en from "../../app/messages";
import { catalogues } from "../../app/messages/catalogues";
import { fillPlaceholders, placeholdersOf } from "../../app/components/Placeholders";
import Terms from "../../app/routes/terms";
import Privacy from "../../app/routes/privacy";
import TestingPhilosophy from "../../app/routes/testing-philosophy";
import { checkinCodeMinutes } from "../../contracts/consumer";
import { longestWindowHours, windowHours } from "../../contracts/rules";

/** Every string entry of a catalogue, objects' members included, by dotted key. */
function strings(catalogue: object): Map<string, string> {
  const found = new Map<string, string>();
  for (const [key, value] of Object.entries(catalogue)) {
    if (typeof value === "string") found.set(key, value);
    else if (value && typeof value === "object") for (const [name, member] of Object.entries(value)) if (typeof member === "string") found.set(`${key}.${name}`, member);
  }
  return found;
}

describe("placeholders in catalogue sentences", () => {
  it("are the same in every language as in the English", () => {
    const english = strings(en);
    expect(placeholdersOf(english.get("privacyPage.download")!)).toEqual(["button"]);
    for (const language of catalogueLanguages) {
      for (const [key, text] of strings(catalogues[language])) expect(placeholdersOf(text), `${language} ${key}`).toEqual(placeholdersOf(english.get(key) ?? ""));
    }
  });

  it("are filled with the given elements, and a missing value throws rather than showing braces", () => {
    const filled = renderToStaticMarkup(createElement("p", null, fillPlaceholders("{button} in My Settings", { button: createElement("strong", null, "Download my data") })));
    expect(filled).toBe("<p><strong>Download my data</strong> in My Settings</p>");
    expect(() => fillPlaceholders("{link} here", { button: "x" })).toThrow("{link}");
  });
});

/** The page as the server renders it, given its loader data. */
function render(page: ComponentType, loaderData: unknown): string {
  const Stub = createRoutesStub([{ id: "page", path: "/page", Component: page }]);
  const html = renderToStaticMarkup(createElement(Stub, { initialEntries: ["/page"], hydrationData: { loaderData: { page: loaderData } } }));
  // Apostrophes as React escapes them, so the catalogue's text can be looked for as it is.
  return html.replaceAll("&#x27;", "'").replaceAll("&amp;", "&");
}

describe.each(catalogueLanguages)("the prose pages in %s", (language) => {
  const m = catalogues[language];
  const other = catalogues[language === "en" ? "es" : "en"];
  // Their loaders' data as app/routes/<page>.tsx builds it from the request's catalogue.
  const hours = (strong: number, weak: number) => ({ strong: m.windowLengthInHours(strong), weak: m.windowLengthInHours(weak) });
  // The entries written with the rules' figures, as the loaders word them.
  const privacyWords = (c: typeof m) => ({ ...c.privacyPage, passLives: c.privacyPage.passLives(longestWindowHours), whoSees: c.privacyPage.whoSees(checkinCodeMinutes) });
  const philosophyWords = (c: typeof m) => ({ ...c.testingPhilosophyPage, sources: c.testingPhilosophyPage.sources(windowHours) });
  const pages = [
    { name: "terms", page: Terms, words: m.termsPage, others: other.termsPage, data: { text: m.termsPage } },
    {
      name: "privacy",
      page: Privacy,
      words: privacyWords(m),
      others: privacyWords(other),
      data: { text: { ...privacyWords(m), downloadButton: m.downloadMyData, deleteButton: m.deleteAccountButton } },
    },
    {
      name: "testing-philosophy",
      page: TestingPhilosophy,
      words: philosophyWords(m),
      others: philosophyWords(other),
      data: { text: { ...philosophyWords(m), molecularHours: hours(48, 72), antigenHours: hours(24, 48) } },
    },
  ];

  it.each(pages)("$name shows every paragraph of its language, whole, and none of the other", ({ page, words, others, data }) => {
    const html = render(page, data);
    const text = html.replace(/<[^>]+>/g, "");
    for (const [key, value] of Object.entries(words)) {
      if (key === "pageTitle") continue; // the document title, in <head> (meta)
      const shown = value.includes("{button}") ? value.replace("{button}", key === "download" ? m.downloadMyData : m.deleteAccountButton) : value;
      expect(text, key).toContain(shown);
      expect(text, key).not.toContain(others[key as keyof typeof others]);
    }
    expect(text).not.toMatch(/[{}]/);
  });

  it("privacy emphasizes the buttons' names inside their sentences", () => {
    const html = render(Privacy, pages[1]!.data);
    expect(html).toContain(`<li><strong>${m.downloadMyData}</strong>${m.privacyPage.download.replace("{button}", "")}</li>`);
    expect(html).toContain(`<strong>${m.deleteAccountButton}</strong>`);
  });

  it("the testing philosophy's table gives each method's hours", () => {
    const text = render(TestingPhilosophy, pages[2]!.data).replace(/<[^>]+>/g, "|");
    expect(text).toContain(`${m.testingPhilosophyPage.molecular}||${m.windowLengthInHours(48)}||${m.windowLengthInHours(72)}`);
    expect(text).toContain(`${m.testingPhilosophyPage.antigen}||${m.windowLengthInHours(24)}||${m.windowLengthInHours(48)}`);
  });
});
