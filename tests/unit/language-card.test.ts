/**
 * The language switch of Sign In and Create Account (app/root.tsx) and My Settings' Language card
 * (app/components/settings/LanguageCard.tsx), docs/architecture/behaviour.md §4 "Language", rendered
 * to HTML as the server sends it: plain forms to /language that work without JavaScript, each
 * language in its own name and `lang`; and nothing while one language is offered (the root's
 * `languageSwitch` is null).
 */
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { LanguageCard } from "../../app/components/settings/LanguageCard";
import { LanguageSwitch } from "../../app/root";

function render(root: { language: string; languageSwitch: { label: string; choices: { code: string; name: string }[] } | null }): string {
  const Stub = createRoutesStub([{ id: "root", path: "/settings", Component: () => createElement(LanguageCard, { hint: "Pista", save: "Guardar" }), loader: () => root }]);
  return renderToString(createElement(Stub, { initialEntries: ["/settings?panel=x"], hydrationData: { loaderData: { root } } }));
}

describe("My Settings' Language card", () => {
  it("offers each language in its own name, the page's one chosen, in a plain form posting to /language and back", () => {
    const html = render({
      language: "es",
      languageSwitch: { label: "Idioma", choices: [{ code: "en", name: "English" }, { code: "es", name: "Español" }] },
    });
    expect(html).toMatch(/<form [^>]*action="\/language" method="post">/);
    expect(html).toContain('<input type="hidden" name="redirectTo" value="/settings?panel=x"/>');
    expect(html).toContain('<h2 id="language-heading">Idioma</h2>');
    expect(html).toMatch(/<select id="language" name="language"[^>]*>/);
    expect(html).toContain('<option value="en" lang="en">English</option>');
    expect(html).toMatch(/<option value="es" lang="es" selected="">Español<\/option>/);
    expect(html).toContain("Pista");
    expect(html).toMatch(/<button type="submit"[^>]*>Guardar<\/button>/);
  });

  it("is not shown while one language is offered", () => {
    expect(render({ language: "en", languageSwitch: null })).toBe("");
  });
});

describe("the language switch in the header of Sign In and Create Account (app/root.tsx)", () => {
  const languageSwitch = { label: "Language", choices: [{ code: "en", name: "English" }, { code: "es", name: "Español" }] };
  function renderSwitch(handle: object | undefined, root: { language: string; languageSwitch: typeof languageSwitch | null }): string {
    const Stub = createRoutesStub([
      {
        id: "root",
        path: "/",
        Component: () => createElement("header", null, createElement(LanguageSwitch, root)),
        loader: () => root,
        children: [{ id: "leaf", path: "login", handle, Component: () => null }],
      },
    ]);
    return renderToString(createElement(Stub, { initialEntries: ["/login?redirectTo=%2Fpeople"], hydrationData: { loaderData: { root, leaf: null } } }));
  }

  it("offers the other languages, each in its own name and lang, in a plain form posting to /language and back", () => {
    const html = renderSwitch({ languageSwitch: true }, { language: "en", languageSwitch });
    const form = /<form [^>]*>/.exec(html)?.[0] ?? "";
    for (const attribute of ['action="/language"', 'method="post"', 'class="language-switch"', 'aria-label="Language"']) expect(form).toContain(attribute);
    expect(html).toContain('<input type="hidden" name="redirectTo" value="/login?redirectTo=%2Fpeople"/>');
    const button = /<button [^>]*>Español<\/button>/.exec(html)?.[0] ?? "";
    for (const attribute of ['type="submit"', 'name="language"', 'value="es"', 'lang="es"']) expect(button).toContain(attribute);
    expect(html).not.toContain(">English<");
  });

  it("is shown only where the page asks for it, and only while more than one language is offered", () => {
    expect(renderSwitch(undefined, { language: "en", languageSwitch })).toBe("<header></header>");
    expect(renderSwitch({ languageSwitch: true }, { language: "en", languageSwitch: null })).toBe("<header></header>");
  });
});
