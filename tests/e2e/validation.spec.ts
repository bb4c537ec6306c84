/**
 * Each validation and error message of the account screens (docs/product/data.md §5, §8) appears when its input is
 * given: on blur with JavaScript, after submitting without it. Both projects run every test.
 */
import type { Page } from "@playwright/test";
import * as messages from "../../app/messages";
import { blurOrSubmit, createAccount, expect, expectAccessible, strongPassword, test, uniqueEmail } from "./support";

/** The error line of the field labelled `label`, found through aria-describedby. */
function errorOf(page: Page, label: string | RegExp) {
  return page.getByLabel(label, { exact: typeof label === "string" });
}

test("login: both required messages", async ({ page }) => {
  await page.goto("/login");
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByText(messages.loginEmailRequired)).toBeVisible();
  await expect(page.getByText(messages.loginPasswordRequired)).toBeVisible();
  // The messages are tied to their fields for screen readers.
  await expect(errorOf(page, "Email")).toHaveAttribute("aria-invalid", "true");
  await expect(errorOf(page, "Email")).toHaveAccessibleDescription(messages.loginEmailRequired);
  await expectAccessible(page);
});

test("login: a form's checks load when the user reaches the form; a field left before they arrive is checked when they do", async ({ page, hasJs }) => {
  // Scripts the browser asks for; those asked after the page's own load are held until released,
  // as on a slow network.
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
  });
  let pageLoaded = false;
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/.*\.js$/, async (route) => {
    if (pageLoaded) await held;
    await route.continue();
  });
  await page.goto("/login");
  if (hasJs) await page.waitForFunction(() => "__reactRouterDataRouter" in window);
  pageLoaded = true;
  const withThePage = scripts.length;
  // Reading the page asks for nothing more.
  await page.waitForTimeout(500);
  expect(scripts.length).toBe(withThePage);

  await page.getByLabel("Email").focus();
  await page.keyboard.press("Tab");
  if (hasJs) {
    // The focus asked for the checks; the field was left before they arrived, so nothing shows yet.
    await expect.poll(() => scripts.length).toBeGreaterThan(withThePage);
    await expect(page.getByText(messages.loginEmailRequired)).toBeHidden();
    release();
    await expect(page.getByText(messages.loginEmailRequired)).toBeVisible();
    await expect(page.getByText(messages.loginPasswordRequired)).toBeHidden();
  } else {
    release();
    await page.getByRole("button", { name: "Submit" }).click();
    await expect(page.getByText(messages.loginEmailRequired)).toBeVisible();
  }
});

test("registration: every field message", async ({ page }, testInfo) => {
  const hasJs = testInfo.project.use.javaScriptEnabled !== false;
  await page.goto("/registration");
  const email = page.getByLabel("Email", { exact: true });
  const password = page.getByLabel("Password", { exact: true });
  const confirm = page.getByLabel("Confirm Password");

  await email.focus();
  await blurOrSubmit(page, "Create Account", hasJs);
  await expect(page.getByText(messages.registerEmailRequired)).toBeVisible();

  await email.fill("not-an-address");
  await blurOrSubmit(page, "Create Account", hasJs);
  await expect(page.getByText(messages.emailInvalid)).toBeVisible();
  await expect(email).toHaveAccessibleDescription(messages.emailInvalid);

  await password.focus();
  await blurOrSubmit(page, "Create Account", hasJs);
  await expect(page.getByText(messages.registerPasswordRequired)).toBeVisible();

  await password.fill("Ab1!");
  await blurOrSubmit(page, "Create Account", hasJs);
  await expect(page.getByText(messages.passwordTooShort)).toBeVisible();

  await password.fill("abcdefgh1");
  await blurOrSubmit(page, "Create Account", hasJs);
  await expect(page.getByText(messages.passwordFormat)).toBeVisible();

  await password.fill(strongPassword);
  await confirm.fill(`${strongPassword}x`);
  await blurOrSubmit(page, "Create Account", hasJs);
  await expect(page.getByText(messages.passwordsDoNotMatch)).toBeVisible();
  await expectAccessible(page);
});

test("registration: Create Account needs valid passwords and both toggles", async ({ page }, testInfo) => {
  const hasJs = testInfo.project.use.javaScriptEnabled !== false;
  await page.goto("/registration");
  await page.getByLabel("Email", { exact: true }).fill(uniqueEmail(testInfo, "toggles"));
  await page.getByLabel("Password", { exact: true }).fill(strongPassword);
  await page.getByLabel("Confirm Password").fill(strongPassword);
  const create = page.getByRole("button", { name: "Create Account" });
  if (hasJs) {
    await expect(create).toBeDisabled();
    await page.getByRole("switch", { name: /Terms of Service/ }).check();
    await expect(create).toBeDisabled();
    await page.getByRole("switch", { name: /Privacy Policy/ }).check();
    await expect(create).toBeEnabled();
  } else {
    // Without JavaScript the button cannot follow the fields: the server enforces the rule and says why.
    await create.click();
    await expect(page.getByText(messages.acceptTermsRequired)).toBeVisible();
    await expect(page.getByText(messages.acceptPrivacyRequired)).toBeVisible();
    await expect(page.getByLabel("Email", { exact: true })).not.toHaveValue("");
  }
});

test("registration: a taken address is unavailable", async ({ page }, testInfo) => {
  const hasJs = testInfo.project.use.javaScriptEnabled !== false;
  const email = uniqueEmail(testInfo, "taken");
  await createAccount(email, strongPassword, { confirmed: false });
  await page.goto("/registration");
  await page.getByLabel("Email", { exact: true }).fill(email.toUpperCase());
  if (hasJs) {
    await page.keyboard.press("Tab"); // availability is checked on blur
  } else {
    await page.getByLabel("Password", { exact: true }).fill(strongPassword);
    await page.getByLabel("Confirm Password").fill(strongPassword);
    await page.getByRole("switch", { name: /Terms of Service/ }).check();
    await page.getByRole("switch", { name: /Privacy Policy/ }).check();
    await page.getByRole("button", { name: "Create Account" }).click();
  }
  await expect(page.getByText(messages.emailUnavailable)).toBeVisible();
  // The message's way out: 'Back', then 'Sign In'.
  await page.getByRole("link", { name: "Back", exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.getByRole("link", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test("confirm account: missing parameters disable the form; the password is required; a bad token fails", async ({ page }, testInfo) => {
  await page.goto("/confirmaccount");
  await expect(page.getByText(messages.missingEmailParameter)).toBeVisible();
  await expect(page.getByLabel("Password")).toBeDisabled();
  await page.goto("/confirmaccount?email=someone%40example.com");
  await expect(page.getByText(messages.missingTokenParameter)).toBeVisible();
  await expect(page.getByRole("button", { name: "Set Password" })).toBeDisabled();
  await expect(page.getByText(messages.inviteLinkIncomplete)).toBeVisible();
  await expect(page.getByRole("main").getByRole("link", { name: "Sign In" })).toHaveAttribute("href", "/login");

  await page.goto(`/confirmaccount?email=${encodeURIComponent(uniqueEmail(testInfo, "bad"))}&token=not-a-token`);
  await page.getByRole("button", { name: "Set Password" }).click();
  await expect(page.getByText(messages.confirmAccountPasswordRequired)).toBeVisible();
  await page.getByLabel("Password").fill(strongPassword);
  await page.getByRole("button", { name: "Set Password" }).click();
  await expect(page.getByText(messages.confirmAccountFailed)).toBeVisible();
});

test("password reset request: the e-mail is required", async ({ page }) => {
  await page.goto("/requestpasswordchange");
  await page.getByRole("button", { name: "Send Reset Email" }).click();
  await expect(page.getByText(messages.resetEmailRequired)).toBeVisible();
  await expect(page.getByText(messages.resetRequested)).toHaveCount(0);
});

test("reset password: passwords must match; missing link parameters are named, with a way on", async ({ page }) => {
  await page.goto("/resetpassword?token=abc");
  await expect(page.getByText(messages.missingEmailParameter)).toBeVisible();
  await expect(page.getByText(messages.resetLinkIncomplete)).toBeVisible();
  await expect(page.getByRole("button", { name: "Change Password" })).toBeDisabled();
  await page.getByRole("link", { name: "Send a new reset link" }).click();
  await expect(page).toHaveURL(/\/requestpasswordchange$/);
  await expect(page.getByRole("button", { name: "Send Reset Email" })).toBeEnabled();
  await page.goto("/resetpassword?email=someone%40example.com&token=abc");
  await page.getByLabel("New Password").fill(strongPassword);
  await page.getByLabel("Confirm Password").fill("Different#1a");
  await page.getByRole("button", { name: "Change Password" }).click();
  await expect(page.getByText(messages.passwordsDoNotMatch)).toBeVisible();
  await page.getByLabel("New Password").fill(strongPassword);
  await page.getByLabel("Confirm Password").fill(strongPassword);
  await page.getByRole("button", { name: "Change Password" }).click();
  await expect(page.getByText(messages.passwordChangeFailed)).toBeVisible();
});

test("confirm e-mail: a missing or wrong token fails with the product's message and offers a resend", async ({ page }, testInfo) => {
  await page.goto("/confirmemail");
  await expect(page.getByText(messages.missingEmailParameter)).toBeVisible();
  const email = uniqueEmail(testInfo, "badconfirm");
  await createAccount(email, strongPassword, { confirmed: false });
  await page.goto(`/consumer/confirmemail?email=${encodeURIComponent(email)}&token=wrong`);
  await expect(page.getByText(messages.emailConfirmFailed)).toBeVisible();
  await page.getByRole("button", { name: "Resend Confirmation" }).click();
  await expect(page.getByText(messages.confirmationEmailSent)).toBeVisible();
  await expectAccessible(page);
});

test("a 1 MB form field gets a friendly 413, and the app keeps serving", async ({ request, baseURL }) => {
  const response = await request.post("/login", {
    form: { email: "a@example.com", password: "x".repeat(1024 * 1024) },
    headers: { origin: new URL(baseURL!).origin },
  });
  expect(response.status()).toBe(413);
  expect(await response.text()).toContain("more than this form accepts");
  expect((await request.get("/login")).status()).toBe(200);
});

test("registration at phone size: each switch beside its label, one password message at a time, and a disabled Create Account says what is missing", async ({ page, hasJs }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/registration");
  for (const name of [/Terms of Service/, /Privacy Policy/]) {
    const box = (await page.getByRole("switch", { name }).boundingBox())!;
    const label = (await page.locator("label", { hasText: name }).boundingBox())!;
    // Side by side: the label starts right of the switch, and their middles line up.
    expect(label.x).toBeGreaterThan(box.x + box.width);
    expect(Math.abs(label.y + label.height / 2 - (box.y + box.height / 2))).toBeLessThan(4);
  }

  const password = page.getByLabel("Password", { exact: true });
  await password.fill("abc");
  await blurOrSubmit(page, "Create Account", hasJs);
  await expect(page.getByText(messages.passwordTooShort)).toBeVisible();
  await expect(page.getByText(messages.passwordFormat)).toHaveCount(0);

  const create = page.getByRole("button", { name: "Create Account" });
  if (!hasJs) {
    // Without JavaScript the button is never disabled: the server answers with the messages.
    await expect(create).toBeEnabled();
    return;
  }
  await expect(create).toBeDisabled();
  await expect(create).toHaveAccessibleDescription(
    messages.createAccountMissing(["your email", "a password that follows the rule", "the Terms of Service accepted", "the Privacy Policy accepted"]),
  );
  await page.getByLabel("Email", { exact: true }).fill("someone@example.com");
  await password.fill(strongPassword);
  await page.getByLabel("Confirm Password").fill(strongPassword);
  await page.getByRole("switch", { name: /Terms of Service/ }).check();
  await expect(create).toHaveAccessibleDescription(messages.createAccountMissing(["the Privacy Policy accepted"]));
  await page.getByRole("switch", { name: /Privacy Policy/ }).check();
  await expect(create).toBeEnabled();
  await expect(page.getByText(/^Still needed/)).toHaveCount(0);
});
