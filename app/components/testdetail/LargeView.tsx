/**
 * Test Detail's large view (docs/product/screens.md §2.4 Test Detail, docs/architecture/behaviour.md §4
 * modals): one page of the result at 1250x1000 or fitted to the screen, with its pager, Close and the
 * image as links back to the thumbnail. Its words come from the testdetail loader's data.
 */
import { useEffect } from "react";
import { Link, useNavigate } from "react-router";
import { ResultPager, type PagerText } from "~/components/ResultPager";

/** The thumbnail's id: closing the large view returns to it (the link's fragment). */
export const thumbnailId = "result-thumbnail";

/** The large view's words, in the page's language. */
export interface LargeViewText {
  largeView: string;
  close: string;
  fullSize: string;
  fitToScreen: string;
  pager: PagerText;
  backToDetail: string;
  backToDetailFullSize: string;
}

/**
 * The large view of a result (docs/product/screens.md §2.4, docs/architecture/behaviour.md §4 modals): a page of its
 * own, not an overlay, so nothing is hidden behind it and Tab reaches only what is shown. The page
 * is drawn 1250x1000 in a frame that scrolls both ways where the screen is smaller, or fitted to the
 * screen (`fit=1`). The image itself, Close and (once JavaScript runs) Escape close it: all return
 * to the thumbnail (a fragment link: focus and scroll follow it with and without JavaScript). One
 * page at a time (`page=`, ResultPager), the fit kept from page to page.
 */
export function LargeView({
  imageUrl,
  alt,
  viewHref,
  closeHref,
  fitted,
  page,
  pageCount,
  paged,
  text,
}: {
  imageUrl: string;
  alt: string;
  /** The large view's URL without its fit and page. */
  viewHref: string;
  closeHref: string;
  fitted: boolean;
  page: number;
  pageCount: number | undefined;
  /** A page link brought the user here: the pager's line takes focus, not Close. */
  paged: boolean;
  text: LargeViewText;
}) {
  const navigate = useNavigate();
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape" && !event.defaultPrevented) void navigate(closeHref);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [navigate, closeHref]);
  const pageQuery = (n: number) => (n > 1 ? `&page=${n}` : "");
  const closeFocus = paged ? {} : { autoFocus: true, "data-focus-target": "" };
  return (
    <div className="large-view" role="region" aria-label={text.largeView}>
      <div className="button-row">
        <Link className="button" to={closeHref} {...closeFocus}>
          {text.close}
        </Link>{" "}
        <Link className="button secondary" to={`${viewHref}${fitted ? "" : "&fit=1"}${pageQuery(page)}`} replace preventScrollReset>
          {fitted ? text.fullSize : text.fitToScreen}
        </Link>
      </div>
      <ResultPager page={page} pageCount={pageCount} hrefOf={(n) => `${viewHref}${fitted ? "&fit=1" : ""}&page=${n}`} focus={paged} text={text.pager} />
      {/* The frame is the link back: clicking the image closes the view; at full size the link is also the scrolling frame, so the keyboard scrolls it once focused. */}
      <Link to={closeHref} className={fitted ? "large-frame fitted" : "large-frame"} aria-label={fitted ? text.backToDetail : text.backToDetailFullSize}>
        <img src={imageUrl} alt={alt} width={1250} height={1000} />
      </Link>
    </div>
  );
}
