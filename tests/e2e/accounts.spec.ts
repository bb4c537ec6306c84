/**
 * Account journeys (docs/product/screens.md §2), run in both projects (JavaScript enabled and disabled):
 * registration → confirmation mail → confirm → /checkconfirmation moves on; the same in Spanish, chosen
 * by the switch on Sign In; sign in; the guard's redirectTo; forgotten password; confirm account;
 * logout; the 404 screen. Resending the confirmation mail is in the working-text journey at the end.
 */
import * as messages from "../../app/messages";
import { catalogues } from "../../app/messages/catalogues";
import { createAccount, createAccountThroughForm, expect, expectAccessible, inviteAccount, linkPath, signIn, strongPassword, test, uniqueEmail, waitForMail } from "./support";

test("register, confirm the e-mail from the outbox, and /checkconfirmation moves on", async ({ page, context }, testInfo) => {
  const email = uniqueEmail(testInfo, "register");
  await page.goto("/registration");
  await expectAccessible(page);
  await createAccountThroughForm(page, email);

  await expect(page).toHaveURL(/\/checkconfirmation$/);
  await expect(page.getByRole("heading", { name: "Check Your Email" })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  await expectAccessible(page);

  const mail = await waitForMail(email, "/confirmemail");
  const confirmPage = await context.newPage();
  await confirmPage.goto(linkPath(mail, "/confirmemail"));
  await expect(confirmPage.getByText(messages.emailConfirmed)).toBeVisible();
  await expectAccessible(confirmPage);

  // The first tab polls every 5 s (timer with JavaScript, meta refresh without) and moves on.
  await expect(page).toHaveURL(/\/yourinfo$/, { timeout: 15_000 });

  // The link is single-use: opening it again fails with the product's message and offers a resend.
  await confirmPage.goto(linkPath(mail, "/confirmemail"));
  await expect(confirmPage.getByText(messages.emailConfirmFailed)).toBeVisible();
  await expect(confirmPage.getByRole("button", { name: "Resend Confirmation" })).toBeVisible();
});

test("in Spanish: the switch on Sign In, Create Account, the confirmation mail in Spanish, confirm, on to Your Info", async ({ page, context }, testInfo) => {
  // The browser asks for English; the switch, a plain form posting to /language (so it works
  // without JavaScript), chooses Spanish, and the choice outlasts the pages that follow.
  const es = catalogues.es;
  const email = uniqueEmail(testInfo, "espanol");
  await page.goto("/login");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await page.getByRole("form", { name: messages.languageTitle }).getByRole("button", { name: "Español" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.locator("html")).toHaveAttribute("lang", "es");
  await expect(page.getByRole("heading", { name: es.signInTitle })).toBeVisible();
  await expect(page.getByRole("form", { name: es.languageTitle }).getByRole("button", { name: "English" })).toBeVisible();

  await page.getByRole("link", { name: es.createAccountLink }).click();
  await expect(page).toHaveURL(/\/registration$/);
  await page.getByLabel(es.emailLabel, { exact: true }).fill(email);
  await page.getByLabel(es.passwordLabel, { exact: true }).fill(strongPassword);
  await page.getByLabel(es.confirmPasswordLabel).fill(strongPassword);
  await page.getByRole("switch", { name: new RegExp(es.termsOfServiceLink) }).check();
  await page.getByRole("switch", { name: new RegExp(es.privacyPolicyLink) }).check();
  await page.getByRole("button", { name: es.createAccountLink }).click();
  await expect(page).toHaveURL(/\/checkconfirmation$/);
  await expect(page.getByRole("heading", { name: es.checkYourEmailTitle })).toBeVisible();

  // The mail is written by the identity authority in the language the app sends it (Accept-Language).
  const mail = await waitForMail(email, "/confirmemail");
  expect(mail.subject).toBe("Confirme su dirección de correo electrónico de SafeWindow");
  expect(mail.text).toContain("Confirme la dirección de correo electrónico de su cuenta de SafeWindow abriendo este enlace:");
  const confirmPage = await context.newPage();
  await confirmPage.goto(linkPath(mail, "/confirmemail"));
  await expect(confirmPage.getByText(es.emailConfirmed)).toBeVisible();

  // The first tab polls (timer with JavaScript, meta refresh without) and moves on, still in Spanish.
  await expect(page).toHaveURL(/\/yourinfo$/, { timeout: 15_000 });
  await expect(page.getByRole("heading", { name: es.yourInfoTitle })).toBeVisible();
});

test("sign in with a confirmed account, then log out", async ({ page }, testInfo) => {
  const email = uniqueEmail(testInfo, "signin");
  await createAccount(email, strongPassword, { confirmed: true });
  await page.goto("/login");
  await expectAccessible(page);
  // Addresses are case-insensitive; the session keeps the account's own spelling (GET /api/users/).
  await signIn(page, email.toUpperCase(), strongPassword);
  await expect(page).toHaveURL(/\/yourinfo$/);

  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/login$/);
  // The e-mail is remembered for the next sign-in (docs/product/data.md §3 local storage "the username").
  await expect(page.getByLabel("Email", { exact: true })).toHaveValue(email);
  await page.goto("/checkconfirmation");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fcheckconfirmation$/);
});

test("a guarded URL with a query, visited signed out, is where sign-in lands", async ({ page }, testInfo) => {
  const email = uniqueEmail(testInfo, "guard");
  await createAccount(email, strongPassword, { confirmed: false });
  await page.goto("/checkconfirmation?from=mail&step=2");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fcheckconfirmation%3Ffrom%3Dmail%26step%3D2$/);
  await signIn(page, email, strongPassword);
  await expect(page).toHaveURL(/\/checkconfirmation\?from=mail&step=2$/);
  await expect(page.getByRole("heading", { name: "Check Your Email" })).toBeVisible();
});

test("a redirectTo that is not a local path is ignored", async ({ page }, testInfo) => {
  const email = uniqueEmail(testInfo, "redirect");
  await createAccount(email, strongPassword, { confirmed: false });
  await page.goto("/login?redirectTo=//evil.example/steal");
  await signIn(page, email, strongPassword);
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/checkconfirmation$/);
});

test("wrong password shows the product's login error", async ({ page }, testInfo) => {
  const email = uniqueEmail(testInfo, "wrong");
  await createAccount(email, strongPassword, { confirmed: true });
  await page.goto("/login");
  await signIn(page, email, "Wrong#Pass1");
  await expect(page.getByText(messages.loginFailed)).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  await expectAccessible(page);
});

test("forgotten password: request, mail, new password, sign in with it", async ({ page }, testInfo) => {
  const email = uniqueEmail(testInfo, "reset");
  await createAccount(email, strongPassword, { confirmed: true });
  await page.goto("/login");
  await page.getByRole("link", { name: "Forgot Password" }).click();
  await expect(page).toHaveURL(/\/requestpasswordchange$/);
  await expectAccessible(page);
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByRole("button", { name: "Send Reset Email" }).click();
  await expect(page.getByText(messages.resetRequested)).toBeVisible();

  const mail = await waitForMail(email, "/resetpassword");
  await page.goto(linkPath(mail, "/resetpassword"));
  await expectAccessible(page);
  const newPassword = "Fresh!Pass42";
  await page.getByLabel("New Password").fill(newPassword);
  await page.getByLabel("Confirm Password").fill(newPassword);
  await page.getByRole("button", { name: "Change Password" }).click();
  await expect(page.getByText(messages.resetSucceeded)).toBeVisible();

  await page.goto("/login");
  await signIn(page, email, strongPassword);
  await expect(page.getByText(messages.loginFailed)).toBeVisible();
  await page.getByLabel("Password").fill(newPassword);
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page).toHaveURL(/\/yourinfo$/);
});

test("the /consumer/ reading of the reset routes works too, and a used link fails", async ({ page }, testInfo) => {
  const email = uniqueEmail(testInfo, "consumer");
  await createAccount(email, strongPassword, { confirmed: true });
  await page.goto("/consumer/requestpasswordchange");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByRole("button", { name: "Send Reset Email" }).click();
  await expect(page.getByText(messages.resetRequested)).toBeVisible();
  const mail = await waitForMail(email, "/resetpassword");
  const link = linkPath(mail, "/resetpassword").replace("/resetpassword", "/consumer/resetpassword");
  for (const expected of [messages.resetSucceeded, messages.passwordChangeFailed]) {
    await page.goto(link);
    await page.getByLabel("New Password").fill("Other!Pass42");
    await page.getByLabel("Confirm Password").fill("Other!Pass42");
    await page.getByRole("button", { name: "Change Password" }).click();
    await expect(page.getByText(expected)).toBeVisible();
  }
});

test("a reset request for an unknown address shows the same message", async ({ page }, testInfo) => {
  await page.goto("/requestpasswordchange");
  await page.getByLabel("Email", { exact: true }).fill(uniqueEmail(testInfo, "nobody"));
  await page.getByRole("button", { name: "Send Reset Email" }).click();
  await expect(page.getByText(messages.resetRequested)).toBeVisible();
});

test("confirm account: set the password from the invitation link, then sign in", async ({ page }, testInfo) => {
  const email = uniqueEmail(testInfo, "invite");
  await inviteAccount(email);
  const mail = await waitForMail(email, "/confirmaccount");
  await page.goto(linkPath(mail, "/confirmaccount"));
  await expect(page.getByRole("heading", { name: "Set Password" })).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel("Password").fill(strongPassword);
  await page.getByRole("button", { name: "Set Password" }).click();
  await expect(page.getByText(messages.accountConfirmed)).toBeVisible();

  await page.getByRole("link", { name: "Sign In" }).click();
  await signIn(page, email, strongPassword);
  // The invitation confirmed the e-mail too, so the gate sends the user on to their profile.
  await expect(page).toHaveURL(/\/yourinfo$/);
});

test("unknown paths show the not-found screen with status 404", async ({ page }) => {
  const response = await page.goto("/no/such/page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: messages.notFound })).toBeVisible();
  await expectAccessible(page);
});

test("the intro screen shows the logo and leads to sign in", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByText("SafeWindow").first()).toBeVisible();
  await expect(page.getByText(messages.introTagline)).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("link", { name: "Sign In" }).click();
  await expect(page.getByRole("heading", { name: "Sign In" })).toBeVisible();
});

test("registration links the Terms of Service and the Privacy Policy", async ({ page }) => {
  await page.goto("/registration");
  await page.getByRole("link", { name: "Terms of Service" }).click();
  await expect(page.getByRole("heading", { name: "Terms of Service" })).toBeVisible();
  await expectAccessible(page);
  await page.goto("/registration");
  await page.getByRole("link", { name: "Privacy Policy" }).click();
  await expect(page.getByRole("heading", { name: "Privacy Policy" })).toBeVisible();
  await expectAccessible(page);
});

test("a leftover service worker from an earlier version is removed", async ({ page, request, hasJs }) => {
  if (!hasJs) {
    // Without JavaScript no worker runs; the worker file an old registration updates from removes itself.
    const worker = await request.get("/service-worker.js");
    expect(await worker.text()).toContain("self.registration.unregister()");
    return;
  }
  await page.goto("/");
  await page.evaluate(async () => {
    await navigator.serviceWorker.register("/service-worker.js");
  });
  await page.reload();
  await expect
    .poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length), { timeout: 10_000 })
    .toBe(0);
});

test("on a full load, /confirmemail and /checkaccountstatus show their working text while they work", async ({ page, hasJs }, testInfo) => {
  // The requests that do the work (`step=go`) are seen; with JavaScript they are held while `hold`
  // is pending, so that the working text can be checked on screen (a request is only delayed, never
  // answered by the test). Without JavaScript the browser is mid-navigation meanwhile and its page
  // cannot be read, so the first answer is asked for again the way a browser loading a document asks.
  let hold: Promise<void> = Promise.resolve();
  let release: () => void = () => {};
  const holdNext = () => (hold = new Promise<void>((resolve) => (release = resolve)));
  const working: string[] = [];
  await page.route(/[?&]step=go\b/, async (route) => {
    working.push(new URL(route.request().url()).pathname);
    await hold;
    await route.continue();
  });
  /**
   * The working page a browser is first answered with (asked as a browser loading a document asks):
   * its title, its zero-second refresh on to `step=go`, and a Continue link. That the browser then
   * asked for `step=go` (`working`) shows it followed the refresh.
   */
  async function expectFirstAnswer(path: string, title: string) {
    const body = await (await page.request.get(path, { headers: { "Sec-Fetch-Dest": "document" }, maxRedirects: 0 })).text();
    expect(body).toContain(`<h1>${title}</h1>`);
    expect(body).toMatch(/<meta http-equiv="refresh" content="0;url=[^"]*step=go"/);
    expect(body).toMatch(/>Continue<\/a>/);
  }

  const email = uniqueEmail(testInfo, "working");
  await createAccount(email, strongPassword, { confirmed: false });
  await page.goto("/login");
  await signIn(page, email, strongPassword);
  await expect(page).toHaveURL(/\/checkconfirmation$/);
  // Without JavaScript the sign-in ends in a full load of the gate: its text came first, then the work.
  expect(working).toEqual(hasJs ? [] : ["/checkaccountstatus"]);
  await page.getByRole("button", { name: "Resend Email" }).click();
  await expect(page.getByText(messages.confirmationEmailSent)).toBeVisible();
  const mail = await waitForMail(email, "/confirmemail");

  // The e-mail link opened in the browser: "Confirming Your Email…" first, then the outcome.
  if (hasJs) holdNext();
  await page.goto(linkPath(mail, "/confirmemail"));
  if (hasJs) {
    await expect(page.getByRole("heading", { name: "Confirming Your Email…" })).toBeVisible();
    await expect.poll(() => working.at(-1)).toBe("/confirmemail.data");
    await expect(page.getByRole("link", { name: "Continue" })).toBeVisible();
    await expectAccessible(page);
    release();
  }
  await expect(page.getByText(messages.emailConfirmed)).toBeVisible();
  if (!hasJs) {
    expect(working.at(-1)).toBe("/confirmemail");
    await expectFirstAnswer(linkPath(mail, "/confirmemail"), "Confirming Your Email…");
  }

  // The gate on a full load: its text while it looks the account up, then the next screen.
  if (hasJs) holdNext();
  await page.goto("/checkaccountstatus");
  if (hasJs) {
    await expect(page.getByRole("heading", { name: messages.checkingAccount })).toBeVisible();
    await expect.poll(() => working.at(-1)).toBe("/checkaccountstatus.data");
    await expectAccessible(page);
    release();
  }
  await expect(page).toHaveURL(/\/yourinfo$/);
  expect(working.at(-1)).toBe(hasJs ? "/checkaccountstatus.data" : "/checkaccountstatus");
  await expectFirstAnswer("/checkaccountstatus", messages.checkingAccount);
});
