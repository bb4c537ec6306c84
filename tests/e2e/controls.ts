/**
 * The screens' control check (tests/e2e/screens.spec.ts), judged in the page in a few round trips:
 * each control's visible share once focused, and whether a click would reach it, by the rules of
 * Playwright's trial click (docs/architecture/behaviour.md §4 "Nothing covered").
 */
import type { Page } from "@playwright/test";

/** The page's window once `installClickMiss` ran in it. */
type CheckedWindow = { clickMiss(index: number, attempt: number): string | null };

/**
 * Puts `clickMiss(index, attempt)` on the page's window (run with page.evaluate, which also works
 * without JavaScript; no timers, which such a page does not run): whether a click on control
 * `index` (marked `data-check`) would reach it, as Playwright's trial click judges it, after
 * scrolling it in the way Playwright's attempt `attempt` does (if needed, then aligned end, center,
 * start): enabled (aria-disabled too), and a click at the middle of its first box inside the
 * viewport lands on it or on an element inside it. null when it would, else why not.
 */
function installClickMiss(): void {
  (window as unknown as CheckedWindow).clickMiss = (index: number, attempt: number): string | null => {
    const element = document.querySelector<HTMLElement>(`[data-check="${index}"]`);
    if (!element) return "gone from the page";
    if (element.closest("[aria-disabled=true]")) return "aria-disabled";
    const scrolls: (ScrollIntoViewOptions | undefined)[] = [undefined, { block: "end", inline: "end" }, { block: "center", inline: "center" }, { block: "start", inline: "start" }];
    const scroll = scrolls[attempt % scrolls.length];
    if (scroll) element.scrollIntoView({ ...scroll, behavior: "instant" });
    else (element as HTMLElement & { scrollIntoViewIfNeeded(center: boolean): void }).scrollIntoViewIfNeeded(true);
    // The element a click is meant for (Playwright's "button-link" retargeting).
    const target = element.matches("input, textarea, select") || element.isContentEditable ? element : (element.closest("button, [role=button], a, [role=link]") ?? element);
    const box = [...element.getClientRects()]
      .map((r) => ({ left: Math.max(r.left, 0), right: Math.min(r.right, window.innerWidth), top: Math.max(r.top, 0), bottom: Math.min(r.bottom, window.innerHeight) }))
      .find((r) => (r.right - r.left) * (r.bottom - r.top) > 0.99);
    if (!box) return "not in the viewport";
    const hit = document.elementFromPoint(Math.round(((box.left + box.right) / 2) * 100) / 100, Math.round(((box.top + box.bottom) / 2) * 100) / 100);
    let on: Element | null = hit;
    while (on && on !== target) on = on.parentElement;
    if (on) return null;
    return `${hit ? `${hit.tagName.toLowerCase()}${hit.id ? `#${hit.id}` : ""}${hit.classList.length ? `.${[...hit.classList].join(".")}` : ""}` : "nothing"} would receive the click`;
  };
}

/**
 * On the page as it is: every enabled control that is not inert or hidden is, when focused (the
 * browser scrolls it in, as a keyboard user meets it), at least 90% visible above the tab bar; and
 * clickable as Playwright's trial click judges it (the skip link, off screen until focused, is not
 * clicked): stable (the same box twice, 50 ms apart), then `clickMiss`, retried as Playwright
 * retries for up to 3 s. A few round trips per screen, not two per control. Returns the failures
 * as readable lines.
 */
export async function checkControls(page: Page, screen: string): Promise<string[]> {
  await page.evaluate(installClickMiss);
  const boxes = () =>
    page.evaluate(() => {
      window.scrollTo(0, 0);
      return [...document.querySelectorAll<HTMLElement>("[data-check]")].map((e) => {
        const r = e.getBoundingClientRect();
        return `${r.top},${r.left},${r.width},${r.height}`;
      });
    });
  // Mark the controls; then each one focused (its visible share measured) and clicked at once.
  const controls = await page.evaluate(() => {
    const selector = "a[href], button:not([disabled]), input:not([disabled]):not([type=hidden]), textarea:not([disabled]), select:not([disabled]), summary, [tabindex]:not([tabindex='-1'])";
    let count = 0;
    for (const element of document.querySelectorAll<HTMLElement>(selector)) {
      element.removeAttribute("data-check");
      // Disabled also through a disabled fieldset (:disabled), inert or hidden: not a control now.
      if (element.matches(":disabled") || element.closest("[inert]") || element.closest("[hidden]")) continue;
      const style = getComputedStyle(element);
      if (style.display === "none" || style.visibility === "hidden" || element.getClientRects().length === 0) continue;
      element.setAttribute("data-check", String(count++));
    }
    return [...document.querySelectorAll<HTMLElement>("[data-check]")].map((element, index) => {
      const name = `${element.tagName.toLowerCase()} "${(element.textContent || element.getAttribute("aria-label") || element.getAttribute("name") || "").trim().slice(0, 40)}"`;
      window.scrollTo(0, 0);
      element.focus();
      const box = element.getBoundingClientRect();
      const bar = document.querySelector(".tab-bar");
      const floor = bar && !bar.contains(element) ? bar.getBoundingClientRect().top : window.innerHeight;
      const height = Math.max(0, Math.min(box.bottom, floor) - Math.max(box.top, 0));
      const width = Math.max(0, Math.min(box.right, window.innerWidth) - Math.max(box.left, 0));
      const visible = box.height * box.width === 0 ? 0 : (height * width) / (box.height * box.width);
      const skipLink = element.classList.contains("skip-link");
      return { name, visible, skipLink, miss: skipLink ? null : (window as unknown as CheckedWindow).clickMiss(index, 0) };
    });
  });
  const failures: string[] = [];
  controls.forEach((control, index) => {
    if (control.visible < 0.9) failures.push(`${screen} ${control.name}: ${Math.round(control.visible * 100)}% visible when focused`);
  });
  // Stable: the same box a few frames apart, at the same scroll.
  const [before, after] = [await boxes(), await new Promise((resolve) => setTimeout(resolve, 50)).then(boxes)];
  let missed = new Map(controls.flatMap((control, index) => (control.skipLink ? [] : [[index, before[index] === after[index] ? control.miss : "not stable"] as const])).filter(([, miss]) => miss !== null));
  // Retried as Playwright retries a click (its waits, its scroll alignments in turn) for up to 3 s.
  const waits = [20, 100, 100, 500];
  const start = Date.now();
  for (let attempt = 1; missed.size > 0 && Date.now() - start < 3_000; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, waits[Math.min(attempt - 1, waits.length - 1)]));
    const again = await boxes();
    const misses = await page.evaluate(
      ({ indices, attempt }) =>
        indices.map((index) => {
          document.querySelector<HTMLElement>(`[data-check="${index}"]`)?.focus({ preventScroll: true });
          return (window as unknown as CheckedWindow).clickMiss(index, attempt);
        }),
      { indices: [...missed.keys()], attempt },
    );
    const after2 = await boxes();
    missed = new Map([...missed.keys()].map((index, i) => [index, again[index] === after2[index] ? misses[i]! : "not stable"] as const).filter(([, miss]) => miss !== null));
  }
  for (const [index, miss] of missed) failures.push(`${screen} ${controls[index]!.name}: cannot be clicked (${miss})`);
  return failures;
}

