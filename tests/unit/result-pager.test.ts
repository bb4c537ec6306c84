/**
 * Paging through a result's pages (app/components/ResultPager.tsx; the `page` extension of GET
 * /testresult/getimage/), rendered to HTML as the server sends it: the page parameter read from the
 * URL, the links on the first, a middle and the last page, what an upstream without the extension
 * shows, and the focus for a page reached by a page link.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { ResultPager, pageParameter, resultImageUrl, resultPagerText } from "../../app/components/ResultPager";
import * as messages from "../../app/messages";
import { catalogues } from "../../app/messages/catalogues";

/** The pager as the server renders it, with its English words. */
function render(page: number, pageCount: number | undefined, focus = false): string {
  const text = resultPagerText(catalogues.en, page, pageCount);
  return renderToStaticMarkup(createElement(MemoryRouter, null, createElement(ResultPager, { page, pageCount, hrefOf: (n: number) => `/v?id=r&page=${n}`, focus, text })));
}

describe("pageParameter", () => {
  it("reads a page within the result's pages, and page 1 for anything else", () => {
    expect(pageParameter("2", 3)).toBe(2);
    expect(pageParameter("3", 3)).toBe(3);
    expect(pageParameter(null, 3)).toBe(1);
    for (const value of ["4", "0", "-1", "1.5", "2x", "", " 2", "02", "1e1", "99999"]) expect(pageParameter(value, 3), value).toBe(1);
    // Without the extension only page 1 exists.
    expect(pageParameter("2", undefined)).toBe(1);
  });
});

describe("resultImageUrl", () => {
  it("names page 1 as the product rules' call does, a later page by its number, the id encoded", () => {
    expect(resultImageUrl("a b&c", 1)).toBe("/testresultviewer/image?id=a%20b%26c");
    expect(resultImageUrl("r", 2)).toBe("/testresultviewer/image?id=r&page=2");
  });
});

describe("ResultPager", () => {
  it("first page: 'Page 1 of 3' and Next page only", () => {
    const html = render(1, 3);
    expect(html).toContain('aria-label="Pages of the result"');
    expect(html).toContain(messages.pageOf(1, 3));
    expect(html).toContain(`href="/v?id=r&amp;page=2" data-discover="true">${messages.nextPage}`);
    expect(html).not.toContain(messages.previousPage);
  });

  it("a middle page links both ways, with a separator text browsers read", () => {
    const html = render(2, 3);
    expect(html).toContain(`href="/v?id=r&amp;page=1" data-discover="true">${messages.previousPage}`);
    expect(html).toContain(`href="/v?id=r&amp;page=3" data-discover="true">${messages.nextPage}`);
    expect(html.match(/class="text-only"> \| </g)).toHaveLength(2);
  });

  it("last page: Previous page only", () => {
    const html = render(3, 3);
    expect(html).toContain(messages.pageOf(3, 3));
    expect(html).not.toContain(messages.nextPage);
  });

  it("a one-page result shows no pager; an upstream without the extension says only page 1 can be shown", () => {
    expect(render(1, 1)).toBe("");
    const html = render(1, undefined);
    expect(html).toContain(messages.onlyFirstPage);
    expect(html).not.toContain("<nav");
  });

  it("reached by a page link, the line takes focus: autofocus as the server sends it, and the focus target", () => {
    const html = render(3, 3, true);
    expect(html).toMatch(/<p class="pager-status" tabindex="-1" autofocus="" data-focus-target="">Page 3 of 3<\/p>/);
    expect(render(3, 3, false)).not.toContain("autofocus");
  });
});
