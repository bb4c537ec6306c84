/**
 * The whole journey under a non-root BASE_PATH (/sw): routes, assets, cookies and redirects all
 * stay under it. Runs in both projects against the second app server of playwright.config.ts, which
 * embeds its own reference services.
 */
import * as messages from "../../app/messages";
import { baseAppTarget, e2e } from "./env";
import { createAccount, expect, expectAccessible, fillProfile, sampleProfile, signIn, strongPassword, test, uniqueEmail } from "./support";

const base = `${e2e.baseAppUrl}${e2e.basePath}`;
test.use({ baseURL: `${base}/` });

test("sign in, profile, welcome, safe window, settings and logout under /sw", async ({ page, context }, testInfo) => {
  const email = uniqueEmail(testInfo, "basepath");
  // The base-path app embeds its own services: the account is made through its pages.
  await createAccount(email, strongPassword, { confirmed: true, on: baseAppTarget });
  const requested: string[] = [];
  page.on("request", (request) => requested.push(new URL(request.url()).pathname));

  await page.goto("settings");
  await expect(page).toHaveURL(`${base}/login?redirectTo=%2Fsettings`);
  await signIn(page, email, strongPassword);
  // The gate finds no profile yet, so sign-in lands on /sw/yourinfo, not the requested settings.
  await expect(page).toHaveURL(`${base}/yourinfo`);
  await fillProfile(page, sampleProfile);
  await page.getByRole("button", { name: "Finish" }).click();
  await expect(page).toHaveURL(`${base}/welcome`);
  await page.getByRole("link", { name: "Continue" }).click();
  await expect(page).toHaveURL(`${base}/safewindow`);
  await expect(page.getByText(messages.emptyWindow)).toBeVisible();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
  await expect(page).toHaveURL(`${base}/settings`);
  await expectAccessible(page);

  const session = (await context.cookies()).find((c) => c.name === "__session");
  expect(session?.path).toBe(e2e.basePath);
  expect(requested.filter((p) => !p.startsWith(`${e2e.basePath}/`))).toEqual([]);

  await page.getByRole("main").getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(`${base}/login`);
});

test("the pass checker and its public keys under /sw, and a pass's address there", async ({ page }) => {
  const answer = await page.goto("verify");
  expect(answer?.status()).toBe(200);
  expect(answer?.headers()["permissions-policy"]).toContain("camera=(self)");
  await expect(page.getByRole("heading", { name: messages.verifyTitle })).toBeVisible();
  // A URL to the checker at the root is another address than this one, under /sw.
  await page.getByLabel(messages.verifyPasteLabel).fill(`${e2e.baseAppUrl}/verify#a.b.c`);
  await page.getByRole("button", { name: messages.verifyCheck }).click();
  await expect(page.getByRole("alert").filter({ has: page.locator(".glance-verdict") })).toContainText(messages.verifyReasons.other_issuer);
  const keys = await page.request.get(`${base}/.well-known/safewindow-pass-keys`);
  expect(keys.status()).toBe(200);
  expect(((await keys.json()) as { keys: unknown[] }).keys.length).toBeGreaterThan(0);
  // Outside the base path nothing is ours: 404 with the small error page, never a 500.
  for (const outside of ["/.well-known/safewindow-pass-keys", "/verify", "/login"]) {
    const answer = await page.request.get(`${e2e.baseAppUrl}${outside}`);
    expect(answer.status(), outside).toBe(404);
    expect(await answer.text()).toContain(messages.notFound);
  }
});
