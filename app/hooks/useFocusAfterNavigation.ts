/**
 * Where focus goes when the page changes under the user (docs/architecture/behaviour.md §4 focus), so that a
 * keyboard or screen-reader user is not left on `<body>` at the top of a page they cannot see:
 * - after a navigation or a form post completes, the first of: the message the post produced (a
 *   `FormMessage`, marked `data-focus-message`); the first field the server marked invalid; the
 *   element a link's fragment names; the control that was used, when only the query changed (a
 *   tab, the large view's zoom or page) and it is still on the page and not inert; the element
 *   the page marks `data-focus-target`; the heading of a dialog the page opened; the new page's `<h1>`;
 * - `focusHeading()` for what happens outside navigation (the cookie banner once answered).
 * Without JavaScript the answer page's message carries `autofocus` instead (FormMessage).
 */
import { useEffect, useRef } from "react";
import { useLocation, useNavigation } from "react-router";

/** The id of the element that wraps each page's content (root.tsx; the skip link's target). */
export const contentId = "content";

/** Focuses the page's `<h1>` (made focusable by script only: tabindex -1), without scrolling. */
export function focusHeading(): void {
  const content = document.getElementById(contentId);
  if (content) focusHeadingIn(content, "h1", true);
}

/** Focuses the first heading (`selector`) inside `container`, made focusable by script only; scrolls to it unless `preventScroll`. */
function focusHeadingIn(container: HTMLElement, selector = "h1, h2, h3", preventScroll = false): void {
  const heading = container.querySelector<HTMLElement>(selector);
  if (!heading) return;
  if (!heading.hasAttribute("tabindex")) heading.tabIndex = -1;
  heading.focus({ preventScroll });
}

/** The id a `#fragment` names, percent-decoded; a malformed escape (a hand-made link) is taken as written. */
function fragmentId(hash: string): string {
  try {
    return decodeURIComponent(hash.slice(1));
  } catch {
    return hash.slice(1);
  }
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
      // A link to a fragment (the large view's Close returns to its thumbnail): that element.
      const target = location.hash ? document.getElementById(fragmentId(location.hash)) : null;
      if (target && content.contains(target)) return target.focus();
      // A change of the query alone (a tab, the large view's zoom or page): the control used, while it is still there.
      const active = document.activeElement;
      const samePath = previous.pathname === location.pathname;
      if (samePath && active && active !== document.body && active.isConnected && !active.closest("[inert]")) return;
      // The control a page names for it (the large view's Close; React focuses only form controls itself).
      const named = content.querySelector<HTMLElement>("[data-focus-target]");
      if (named) return named.focus();
      const dialog = content.querySelector<HTMLDialogElement>("dialog[open]");
      if (dialog) {
        // A modal one took focus when it opened; an inline one (the page behind it inert) gets it here.
        if (!dialog.contains(document.activeElement)) focusHeadingIn(dialog);
        return;
      }
      focusHeading();
    }, 0);
    return () => window.clearTimeout(timer);
  }, [navigation.state, location.pathname, location.key, location.hash]);
}
