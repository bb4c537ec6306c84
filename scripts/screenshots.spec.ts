/**
 * The screenshots of docs/style-guide.md (run by `npm run docs:screenshots`, scripts/screenshots.config.ts):
 * a person with a valid result who follows a friend, each main screen as a phone shows it (390x844, the
 * top of the page), with Locations, a check-in code, a venue's check-in and My Fun; then a disputed result
 * and the reviewers' queue and dispute screens.
 */
import { labPdf } from "../tests/fixtures/index";
import { e2e } from "../tests/e2e/env";
import { consentCookie, createAccount, dismissGuidelines, expect, fillProfile, isoDob, otherPerson, signedInUser, signIn, strongPassword, test, uploadPdf } from "../tests/e2e/support";

const out = (name: string) => `docs/screenshots/${name}.png`;

test("the main screens at phone size", async ({ page, browser, baseURL }, testInfo) => {
  test.setTimeout(180_000);
  const ana = { firstName: "Ana", lastName: "Rivera", dob: "05/17/1990", postalCode: "98101" };
  const sam = { firstName: "Sam", lastName: "Okafor", dob: "11/02/1987", postalCode: "98103" };

  await page.goto("/");
  await page.screenshot({ path: out("intro-cookie-banner") });
  await page.context().addCookies([{ ...consentCookie, url: baseURL! }]);
  await page.goto("/login");
  await page.screenshot({ path: out("login") });
  await page.goto("/registration");
  await page.screenshot({ path: out("registration") });

  await signedInUser(page, testInfo, "style-ana", ana);
  await page.goto("/mytests");
  await page.screenshot({ path: out("mytests-before-you-add") });
  await dismissGuidelines(page);
  await uploadPdf(page, await labPdf("harborview", { firstName: ana.firstName, lastName: ana.lastName, dob: isoDob(ana), collectedAt: new Date(Date.now() - 5 * 3600_000), variation: { secondPage: true } }));
  await expect(page.getByRole("status").filter({ hasText: "validated" })).toBeVisible();
  await page.screenshot({ path: out("mytests") });
  await page.getByRole("list", { name: "Test results" }).getByRole("link").first().click();
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await page.screenshot({ path: out("testdetail") });
  await page.getByRole("link", { name: "Open the large view of the result" }).click();
  await page.getByRole("link", { name: "Next page" }).click();
  await expect(page.getByRole("img", { name: /^Page 2 of/ })).toHaveJSProperty("complete", true);
  await page.screenshot({ path: out("testdetail-large") });
  await page.goto("/safewindow");
  await page.screenshot({ path: out("safewindow") });
  await page.goto("/locations?zip=98101&miles=5");
  await page.screenshot({ path: out("locations") });
  await page.goto("/safewindow");
  await page.getByRole("button", { name: "Show a check-in code" }).click();
  const code = (await page.locator(".code-text code").textContent())!;
  await page.locator(".checkin-code").scrollIntoViewIfNeeded();
  await page.screenshot({ path: out("safewindow-checkin-code") });
  const venue = await otherPerson(browser, testInfo, baseURL!);
  await createAccount(e2e.venueAdmins.js, strongPassword, { confirmed: true });
  await venue.page.goto("/login");
  await signIn(venue.page, e2e.venueAdmins.js, strongPassword);
  await fillProfile(venue.page, { firstName: "Vic", lastName: "Tran", dob: "02/20/1984", postalCode: "98101" });
  await venue.page.getByRole("button", { name: "Finish" }).click();
  await venue.page.goto("/checkin");
  await venue.page.getByLabel("Visitor's check-in code").fill(code);
  await venue.page.getByRole("button", { name: "Look up" }).click();
  await expect(venue.page.locator(".glance")).toContainText("Strong safe window");
  await venue.page.screenshot({ path: out("checkin") });
  await venue.page.getByRole("button", { name: "Check in" }).click();
  await venue.context.close();
  await page.goto("/myfun");
  await page.screenshot({ path: out("myfun") });

  const friend = await otherPerson(browser, testInfo, baseURL!);
  await signedInUser(friend.page, testInfo, "style-sam", sam);
  await page.goto("/addpublisher?q=Okafor");
  await page.screenshot({ path: out("addpublisher") });
  await page.getByRole("button", { name: "Add Sam Okafor" }).click();
  await friend.page.goto("/people?tab=followers");
  await friend.page.getByRole("link", { name: /Ana Rivera/ }).click();
  await friend.page.getByRole("button", { name: "Confirm" }).click();
  await expect(friend.page.getByRole("button", { name: "Confirm" })).toHaveCount(0);
  await friend.page.screenshot({ path: out("follower") });
  await friend.context.close();

  await page.goto("/people");
  await page.screenshot({ path: out("people") });
  await page.goto("/settings");
  await page.screenshot({ path: out("settings") });

  // A result with a typo in the first name, disputed; the reviewers' queue and the dispute.
  await page.goto("/mytests");
  await uploadPdf(page, await labPdf("harborview", { firstName: "Anna", lastName: ana.lastName, dob: isoDob(ana), collectedAt: new Date(Date.now() - 2 * 3600_000) }));
  await expect(page.getByRole("status").filter({ hasText: "does not match your profile" })).toBeVisible();
  await page.getByRole("list", { name: "Test results" }).getByRole("link").first().click();
  await page.getByRole("link", { name: "Dispute" }).click();
  await page.getByLabel("Describe the difference").fill("My name is Ana with one n; the lab typed Anna.");
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByRole("heading", { name: "Your Submission" })).toBeVisible();
  const reviewer = await otherPerson(browser, testInfo, baseURL!);
  await createAccount(e2e.reviewers.js, strongPassword, { confirmed: true });
  await reviewer.page.goto("/login");
  await signIn(reviewer.page, e2e.reviewers.js, strongPassword);
  await fillProfile(reviewer.page, { firstName: "Rita", lastName: "Moreno", dob: "12/11/1981", postalCode: "98101" });
  await reviewer.page.getByRole("button", { name: "Finish" }).click();
  await reviewer.page.goto("/reviews");
  await reviewer.page.screenshot({ path: out("reviews") });
  await reviewer.page.getByRole("link", { name: /Ana Rivera/ }).click();
  await expect(reviewer.page.getByRole("img", { name: "Page 1 of the disputed result" })).toHaveJSProperty("complete", true);
  await reviewer.page.screenshot({ path: out("reviews-dispute"), fullPage: true });
  await reviewer.context.close();
});
