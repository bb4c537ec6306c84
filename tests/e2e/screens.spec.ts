/**
 * Every screen, at phone size (390x844) and desktop size (1280x720), with the cookie banner not yet
 * answered (docs/architecture/behaviour.md §4: nothing covered, focus never hidden): each enabled control can
 * be clicked (as Playwright's trial click judges it: visible, enabled, stable, and a click at its
 * middle reaches it and nothing else), and when focused is at least 90% inside the viewport and
 * above the fixed tab bar; nothing makes the page wider than the screen; axe finds no violation; at
 * most one primary button. In both projects, one test per screen: the signed-in screens share one
 * person (A, who follows B and is followed by B, with one valid result and one invalid one whose
 * every checked field differs) made once per worker.
 * Every screen is checked in Spanish (a browser asking for es-US), at both sizes and in both
 * projects, and fails on any English string of the message catalogues it shows
 * (tests/e2e/catalogue-english.ts). English is not checked here a second time: the layout is the
 * same stylesheet with shorter words (the Spanish pass is the one that finds a page grown too
 * wide), and the English journeys run axe on their pages in both projects; a second pass in
 * English, even at phone size in one project only, costs more time than the suite's budget allows.
 */
import type { Browser, Cookie, Page, TestInfo } from "@playwright/test";
import { labPdf } from "../fixtures/index";
import { catalogues } from "../../app/messages/catalogues";
import { englishOn, englishOnlyStrings } from "./catalogue-english";
import { checkControls } from "./controls";
import { consentCookie, dismissGuidelines, expect, expectAccessible, isoDob, otherPerson, signedInUser, test, uniqueProfile, uploadPdf } from "./support";

const viewports = [
  { width: 390, height: 844 },
  { width: 1280, height: 720 },
];

/** The language each screen is checked in: the browser's locale (and so its Accept-Language), its catalogue, the sizes, the English it must not show. */
const languages = [{ locale: "es-US", messages: catalogues.es, viewports, english: englishOnlyStrings() as string[] | null }];

/** A's session (without the consent answer) and the addresses of A's screens that depend on what A made. */
interface Friends {
  cookies: Cookie[];
  resultHref: string;
  /** A's invalid result: every checked field differs from A's profile. */
  invalidHref: string;
  followerHref: string;
  followingHref: string;
  bLastName: string;
}

/** Makes A, who follows B and is followed by B, with one valid result and one invalid (every field differs), through the project's pages. */
async function twoFriends(browser: Browser, testInfo: TestInfo): Promise<Friends> {
  const baseURL = testInfo.project.use.baseURL!;
  const { context, page } = await otherPerson(browser, testInfo, baseURL);
  const aProfile = uniqueProfile("Screena");
  const bProfile = { ...uniqueProfile("Screenb"), lastName: `Longsurname${uniqueProfile("x").lastName}Hyphenated-Second` };
  await signedInUser(page, testInfo, "screens-a", aProfile);
  await page.goto("/mytests");
  await dismissGuidelines(page);
  await uploadPdf(page, await labPdf("harborview", { firstName: aProfile.firstName, lastName: aProfile.lastName, dob: isoDob(aProfile), collectedAt: new Date(Date.now() - 2 * 3600_000) }));
  const resultHref = await page.getByRole("list", { name: "Test results" }).getByRole("link").first().getAttribute("href");
  // A result for someone else (every checked field differs), newer: invalid, with an error row for each field.
  await uploadPdf(page, await labPdf("meridian", { firstName: "Wilhelmina", lastName: "Otherperson", dob: "1950-01-02", collectedAt: new Date(Date.now() - 1 * 3600_000) }));
  await expect(page.getByRole("list", { name: "Test results" }).getByRole("link")).toHaveCount(2);
  const invalidHref = await page.getByRole("list", { name: "Test results" }).getByRole("link").first().getAttribute("href");
  expect(invalidHref).not.toBe(resultHref);

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
  const cookies = (await context.cookies()).filter((c) => c.name !== consentCookie.name);
  await b.context.close();
  await context.close();
  return { cookies, resultHref: resultHref!, invalidHref: invalidHref!, followerHref, followingHref: followingHref!, bLastName: bProfile.lastName };
}

/** A's screens: a name for the test, and the address. */
const signedInScreens: [string, (f: Friends) => string][] = [
  ["/welcome", () => "/welcome"],
  ["/safewindow", () => "/safewindow"],
  ["/mytests", () => "/mytests"],
  ["/mytests?guidelines", () => "/mytests?guidelines"],
  ["Test Detail", (f) => f.resultHref],
  ["Test Detail, invalid, with its error rows", (f) => f.invalidHref],
  ["Test Detail, large view", (f) => `${f.resultHref}&view=large`],
  ["Test Detail, large view fitted", (f) => `${f.resultHref}&view=large&fit=1`],
  ["the result viewer", (f) => f.resultHref.replace("/testdetail", "/testresultviewer")],
  ["/myfun", () => "/myfun"],
  ["/locations", () => "/locations"],
  ["/locations, searched", () => "/locations?zip=98101&miles=25"],
  ["/people", () => "/people"],
  ["/people?tab=followers", () => "/people?tab=followers"],
  ["/addpublisher, searched", (f) => `/addpublisher?q=${encodeURIComponent(f.bLastName)}`],
  ["a follower", (f) => f.followerHref],
  ["a follower, remove step", (f) => `${f.followerHref}&step=remove`],
  ["someone followed", (f) => f.followingHref],
  ["someone followed, unfollow step", (f) => `${f.followingHref}&step=unfollow`],
  ["/settings", () => "/settings"],
  ["/settings?panel=password", () => "/settings?panel=password"],
  ["/settings?panel=username", () => "/settings?panel=username"],
  ["/personalinfo", () => "/personalinfo"],
  ["/personalinfo?edit=1", () => "/personalinfo?edit=1"],
];

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
 * Checks `screen` at both sizes on `page`: the controls, the page's width, and (at phone size) axe
 * and the primary buttons. The screen is loaded once, at phone size, and then resized: the layout
 * is the stylesheet's media queries alone (the app reads no viewport size in script), so a resized
 * page is laid out as one loaded at that size, without a second render and load of the page.
 * With `english` (the page is Spanish), also that the page shows none of those English strings.
 */
async function checkScreen(page: Page, screen: string, hasJs: boolean, language: (typeof languages)[number]) {
  const { viewports: sizes, english } = language;
  for (const [index, viewport] of sizes.entries()) {
    await page.setViewportSize(viewport);
    if (index === 0) {
      await page.goto(screen);
      // A working screen's first answer goes on by itself (/confirmemail): check where it lands.
      await expect(page.locator("[aria-busy='true']"), screen).toHaveCount(0);
      // With JavaScript, judge the controls as hydrated: it disables some the server sent enabled
      // (settings' New Password until a current one is typed), and focus() skips a disabled one.
      if (hasJs) await expect(page.locator("html[data-hydrated]"), screen).toHaveCount(1);
    } else {
      // As the page stood when loaded: nothing focused, scrolled to the top.
      await page.evaluate(() => {
        (document.activeElement as HTMLElement | null)?.blur();
        window.scrollTo(0, 0);
      });
    }
    await expect(page.getByRole("region", { name: language.messages.cookieConsentLabel }), screen).toBeVisible();
    expect(await checkControls(page, `${viewport.width}x${viewport.height} ${screen}`)).toEqual([]);
    // Nothing (a long e-mail address or surname) makes the page wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `${screen} at ${viewport.width} px`).toBeLessThanOrEqual(viewport.width);
    if (viewport.width === 390) {
      if (english) {
        expect(await page.locator("html").getAttribute("lang"), screen).toBe("es");
        // Soft: the geometry and axe checks still run, so that one failure lists all that is wrong with the screen.
        expect.soft(await englishOn(page, english), `${screen}: English on the Spanish page`).toEqual([]);
      }
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

test.describe("every screen, signed in, with the banner unanswered: each control clickable and visible when focused; axe clean", () => {
  let friends: Friends;
  test.beforeAll(async ({ browser }, testInfo) => {
    // Two people signed up, an upload, and a follow both ways, through the pages: as long as the
    // longest journeys (test.slow()'s three times the default).
    test.setTimeout(180_000);
    friends = await twoFriends(browser, testInfo);
  });
  for (const [name, address] of signedInScreens) {
    test(name, async ({ browser, baseURL, hasJs }) => {
      for (const language of languages) {
        const context = await browser.newContext({ baseURL, javaScriptEnabled: hasJs, locale: language.locale });
        await context.addCookies(friends.cookies);
        await checkScreen(await context.newPage(), address(friends), hasJs, language);
        await context.close();
      }
    });
  }
});

test.describe("every screen, signed out, with the banner unanswered: each control clickable and visible when focused; axe clean", () => {
  for (const screen of anonymousScreens) {
    test(screen, async ({ browser, baseURL, hasJs }) => {
      for (const language of languages) {
        const context = await browser.newContext({ baseURL, javaScriptEnabled: hasJs, locale: language.locale });
        await checkScreen(await context.newPage(), screen, hasJs, language);
        await context.close();
      }
    });
  }
});
