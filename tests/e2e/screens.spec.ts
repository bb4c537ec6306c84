/**
 * Every screen, at phone size (390x844) and desktop size (1280x720), with the cookie banner not yet
 * answered (docs/architecture/behaviour.md §4: nothing covered, focus never hidden): each enabled control can
 * be clicked (Playwright's trial click: visible, stable, and nothing else receives the click), and
 * when focused is at least 90% inside the viewport and above the fixed tab bar; nothing makes the
 * page wider than the screen; axe finds no violation; at most one primary button. In both projects.
 */
import type { BrowserContext, Page } from "@playwright/test";
import { labPdf } from "../fixtures/index";
import { consentCookie, dismissGuidelines, expect, expectAccessible, isoDob, otherPerson, signedInUser, test, uniqueProfile, uploadPdf } from "./support";

const viewports = [
  { width: 390, height: 844 },
  { width: 1280, height: 720 },
];

/** Makes A, who follows B and is followed by B, with one valid result; returns A's screens. */
async function twoFriends(page: Page, browser: import("@playwright/test").Browser, baseURL: string, testInfo: import("@playwright/test").TestInfo) {
  const aProfile = uniqueProfile("Screena");
  const bProfile = { ...uniqueProfile("Screenb"), lastName: `Longsurname${uniqueProfile("x").lastName}Hyphenated-Second` };
  await signedInUser(page, testInfo, "screens-a", aProfile);
  await page.goto("/mytests");
  await dismissGuidelines(page);
  await uploadPdf(page, await labPdf("harborview", { firstName: aProfile.firstName, lastName: aProfile.lastName, dob: isoDob(aProfile), collectedAt: new Date(Date.now() - 2 * 3600_000) }));
  const resultHref = await page.getByRole("list", { name: "Test results" }).getByRole("link").first().getAttribute("href");

  const b = await otherPerson(browser, testInfo, baseURL);
  await signedInUser(b.page, testInfo, "screens-b", bProfile);
  // A asks to follow B; B confirms and follows back; A confirms.
  await page.goto(`/addpublisher?q=${encodeURIComponent(bProfile.lastName)}`);
  await page.getByRole("button", { name: `Add ${bProfile.firstName} ${bProfile.lastName}` }).click();
  await expect(page.getByRole("img", { name: /Requested to follow/ })).toBeVisible();
  await b.page.goto("/people?tab=followers");
  await b.page.getByRole("link", { name: new RegExp(`${aProfile.firstName} ${aProfile.lastName}`) }).click();
  await b.page.getByRole("button", { name: "Confirm" }).click();
  await b.page.getByRole("button", { name: "Follow Back" }).click();
  await expect(b.page.getByRole("button", { name: "Pending" })).toBeDisabled();
  await page.goto("/people?tab=followers");
  await page.getByRole("link", { name: new RegExp(`${bProfile.firstName} ${bProfile.lastName}`) }).click();
  await page.getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByRole("button", { name: "Following" })).toBeDisabled();
  const followerHref = new URL(page.url()).pathname + new URL(page.url()).search;
  await page.goto("/people");
  const followingHref = await page.getByRole("link", { name: new RegExp(`${bProfile.firstName} ${bProfile.lastName}`) }).getAttribute("href");
  await b.context.close();
  return [
    "/welcome",
    "/safewindow",
    "/mytests",
    "/mytests?guidelines",
    resultHref!,
    `${resultHref!}&view=large`,
    `${resultHref!}&view=large&fit=1`,
    resultHref!.replace("/testdetail", "/testresultviewer"),
    "/myfun",
    "/locations",
    "/locations?zip=98101&miles=25",
    "/people",
    "/people?tab=followers",
    `/addpublisher?q=${encodeURIComponent(bProfile.lastName)}`,
    followerHref,
    `${followerHref}&step=remove`,
    followingHref!,
    `${followingHref!}&step=unfollow`,
    "/settings",
    "/settings?panel=password",
    "/settings?panel=username",
    "/personalinfo",
    "/personalinfo?edit=1",
  ];
}

const anonymousScreens = [
  "/",
  "/login",
  "/registration",
  "/requestpasswordchange",
  "/resetpassword?email=someone%40example.com&token=abc",
  "/resetpassword",
  "/confirmaccount?email=someone%40example.com&token=abc",
  "/confirmemail?email=someone%40example.com&token=abc",
  "/terms",
  "/privacy",
  "/testing-philosophy",
  "/no-such-page",
];

/**
 * On the page as it is: every enabled control that is not inert or hidden is clickable and, when
 * focused, at least 90% visible. Returns the failures as readable lines.
 */
async function checkControls(page: Page, screen: string): Promise<string[]> {
  const count = await page.evaluate(() => {
    const selector = "a[href], button:not([disabled]), input:not([disabled]):not([type=hidden]), textarea:not([disabled]), select:not([disabled]), summary, [tabindex]:not([tabindex='-1'])";
    let index = 0;
    for (const element of document.querySelectorAll<HTMLElement>(selector)) {
      element.removeAttribute("data-check");
      // Disabled also through a disabled fieldset (:disabled), inert or hidden: not a control now.
      if (element.matches(":disabled") || element.closest("[inert]") || element.closest("[hidden]")) continue;
      const style = getComputedStyle(element);
      if (style.display === "none" || style.visibility === "hidden" || element.getClientRects().length === 0) continue;
      element.setAttribute("data-check", String(index++));
    }
    return index;
  });
  const failures: string[] = [];
  for (let index = 0; index < count; index++) {
    const control = page.locator(`[data-check="${index}"]`);
    // One round trip per control: its name, and the visible share once focused, as a keyboard user
    // meets it (the browser scrolls it in).
    const seen = await control.evaluate((element) => {
      const name = `${element.tagName.toLowerCase()} "${(element.textContent || element.getAttribute("aria-label") || element.getAttribute("name") || "").trim().slice(0, 40)}"`;
      window.scrollTo(0, 0);
      element.focus();
      const box = element.getBoundingClientRect();
      const bar = document.querySelector(".tab-bar");
      const floor = bar && !bar.contains(element) ? bar.getBoundingClientRect().top : window.innerHeight;
      const height = Math.max(0, Math.min(box.bottom, floor) - Math.max(box.top, 0));
      const width = Math.max(0, Math.min(box.right, window.innerWidth) - Math.max(box.left, 0));
      const visible = box.height * box.width === 0 ? 0 : (height * width) / (box.height * box.width);
      return { name, visible, skipLink: element.classList.contains("skip-link") };
    });
    const name = `${screen} ${seen.name}`;
    if (seen.visible < 0.9) failures.push(`${name}: ${Math.round(seen.visible * 100)}% visible when focused`);
    // The skip link is off screen until focused; it is checked above, not clicked.
    if (seen.skipLink) continue;
    try {
      await control.click({ trial: true, timeout: 3_000 });
    } catch (error) {
      failures.push(`${name}: cannot be clicked (${String(error).split("\n")[0]})`);
    }
  }
  return failures;
}

async function checkScreens(context: BrowserContext, screens: string[], hasJs: boolean) {
  const page = await context.newPage();
  for (const viewport of viewports) {
    await page.setViewportSize(viewport);
    for (const screen of screens) {
      await page.goto(screen);
      // A working screen's first answer goes on by itself (/confirmemail): check where it lands.
      await expect(page.locator("[aria-busy='true']"), screen).toHaveCount(0);
      // With JavaScript, judge the controls as hydrated: it disables some the server sent enabled
      // (settings' New Password until a current one is typed), and focus() skips a disabled one.
      if (hasJs) await expect(page.locator("html[data-hydrated]"), screen).toHaveCount(1);
      await expect(page.getByRole("region", { name: "Cookie consent" }), screen).toBeVisible();
      expect(await checkControls(page, `${viewport.width}x${viewport.height} ${screen}`)).toEqual([]);
      // Nothing (a long e-mail address or surname) makes the page wider than the screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${screen} at ${viewport.width} px`).toBeLessThanOrEqual(viewport.width);
      if (viewport.width === 390) {
        await expectAccessible(page);
        // One primary action per screen (docs/style-guide.md): at most one filled button in the page's content.
        const primaries = await page.evaluate(() =>
          [...document.querySelectorAll<HTMLElement>("#content .button:not(.secondary):not(.danger)")]
            .filter((e) => !e.matches(":disabled") && !e.closest("[inert]") && e.getClientRects().length > 0)
            .map((e) => (e.getAttribute("aria-label") ?? e.textContent ?? "").trim()),
        );
        expect(primaries.length, `${screen}: ${primaries.join(", ")}`).toBeLessThanOrEqual(1);
      }
    }
  }
}

test("every screen, signed in, with the banner unanswered: each control clickable and visible when focused; axe clean", async ({ page, browser, baseURL, hasJs }, testInfo) => {
  // 20 screens at two sizes, about 15 controls each: minutes on a loaded 2-core machine.
  test.setTimeout(600_000);
  const screens = await twoFriends(page, browser, baseURL!, testInfo);
  // A's session without the consent answer.
  const cookies = (await page.context().cookies()).filter((c) => c.name !== consentCookie.name);
  const context = await browser.newContext({ baseURL, javaScriptEnabled: hasJs });
  await context.addCookies(cookies);
  await checkScreens(context, screens, hasJs);
  await context.close();
});

test("every screen, signed out, with the banner unanswered: each control clickable and visible when focused; axe clean", async ({ browser, baseURL, hasJs }) => {
  test.setTimeout(360_000);
  const context = await browser.newContext({ baseURL, javaScriptEnabled: hasJs });
  await checkScreens(context, anonymousScreens, hasJs);
  await context.close();
});
