/**
 * The cookie-consent banner (SPEC §1): on every page until answered. A plain form post that
 * returns to the page it came from; with JavaScript a fetcher posts it and the banner hides at once.
 */
import { useFetcher, useLocation } from "react-router";

export function CookieBanner() {
  const fetcher = useFetcher();
  const location = useLocation();
  if (fetcher.state !== "idle") return null;
  return (
    <section className="cookie-banner" aria-label="Cookie consent">
      <p>
        SafeWindow uses cookies to keep you signed in and to remember your choices on this device. We use no advertising or tracking
        cookies.
      </p>
      <fetcher.Form method="post" action="/cookies" className="button-row">
        <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
        <button type="submit" name="answer" value="accepted" className="button">
          Accept
        </button>
        <button type="submit" name="answer" value="declined" className="button secondary">
          Decline
        </button>
      </fetcher.Form>
    </section>
  );
}
