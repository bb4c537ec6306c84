/**
 * Where focus goes when the page changes under the user (docs/architecture.md §4 focus), so that a
 * keyboard or screen-reader user is not left on `<body>` at the top of a page they cannot see:
 * - after a navigation or a form post completes: the message the post produced (a `FormMessage`,
 *   marked `data-focus-message`), else the first field the server marked invalid, else the new
 *   page's `<h1>`; a change of the query alone (a tab inside the page) keeps focus where it is when
 *   that element is still on the page;
 * - `focusHeading()` for what happens outside navigation (the cookie banner once answered).
 * Without JavaScript the answer page's message carries `autofocus` instead (FormMessage).
 */
import { useEffect, useRef } from "react";
import { useLocation, useNavigation } from "react-router";

/** The id of the element that wraps each page's content (root.tsx; the skip link's target). */
export const contentId = "content";

/** Focuses the page's `<h1>` (made focusable by script only: tabindex -1), without scrolling. */
export function focusHeading(): void {
  const heading = document.getElementById(contentId)?.querySelector<HTMLElement>("h1");
  if (!heading) return;
  if (!heading.hasAttribute("tabindex")) heading.tabIndex = -1;
  heading.focus({ preventScroll: true });
}

/** Moves focus as above each time a navigation (a link, a redirect or a form post) completes. */
export function useFocusAfterNavigation(): void {
  const navigation = useNavigation();
  const location = useLocation();
  const last = useRef<{ state: string; pathname: string; key: string } | null>(null);
  useEffect(() => {
    const previous = last.current;
    last.current = { state: navigation.state, pathname: location.pathname, key: location.key };
    if (!previous || navigation.state !== "idle") return;
    // Nothing completed: the first render, or a render that is not the end of a navigation.
    if (previous.state === "idle" && previous.key === location.key) return;
    // In the next task: conform shows an action's errors in a layout effect, that is in a render
    // after this one, and the message must be on the page before focus is chosen.
    const timer = window.setTimeout(() => {
      const content = document.getElementById(contentId);
      if (!content) return;
      const message = content.querySelector<HTMLElement>("[data-focus-message]");
      if (message) return message.focus();
      const invalid = content.querySelector<HTMLElement>('[aria-invalid="true"]');
      if (invalid) return invalid.focus();
      const active = document.activeElement;
      if (previous.pathname === location.pathname && active && active !== document.body && active.isConnected) return;
      focusHeading();
    }, 0);
    return () => window.clearTimeout(timer);
  }, [navigation.state, location.pathname, location.key]);
}
