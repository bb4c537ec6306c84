/**
 * Paging through a result's pages (docs/product/screens.md §2 /testresultviewer and the test detail's large
 * view; the `page` extension of GET /testresult/getimage/, docs/architecture/upstream-calls.md §6.1). Plain links,
 * so it works without JavaScript; the page shown is in the URL (`page`, 1-based).
 *
 * After a page link is followed, focus stays on the link when it is still there (a query change,
 * app/hooks/useFocusAfterNavigation.ts); on the first or last page, where it is gone, the "Page N
 * of M" line takes it (`data-focus-target`, and `autofocus` for the answer page without JavaScript).
 */
import { Link } from "react-router";
import { useHydrated } from "~/hooks/useHydrated";
import type { Messages } from "~/messages/catalogues";
import { TextSeparator } from "./TextOnly";

/** The pager's words in the page's language, picked by `resultPagerText` in a loader. */
export interface PagerText {
  /** The nav's name. */
  label: string;
  previous: string;
  next: string;
  /** "Page N of M" for the page shown. */
  status: string;
  /** What an upstream serving page 1 only leaves to say. */
  onlyFirst: string;
}

/** The pager's words from the catalogue `m` of the request's language, for `page` (1-based) of `pageCount` (undefined: unknown). */
export function resultPagerText(m: Messages, page: number, pageCount: number | undefined): PagerText {
  return { label: m.pagesOfResult, previous: m.previousPage, next: m.nextPage, status: m.pageOf(page, pageCount ?? 1), onlyFirst: m.onlyFirstPage };
}

/** The page of `value` (a `page` query parameter) within 1..pageCount (1 when unknown): 1 for anything else. */
export function pageParameter(value: string | null, pageCount: number | undefined): number {
  const page = value !== null && /^[1-9][0-9]{0,3}$/.test(value) ? Number(value) : 1;
  return page <= (pageCount ?? 1) ? page : 1;
}

/** The app's URL of one page's JPEG (routes/testresultimage.tsx). */
export function resultImageUrl(resultId: string, page: number): string {
  return `/testresultviewer/image?id=${encodeURIComponent(resultId)}${page > 1 ? `&page=${page}` : ""}`;
}

/**
 * @param page the page shown, 1-based
 * @param pageCount the result's pageCount; undefined when the upstream serves page 1 only (it says so)
 * @param hrefOf the link to another page of the same view
 * @param focus true when the user came here by a page link: the "Page N of M" line takes focus
 * @param text its words in the page's language (`resultPagerText` of the same page and pageCount)
 */
export function ResultPager({ page, pageCount, hrefOf, focus, text }: { page: number; pageCount: number | undefined; hrefOf: (page: number) => string; focus: boolean; text: PagerText }) {
  const hydrated = useHydrated();
  if (pageCount === undefined) return <p className="pager-note">{text.onlyFirst}</p>;
  if (pageCount <= 1) return null;
  // Once hydrated, useFocusAfterNavigation moves focus; autofocus is for the page as the server sends it.
  const focusProps = focus ? { tabIndex: -1, autoFocus: !hydrated, "data-focus-target": "" } : {};
  return (
    <nav className="pager" aria-label={text.label}>
      {page > 1 ? (
        <>
          <Link className="button secondary" to={hrefOf(page - 1)} replace preventScrollReset>
            {text.previous}
          </Link>
          <TextSeparator />
        </>
      ) : null}
      <p className="pager-status" {...focusProps}>
        {text.status}
      </p>
      {page < pageCount ? (
        <>
          <TextSeparator />
          <Link className="button secondary" to={hrefOf(page + 1)} replace preventScrollReset>
            {text.next}
          </Link>
        </>
      ) : null}
    </nav>
  );
}
