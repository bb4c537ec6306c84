/**
 * My Settings' Language card (docs/architecture/behaviour.md §4 "Language"): the offered languages
 * in a list, the page's one chosen, in a plain form posting to /language with the page to come back
 * to. The languages come with the root's loader data, each in its own name and marked with its
 * `lang`; while one language is offered there is no choice and the card is not shown.
 */
import { Form, useLocation, useRouteLoaderData } from "react-router";
import type { loader as rootLoader } from "~/root";

/** @param hint, save: the card's words in the page's language (the settings loader's) */
export function LanguageCard({ hint, save }: { hint: string; save: string }) {
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const location = useLocation();
  const languageSwitch = root?.languageSwitch;
  if (!languageSwitch) return null;
  return (
    <section className="card" aria-labelledby="language-heading">
      <h2 id="language-heading">{languageSwitch.label}</h2>
      <Form method="post" action="/language">
        <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
        <div className="field">
          <label htmlFor="language">{languageSwitch.label}</label>
          <select id="language" name="language" defaultValue={root.language} aria-describedby="language-hint">
            {languageSwitch.choices.map((choice) => (
              <option key={choice.code} value={choice.code} lang={choice.code}>
                {choice.name}
              </option>
            ))}
          </select>
          <p id="language-hint" className="field-hint">
            {hint}
          </p>
        </div>
        <button type="submit" className="button secondary">
          {save}
        </button>
      </Form>
    </section>
  );
}
