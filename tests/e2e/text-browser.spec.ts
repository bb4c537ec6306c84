/**
 * Text browsers (docs/architecture/behaviour.md §4): the same journey in w3m, through its own forms and links,
 * where no CSS lays items apart and no icon shows. In both projects (the Playwright browser only
 * prepares the accounts; w3m has no JavaScript either way).
 */
import * as messages from "../../app/messages";
import { labPdf } from "../fixtures/index";
import { createAccount, dismissGuidelines, expect, isoDob, linkPath, otherPerson, signedInUser, strongPassword, test, uniqueEmail, uniqueProfile, uploadPdf, waitForMail } from "./support";
import { readQrImage } from "./qr-read";
import { W3m } from "./w3m";

test("in w3m, with its own forms: sign in, read the window's state in words, find a person and request to follow", async ({ page, browser, baseURL }, testInfo) => {
  test.slow();
  const aProfile = uniqueProfile("Wren");
  const bProfile = uniqueProfile("Tobias");
  const aEmail = await signedInUser(page, testInfo, "w3m-a", aProfile);
  await page.goto("/mytests");
  await dismissGuidelines(page);
  await uploadPdf(page, await labPdf("harborview", { firstName: aProfile.firstName, lastName: aProfile.lastName, dob: isoDob(aProfile), collectedAt: new Date(Date.now() - 2 * 3600_000) }));
  await expect(page.getByRole("list", { name: "Test results" }).getByRole("listitem")).toHaveCount(1);
  await page.getByRole("button", { name: "Logout" }).first().click();
  const b = await otherPerson(browser, testInfo, baseURL!);
  await signedInUser(b.page, testInfo, "w3m-b", bProfile);

  const w3m = await W3m.open(`${baseURL}/login`);
  try {
    // Label and field apart, links apart, buttons apart.
    let screen = await w3m.waitFor("Forgot Password | Create Account");
    expect(screen).toMatch(/^Email \[/m);
    expect(screen).toContain("Accept Decline");
    await w3m.fill("^Email", aEmail);
    await w3m.fill("^Password", strongPassword);
    await w3m.activate("^Submit");

    // The window's state in words, and the current tab in text.
    screen = await w3m.waitFor("My Safe Window");
    expect(screen).toContain(`${aProfile.firstName} ${aProfile.lastName}`);
    expect(screen).toMatch(/Window +Strong/);
    expect(screen).toMatch(/Safe Window \(current\)/);
    expect(screen).not.toMatch(/People \(current\)/);

    // My Tests: each result's state is a word beside its lab.
    await w3m.activate("My Tests$");
    screen = await w3m.waitFor("Your results");
    expect(screen).toMatch(/Strong \| Harborview Labs: /);
    expect(screen).toMatch(/My Tests \(current\)/);

    // People, its tabs apart and the current one named; then Add, search, request.
    await w3m.activate("People$");
    screen = await w3m.waitFor("Following (current) | Followers (0)");
    await w3m.activate("^Add$");
    screen = await w3m.waitFor("Search people by name, product ID or email");
    expect(screen).toMatch(/People \(current\)/);
    await w3m.fill("^Search people", bProfile.lastName);
    await w3m.activate("Search$");
    await w3m.waitFor(`${bProfile.firstName} ${bProfile.lastName}`);
    await w3m.find(`${bProfile.firstName} ${bProfile.lastName}`);
    await w3m.keys("Tab", "Enter");
    await w3m.waitFor(new RegExp(`${bProfile.firstName} ${bProfile.lastName} \\w+ Requested`));
  } finally {
    await w3m.close();
  }
  // The request is real: B has one pending follower.
  await b.page.goto("/people");
  await expect(b.page.getByRole("link", { name: /Followers \(1\)/ })).toBeVisible();
  await b.context.close();
});

test("in w3m: the skip link finds its target, and Continue on the e-mail check moves on once the address is confirmed", async ({ page, baseURL }, testInfo) => {
  const email = uniqueEmail(testInfo, "w3m-confirm");
  await createAccount(email, strongPassword, { confirmed: false });
  const w3m = await W3m.open(`${baseURL}/login`);
  try {
    await w3m.waitFor("Skip to content");
    await w3m.activate("^Skip to content");
    // w3m says "<name> is not found" on its status line when a fragment has no target.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await w3m.screen()).not.toContain("is not found");

    await w3m.fill("^Email", email);
    await w3m.fill("^Password", strongPassword);
    await w3m.activate("^Submit");
    await w3m.waitFor("Check Your Email");
    await w3m.activate("^Resend Email");
    await w3m.waitFor(messages.confirmationEmailSent);
    // The address is confirmed elsewhere (the mail's link, opened in another browser).
    await page.goto(linkPath(await waitForMail(email, "/confirmemail"), "/confirmemail"));
    await expect(page.getByText(messages.emailConfirmed)).toBeVisible();
    // w3m does not follow the page's refresh; its Continue link does the same.
    await w3m.activate("^Continue");
    await w3m.waitFor("Your Info");
  } finally {
    await w3m.close();
  }
});

test("a sub-screen marks its tab as current; the words for text browsers stay out of sight and out of the accessibility tree", async ({ page }, testInfo) => {
  await signedInUser(page, testInfo, "tabs", uniqueProfile("Tabitha"));
  const tabBar = page.getByRole("navigation", { name: "Main" });
  for (const [path, tab, current] of [
    ["/people", "People", "page"],
    ["/addpublisher", "People", "true"],
    ["/settings", "Settings", "page"],
    ["/personalinfo", "Settings", "true"],
    ["/mytests", "My Tests", "page"],
  ] as const) {
    await page.goto(path);
    // The accessible name is the label alone: "(current)" is display: none.
    const link = tabBar.getByRole("link", { name: tab, exact: true });
    await expect(link, path).toHaveAttribute("aria-current", current);
    await expect(link, path).toHaveClass(/\bactive\b/);
    await expect(tabBar.locator("[aria-current]"), path).toHaveCount(1);
    await expect(page.getByText("(current)").first(), path).toBeHidden();
  }
  await page.goto("/people");
  await expect(page.getByText(" | ").first()).toBeHidden();
  await expect(page.getByRole("link", { name: "Following", exact: true })).toHaveAttribute("aria-current", "page");
});

test("in w3m: the SafeWindow Pass in words, and /verify checks its text with w3m's own form", async ({ page, baseURL }, testInfo) => {
  test.slow();
  const profile = uniqueProfile("Wanda");
  const email = await signedInUser(page, testInfo, "w3m-pass", profile);
  await page.goto("/mytests");
  await dismissGuidelines(page);
  await uploadPdf(page, await labPdf("harborview", { firstName: profile.firstName, lastName: profile.lastName, dob: isoDob(profile), collectedAt: new Date(Date.now() - 2 * 3600_000) }));
  await expect(page.getByRole("list", { name: "Test results" }).getByRole("listitem")).toHaveCount(1);
  const initials = `W${profile.lastName[0]}`;

  const w3m = await W3m.open(`${baseURL}/login`);
  try {
    await w3m.waitFor("Forgot Password | Create Account");
    await w3m.fill("^Email", email);
    await w3m.fill("^Password", strongPassword);
    await w3m.activate("^Submit");
    await w3m.waitFor("My Safe Window");
    await w3m.activate(`${messages.passLink}$`);
    // The pass in words: each term, its value under it (its last line, the print link, shows the whole page is in).
    const screen = await w3m.waitFor(messages.passPrint);
    expect(screen).toContain(messages.passTitle);
    expect(screen).toMatch(new RegExp(`^ *${messages.passInitials}\\n +${initials}$`, "m"));
    expect(screen).toMatch(new RegExp(`^ *${messages.passBirthday}\\n +July 14$`, "m"));
    expect(screen).toMatch(new RegExp(`^ *${messages.passStrongUntil}\\n +\\w`, "m"));
  } finally {
    await w3m.close();
  }

  // The same pass's text, as the checker pastes it from the QR's URL (read here from the pass screen's code).
  await page.goto("/safewindow/pass");
  const url = await readQrImage(await page.getByRole("img", { name: messages.passQrLabel(initials) }).screenshot());
  expect(url).toBeDefined();
  const checker = await W3m.open(`${baseURL}/verify`);
  try {
    const screen = await checker.waitFor(messages.verifyTitle);
    expect(screen).toContain(new URL(baseURL!).host);
    await checker.fill(`^${messages.verifyPasteLabel}`, url!);
    await checker.activate(`^${messages.verifyCheck}$`);
    const answer = await checker.waitFor(messages.verifyCompareId);
    expect(answer).toMatch(new RegExp(`^${messages.verifyStrong}$`, "m"));
    expect(answer).toContain(initials);
  } finally {
    await checker.close();
  }
});
