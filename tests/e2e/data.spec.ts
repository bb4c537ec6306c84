/**
 * The person's own data, in both projects: 'Download my data' on My Settings is a plain link
 * that downloads a zip with the account, the profile, the result (its checks, its image and the original
 * PDF byte for byte) and a README; signed out, the link leads to sign-in instead. 'Delete my account',
 * confirmed with the password, deletes nothing on a wrong one; on the right one everything goes, every
 * browser is signed out, the account cannot sign in, search no longer finds the person, and a
 * confirmation is mailed.
 */
import { readFile } from "node:fs/promises";
import { unzipSync, strFromU8 } from "fflate";
import * as messages from "../../app/messages";
import { harborviewPdf } from "../fixtures/index";
import { dismissGuidelines, expect, expectAccessible, isoDob, otherPerson, signedInUser, signIn, strongPassword, test, uniqueProfile, uploadPdf, waitForMail } from "./support";

test("Download my data gives a zip of the account, the profile and each result with its image and original PDF", async ({ page, request }, testInfo) => {
  const profile = uniqueProfile("Dana");
  const email = await signedInUser(page, testInfo, "data", profile);
  await page.goto("/mytests");
  await dismissGuidelines(page);
  const pdf = await harborviewPdf({ firstName: profile.firstName, lastName: profile.lastName, dob: isoDob(profile), collectedAt: new Date(Date.now() - 5 * 3600_000) });
  await uploadPdf(page, pdf);
  await expect(page.getByRole("list", { name: "Test results" }).getByRole("link")).toHaveCount(1);

  await page.goto("/settings");
  await expect(page.getByRole("heading", { name: messages.yourDataTitle })).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: messages.downloadMyData }).click()]);
  expect(download.suggestedFilename()).toMatch(/^safewindow-data-\d{4}-\d\d-\d\d\.zip$/);
  const files = unzipSync(new Uint8Array(await readFile((await download.path())!)));
  const names = Object.keys(files).sort();
  expect(names).toEqual(["README.txt", expect.stringMatching(/^results\/001-\d{4}-\d\d-\d\d-Harborview-Labs\/original\.pdf$/), expect.stringMatching(/\/page-1\.jpg$/), "safewindow-data.json"].sort());
  const data = JSON.parse(strFromU8(files["safewindow-data.json"]!));
  expect(data).toMatchObject({
    account: { userName: email, emailConfirmed: true },
    email,
    profile: { firstName: profile.firstName, lastName: profile.lastName, dob: isoDob(profile), postalCode: profile.postalCode },
    results: [{ valid: 1, publicName: "Harborview Labs", originalPdf: true }],
    followers: [],
    following: [],
    visits: [],
    // The business API knows the account but nothing it saved, and no venue it administers.
    business: { userInfo: { firstName: null, lastName: null, mobileNumber: null }, licensedAdministratorOf: [], locationAdministratorOf: [] },
  });
  const folder = names.find((n) => n.endsWith("/original.pdf"))!.replace(/\/original\.pdf$/, "");
  expect(Buffer.from(files[`${folder}/original.pdf`]!).equals(Buffer.from(pdf))).toBe(true);
  expect([...files[`${folder}/page-1.jpg`]!.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
  expect(strFromU8(files["README.txt"]!)).toContain("every check a\n                      venue made of your window");

  // The download is the user's alone: without the session it leads to sign-in, not to a file.
  const anonymous = await request.get("/settings/data", { maxRedirects: 0 });
  expect(anonymous.status()).toBeGreaterThanOrEqual(300);
  expect(anonymous.status()).toBeLessThan(400);
  expect(anonymous.headers()["location"]).toMatch(/\/login/);
  expect(anonymous.headers()["content-type"] ?? "").not.toContain("zip");
});

test("Delete my account, confirmed with the password, removes everything and signs out every browser", async ({ page, browser, baseURL }, testInfo) => {
  test.slow();
  const profile = uniqueProfile("Dora");
  const email = await signedInUser(page, testInfo, "delete", profile);
  await page.goto("/mytests");
  await dismissGuidelines(page);
  await uploadPdf(page, await harborviewPdf({ firstName: profile.firstName, lastName: profile.lastName, dob: isoDob(profile), collectedAt: new Date(Date.now() - 5 * 3600_000) }));
  await expect(page.getByRole("list", { name: "Test results" }).getByRole("link")).toHaveCount(1);
  await page.goto("/settings");
  const productId = (await page.locator(".product-id").first().textContent())!.trim();

  // Someone else finds her by her product ID; her second browser is signed in too.
  const other = await otherPerson(browser, testInfo, baseURL!);
  await signedInUser(other.page, testInfo, "delete-other", uniqueProfile("Omar"));
  const findHer = async () => {
    await other.page.goto(`/addpublisher?q=${encodeURIComponent(productId)}`);
    return other.page.getByRole("list", { name: "Search results" }).getByText(`${profile.firstName} ${profile.lastName}`);
  };
  await expect(await findHer()).toBeVisible();
  const second = await otherPerson(browser, testInfo, baseURL!);
  await second.page.goto("/login");
  await signIn(second.page, email, strongPassword);
  await expect(second.page).toHaveURL(/\/safewindow$/);

  // A wrong password deletes nothing.
  await page.getByRole("link", { name: messages.deleteAccountButton }).click();
  await expect(page.getByText(messages.deleteAccountConfirm)).toBeVisible();
  await page.getByLabel("Current Password").fill("Not-the-password1!");
  await page.getByRole("button", { name: messages.deleteAccountButton }).click();
  await expect(page.getByText(messages.currentPasswordWrong)).toBeVisible();
  await expectAccessible(page);
  await page.goto("/mytests");
  await expect(page.getByRole("list", { name: "Test results" }).getByRole("link")).toHaveCount(1);

  // The right one deletes it all and lands on Sign In with the news.
  await page.goto("/settings?panel=delete");
  await page.getByLabel("Current Password").fill(strongPassword);
  await page.getByRole("button", { name: messages.deleteAccountButton }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText(messages.accountDeleted)).toBeVisible();
  const mail = await waitForMail(email, null);
  expect(mail.subject).toBe("Your SafeWindow account was deleted");

  // Every browser is signed out, the account cannot sign in, and nobody finds her.
  await second.page.goto("/safewindow");
  await expect(second.page).toHaveURL(/\/login/);
  await page.goto("/login");
  await signIn(page, email, strongPassword);
  await expect(page.getByText(messages.loginFailed)).toBeVisible();
  await expect(await findHer()).toHaveCount(0);
  await other.context.close();
  await second.context.close();
});
