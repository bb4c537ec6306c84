/**
 * Shared components word themselves in the page's language (docs/architecture/behaviour.md §4
 * "Language"): each is given its words by the page (loader data, from the request's catalogue) and
 * holds none of its own. Rendered to HTML as the server sends it with the Spanish catalogue, none of
 * the English words of it appear; with the English catalogue, the English words do.
 */
import { useForm } from "@conform-to/react";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { PasswordField } from "../../app/components/PasswordField";
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
