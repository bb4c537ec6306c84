/**
 * The working text of a screen that works in its loader, shown on a full load before the work
 * (app/server/interstitial.server.ts): the same address with `step=go` is opened at once, by a
 * zero-second refresh without JavaScript and by a client-side navigation with it (then the pending
 * bar shows while the loader works); a Continue link (`continueLabel`: its words in the page's
 * language) does the same for a browser that follows neither.
 */
import { useEffect } from "react";
import { Link, useHref, useLocation, useNavigate } from "react-router";
import { interstitialStep } from "~/paths";

export function Interstitial({ title, continueLabel }: { title: string; continueLabel: string }) {
  const location = useLocation();
  const navigate = useNavigate();
  const search = new URLSearchParams(location.search);
  search.set(interstitialStep.name, interstitialStep.value);
  const next = `${location.pathname}?${search}`;
  const href = useHref(next);
  useEffect(() => {
    navigate(next, { replace: true });
  }, [navigate, next]);
  return (
    <section className="card narrow" aria-busy="true">
      <noscript>
        <meta httpEquiv="refresh" content={`0;url=${href}`} />
      </noscript>
      <div role="status">
        <h1>{title}</h1>
      </div>
      <p>
        <Link to={next} replace>
          {continueLabel}
        </Link>
      </p>
    </section>
  );
}
