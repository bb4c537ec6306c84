/**
 * Following, in both projects, with two or three people in their own browser contexts:
 * search by name, product ID and e-mail; request; pending count; confirm; the followed card without
 * date of birth; follow back; unfollow with Confirm; People and a follower in Spanish; declined and
 * cancelled requests leave nothing.
 */
import type { Page } from "@playwright/test";
import * as messages from "../../app/messages";
import { catalogues } from "../../app/messages/catalogues";
import { labPdf } from "../fixtures/index";
import { chooseLanguageInSettings, dismissGuidelines, expect, expectAccessible, isoDob, otherPerson, signedInUser, test, uniqueProfile, uploadPdf } from "./support";

async function productIdOf(page: Page): Promise<string> {
  await page.goto("/settings");
  return (await page.locator(".product-id").first().textContent())!.trim();
}

async function search(page: Page, text: string) {
  await page.goto("/addpublisher");
  await page.getByPlaceholder(messages.searchPlaceholder).fill(text);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/[?&]q=/);
  await page.waitForLoadState("domcontentloaded");
}

test("find, request, confirm, see the card, follow back, unfollow; then People in Spanish", async ({ page, browser, baseURL }, testInfo) => {
  // Two people in two browsers, three searches and four accessibility checks: about a minute.
  test.slow();
  const aProfile = uniqueProfile("Alma");
  const bProfile = uniqueProfile("Bruno");
  await signedInUser(page, testInfo, "follow-a", aProfile);
  const b = await otherPerson(browser, testInfo, baseURL!);
  const bEmail = await signedInUser(b.page, testInfo, "follow-b", bProfile);
  const bId = await productIdOf(b.page);

  // A finds B by name, by product ID and by e-mail.
  await search(page, `${bProfile.firstName.toLowerCase()} ${bProfile.lastName.slice(0, 5)}`);
  const results = page.getByRole("list", { name: "Search results" });
  await expect(results.getByText(`${bProfile.firstName} ${bProfile.lastName}`)).toBeVisible();
  await expectAccessible(page);
  await search(page, bId.toLowerCase());
  await expect(results.getByText(`${bProfile.firstName} ${bProfile.lastName}`)).toBeVisible();
  await search(page, bEmail.toUpperCase());
  await expect(results.getByText(`${bProfile.firstName} ${bProfile.lastName}`)).toBeVisible();
  await expect(results).not.toContainText(bEmail);
  await expect(results).not.toContainText(bProfile.dob);

  // A requests; the Add button becomes a check icon.
  await results.getByRole("button", { name: `Add ${bProfile.firstName} ${bProfile.lastName}` }).click();
  await expect(results.getByRole("img", { name: `Requested to follow ${bProfile.firstName} ${bProfile.lastName}` })).toBeVisible();

  // B sees the pending count and confirms.
  await b.page.goto("/people");
  await expect(b.page.getByRole("link", { name: "Followers (1)" })).toBeVisible();
  // The count is of requests waiting, and the page says so.
  await expect(b.page.getByText(messages.followRequestsWaiting(1))).toBeVisible();
  await expectAccessible(b.page);
  await b.page.getByRole("link", { name: "Followers (1)" }).click();
  await b.page.getByRole("link", { name: new RegExp(`${aProfile.firstName} ${aProfile.lastName}`) }).click();
  await expect(b.page).toHaveURL(/\/follower\?id=/);
  await expectAccessible(b.page);
  // One primary action while the request waits: Confirm; Follow Back is secondary until then.
  await expect(b.page.getByRole("button", { name: "Follow Back" })).toHaveClass(/\bsecondary\b/);
  await b.page.getByRole("button", { name: "Confirm" }).click();
  await expect(b.page.getByRole("button", { name: "Confirm" })).toHaveCount(0);
  await expect(b.page.getByRole("button", { name: "Follow Back" })).toBeVisible();
  await expect(b.page.getByRole("button", { name: "Follow Back" })).not.toHaveClass(/\bsecondary\b/);
  await expect(b.page.getByText(aProfile.dob)).toHaveCount(0);
  // The follower's card says who it is (the product ID tells namesakes apart) and what it takes to see their window.
  const followerCard = b.page.getByRole("article", { name: `Safe window of ${aProfile.firstName} ${aProfile.lastName}` });
  // The journey runs against an upstream of the product rules, whose relations carry no product ID
  // (an extension, docs/product/calls.md §7.5): the card names the person without one.
  await expect(followerCard.locator(".product-id")).toHaveCount(0);
  await expect(followerCard).toContainText(messages.followerWindowHidden(aProfile.firstName));

  // B has a window: a negative NAAT collected two hours ago.
  const followerPage = b.page.url();
  await b.page.goto("/mytests");
  await dismissGuidelines(b.page);
  const bytes = await labPdf("harborview", { firstName: bProfile.firstName, lastName: bProfile.lastName, dob: isoDob(bProfile), collectedAt: new Date(Date.now() - 2 * 3600_000) });
  await uploadPdf(b.page, bytes);
  await expect(b.page.getByRole("article")).toContainText("Strong");

  // A sees B's card, with the window and without the date of birth.
  await page.goto("/people");
  await expect(page.getByRole("link", { name: new RegExp(`${bProfile.firstName} ${bProfile.lastName}.*Strong window`) })).toBeVisible();
  await page.getByRole("link", { name: new RegExp(`${bProfile.firstName} ${bProfile.lastName}`) }).click();
  await expect(page).toHaveURL(/\/following\?id=/);
  const card = page.getByRole("article", { name: `Safe window of ${bProfile.firstName} ${bProfile.lastName}` });
  await expect(card).toContainText("Strong");
  await expect(card).toContainText("Strong until");
  await expect(card).not.toContainText(bProfile.dob);
  await expect(card).not.toContainText("1988");
  await expect(card.getByRole("link", { name: "Submit Test" })).toHaveCount(0);
  await expectAccessible(page);

  // B follows back: the button becomes a disabled 'Pending'.
  await b.page.goto(followerPage);
  await b.page.getByRole("button", { name: "Follow Back" }).click();
  await expect(b.page.getByRole("button", { name: "Pending" })).toBeDisabled();
  await expect(b.page.getByRole("article")).toContainText(messages.followerWindowPending(aProfile.firstName));

  // A unfollows with Confirm.
  await page.getByRole("link", { name: "Unfollow" }).click();
  await page.getByRole("button", { name: "Confirm" }).click();
  await expect(page).toHaveURL(/\/people$/);
  await expect(page.getByText("You do not follow anyone yet.")).toBeVisible();
  // ...and still has B's follow-back request waiting.
  await expect(page.getByRole("link", { name: "Followers (1)" })).toBeVisible();

  // In Spanish (chosen on My Settings' Language card), A's People and the follower's card speak it; B's name stays as B wrote it.
  const es = catalogues.es;
  await chooseLanguageInSettings(page, "es");
  await page.goto("/people");
  await expect(page.locator("html")).toHaveAttribute("lang", "es");
  await expect(page.getByText(es.noneFollowed)).toBeVisible();
  await page.getByRole("link", { name: es.followersTab(1) }).click();
  await page.getByRole("link", { name: new RegExp(`${bProfile.firstName} ${bProfile.lastName}`) }).click();
  await expect(page).toHaveURL(/\/follower\?/);
  await expect(page.getByRole("button", { name: es.confirmButton })).toBeVisible();
  await expectAccessible(page);
  await b.context.close();
});

test("a declined and a cancelled request leave no relation", async ({ page, browser, baseURL }, testInfo) => {
  const aProfile = uniqueProfile("Cleo");
  const bProfile = uniqueProfile("Dario");
  await signedInUser(page, testInfo, "decline-a", aProfile);
  const b = await otherPerson(browser, testInfo, baseURL!);
  await signedInUser(b.page, testInfo, "decline-b", bProfile);
  const bId = await productIdOf(b.page);

  await search(page, "ab");
  await expect(page.getByText(messages.searchTooShort)).toBeVisible();

  // Declined.
  await search(page, bId);
  await page.getByRole("button", { name: `Add ${bProfile.firstName} ${bProfile.lastName}` }).click();
  await expect(page.getByRole("img", { name: `Requested to follow ${bProfile.firstName} ${bProfile.lastName}` })).toBeVisible();
  await b.page.goto("/people?tab=followers");
  await b.page.getByRole("link", { name: new RegExp(aProfile.lastName) }).click();
  await b.page.getByRole("button", { name: "Decline" }).click();
  await expect(b.page).toHaveURL(/\/people\?tab=followers$/);
  await expect(b.page.getByRole("link", { name: "Followers (0)" })).toBeVisible();
  await page.goto("/people");
  await expect(page.getByText("You do not follow anyone yet.")).toBeVisible();

  // Cancelled.
  await search(page, bId);
  await page.getByRole("button", { name: `Add ${bProfile.firstName} ${bProfile.lastName}` }).click();
  await expect(page.getByRole("img", { name: `Requested to follow ${bProfile.firstName} ${bProfile.lastName}` })).toBeVisible();
  await page.goto("/people");
  await page.getByRole("link", { name: new RegExp(bProfile.lastName) }).click();
  await expect(page.getByText("Your follow request is pending.")).toBeVisible();
  await page.getByRole("button", { name: "Cancel Request" }).click();
  await expect(page).toHaveURL(/\/people$/);
  await expect(page.getByText("You do not follow anyone yet.")).toBeVisible();
  await b.page.goto("/people?tab=followers");
  await expect(b.page.getByText("Nobody follows you yet.", { exact: false })).toBeVisible();
  await b.context.close();
});

test("a change a stale page asks for shows the product's follow message", async ({ page, browser, baseURL }, testInfo) => {
  const aProfile = uniqueProfile("Elif");
  const bProfile = uniqueProfile("Femi");
  await signedInUser(page, testInfo, "stale-a", aProfile);
  const b = await otherPerson(browser, testInfo, baseURL!);
  await signedInUser(b.page, testInfo, "stale-b", bProfile);
  const bId = await productIdOf(b.page);

  // A's search page goes stale: the request is made from a second tab first.
  await search(page, bId);
  const second = await page.context().newPage();
  await search(second, bId);
  await second.getByRole("button", { name: `Add ${bProfile.firstName} ${bProfile.lastName}` }).click();
  await expect(second.getByRole("img", { name: /Requested to follow/ })).toBeVisible();
  await page.getByRole("button", { name: `Add ${bProfile.firstName} ${bProfile.lastName}` }).click();
  await expect(page.getByText(messages.followRequestFailed)).toBeVisible();

  // A keeps the pending request open in a tab that goes stale.
  await page.goto("/people");
  await page.getByRole("link", { name: new RegExp(bProfile.lastName) }).click();
  await expect(page).toHaveURL(/\/following\?id=/);
  await expect(page.getByRole("button", { name: "Cancel Request" })).toBeVisible();

  // B confirms in one tab, then again in a stale one.
  await b.page.goto("/people?tab=followers");
  await b.page.getByRole("link", { name: new RegExp(aProfile.lastName) }).click();
  await expect(b.page).toHaveURL(/\/follower\?id=/);
  const bStale = await b.context.newPage();
  await bStale.goto(b.page.url());
  await b.page.getByRole("button", { name: "Confirm" }).click();
  await expect(b.page.getByRole("button", { name: "Confirm" })).toHaveCount(0);
  await bStale.getByRole("button", { name: "Confirm" }).click();
  await expect(bStale.getByText(messages.followConfirmFailed)).toBeVisible();
  await expectAccessible(bStale);

  // A's stale page asks to cancel a request that B has confirmed meanwhile.
  await page.getByRole("button", { name: "Cancel Request" }).click();
  await expect(page.getByText(messages.followCancelFailed)).toBeVisible();
  await b.context.close();
});
