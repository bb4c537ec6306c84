/**
 * Every screen, at phone size (390x844) and desktop size (1280x720), with the cookie banner not yet
 * answered (docs/architecture/behaviour.md §4: nothing covered, focus never hidden): each enabled control can
 * be clicked (as Playwright's trial click judges it: visible, enabled, stable, and a click at its
 * middle reaches it and nothing else), and when focused is at least 90% inside the viewport and
 * above the fixed tab bar; nothing makes the page wider than the screen; axe finds no violation; at
 * most one primary button. In both projects, one test per screen: the signed-in screens share one
 * person made once per worker, with data on every screen that shows some: A follows B and is
 * followed by B; has a valid result, an invalid one whose every checked field differs (its Dispute
 * tab offers the form), one whose signed code disagrees with its PDF and whose dispute a reviewer
 * accepted (its Signed QR Code and Manual Review rows), and one whose dispute waits in the reviewers'
 * queue; and was checked in at a venue (a visit in My Fun). The worker's staff (a reviewer and venue
 * administrator, tests/e2e/env.ts screensStaff) did the deciding and the checking in, and shows the
 * reviewers' screens.
 * Every screen is checked in Spanish (a browser asking for es-US), at both sizes and in both
 * projects, and fails on any English string of the message catalogues it shows
 * (tests/e2e/catalogue-english.ts). English is not checked here a second time: the layout is the
 * same stylesheet with shorter words (the Spanish pass is the one that finds a page grown too
 * wide), and the English journeys run axe on their pages in both projects; a second pass in
 * English, even at phone size in one project only, costs more time than the suite's budget allows.
 */
import type { Browser, Cookie, Page, TestInfo } from "@playwright/test";
import { labPdf } from "../fixtures/index";
import { e2eShcIssuer, shcText } from "../fixtures/shc";
import * as messages from "../../app/messages";
import { catalogues, type Messages } from "../../app/messages/catalogues";
import { englishOn, englishOnlyStrings } from "./catalogue-english";
import { checkControls } from "./controls";
import { e2e } from "./env";
import { spanishRejectionMessages } from "../../services/consumer/results/errors-es";
import {
  consentCookie,
  createAccount,
  dismissGuidelines,
  expect,
  expectAccessible,
  fillProfile,
  isoDob,
  otherPerson,
  signedInUser,
  signIn,
  strongPassword,
  test,
  uniqueProfile,
  uploadPdf,
} from "./support";

const viewports = [
  { width: 390, height: 844 },
  { width: 1280, height: 720 },
];

/** The language each screen is checked in: the browser's locale (and so its Accept-Language), its catalogue, the sizes, the English it must not show. */
const languages = [{ locale: "es-US", messages: catalogues.es, viewports, english: englishOnlyStrings() as string[] | null }];

const hour = 3600_000;

/** A's session and the staff's (without the consent answer), and the addresses of the screens that depend on what A made. */
interface Friends {
  cookies: Cookie[];
  /** The worker's staff: a dispute reviewer and venue administrator (tests/e2e/env.ts screensStaff). */
  staffCookies: Cookie[];
  /** A's name, as the reviewers' screens show it. */
  aName: string;
  resultHref: string;
  /** A's invalid result: every checked field differs from A's profile. Not disputed: its Dispute tab offers the form. */
  invalidHref: string;
  /** A's result whose signed code disagrees with its PDF on the collection time, disputed and accepted by the staff. */
  reviewedHref: string;
  /** A's result with a misspelt first name, disputed and not yet decided: in the reviewers' queue. */
  openDisputeId: string;
  followerHref: string;
  followingHref: string;
  bLastName: string;
}

/** Uploads `bytes` through My Tests; the address of the result it added (the list's one new link). */
async function uploaded(page: Page, bytes: Uint8Array): Promise<string> {
  const links = page.getByRole("list", { name: "Test results" }).getByRole("link");
  const hrefs = () => links.evaluateAll((all) => all.map((link) => link.getAttribute("href")!));
  const before = await hrefs();
  await uploadPdf(page, bytes);
  await expect(links).toHaveCount(before.length + 1);
  return (await hrefs()).find((href) => !before.includes(href))!;
}

/** Disputes the result at `href` with `comment`, through its Dispute tab. */
async function disputed(page: Page, href: string, comment: string): Promise<void> {
  await page.goto(`${href}&tab=dispute`);
  await page.getByLabel("Describe the difference").fill(comment);
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByText(messages.disputeThanks)).toBeVisible();
}

/**
 * The worker's staff (tests/e2e/env.ts screensStaff, one per worker slot), signed in with a profile.
 * The account and its profile are made on the slot's first use and kept: a later worker in the slot
 * (the other project, or one that replaced a failed worker) signs in to them.
 */
async function signedInStaff(page: Page, testInfo: TestInfo): Promise<void> {
  const email = e2e.screensStaff[testInfo.parallelIndex];
  if (!email) throw new Error(`worker slot ${testInfo.parallelIndex}: tests/e2e/env.ts screensStaff has staff for ${e2e.screensStaff.length} workers at once`);
  await createAccount(email, strongPassword, { confirmed: true, reuse: true });
  await page.goto("/login");
  await signIn(page, email, strongPassword);
  await expect(page).toHaveURL(/\/(yourinfo|welcome)$/);
  if (new URL(page.url()).pathname === "/yourinfo") {
    await fillProfile(page, { ...uniqueProfile("Rita"), lastName: "Staff" });
    await page.getByRole("button", { name: "Finish" }).click();
    await expect(page).toHaveURL(/\/welcome$/);
  }
}

/**
 * Makes A's data through the project's pages: A, B and the worker's staff sign in; A uploads four
 * results (valid; invalid, every field differing; signed, its code disagreeing with its PDF; a
 * misspelt first name), disputes the last two and shows a check-in code; then the staff accepts the
 * signed result's dispute and checks A in at a sample venue, while A and B follow each other.
 */
async function twoFriends(browser: Browser, testInfo: TestInfo): Promise<Friends> {
  const baseURL = testInfo.project.use.baseURL!;
  const { context, page } = await otherPerson(browser, testInfo, baseURL);
  const b = await otherPerson(browser, testInfo, baseURL);
  const staff = await otherPerson(browser, testInfo, baseURL);
  const aProfile = uniqueProfile("Screena");
  const bProfile = { ...uniqueProfile("Screenb"), lastName: `Longsurname${uniqueProfile("x").lastName}Hyphenated-Second` };
  await Promise.all([signedInUser(page, testInfo, "screens-a", aProfile), signedInUser(b.page, testInfo, "screens-b", bProfile), signedInStaff(staff.page, testInfo)]);
  const a = { firstName: aProfile.firstName, lastName: aProfile.lastName, dob: isoDob(aProfile) };

  await page.goto("/mytests");
  await dismissGuidelines(page);
  const resultHref = await uploaded(page, await labPdf("harborview", { ...a, collectedAt: new Date(Date.now() - 2 * hour) }));
  // A result for someone else (every checked field differs), newer: invalid, with an error row for each field.
  const invalidHref = await uploaded(page, await labPdf("meridian", { firstName: "Wilhelmina", lastName: "Otherperson", dob: "1950-01-02", collectedAt: new Date(Date.now() - 1 * hour) }));
  // A signed result whose code says the sample was taken an hour before its PDF says: invalid, a Signed QR Code row.
  const collectedAt = new Date(Math.floor((Date.now() - 3 * hour) / 60_000) * 60_000);
  const signedCode = await shcText(await e2eShcIssuer(), { givenNames: [a.firstName], lastName: a.lastName, dob: a.dob, collectedAt: new Date(collectedAt.getTime() - hour) });
  const reviewedHref = await uploaded(page, await labPdf("harborview", { ...a, collectedAt, variation: { qr: [{ text: signedCode }] } }));
  // A result whose lab misspelt A's first name.
  const openDisputeHref = await uploaded(page, await labPdf("harborview", { ...a, firstName: `${a.firstName}x`, collectedAt: new Date(Date.now() - 4 * hour) }));
  // The disputes, in Spanish: the reviewers' screens show their comments.
  await disputed(page, reviewedHref, "El laboratorio anotó mal la hora de la toma de muestra en el informe.");
  await disputed(page, openDisputeHref, "El laboratorio escribió mal mi nombre.");
  await page.goto("/safewindow");
  await page.getByRole("button", { name: "Show a check-in code" }).click();
  await expect(page.locator(".code-text code")).toHaveText(/^\w{3} \w{3}$/);
  const checkinCode = (await page.locator(".code-text code").textContent())!;

  const idOf = (href: string) => new URL(href, baseURL).searchParams.get("id")!;
  await Promise.all([
    (async () => {
      // The staff accepts the signed result's dispute (valid, a Manual Review row), and checks A in.
      await staff.page.goto(`/reviews/dispute?id=${encodeURIComponent(idOf(reviewedHref))}`);
      await staff.page.getByLabel("Response to the user").fill("Lo comprobamos con el laboratorio: la hora del informe estaba mal.");
      await staff.page.getByRole("button", { name: "Accept: make the result valid" }).click();
      await expect(staff.page).toHaveURL(/\/reviews$/);
      await staff.page.goto("/checkin");
      await staff.page.getByLabel("Location").selectOption({ label: "Harborview Taproom, Seattle" });
      await staff.page.getByLabel("Visitor's check-in code").fill(checkinCode);
      await staff.page.getByRole("button", { name: "Look up" }).click();
      await staff.page.getByRole("button", { name: "Check in" }).click();
      await expect(staff.page.getByText(`${messages.checkedIn} ${a.firstName} ${a.lastName}`)).toBeVisible();
    })(),
    (async () => {
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
    })(),
  ]);
  const followerHref = new URL(page.url()).pathname + new URL(page.url()).search;
  await page.goto("/people");
  const followingHref = await page.getByRole("link", { name: new RegExp(`${bProfile.firstName} ${bProfile.lastName}`) }).getAttribute("href");
  const withoutConsent = (cookies: Cookie[]) => cookies.filter((c) => c.name !== consentCookie.name);
  const cookies = withoutConsent(await context.cookies());
  const staffCookies = withoutConsent(await staff.context.cookies());
  await Promise.all([context.close(), b.context.close(), staff.context.close()]);
  return {
    cookies,
    staffCookies,
    aName: `${a.firstName} ${a.lastName}`,
    resultHref,
    invalidHref,
    reviewedHref,
    openDisputeId: idOf(openDisputeHref),
    followerHref,
    followingHref: followingHref!,
    bLastName: bProfile.lastName,
  };
}

/** How a screen is opened beyond its address: by the staff instead of A, and what data it must show (in the page's words). */
interface ScreenOptions {
  staff?: boolean;
  shows?: (page: Page, f: Friends, m: Messages) => Promise<void>;
}

/** The signed-in screens: a name for the test, the address, and how it is opened. */
const signedInScreens: [string, (f: Friends) => string, ScreenOptions?][] = [
  ["/welcome", () => "/welcome"],
  ["/safewindow", () => "/safewindow"],
  ["/mytests", () => "/mytests"],
  ["/mytests?guidelines", () => "/mytests?guidelines"],
  [
    "/mytests, a refused upload's message",
    () => "/mytests",
    {
      // A file that is not a PDF: refused by the consumer API, which words it in the request's language; nothing is stored.
      shows: async (page, _f, m) => {
        await uploadPdf(page, new TextEncoder().encode("These are my results, typed out."), "results.pdf", m);
        await expect(page.getByText(spanishRejectionMessages.not_pdf())).toBeVisible();
      },
    },
  ],
  ["Test Detail", (f) => f.resultHref],
  ["Test Detail, invalid, with its error rows", (f) => f.invalidHref],
  ["Test Detail, invalid, its Dispute tab", (f) => `${f.invalidHref}&tab=dispute`, { shows: (page, _f, m) => expect(page.getByLabel(m.describeDifference)).toBeVisible() }],
  [
    "Test Detail, accepted on review, with its Signed QR Code and Manual Review rows",
    (f) => f.reviewedHref,
    {
      shows: async (page, _f, m) => {
        for (const field of ["Signed QR Code", "Manual Review"] as const) await expect(page.getByText(m.resultWords.fields[field], { exact: true })).toBeVisible();
      },
    },
  ],
  ["Test Detail, large view", (f) => `${f.resultHref}&view=large`],
  ["Test Detail, large view fitted", (f) => `${f.resultHref}&view=large&fit=1`],
  ["the result viewer", (f) => f.resultHref.replace("/testdetail", "/testresultviewer")],
  ["/myfun, with a visit", () => "/myfun", { shows: (page, _f, m) => expect(page.getByRole("list", { name: m.visitsLabel }).getByRole("listitem")).toHaveCount(1) }],
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
  // The reviewers' screens, as the staff sees them.
  ["/reviews, A's dispute in the queue", () => "/reviews", { staff: true, shows: (page, f) => expect(page.getByRole("link", { name: new RegExp(f.aName) })).toBeVisible() }],
  [
    "a dispute under review",
    (f) => `/reviews/dispute?id=${encodeURIComponent(f.openDisputeId)}`,
    { staff: true, shows: (page, f, m) => expect(page.getByRole("heading", { level: 1, name: m.disputeOfHeading(f.aName) })).toBeVisible() },
  ],
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
 * `shows`: what the loaded page must show (the data it is opened for), asserted before the checks.
 */
async function checkScreen(page: Page, screen: string, hasJs: boolean, language: (typeof languages)[number], shows?: (page: Page) => Promise<void>) {
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
      await shows?.(page);
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
    // Three people signed in, four uploads, two disputes, a decision, a check-in and a follow both
    // ways, through the pages: as long as the longest journeys (test.slow()'s three times the default).
    test.setTimeout(180_000);
    friends = await twoFriends(browser, testInfo);
  });
  for (const [name, address, options = {}] of signedInScreens) {
    test(name, async ({ browser, baseURL, hasJs }) => {
      for (const language of languages) {
        const context = await browser.newContext({ baseURL, javaScriptEnabled: hasJs, locale: language.locale });
        await context.addCookies(options.staff ? friends.staffCookies : friends.cookies);
        const shows = options.shows && ((page: Page) => options.shows!(page, friends, language.messages));
        await checkScreen(await context.newPage(), address(friends), hasJs, language, shows);
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
