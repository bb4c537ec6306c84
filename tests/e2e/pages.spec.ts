/**
 * The pages of a result (an extension, docs/product/calls.md §7.4 `pageCount` and getImage's `page`), in the
 * projects with every extension: a two-page report is paged through in Test Detail's large view and
 * in the viewer, and a page the result does not have is not found.
 */
import * as messages from "../../app/messages";
import { labPdf } from "../fixtures/index";
import { dismissGuidelines, expect, expectAccessible, isoDob, signedInUser, test, uniqueProfile, uploadPdf } from "./support";

test("a two-page result is paged through in the large view and the viewer", async ({ page }, testInfo) => {
  const profile = uniqueProfile("Paged");
  await signedInUser(page, testInfo, "pages", profile);
  await page.goto("/mytests");
  await dismissGuidelines(page);
  const bytes = await labPdf("cascade", {
    firstName: profile.firstName,
    lastName: profile.lastName,
    dob: isoDob(profile),
    collectedAt: new Date(Date.now() - 3 * 60 * 60 * 1000),
    method: "antigen",
    variation: { extraText: true, secondPage: true },
  });
  await uploadPdf(page, bytes, "cascade.pdf");
  await expect(page.getByRole("status").filter({ hasText: "Your test result was validated." })).toBeVisible();
  await page.getByRole("link", { name: /Cascade Rapid Testing/ }).click();
  await expect(page).toHaveURL(/\/testdetail\?id=/);
  await page.getByRole("link", { name: "Open the large view of the result" }).click();
  const large = page.getByRole("region", { name: "Large view of the result" });
  await expect(large).toBeVisible();

  // Every page, one at a time: the pager's line takes focus where the link used is gone.
  const pager = large.getByRole("navigation", { name: "Pages of the result" });
  await expect(pager).toContainText(messages.pageOf(1, 2));
  await expect(pager.getByRole("link", { name: messages.previousPage })).toHaveCount(0);
  await pager.getByRole("link", { name: messages.nextPage }).click();
  const secondPage = large.getByRole("img", { name: "Page 2 of the Cascade Rapid Testing result, large" });
  await expect(secondPage).toHaveJSProperty("complete", true);
  expect(await secondPage.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(250);
  await expect(pager.getByText(messages.pageOf(2, 2))).toBeFocused();
  await expect(pager.getByRole("link", { name: messages.nextPage })).toHaveCount(0);
  await expectAccessible(page);
  await pager.getByRole("link", { name: messages.previousPage }).click();
  await expect(large.getByRole("img", { name: "Page 1 of the Cascade Rapid Testing result, large" })).toHaveJSProperty("complete", true);
  await expect(pager.getByText(messages.pageOf(1, 2))).toBeFocused();

  // The viewer pages too; its image route serves each page to the owner.
  const id = new URL(page.url()).searchParams.get("id")!;
  await page.goto(`/testresultviewer?id=${encodeURIComponent(id)}`);
  await page.getByRole("link", { name: messages.nextPage }).click();
  await expect(page).toHaveURL(/[?&]page=2$/);
  const viewerPage2 = page.getByRole("img", { name: "Page 2 of the Cascade Rapid Testing result" });
  await expect(viewerPage2).toHaveJSProperty("complete", true);
  expect(await viewerPage2.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(250);
  const page2 = await page.request.get(`/testresultviewer/image?id=${encodeURIComponent(id)}&page=2`);
  expect(page2.status()).toBe(200);
  expect(page2.headers()["content-type"]).toBe("image/jpeg");
  // A page the result does not have, or not a page number: not found, like another user's result.
  for (const bad of ["3", "0", "two", "1e1"]) expect((await page.request.get(`/testresultviewer/image?id=${encodeURIComponent(id)}&page=${bad}`)).status(), bad).toBe(404);
});
