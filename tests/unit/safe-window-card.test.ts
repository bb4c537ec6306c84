/**
 * The safe window card (docs/product/screens.md §2 /safewindow, §3 safeWindowDescription, §4 safe window), rendered
 * to HTML as the server sends it: which window is open, its icon (strong takes precedence), the
 * ends of the windows still open, the description, and the empty card.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { SafeWindowCard, safeWindowCardText, type CardPerson } from "../../app/components/SafeWindowCard";
import type { Language } from "../../app/i18n";
import * as messages from "../../app/messages";
import { messagesIn } from "../../app/messages/catalogues";

const now = Date.parse("2026-11-22T12:00:00Z");
const hour = 60 * 60 * 1000;
const at = (hoursFromNow: number) => new Date(now + hoursFromNow * hour).toISOString();
const person: CardPerson = { firstName: "Ada", lastName: "Lovelace", dob: "1985-12-10", strongSafetyDate: null, weakSafetyDate: null };

function render(card: Partial<CardPerson>, own = true, language: Language = "en"): string {
  const shown = { ...person, ...card };
  const timeZone = "America/New_York";
  const text = safeWindowCardText(messagesIn(language), language, shown, timeZone);
  return renderToStaticMarkup(createElement(MemoryRouter, null, createElement(SafeWindowCard, { person: shown, own, now, timeZone, text })));
}

describe("SafeWindowCard", () => {
  it("in the strong window: 'Strong', the strong icon, both ends, and the description", () => {
    const html = render({ strongSafetyDate: at(20), weakSafetyDate: at(44), safeWindowDescription: "Rapid antigen, collected 2026-11-22 08:00 UTC" });
    expect(html).toContain("<strong>Strong</strong>");
    expect(html).toContain('aria-label="Strong: within the strong safe window"');
    expect(html).toContain("Strong until");
    expect(html).toContain("Weak until");
    // The description's UTC time is shown on the card's clock, like the ends of the windows.
    expect(html).toContain("Based on</span> Rapid antigen, collected Sun, Nov 22, 2026, 3:00 AM EST");
    expect(html).toContain("Times in America/New York");
  });

  it("in the weak window: 'Weak', the weak icon, and no strong date that has passed", () => {
    const html = render({ strongSafetyDate: at(-4), weakSafetyDate: at(20) });
    expect(html).toContain("<strong>Weak</strong>");
    expect(html).toContain('aria-label="Weak: within the weak safe window"');
    expect(html).not.toContain("Strong until");
    expect(html).toContain("Weak until");
    expect(html).not.toContain("Based on");
  });

  it("ends exactly at the safety date (exclusive end): the empty card with 'Submit Test' on the user's own card", () => {
    const html = render({ strongSafetyDate: at(-30), weakSafetyDate: at(0) });
    expect(html).toContain(messages.emptyWindow);
    expect(html).toContain("Submit Test");
    expect(html).toContain('href="/mytests#result-file"');
    expect(html).not.toContain("Weak until");
  });

  it("shows the date of birth on the user's own card only", () => {
    expect(render({}, true)).toContain("12/10/1985");
    expect(render({}, false)).not.toContain("12/10/1985");
    expect(render({}, false)).not.toContain("Submit Test");
  });

  it("speaks the page's language: the card's words and the times' format in Spanish", () => {
    const html = render({ strongSafetyDate: at(20), weakSafetyDate: at(44), safeWindowProof: "document checks" }, true, "es");
    expect(html).toContain('aria-label="Ventana segura de Ada Lovelace"');
    expect(html).toContain("<strong>Fuerte</strong>");
    expect(html).toContain("Fuerte hasta");
    expect(html).toContain("Débil hasta");
    expect(html).toContain("Horas en America/New York");
    expect(html).toContain(`aria-label="${messagesIn("es").proofIconLabels.document}"`);
    for (const english of ["Strong until", "Weak until", "Times in", "Date of Birth", "Proof"]) expect(html).not.toContain(english);
  });
});
