/**
 * Profile and settings journeys (docs/product/screens.md §2), in both projects: the gate, first-time profile,
 * welcome, the empty safe-window card, settings panels, personal info, logout, wipe, the
 * cookie banner, and the enabledScreens check. Personal info is then done again in Spanish, chosen on
 * My Settings' Language card, and the password changed in Spanish (a wrong current one refused first).
 */
import * as messages from "../../app/messages";
import { catalogues } from "../../app/messages/catalogues";
import {
  birthday,
  blurOrSubmit,
  consentCookie,
  createAccount,
  dismissGuidelines,
  expect,
  expectAccessible,
  fillProfile,
  otherPerson,
  sampleProfile,
  signedInUser,
  signIn,
  strongPassword,
  test,
  uniqueEmail,
} from "./support";

test("a new account goes through /yourinfo and /welcome to the empty safe window card", async ({ page, hasJs }, testInfo) => {
  await signedInUser(page, testInfo, "newcomer");
  await expect(page.getByText(messages.yourInfoPrompt)).toBeVisible();
  await expect(page.getByText(messages.infoChangeWarning)).toBeVisible();
  await expectAccessible(page);
  await fillProfile(page, sampleProfile);
  await page.getByRole("button", { name: "Finish" }).click();

  await expect(page).toHaveURL(/\/welcome$/);
  await expect(page.getByRole("heading", { name: "Welcome, Zoë!" })).toBeVisible();
  const productId = await page.locator(".product-id").first().textContent();
  expect(productId).toMatch(/^[0-9A-HJKMNP-TV-Z]{8}$/);
  await expect(page.getByRole("link", { name: "Read how we count safe windows" })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("link", { name: "Continue" }).click();

  await expect(page).toHaveURL(/\/safewindow$/);
  await expect(page.getByRole("heading", { name: "My Safe Window" })).toBeVisible();
  const card = page.getByRole("article", { name: "Safe window of Zoë O'Brien-Smith" });
  await expect(card).toContainText("03/04/1990");
  await expect(card).toContainText(messages.emptyWindow);
  await expect(card.getByRole("link", { name: "Submit Test" })).toBeVisible();
  const tabs = page.getByRole("navigation", { name: "Main" });
  await expect(tabs.getByRole("link", { name: "Safe Window" })).toBeVisible();
  await expect(tabs.getByRole("link", { name: "Settings" })).toBeVisible();
  await expectAccessible(page);

  await page.getByRole("link", { name: "How we count safe windows" }).click();
  await expect(page.getByRole("heading", { name: "How we count safe windows" })).toBeVisible();
  await expectAccessible(page);

  // 'Submit Test' leads to the file picker; on My Tests, below the upload form's own primary Upload,
  // the card's Submit Test is a secondary link down to the picker.
  await page.goto("/safewindow");
  await card.getByRole("link", { name: "Submit Test" }).click();
  await expect(page).toHaveURL(/\/mytests#result-file$/);
  await dismissGuidelines(page);
  const submit = page.getByRole("article").getByRole("link", { name: "Submit Test" });
  await expect(submit).toHaveClass(/secondary/);
  await expect(page.locator(".button:not(.secondary):not(.danger)")).toHaveText(["Upload"]);
  await page.goto("/safewindow");
  await page.getByRole("article").getByRole("link", { name: "Submit Test" }).click();
  if (hasJs) await expect(page.getByLabel("Test result PDF")).toBeFocused();
  await expect(page.getByLabel("Test result PDF")).toBeInViewport();

  // Signing in again goes through the gate to the welcome screen (no test results yet).
  await page.goto("/checkaccountstatus");
  await expect(page).toHaveURL(/\/welcome$/);
});

test("/yourinfo: the product's date, age and required messages", async ({ page, hasJs }, testInfo) => {
  await signedInUser(page, testInfo, "rules");
  const dob = page.getByLabel("Date of Birth");

  await page.getByLabel("First Name").focus();
  await blurOrSubmit(page, "Finish", hasJs);
  await expect(page.getByText(messages.firstNameRequired)).toBeVisible();

  await dob.fill("1990-03-04");
  await blurOrSubmit(page, "Finish", hasJs);
  await expect(page.getByText(messages.dobFormatFirstTime)).toBeVisible();

  await dob.fill("02/30/1990");
  await blurOrSubmit(page, "Finish", hasJs);
  await expect(page.getByText(messages.dobFormatFirstTime)).toBeVisible();

  await fillProfile(page, { ...sampleProfile, dob: birthday(18, 1) });
  await blurOrSubmit(page, "Finish", hasJs);
  await expect(page.getByText(messages.under18)).toBeVisible();
  if (hasJs) await expect(page.getByRole("button", { name: "Finish" })).toBeDisabled();

  // Exactly 18 today is old enough.
  await fillProfile(page, { ...sampleProfile, dob: birthday(18) });
  await dob.press("Tab");
  await page.getByRole("button", { name: "Finish" }).click();
  await expect(page).toHaveURL(/\/welcome$/);
});

test("a screen the user does not have is not reachable", async ({ page }, testInfo) => {
  await signedInUser(page, testInfo, "noscreens");
  // Without a profile the consumer API enables only Settings.
  const response = await page.goto("/safewindow");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: messages.notFound })).toBeVisible();
});

test("settings: change the password, then sign in with the new one", async ({ page, hasJs }, testInfo) => {
  const email = await signedInUser(page, testInfo, "pwchange", sampleProfile);
  await page.goto("/settings");
  await expect(page.getByRole("heading", { name: "My Settings" })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("link", { name: "Change password" }).click();
  await expect(page.getByRole("link", { name: "Change username or email" })).toBeVisible();

  const current = page.getByLabel("Current Password");
  const next = page.getByLabel("New Password", { exact: true });
  const confirm = page.getByLabel("Confirm New Password");
  const update = page.getByRole("button", { name: "Update" });
  if (hasJs) {
    await expect(next).toBeDisabled();
    await current.fill("Wrong#Pass1");
    await expect(next).toBeEnabled();
    await expect(confirm).toBeDisabled();
  } else {
    await current.fill("Wrong#Pass1");
  }
  await next.fill("Better!Pass77");
  await confirm.fill("Better!Pass7");
  if (hasJs) await expect(update).toBeDisabled();
  await confirm.fill("Better!Pass77");
  await update.click();
  await expect(page.getByText(messages.settingsPasswordChangeFailed)).toBeVisible();
  await expectAccessible(page);

  await current.fill(strongPassword);
  await next.fill("Better!Pass77");
  await confirm.fill("Better!Pass77");
  await page.getByRole("button", { name: "Update" }).click();
  await expect(page.getByText(messages.passwordChanged)).toBeVisible();
  await expect(page.getByLabel("Current Password")).toHaveCount(0); // the panel closed

  await page.getByRole("button", { name: "Logout" }).first().click();
  await expect(page).toHaveURL(/\/login$/);
  await signIn(page, email, "Better!Pass77");
  await expect(page).toHaveURL(/\/welcome$/);
});

test("settings: change the e-mail (taken, invalid, then a good one)", async ({ page }, testInfo) => {
  await signedInUser(page, testInfo, "emailchange", sampleProfile);
  const taken = uniqueEmail(testInfo, "taken");
  await createAccount(taken, strongPassword, { confirmed: false });
  await page.goto("/settings?panel=username");
  // The current password is asked every time (it is never sent back to the page).
  const current = () => page.getByLabel("Current Password", { exact: true });
  const input = page.getByLabel("New Email");
  await input.fill(taken);
  await current().fill("Not-my-password1!");
  await page.getByRole("button", { name: "Update" }).click();
  await expect(page.getByText(messages.currentPasswordWrong)).toBeVisible();
  await page.getByLabel("New Email").fill(taken);
  await current().fill(strongPassword);
  await page.getByRole("button", { name: "Update" }).click();
  await expect(page.getByText(messages.userNameTaken)).toBeVisible();
  await page.getByLabel("New Email").fill("not-an-address@");
  await current().fill(strongPassword);
  await page.getByRole("button", { name: "Update" }).click();
  await expect(page.getByText(messages.userNameInvalid)).toBeVisible();

  const fresh = uniqueEmail(testInfo, "fresh");
  await page.getByLabel("New Email").fill(fresh);
  await current().fill(strongPassword);
  await page.getByRole("button", { name: "Update" }).click();
  await expect(page.getByText(messages.userNameChanged)).toBeVisible();
  await expect(page.getByText(fresh.toLowerCase())).toBeVisible();

  await page.getByRole("button", { name: "Logout" }).first().click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByLabel("Email", { exact: true })).toHaveValue(fresh.toLowerCase());
  await signIn(page, fresh, strongPassword);
  // The new address is not confirmed yet.
  await expect(page).toHaveURL(/\/checkconfirmation$/);
});

test("personal info: Cancel restores, Save persists; then the same in Spanish, chosen on the Language card, and the password changed in Spanish", async ({ page, hasJs }, testInfo) => {
  await signedInUser(page, testInfo, "personal", sampleProfile);
  await page.goto("/settings");
  await page.getByRole("link", { name: "Change personal info" }).click();
  await expect(page).toHaveURL(/\/personalinfo$/);
  await expect(page.getByText(messages.infoChangeWarning)).toBeVisible();
  await expect(page.getByLabel("First Name")).toHaveAttribute("readonly", "");
  await expectAccessible(page);

  await page.getByRole("link", { name: "Change Your Info" }).click();
  await page.getByLabel("First Name").fill("Zoey");
  await page.getByLabel("Date of Birth").fill("1990/03/04");
  await blurOrSubmit(page, "Save", hasJs);
  await expect(page.getByText(messages.dobFormat)).toBeVisible();
  await page.getByRole("link", { name: "Cancel" }).click();
  await expect(page.getByLabel("First Name")).toHaveValue("Zoë");
  await expect(page.getByLabel("Date of Birth")).toHaveValue("03/04/1990");
  await expect(page.getByRole("link", { name: "Change Your Info" })).toBeVisible();

  await page.getByRole("link", { name: "Change Your Info" }).click();
  await fillProfile(page, { firstName: "Zoey", postalCode: "10001" });
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByText(messages.profileSaved)).toBeVisible();
  await expect(page.getByText("Zoey O'Brien-Smith")).toBeVisible();
  await expect(page.getByText("10001")).toBeVisible();

  // In Spanish, chosen on My Settings' Language card (a plain form posting to /language): the same
  // screens speak it, and a change saved in Spanish is confirmed in Spanish.
  const es = catalogues.es;
  const card = page.getByRole("region", { name: messages.languageTitle });
  await card.getByLabel(messages.languageTitle).selectOption("es");
  await card.getByRole("button", { name: messages.languageSave }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.locator("html")).toHaveAttribute("lang", "es");
  await expect(page.getByRole("heading", { name: es.settingsTitle, level: 1 })).toBeVisible();
  await expect(page.getByRole("region", { name: es.languageTitle }).getByLabel(es.languageTitle)).toHaveValue("es");
  await page.getByRole("link", { name: es.changePersonalInfoLabel }).click();
  await expect(page).toHaveURL(/\/personalinfo$/);
  await expect(page.getByText(es.infoChangeWarning)).toBeVisible();
  await page.getByRole("link", { name: es.changeYourInfoButton }).click();
  await page.getByLabel(es.firstNameLabel).fill("Zoé");
  await page.getByRole("button", { name: es.saveButton }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByText(es.profileSaved)).toBeVisible();
  await expect(page.getByText("Zoé O'Brien-Smith")).toBeVisible();

  // A settings form in Spanish: a wrong current password is refused in Spanish, the right one changes it.
  await page.getByRole("link", { name: es.changePasswordLabel }).click();
  const current = page.getByLabel(es.currentPasswordLabel);
  const next = page.getByLabel(es.newPasswordLabel, { exact: true });
  const confirm = page.getByLabel(es.confirmNewPasswordLabel);
  await current.fill("Wrong#Pass1");
  await next.fill("Better!Pass77");
  await confirm.fill("Better!Pass77");
  await page.getByRole("button", { name: es.updateButton }).click();
  await expect(page.getByText(es.settingsPasswordChangeFailed)).toBeVisible();
  await current.fill(strongPassword);
  await next.fill("Better!Pass77");
  await confirm.fill("Better!Pass77");
  await page.getByRole("button", { name: es.updateButton }).click();
  await expect(page.getByText(es.passwordChanged)).toBeVisible();
});

test("Logout goes to login; Wipe goes to the intro and forgets the e-mail", async ({ page }, testInfo) => {
  const email = await signedInUser(page, testInfo, "wipe", sampleProfile);
  await page.goto("/settings");
  await page.getByRole("main").getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByLabel("Email", { exact: true })).toHaveValue(email);
  await page.goto("/settings");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fsettings$/);

  await signIn(page, email, strongPassword);
  await expect(page).toHaveURL(/\/settings$/);
  // Signed in, the intro sends the user on through the gate.
  await page.goto("/");
  await expect(page).toHaveURL(/\/(welcome|safewindow)$/);
  await page.goto("/settings");
  await page.getByRole("button", { name: "Wipe" }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto("/login");
  await expect(page.getByLabel("Email", { exact: true })).toHaveValue("");
  await page.goto("/safewindow");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fsafewindow$/);
});

test("'Sign out everywhere' signs out this browser and the user's other browser, which is told why", async ({ page, browser, baseURL }, testInfo) => {
  const email = await signedInUser(page, testInfo, "everywhere", sampleProfile);
  // The same person in a second browser.
  const other = await otherPerson(browser, testInfo, baseURL!);
  await other.page.goto("/login");
  await signIn(other.page, email, strongPassword);
  // Signed in once the gate has sent the browser on (with JavaScript the post is a fetch: going to
  // another page before it lands would race it).
  await expect(other.page).toHaveURL(/\/(welcome|safewindow)$/);
  await other.page.goto("/settings");
  await expect(other.page).toHaveURL(/\/settings$/);

  await page.goto("/settings");
  await expect(page.getByText(messages.signOutEverywhereHint)).toBeVisible();
  await page.getByRole("button", { name: messages.signOutEverywhere }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto("/settings");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fsettings$/);

  await other.page.goto("/settings");
  await expect(other.page).toHaveURL(/\/login\?redirectTo=%2Fsettings$/);
  await expect(other.page.getByText(messages.sessionExpired)).toBeVisible();
  await other.context.close();
});

test.describe("cookie banner", () => {
  test("shows until answered, then stays away", async ({ browser, baseURL }, testInfo) => {
    const context = await browser.newContext({ baseURL, javaScriptEnabled: testInfo.project.use.javaScriptEnabled });
    const page = await context.newPage();
    await page.goto("/login");
    const banner = page.getByRole("region", { name: "Cookie consent" });
    await expect(banner).toBeVisible();
    await expectAccessible(page);
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname.startsWith("/cookies") && r.request().method() === "POST");
    await banner.getByRole("button", { name: "Accept" }).click();
    await answered;
    await expect(banner).toHaveCount(0);
    await expect(page).toHaveURL(/\/login$/);
    await page.goto("/registration");
    await expect(page.getByRole("region", { name: "Cookie consent" })).toHaveCount(0);
    const cookie = (await context.cookies()).find((c) => c.name === consentCookie.name);
    const days = ((cookie?.expires ?? 0) - Date.now() / 1000) / 86_400;
    expect(days).toBeGreaterThan(149.9);
    expect(days).toBeLessThanOrEqual(150);
    await context.close();
  });
});

test("the unanswered cookie banner covers nothing: at phone size every registration control is visible when tabbed to, and clickable", async ({ browser, baseURL }, testInfo) => {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: testInfo.project.use.javaScriptEnabled, viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto("/registration");
  await expect(page.getByRole("region", { name: "Cookie consent" })).toBeVisible();
  // Create Account waits for a valid form with JavaScript (disabled, so not focusable): the last
  // controls of the page stand for it, Back and Sign In under it.
  for (const control of [page.getByRole("link", { name: "Back" }), page.getByRole("link", { name: "Sign In" })]) {
    for (let presses = 0; presses < 60 && !(await control.evaluate((element) => element === document.activeElement)); presses++) await page.keyboard.press("Tab");
    await expect(control).toBeFocused();
    const box = (await control.boundingBox())!;
    // Nothing is drawn over it: the element at its centre is the control (or inside it).
    const onTop = await control.evaluate((element) => {
      const rect = element.getBoundingClientRect();
      const hit = document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
      return hit !== null && (hit === element || element.contains(hit));
    });
    expect(onTop).toBe(true);
    expect(box.y + box.height).toBeLessThanOrEqual(844);
    await control.click({ trial: true });
  }
  await context.close();
});

test("at phone size, a focused control is never hidden under the tab bar, and links get the strong focus ring", async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signedInUser(page, testInfo, "focusbar", sampleProfile);
  await page.goto("/settings?panel=password");
  await page.getByLabel("Current Password").fill(strongPassword);
  await page.getByLabel("New Password", { exact: true }).fill("Better!Pass77");
  await page.getByLabel("Confirm New Password").fill("Better!Pass77");
  const tabBar = page.getByRole("navigation", { name: "Main" });
  for (const control of [page.getByLabel("Confirm New Password"), page.getByRole("button", { name: "Update" }), page.getByRole("button", { name: "Wipe" })]) {
    // As a keyboard user gets there: from the top of the page, Tab after Tab.
    await page.evaluate(() => {
      window.scrollTo(0, 0);
      (document.activeElement as HTMLElement | null)?.blur();
    });
    for (let presses = 0; presses < 60 && !(await control.evaluate((element) => element === document.activeElement)); presses++) await page.keyboard.press("Tab");
    await expect(control).toBeFocused();
    const box = (await control.boundingBox())!;
    const bar = (await tabBar.boundingBox())!;
    // The share of the control above the bar's top edge (and inside the viewport).
    const visible = Math.max(0, Math.min(box.y + box.height, bar.y) - Math.max(box.y, 0)) / box.height;
    expect(visible, `${await control.textContent()}`).toBeGreaterThanOrEqual(0.9);
  }
  // Plain links (here a tab) take the same ring as buttons (a 3 px outline), not the browser's thin default.
  const link = tabBar.getByRole("link").first();
  await link.focus();
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("Tab");
  await expect(link).toBeFocused();
  expect(await link.evaluate((element) => getComputedStyle(element).outlineWidth)).toBe("3px");
});
