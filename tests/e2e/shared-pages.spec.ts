/**
 * A page answered from the shared page cache (docs/decisions/0014-shared-page-cache.md) works in
 * the browser as the rendered one does: its inline scripts run under the hash policy (with
 * JavaScript), its form posts (without), and the browser reports no policy violation. Both projects.
 */
import * as messages from "../../app/messages";
import { expect, strongPassword, test } from "./support";

test("Sign In from the shared page cache runs its scripts and signs in like a rendered page", async ({ page, hasJs }) => {
  const refused: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
  });
  // The first visit renders the page (with JavaScript its boot script also posts the time zone,
  // and the cookie that comes back is part of the key); the next visits with the same cookies are
  // answered from the cache.
  let policy = "";
  for (let visit = 0; visit < 3; visit++) {
    const response = await page.goto("/login");
    policy = (await response!.headerValue("content-security-policy")) ?? "";
    if (hasJs && visit === 0) await expect.poll(async () => (await page.context().cookies()).some((cookie) => cookie.name === "tz")).toBe(true);
  }
  expect(policy).toContain("'sha256-");
  expect(policy).not.toContain("'nonce-");
  if (hasJs) {
    // The boot script and React Router's module script are inline: both ran.
    expect((await page.context().cookies()).some((cookie) => cookie.name === "tz")).toBe(true);
    await expect.poll(() => page.evaluate(() => "__reactRouterRouteModules" in window && "__reactRouterContext" in window)).toBe(true);
  }
  await page.getByLabel("Email").fill("nobody-here@example.com");
  await page.getByLabel("Password", { exact: true }).fill(strongPassword);
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByText(messages.loginFailed)).toBeVisible();
  expect(refused).toEqual([]);
});
