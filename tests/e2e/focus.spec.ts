/**
 * Focus after navigations and posts (docs/architecture/behaviour.md §4 focus): the message a post produced,
 * else the new page's heading; never <body>. Without JavaScript the answer page's message carries
 * `autofocus`, so the browser focuses it as it loads; a page without a message leaves focus to the
 * browser, which is only checked with JavaScript.
 */
import type { Page } from "@playwright/test";
import * as messages from "../../app/messages";
import { labPdf } from "../fixtures/index";
import { storedCases } from "../fixtures/index";
import { createAccount, createAccountThroughForm, dismissGuidelines, expect, fillProfile, isoDob, signedInUser, signIn, strongPassword, test, uniqueEmail, uniqueProfile, uploadPdf } from "./support";

/** The focused element's tag, role and text, for a readable failure. */
function focused(page: Page) {
  return page.evaluate(() => {
    const element = document.activeElement;
    return element ? `${element.tagName.toLowerCase()}${element.getAttribute("role") ? `[role=${element.getAttribute("role")}]` : ""}: ${(element.textContent ?? "").trim().slice(0, 80)}` : "none";
  });
}

test("after a post, focus is on the message it produced, with and without JavaScript", async ({ page, hasJs }, testInfo) => {
  const email = uniqueEmail(testInfo, "focus-message");
  await createAccount(email, strongPassword, { confirmed: true });

  // Sign In with a wrong password: the form's error.
  await page.goto("/login");
  await signIn(page, email, "Wrong#Pass1");
  const error = page.getByRole("alert").filter({ hasText: messages.loginFailed });
  await expect(error).toBeVisible();
  await expect(error, await focused(page)).toBeFocused();
  // Without JavaScript the server's answer asks for it; with it the attribute is not rendered again.
  if (!hasJs) await expect(error).toHaveAttribute("autofocus", "");

  // Settings: the notice after a password change.
  await signIn(page, email, strongPassword);
  await expect(page).toHaveURL(/\/yourinfo$/);
  await fillProfile(page, uniqueProfile("Marta"));
  await page.getByRole("button", { name: "Finish" }).click();
  await expect(page).toHaveURL(/\/welcome$/);
  // A post that redirects to a page without a message: its heading (the script's job).
  if (hasJs) await expect(page.getByRole("heading", { level: 1 }), await focused(page)).toBeFocused();
  await page.goto("/settings?panel=password");
  await page.getByLabel("Current Password").fill(strongPassword);
  await page.getByLabel("New Password", { exact: true }).fill("Better!Pass77");
  await page.getByLabel("Confirm New Password").fill("Better!Pass77");
  await page.getByRole("button", { name: "Update" }).click();
  const notice = page.getByRole("status").filter({ hasText: messages.passwordChanged });
  await expect(notice).toBeVisible();
  await expect(notice, await focused(page)).toBeFocused();
});

test("after an upload, focus is on its outcome", async ({ page }, testInfo) => {
  const profile = uniqueProfile("Fiona");
  await signedInUser(page, testInfo, "focus-upload", profile);
  await page.goto("/mytests");
  await dismissGuidelines(page);
  await uploadPdf(page, await labPdf("harborview", { firstName: profile.firstName, lastName: profile.lastName, dob: isoDob(profile), collectedAt: new Date(Date.now() - 2 * 3600_000) }));
  const outcome = page.locator("[data-focus-message]");
  await expect(outcome).toHaveCount(1);
  await expect(outcome, await focused(page)).toBeFocused();
});

test("a navigation focuses the new page's heading, and so does answering the cookie banner (with JavaScript; without it the browser starts at the top of the new page)", async ({ browser, baseURL, hasJs }, testInfo) => {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: hasJs });
  const page = await context.newPage();
  await page.goto("/login");
  const banner = page.getByRole("region", { name: "Cookie consent" });
  await banner.getByRole("button", { name: "Accept" }).focus();
  await page.keyboard.press("Enter");
  await expect(banner).toHaveCount(0);
  const heading = () => page.getByRole("heading", { level: 1 });
  const expectHeadingFocused = async () => {
    if (hasJs) await expect(heading(), await focused(page)).toBeFocused();
    else expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);
  };
  await expect(heading()).toHaveText("Sign In");
  await expectHeadingFocused();

  // A link to another page.
  await page.getByRole("link", { name: "Create Account" }).click();
  await expect(page).toHaveURL(/\/registration$/);
  await expectHeadingFocused();

  // A post that redirects: Create Account lands on Check Your Email.
  const email = uniqueEmail(testInfo, "focus-heading");
  await createAccountThroughForm(page, email);
  await expect(page).toHaveURL(/\/checkconfirmation$/);
  await expect(heading()).toHaveText("Check Your Email");
  await expectHeadingFocused();
  await context.close();
});

test("after 'I understand', a dispute's Submit and a panel's Cancel, focus is on the message or the new heading", async ({ page, hasJs }, testInfo) => {
  const profile = uniqueProfile("Odile");
  await signedInUser(page, testInfo, "focus-dispute", profile);
  const heading = page.getByRole("heading", { level: 1 });

  // 'I understand' posts and lands on My Tests without the guidelines: its heading (the script's job).
  await page.goto("/mytests");
  await page.getByRole("button", { name: "I understand" }).click();
  await expect(page.getByRole("dialog", { name: "Before You Add" })).toHaveCount(0);
  if (hasJs) await expect(heading, await focused(page)).toBeFocused();

  // A dispute's Submit: the thanks is the post's message, focused with and without JavaScript.
  const wrongPerson = storedCases({ firstName: profile.firstName, lastName: profile.lastName, dob: isoDob(profile) }, new Date()).find((c) => c.name === "wrong-person")!;
  await uploadPdf(page, await wrongPerson.build());
  await page.getByRole("list", { name: "Test results" }).getByRole("link").first().click();
  await page.getByRole("link", { name: "Dispute" }).click();
  await page.getByLabel("Describe the difference").fill("This report is not mine.");
  await page.getByRole("button", { name: "Submit" }).click();
  const thanks = page.getByRole("status").filter({ hasText: messages.disputeThanks });
  await expect(thanks).toBeVisible();
  await expect(thanks, await focused(page)).toBeFocused();
  if (!hasJs) await expect(thanks).toHaveAttribute("autofocus", "");

  // Cancel on a settings panel is a link back to My Settings: its heading.
  await page.goto("/settings?panel=password");
  await page.getByRole("link", { name: "Cancel" }).click();
  await expect(page).toHaveURL(/\/settings$/);
  if (hasJs) await expect(heading, await focused(page)).toBeFocused();
});
