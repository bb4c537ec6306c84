/**
 * Signed results (docs/product/labs.md §10.9), in both projects: a Harborview PDF that carries a SMART
 * Health Card signed with the committed test key (trusted by the e2e app through SHC_EXTRA_ISSUERS) is
 * uploaded; Test Detail and the safe window's card say the result is signed, in words and with an
 * icon that has a text alternative. A PDF whose code is signed by an unknown issuer is checked as a
 * document, and Test Detail says the signature could not be tied to a known issuer.
 */
import * as messages from "../../app/messages";
import { harborviewPdf } from "../fixtures/index";
import { e2eShcIssuer, shcText, testShcIssuer } from "../fixtures/shc";
import { dismissGuidelines, expect, expectAccessible, isoDob, signedInUser, test, uniqueProfile, uploadPdf } from "./support";

const hour = 60 * 60 * 1000;

test("a signed result shows its proof on Test Detail and on the window's card", async ({ page }, testInfo) => {
  const profile = uniqueProfile("Ada");
  await signedInUser(page, testInfo, "proof", profile);
  await page.goto("/mytests");
  await dismissGuidelines(page);
  const collectedAt = new Date(Math.floor((Date.now() - 3 * hour) / 60_000) * 60_000);
  const person = { firstName: profile.firstName, lastName: profile.lastName, dob: isoDob(profile), collectedAt };
  const signed = await shcText(await e2eShcIssuer(), { givenNames: [profile.firstName], lastName: profile.lastName, dob: isoDob(profile), collectedAt });
  await uploadPdf(page, await harborviewPdf({ ...person, variation: { qr: [{ text: signed }] } }), "signed.pdf");
  await expect(page.getByRole("status").filter({ hasText: "Your test result was validated." })).toBeVisible();
  const label = "signed (SMART Health Card, Harborview Labs (test key))";
  const card = page.getByRole("article", { name: `Safe window of ${profile.firstName} ${profile.lastName}` });
  await expect(card.getByText(label)).toBeVisible();
  await expect(card.getByRole("img", { name: messages.proofIconLabels.signed })).toBeVisible();

  await page.getByRole("list", { name: "Test results" }).getByRole("link", { name: /Harborview Labs/ }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Harborview Labs result" })).toBeVisible();
  await expect(page.getByText(`Proof ${label}`)).toBeVisible();
  await expect(page.getByRole("img", { name: messages.proofIconLabels.signed })).toBeVisible();
  await expectAccessible(page);
});

test("a signature no known issuer made is checked as a document, and Test Detail says so", async ({ page }, testInfo) => {
  const profile = uniqueProfile("Bob");
  await signedInUser(page, testInfo, "proof-unknown", profile);
  await page.goto("/mytests");
  await dismissGuidelines(page);
  const collectedAt = new Date(Math.floor((Date.now() - 3 * hour) / 60_000) * 60_000);
  const person = { firstName: profile.firstName, lastName: profile.lastName, dob: isoDob(profile), collectedAt };
  const unknown = await shcText(await testShcIssuer("https://issuer.example.org", "Unknown"), { givenNames: [profile.firstName], lastName: profile.lastName, dob: isoDob(profile), collectedAt });
  await uploadPdf(page, await harborviewPdf({ ...person, variation: { qr: [{ text: unknown }] } }), "unknown.pdf");
  await expect(page.getByRole("status").filter({ hasText: "Your test result was validated." })).toBeVisible();
  await page.getByRole("list", { name: "Test results" }).getByRole("link", { name: /Harborview Labs/ }).click();
  await expect(page.getByText("Proof document checks")).toBeVisible();
  await expect(page.getByRole("img", { name: messages.proofIconLabels.document })).toBeVisible();
  await expect(page.getByText(messages.unverifiedSignature("SMART Health Card"))).toBeVisible();
});
