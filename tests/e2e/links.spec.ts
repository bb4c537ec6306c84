/**
 * Results by link (docs/product/labs.md §10.8), in both projects: on My Tests, 'Add by link' takes
 * the link a lab sent; the app's server asks the consumer API, which fetches it from the reference
 * lab sites (tests/lab-sites, the app's test-only lab server) and checks it as an upload. The window
 * opens, and Test Detail says where the result came from. A refused link shows its message and keeps
 * what was typed; nothing is stored.
 */
import type { Page } from "@playwright/test";
import * as messages from "../../app/messages";
import { rejectionMessages } from "../../services/consumer/results/errors";
import { labHost, resultLink } from "../lab-sites/server";
import { dismissGuidelines, expect, expectAccessible, isoDob, signedInUser, test, uniqueProfile } from "./support";

const hour = 60 * 60 * 1000;

/** Pastes `link` into Add by link and submits it (a plain form post, with or without JavaScript). */
async function addByLink(page: Page, link: string): Promise<void> {
  await page.getByLabel("Link to your result").fill(link);
  const answered = page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/mytests"));
  await page.getByRole("button", { name: "Add by link" }).click();
  await answered;
  await page.waitForLoadState("domcontentloaded");
}

test("a result added by the lab's link opens the window and says where it came from", async ({ page }, testInfo) => {
  const profile = uniqueProfile("Ada");
  await signedInUser(page, testInfo, "links", profile);
  await page.goto("/mytests");
  await dismissGuidelines(page);
  // Meridian's link serves its HTML result page, read on the server.
  const collectedAt = new Date(Math.floor((Date.now() - 2 * hour) / 60_000) * 60_000).toISOString();
  await addByLink(page, resultLink("meridian", { firstName: profile.firstName, lastName: profile.lastName, dob: isoDob(profile), collectedAt }));
  await expect(page.getByRole("status").filter({ hasText: "Your test result was validated." })).toBeVisible();
  const card = page.getByRole("article", { name: `Safe window of ${profile.firstName} ${profile.lastName}` });
  await expect(card).toContainText("Strong until");
  await expect(page.getByLabel("Link to your result")).toHaveValue("");
  await expectAccessible(page);

  await page.getByRole("list", { name: "Test results" }).getByRole("link", { name: /Meridian Diagnostics/ }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Meridian Diagnostics result" })).toBeVisible();
  await expect(page.getByText(messages.fetchedFromLab(labHost("meridian")))).toBeVisible();
  await expect(page.getByRole("img", { name: /^Strong/ })).toBeVisible();
  // The image is the page as it was read, drawn on the server.
  const image = page.getByRole("img", { name: "Page 1 of the Meridian Diagnostics result" });
  await expect(image).toBeVisible();
  // Visible is not loaded: wait for the image's bytes (a broken image is complete with no width).
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

  // A PDF link (Harborview) too, with the same outcome as an upload.
  await page.goto("/mytests");
  const harborview = resultLink("harborview", { firstName: profile.firstName, lastName: profile.lastName, dob: isoDob(profile), collectedAt: new Date(Date.now() - 30 * hour).toISOString() });
  await addByLink(page, harborview);
  await expect(page.getByRole("status").filter({ hasText: "Your test result was validated." })).toBeVisible();
  await expect(page.getByRole("list", { name: "Test results" }).getByRole("listitem")).toHaveCount(2);
});

test("a refused link shows its message, keeps the link and stores nothing", async ({ page }, testInfo) => {
  const profile = uniqueProfile("Bob");
  await signedInUser(page, testInfo, "links-refused", profile);
  await page.goto("/mytests");
  await dismissGuidelines(page);

  const insecure = `http://${labHost("harborview")}/r/abc`;
  await addByLink(page, insecure);
  const field = page.getByLabel("Link to your result");
  await expect(field).toHaveAccessibleDescription(new RegExp(escapeRegExp(rejectionMessages.link_not_https())));
  await expect(field).toHaveValue(insecure);
  await expect(field).toHaveAttribute("aria-invalid", "true");

  await addByLink(page, "https://169.254.169.254/latest/meta-data/");
  await expect(page.getByText(rejectionMessages.link_address())).toBeVisible();

  await addByLink(page, "https://results.example.com/r/abc");
  await expect(page.getByText(rejectionMessages.link_unknown_host(["Harborview Labs", "Meridian Diagnostics", "Cascade Rapid Testing"]))).toBeVisible();

  // Another person's result at a lab's own link is stored, but does not validate: not this case.
  // A link whose page has expired:
  await addByLink(page, `https://${labHost("meridian")}/gone/abc`);
  await expect(page.getByText(rejectionMessages.link_not_found())).toBeVisible();

  await expect(page.getByText(messages.noResults)).toBeVisible();
  await expectAccessible(page);
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
