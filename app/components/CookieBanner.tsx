/**
 * The cookie-consent banner (docs/product/README.md §1): on every page until answered. Without JavaScript a plain
 * form post that returns to the page it came from; with it a fetcher posts the answer and the
 * banner hides at once, staying on the page. `text`: its words in the page's language (the root's loader data).
 */
import { useEffect } from "react";
import { useFetcher, useLocation } from "react-router";
import { focusHeading } from "~/hooks/useFocusAfterNavigation";
import { useHydrated } from "~/hooks/useHydrated";

export function CookieBanner({ text }: { text: { label: string; text: string; accept: string; decline: string } }) {
  const fetcher = useFetcher<{ answered: boolean }>();
  const location = useLocation();
  const hydrated = useHydrated();
  const answered = fetcher.data?.answered === true;
  // The pressed button is gone with the banner: focus goes to the page's heading, not <body>.
  useEffect(() => {
    if (answered && (document.activeElement === null || document.activeElement === document.body)) focusHeading();
  }, [answered]);
  if (fetcher.state !== "idle" || fetcher.data?.answered) return null;
  return (
    <section className="cookie-banner" aria-label={text.label}>
      <p>{text.text}</p>
      <fetcher.Form method="post" action="/cookies" className="button-row">
        <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
        {hydrated ? <input type="hidden" name="stay" value="1" /> : null}
        <button type="submit" name="answer" value="accepted" className="button">
          {text.accept}
        </button>{" "}
        <button type="submit" name="answer" value="declined" className="button secondary">
          {text.decline}
        </button>
      </fetcher.Form>
    </section>
  );
}
