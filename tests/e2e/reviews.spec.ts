/**
 * Disputes that get answered, in both projects: two people dispute a typo in their results; the
 * project's reviewer (REVIEWER_EMAILS, a confirmed account) opens Dispute Reviews from My Settings, accepts
 * one (the result becomes valid and the window opens) and declines the other, each with a response; each
 * person is e-mailed the decision (the app's outbox), with a link to the result; the
 * audit trail lists both; each person's Test Detail shows the response branch (the response, the
 * follow-up text and Contact). A person who is not a reviewer reaches none of the review screens.
 */
import type { Browser, Page, TestInfo } from "@playwright/test";
import * as messages from "../../app/messages";
import { harborviewPdf } from "../fixtures/index";
import { e2e } from "./env";
import {
  appOutbox,
  createAccount,
  dismissGuidelines,
  expect,
  expectAccessible,
  fillProfile,
  isoDob,
  linkPath,
  otherPerson,
  signedInUser,
  signIn,
  strongPassword,
  test,
  uniqueProfile,
  uploadPdf,
  waitForMail,
} from "./support";
import type { Profile } from "./support";

const hour = 3600_000;

/** A person in their own browser whose Harborview result printed their first name with a typo, disputed with `comment`. */
async function disputedTypo(browser: Browser, testInfo: TestInfo, baseURL: string, firstName: string, comment: string) {
  const { context, page } = await otherPerson(browser, testInfo, baseURL);
  const profile = uniqueProfile(firstName);
  const email = await signedInUser(page, testInfo, "disputer", profile);
  await page.goto("/mytests");
  await dismissGuidelines(page);
  const collectedAt = new Date(Math.floor((Date.now() - 3 * hour) / 60_000) * 60_000);
  await uploadPdf(page, await harborviewPdf({ firstName: `${firstName}x`, lastName: profile.lastName, dob: isoDob(profile), collectedAt }));
  await expect(page.getByRole("status").filter({ hasText: "does not match your profile" })).toBeVisible();
  await page.getByRole("list", { name: "Test results" }).getByRole("link").first().click();
  await expect(page).toHaveURL(/\/testdetail\?id=/);
  const detail = page.url();
  await page.getByRole("link", { name: "Dispute" }).click();
  await page.getByLabel("Describe the difference").fill(comment);
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByText(messages.disputeThanks)).toBeVisible();
  return { context, page, profile, detail, email };
}

/** The project's reviewer, signed in with a profile (created on the project's first use). */
async function signedInReviewer(page: Page, testInfo: TestInfo): Promise<void> {
  const email = e2e.reviewers[testInfo.project.name as keyof typeof e2e.reviewers];
  await createAccount(email, strongPassword, { confirmed: true });
  await page.goto("/login");
  await signIn(page, email, strongPassword);
  await expect(page).toHaveURL(/\/yourinfo$/);
  await fillProfile(page, { ...uniqueProfile("Rita"), lastName: "Reviewer" } satisfies Profile);
  await page.getByRole("button", { name: "Finish" }).click();
  await expect(page).toHaveURL(/\/welcome$/);
}

test("a reviewer accepts one typo dispute and declines another; each person reads the response", async ({ browser, page, baseURL }, testInfo) => {
  test.slow();
  const ada = await disputedTypo(browser, testInfo, baseURL!, "Ada", "The lab added an x to my first name.");
  const bea = await disputedTypo(browser, testInfo, baseURL!, "Bea", "My name has no x in it.");

  // A person who is not a reviewer has no card in My Settings and reaches no review screen, even by URL.
  await ada.page.goto("/settings");
  await expect(ada.page.getByRole("heading", { name: messages.reviewsTitle })).toHaveCount(0);
  for (const path of ["/reviews", "/reviews/history", `/reviews/dispute?id=${new URL(ada.detail).searchParams.get("id")}`]) {
    expect((await ada.page.goto(path))?.status()).toBe(404);
  }

  await signedInReviewer(page, testInfo);
  await page.goto("/settings");
  await page.getByRole("link", { name: `Open ${messages.reviewsTitle}` }).click();
  await expect(page.getByRole("heading", { name: messages.reviewsTitle, level: 1 })).toBeVisible();
  await expect(page.getByText(messages.reviewsPromise)).toBeVisible();
  const adaEntry = page.getByRole("listitem").filter({ hasText: `Ada ${ada.profile.lastName}` });
  await expect(adaEntry).toContainText("Harborview Labs");
  await expect(adaEntry).toContainText(/Due in (2 hr, \d+ min|3 hr|\d+ min)/);
  await expectAccessible(page);

  // Ada's dispute: the checks, her comment, the page; a response is required; Accept.
  await adaEntry.getByRole("link").click();
  await expect(page.getByRole("heading", { name: `Dispute of Ada ${ada.profile.lastName}` })).toBeVisible();
  await expect(page.locator(".dispute-comment")).toHaveText("The lab added an x to my first name.");
  await expect(page.getByRole("listitem").filter({ hasText: "First Name" })).toContainText(`PDF: ADAX; profile: Ada`);
  const image = page.getByRole("img", { name: "Page 1 of the disputed result" });
  await expect(image).toBeVisible();
  // Loaded (a broken image is complete too, with no width): the page of the disputed result is drawn.
  await expect(image).toHaveJSProperty("complete", true);
  expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await page.getByRole("button", { name: "Accept: make the result valid" }).click();
  await expect(page.getByText(messages.reviewResponseRequired)).toBeVisible();
  await expectAccessible(page);
  const accepted = `We checked with the lab: the x is a typo, ${ada.profile.lastName}.`;
  await page.getByLabel("Response to the user").fill(accepted);
  await page.getByRole("button", { name: "Accept: make the result valid" }).click();
  await expect(page).toHaveURL(/\/reviews$/);
  await expect(page.getByText(messages.reviewAccepted(`Ada ${ada.profile.lastName}`))).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: `Ada ${ada.profile.lastName}` })).toHaveCount(0);

  // Bea's dispute: Decline with a response.
  await page.getByRole("listitem").filter({ hasText: `Bea ${bea.profile.lastName}` }).getByRole("link").click();
  const declined = `The PDF names someone else, ${bea.profile.lastName}; please upload your own result.`;
  await page.getByLabel("Response to the user").fill(declined);
  await page.getByRole("button", { name: "Decline" }).click();
  await expect(page.getByText(messages.reviewDeclined(`Bea ${bea.profile.lastName}`))).toBeVisible();

  // A decided dispute cannot be decided again: its page sends the reviewer back to the queue.
  await page.goto(`/reviews/dispute?id=${new URL(ada.detail).searchParams.get("id")}`);
  await expect(page).toHaveURL(/\/reviews$/);
  await expect(page.getByText(messages.reviewGone)).toBeVisible();

  // The audit trail: who, the decision, what changed, the response.
  await page.getByRole("link", { name: "Decided disputes" }).click();
  const trail = page.getByRole("table");
  await expect(trail.getByRole("row").filter({ hasText: accepted })).toContainText(/Accepted.*invalid → valid/s);
  await expect(trail.getByRole("row").filter({ hasText: declined })).toContainText(/Declined.*stayed invalid/s);
  await expect(trail.getByRole("row").filter({ hasText: accepted })).toContainText(e2e.reviewers[testInfo.project.name as keyof typeof e2e.reviewers]);
  await expectAccessible(page);

  // Each person is e-mailed the decision, with a link to the result's Dispute tab.
  const adaId = new URL(ada.detail).searchParams.get("id")!;
  const adaMail = await waitForMail(ada.email, `/testdetail?id=${adaId}`, appOutbox());
  expect(adaMail.subject).toBe("Your SafeWindow dispute has been reviewed");
  expect(adaMail.text).toContain("accepted it: the result is now valid");
  expect(adaMail.text).toContain(`Our response: ${accepted}`);
  const beaMail = await waitForMail(bea.email, "/testdetail?id=", appOutbox());
  expect(beaMail.text).toContain("We could not accept it");

  // Ada: valid, her window open, the acceptance on Details and the response on the Dispute tab.
  await ada.page.goto(linkPath(adaMail, "/testdetail"));
  await expect(ada.page).toHaveURL(/tab=dispute/);
  await ada.page.getByRole("link", { name: "Details" }).click();
  await expect(ada.page.getByText(messages.resultAcceptedOnReview)).toBeVisible();
  await expect(ada.page.getByText(/Manual Review: Accepted on review by/)).toBeVisible();
  await expect(ada.page.getByRole("alert")).toHaveCount(0);
  await expect(ada.page.getByRole("link", { name: "Open the large view of the result" })).toHaveClass(/ valid/);
  await ada.page.getByRole("link", { name: "Dispute", exact: true }).click();
  await expect(ada.page.getByText(accepted)).toBeVisible();
  await expect(ada.page.getByText(messages.disputeFollowUp)).toBeVisible();
  await expect(ada.page.getByRole("link", { name: "Contact" })).toBeVisible();
  await expectAccessible(ada.page);
  await ada.page.goto("/safewindow");
  await expect(ada.page.getByRole("article")).not.toContainText(messages.emptyWindow);

  // Bea: still invalid, with the response, the follow-up and Contact.
  await bea.page.goto(`${bea.detail}&tab=dispute`);
  await expect(bea.page.getByText(declined)).toBeVisible();
  await expect(bea.page.getByText(messages.disputeFollowUp)).toBeVisible();
  await expect(bea.page.getByRole("link", { name: "Contact" })).toBeVisible();
  await bea.page.goto("/safewindow");
  await expect(bea.page.getByRole("article")).toContainText(messages.emptyWindow);
  await ada.context.close();
  await bea.context.close();
});
