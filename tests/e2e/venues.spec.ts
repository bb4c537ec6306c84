/**
 * Venues (docs/venues.md), in both projects, with three people in their own browsers: a visitor
 * whose safe window is open finds the venue by ZIP code (and, with JavaScript, near where she is), shows
 * a check-in code; a visitor without a window shows one too; the venue's administrator (a licensed
 * administrator of the sample venues, seeded before the app starts) sees the first's window open and the
 * second's not, and checks both in; a used and an unknown code get their messages; each visitor sees
 * the visit in My Fun, and the first rates it. (A check that does not end in a check-in cannot be
 * rated: tests/integration/consumer-venues.test.ts.) Someone who administers no location gets no check-in page.
 */
import type { Page, TestInfo } from "@playwright/test";
import * as messages from "../../app/messages";
import { checkinCodeMinutes } from "../../contracts/consumer";
import { harborviewPdf } from "../fixtures/index";
import { e2e } from "./env";
import { createAccount, dismissGuidelines, expect, expectAccessible, fillProfile, isoDob, otherPerson, signIn, signedInUser, strongPassword, test, uniqueProfile, uploadPdf } from "./support";

/** The sample venue the journey happens at (services/business/seed.ts SAMPLE_VENUES[0]). */
const harborviewTaproomId = "5a1e7d0c-5eed-4000-8000-000000000101";

/** The project's venue administrator, signed in with a profile (made on the project's first use). */
async function signedInVenueAdmin(page: Page, testInfo: TestInfo): Promise<void> {
  const email = e2e.venueAdmins[testInfo.project.name as keyof typeof e2e.venueAdmins];
  await createAccount(email, strongPassword, { confirmed: true });
  await page.goto("/login");
  await signIn(page, email, strongPassword);
  await expect(page).toHaveURL(/\/yourinfo$/);
  await fillProfile(page, { ...uniqueProfile("Vic"), lastName: "Venue" });
  await page.getByRole("button", { name: "Finish" }).click();
  await expect(page).toHaveURL(/\/welcome$/);
}

/** Asks for a check-in code on My Safe Window; the code as shown (two groups of three). */
async function checkinCode(page: Page): Promise<string> {
  await page.goto("/safewindow");
  await page.getByRole("button", { name: "Show a check-in code" }).click();
  const shown = page.locator(".code-text code");
  await expect(shown).toHaveText(/^[0-9A-HJKMNP-TV-Z]{3} [0-9A-HJKMNP-TV-Z]{3}$/);
  await expect(page.getByRole("img", { name: /^QR code of check-in code / })).toBeVisible();
  // How long it works, as the consumer API issues it (contracts/consumer/venues.ts).
  await expect(page.getByRole("status").filter({ hasText: "Valid until" })).toContainText(messages.checkinCodeHint(checkinCodeMinutes));
  return (await shown.textContent())!;
}

/** On Venue Check-In: chooses the location and enters a code. */
async function lookUp(page: Page, code: string): Promise<void> {
  await page.getByLabel("Location").selectOption({ label: "Harborview Taproom, Seattle" });
  await page.getByLabel("Visitor's check-in code").fill(code);
  await page.getByRole("button", { name: /^(Look up|Next visitor)$/ }).click();
  await page.waitForLoadState("domcontentloaded");
}

test("a venue checks in a visitor whose window is open and sees one whose window is not; the visitor finds the venue and rates the visit", async ({ page, browser, baseURL, hasJs }, testInfo) => {
  // Three people, an upload, and two accessibility checks.
  test.slow();
  const ada = uniqueProfile("Ada");
  await signedInUser(page, testInfo, "venue-ada", ada);
  await page.goto("/mytests");
  await dismissGuidelines(page);
  await uploadPdf(page, await harborviewPdf({ firstName: ada.firstName, lastName: ada.lastName, dob: isoDob(ada), collectedAt: new Date(Date.now() - 3 * 3600_000) }));
  await expect(page.getByRole("list", { name: "Test results" }).getByRole("link")).toHaveCount(1);

  // Locations: the ZIP box starts with the profile's (Cambridge, MA: no sample venue near), then Seattle's.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Locations" }).click();
  await expect(page.getByRole("heading", { name: messages.locationsTitle })).toBeVisible();
  await expect(page.getByLabel("ZIP code")).toHaveValue(ada.postalCode);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page.getByText(messages.noLocationsFound)).toBeVisible();
  await page.getByLabel("ZIP code").fill("98101");
  await page.getByLabel("Within").selectOption("5");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  const found = page.getByRole("list", { name: "Locations found" });
  await expect(found.getByRole("heading")).toHaveText(["Harborview Taproom", "Capitol Hill Music Hall"]);
  await expect(found.getByRole("listitem").first()).toContainText("1301 Alaskan Way, Seattle, WA 98101");
  await expect(found.getByRole("listitem").first()).toContainText("(206) 555-0141");
  await expect(page.getByRole("status")).toHaveText("2 locations within 5 miles of 98101.");
  await expectAccessible(page);
  if (hasJs) {
    // Near me: the browser's position, once the person allows it.
    await page.context().grantPermissions(["geolocation"]);
    await page.context().setGeolocation({ latitude: 30.25, longitude: -97.75 }); // Austin
    await page.getByRole("button", { name: "Near me" }).click();
    await expect(page).toHaveURL(/latitude=30\.25/);
    await expect(found.getByRole("heading")).toHaveText(["South Congress Dance Hall"]);
  } else {
    await expect(page.getByRole("button", { name: "Near me" })).toHaveCount(0);
  }

  const adaCode = await checkinCode(page);

  // A second visitor, without a safe window.
  const bob = await otherPerson(browser, testInfo, baseURL!);
  const bobProfile = uniqueProfile("Bob");
  await signedInUser(bob.page, testInfo, "venue-bob", bobProfile);
  const bobCode = await checkinCode(bob.page);

  // Ada administers no location: no check-in page, no card; and a lookup posted by hand shows her
  // nothing of Bob and leaves his code unused (the venue enters it below).
  expect((await page.goto("/checkin"))?.status()).toBe(404);
  const forged = await page.request.post("/checkin", { form: { intent: "lookup", locationId: harborviewTaproomId, code: bobCode }, headers: { origin: baseURL! } });
  expect(forged.status()).toBeGreaterThanOrEqual(400);
  expect(await forged.text()).not.toContain(bobProfile.lastName);
  await page.goto("/settings");
  await expect(page.getByRole("heading", { name: messages.checkinTitle })).toHaveCount(0);

  // The venue.
  const venue = await otherPerson(browser, testInfo, baseURL!);
  await signedInVenueAdmin(venue.page, testInfo);
  await venue.page.goto("/settings");
  await venue.page.getByRole("link", { name: `Open ${messages.checkinTitle}` }).click();
  await expect(venue.page.getByRole("heading", { name: messages.checkinTitle })).toBeVisible();
  await expect(venue.page.getByText(messages.checkinPageHint(checkinCodeMinutes))).toBeVisible();

  // Typed as heard: lower case, with the space.
  await lookUp(venue.page, adaCode.toLowerCase());
  const glance = venue.page.locator(".glance");
  await expect(glance).toContainText("Strong safe window");
  await expect(glance).toContainText(`${ada.firstName} ${ada.lastName}`);
  await expect(venue.page.locator("main")).not.toContainText(ada.dob);
  await expect(venue.page.locator("main")).not.toContainText(isoDob(ada));
  await expectAccessible(venue.page);
  await venue.page.getByRole("button", { name: "Check in" }).click();
  await expect(venue.page.getByText(`${messages.checkedIn} ${ada.firstName} ${ada.lastName}`)).toBeVisible();
  // The location chosen stays chosen for the next visitor.
  await expect(venue.page.getByLabel("Location")).toHaveValue(harborviewTaproomId);

  // The same code again: used.
  await lookUp(venue.page, adaCode);
  await expect(venue.page.getByRole("alert")).toContainText("already used");
  // A code nobody was given.
  await lookUp(venue.page, "ZZZ ZZZ");
  await expect(venue.page.getByRole("alert")).toContainText(messages.checkinCodeNotFound);
  // Bob: no open window; the venue checks him in all the same (its own rule), and the visit says what it saw.
  await lookUp(venue.page, bobCode);
  await expect(glance).toContainText("No open safe window");
  await expect(glance).toContainText(`${bobProfile.firstName} ${bobProfile.lastName}`);
  await venue.page.getByRole("button", { name: "Check in" }).click();
  await expect(venue.page.getByText(`${messages.checkedIn} ${bobProfile.firstName} ${bobProfile.lastName}`)).toBeVisible();

  // Ada's My Fun: the visit, checked in, and her rating.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "My Fun" }).click();
  const visit = page.getByRole("list", { name: "Visits" }).getByRole("listitem");
  await expect(visit).toHaveCount(1);
  await expect(visit).toContainText("Harborview Taproom");
  await expect(visit).toContainText("Checked: Strong safe window · Checked in");
  await visit.getByLabel("4 stars").check();
  await visit.getByRole("button", { name: "Save rating" }).click();
  await expect(page.getByRole("status").filter({ hasText: messages.ratingSaved })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("list", { name: "Visits" }).getByLabel("4 stars")).toBeChecked();
  await expectAccessible(page);

  // Bob's My Fun: what the venue saw, and the check-in.
  await bob.page.goto("/myfun");
  const bobVisit = bob.page.getByRole("list", { name: "Visits" }).getByRole("listitem");
  await expect(bobVisit).toContainText("Checked: No open safe window · Checked in");

  await bob.context.close();
  await venue.context.close();
});
