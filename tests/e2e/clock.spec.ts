/**
 * One clock (docs/architecture/behaviour.md §4): every time on a screen in one zone and one format, the
 * zone named. The browser's zone when JavaScript runs; without it the postal code's; a zone chosen in
 * My Settings beats both on this device, and Wipe forgets it. The browser here is in Tokyo, the
 * profile's postal code in Phoenix (no daylight saving time), so each source gives a different clock.
 */
import type { Page } from "@playwright/test";
import * as messages from "../../app/messages";
import { formatInstant } from "../../app/dates";
import { labPdf } from "../fixtures/index";
import { dismissGuidelines, expect, expectAccessible, fillProfile, isoDob, signedInUser, signIn, strongPassword, test, uniqueProfile, uploadPdf } from "./support";

test.use({ timezoneId: "Asia/Tokyo" });

const hour = 60 * 60 * 1000;

/** The card's "Times in …" note and its "Based on" line. */
async function expectCardClock(page: Page, zone: string, collectedAt: Date) {
  const card = page.getByRole("article", { name: /^Safe window of / });
  await expect(card.getByText(`Times in ${zone.replace(/_/g, " ")}`)).toBeVisible();
  await expect(card).toContainText(`collected ${formatInstant(collectedAt.toISOString(), zone)}`);
  await expect(page.getByRole("main")).not.toContainText(/\d UTC\b/);
}

test("every time in the person's zone: the browser's, the postal code's, or the one chosen in My Settings", async ({ page, hasJs }, testInfo) => {
  test.slow();
  const profile = { ...uniqueProfile("Clock"), postalCode: "85001" };
  const email = await signedInUser(page, testInfo, "clock", profile);
  const automatic = hasJs ? "Asia/Tokyo" : "America/Phoenix";
  const source = hasJs ? "from this browser" : "from your postal code";

  // A result collected 3 hours ago (to the minute, as the lab prints it).
  const collectedAt = new Date(Math.floor((Date.now() - 3 * hour) / 60_000) * 60_000);
  await page.goto("/mytests");
  await dismissGuidelines(page);
  const bytes = await labPdf("cascade", { firstName: profile.firstName, lastName: profile.lastName, dob: isoDob(profile), collectedAt, method: "antigen" });
  await uploadPdf(page, bytes, "cascade.pdf");
  // The provider's message wrote its times in UTC; the page shows them on the person's clock.
  const notice = page.getByRole("status").filter({ hasText: "Your test result was validated." });
  await expect(notice).toBeVisible();
  await expect(notice).not.toContainText("UTC");
  await expect(notice).toContainText(hasJs ? "GMT+9" : "MST");
  await expectCardClock(page, automatic, collectedAt);
  const list = page.getByRole("list", { name: "Test results" });
  await expect(list).toContainText(formatInstant(collectedAt.toISOString(), automatic));

  await page.goto("/settings");
  const card = page.getByRole("region", { name: "Time Zone" });
  await expect(card).toContainText(`Times are shown in ${automatic.replace(/_/g, " ")} (${source}).`);
  await expect(card.getByLabel("Time zone")).toHaveValue("");
  await expectAccessible(page);

  // A zone chosen here beats the browser's and the postal code's.
  await card.getByLabel("Time zone").selectOption("Europe/Paris");
  await card.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(messages.timeZoneSaved)).toBeVisible();
  await expect(card).toContainText("Times are shown in Europe/Paris (as chosen here).");
  await expect(card.getByLabel("Time zone")).toHaveValue("Europe/Paris");
  await page.goto("/safewindow");
  await expectCardClock(page, "Europe/Paris", collectedAt);
  await page.goto("/mytests");
  await expect(list).toContainText(formatInstant(collectedAt.toISOString(), "Europe/Paris"));

  // A zone that is not on the list is refused with a message, and the choice stays as it was.
  const refused = await page.request.post("/settings", { form: { intent: "timeZone", timeZone: "Mars/Olympus_Mons" }, headers: { origin: new URL(page.url()).origin }, maxRedirects: 0 });
  expect(refused.status()).toBe(400);
  expect(await refused.text()).toContain(messages.timeZoneUnknown);
  await page.goto("/settings");
  await expect(card).toContainText("Times are shown in Europe/Paris (as chosen here).");

  // Back to Automatic.
  await card.getByLabel("Time zone").selectOption("");
  await card.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(messages.timeZoneAutomaticSaved)).toBeVisible();
  await expect(card).toContainText(`Times are shown in ${automatic.replace(/_/g, " ")} (${source}).`);

  // A new postal code moves the automatic clock without JavaScript (the browser's zone still wins with it).
  await page.getByRole("link", { name: "Change personal info" }).click();
  await page.getByRole("link", { name: "Change Your Info" }).click();
  await fillProfile(page, { postalCode: "10001" });
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(/\/settings$/);
  const moved = hasJs ? "Asia/Tokyo" : "America/New_York";
  await expect(card).toContainText(`Times are shown in ${moved.replace(/_/g, " ")} (${source}).`);
  await page.goto("/safewindow");
  await expectCardClock(page, moved, collectedAt);

  // The choice belongs to this device: Wipe forgets it, and the next sign-in is on Automatic again.
  await page.goto("/settings");
  await card.getByLabel("Time zone").selectOption("Australia/Sydney");
  await card.getByRole("button", { name: "Save" }).click();
  await expect(card).toContainText("Times are shown in Australia/Sydney (as chosen here).");
  await page.getByRole("button", { name: "Wipe" }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto("/login");
  await signIn(page, email, strongPassword);
  await expect(page).toHaveURL(/\/safewindow$/);
  await expectCardClock(page, moved, collectedAt);
});
