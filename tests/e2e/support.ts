/**
 * Helpers for the end-to-end journeys: unique accounts, the identity authority's outbox, acting as
 * the business side (invite, where the identity authority runs as its own process), and the
 * accessibility check.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Page, type TestInfo } from "@playwright/test";
import PostalMime from "postal-mime";
import * as messages from "../../app/messages";
import { ageRuleDate } from "../../contracts/rules.ts";
import { e2e, targetOf, type E2eTarget } from "./env";

export const strongPassword = "Window#2026a";

/** The cookie-consent answer as the app stores it (a JSON string, base64, URL-encoded). */
export const consentCookie = { name: "sw_cookie_consent", value: encodeURIComponent(btoa(JSON.stringify("accepted"))) };

/**
 * The journeys' `test`: each context starts with the cookie banner answered, so it does not
 * cover the page (the banner itself is tested with a fresh context). `hasJs` tells the project.
 */
export const test = base.extend<{ hasJs: boolean }>({
  context: async ({ context, baseURL }, use) => {
    await context.addCookies([{ ...consentCookie, url: baseURL! }]);
    await use(context);
  },
  hasJs: async ({}, use, testInfo) => {
    await use(testInfo.project.use.javaScriptEnabled !== false);
  },
});
export { expect };

/** The servers of the running test's project (its app, identity authority and their data directories). */
export function target(): E2eTarget {
  return targetOf(test.info().project.name);
}

/** A fresh address for this test run and project. */
export function uniqueEmail(testInfo: TestInfo, label: string): string {
  const random = Math.random().toString(36).slice(2, 8);
  return `${label}.${testInfo.project.name}.${Date.now().toString(36)}${random}@example.com`;
}

export interface Mail {
  to: string;
  subject: string;
  text: string;
  links: string[];
}

/**
 * Waits (up to 15 s) for a mail to `to` with a link that contains `linkPart` (null: the newest mail to `to`), in `outbox` (one raw
 * .eml file per message): by default the identity authority's (its DATA_DIR/outbox, the app's when
 * it embeds the authority); the consumer API's is `appOutbox()`.
 */
export async function waitForMail(to: string, linkPart: string | null, outbox = target().identityOutbox): Promise<Mail> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const files = (await readdir(outbox).catch(() => [] as string[])).filter((f) => f.endsWith(".eml")).sort().reverse();
    for (const file of files) {
      const raw = await readFile(path.join(outbox, file), "utf8");
      if (!raw.toLowerCase().includes(to.toLowerCase())) continue;
      const parsed = await PostalMime.parse(raw);
      const recipients = (parsed.to ?? []).map((a) => ("address" in a ? a.address : "")).join(",").toLowerCase();
      if (!recipients.includes(to.toLowerCase())) continue;
      const text = parsed.text ?? "";
      const links = [...text.matchAll(/https?:\/\/[^\s<>"]+/g)].map((m) => m[0]);
      if (linkPart === null || links.some((l) => l.includes(linkPart))) return { to, subject: parsed.subject ?? "", text, links };
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no mail to ${to} with a ${linkPart} link arrived`);
}

/** The outbox of the consumer API (a decided dispute's mail) of the running test's project: the app's DATA_DIR/outbox when embedded. */
export function appOutbox(): string {
  return target().consumerOutbox;
}

/** The link of `mail` that contains `linkPart`, as a path the test's baseURL serves. */
export function linkPath(mail: Mail, linkPart: string): string {
  const link = mail.links.find((l) => l.includes(linkPart));
  if (!link) throw new Error(`mail has no ${linkPart} link`);
  const url = new URL(link);
  expect(url.origin).toBe(new URL(target().appUrl).origin);
  return url.pathname + url.search;
}

/** The identity authority's URL; @throws when the project's app embeds it (no address the tests can reach). */
function identityUrl(): string {
  const url = target().identityUrl;
  if (!url) throw new Error(`project ${test.info().project.name}: the identity authority is embedded in the app; act through the app's pages`);
  return url;
}

/** A client-credentials token of the identity authority at `url` (the business side's view). */
async function clientToken(url: string): Promise<string> {
  const response = await fetch(`${url}/connect/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "client_credentials", scope: "identity.api", client_id: e2e.clientId, client_secret: e2e.clientSecret }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

/**
 * Creates an account with `password`; confirms it when asked. Straight at the identity authority
 * when it runs as its own process; else (embedded) through the app's registration form and the
 * mailed confirmation link, as a browser without JavaScript would, on `on` (default: the project's app).
 * With `reuse`, an account that already has the address is kept as it is (one an earlier call made,
 * with the same password and confirmation).
 */
export async function createAccount(email: string, password: string, options: { confirmed: boolean; on?: E2eTarget; reuse?: boolean }): Promise<void> {
  const on = options.on ?? target();
  const authority = on.identityUrl;
  if (!authority) return createAccountThroughApp(on, email, password, options.confirmed, options.reuse ?? false);
  const token = await clientToken(authority);
  const registered = await fetch(`${authority}/api/account/register`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ userName: email, password }),
  });
  if (options.reuse && registered.status !== 200 && (await registered.text()).includes("DuplicateUserName")) return;
  expect(registered.status).toBe(200);
  if (!options.confirmed) return;
  const sent = await fetch(`${authority}/api/account/sendconfirmationemail?${new URLSearchParams({ email })}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(sent.status).toBe(200);
  const link = new URL(linkPath(await waitForMail(email, "/confirmemail", on.identityOutbox), "/confirmemail"), on.appUrl);
  const confirmed = await fetch(`${authority}/api/account/confirmemail?${link.searchParams}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(confirmed.status).toBe(200);
}

/**
 * The account made through `on`'s pages: the registration form posted (both toggles on), then, when
 * `confirmed`, the confirmation link of the mail in `on.identityOutbox` opened on the app. With
 * `reuse`, the form's answer that the address is taken (409) leaves the account as it is.
 */
async function createAccountThroughApp(on: E2eTarget, email: string, password: string, confirmed: boolean, reuse: boolean): Promise<void> {
  const origin = new URL(on.appUrl).origin;
  const registered = await fetch(`${on.appUrl}/registration`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin },
    body: new URLSearchParams({ email, password, confirmPassword: password, acceptTerms: "on", acceptPrivacy: "on" }),
  });
  if (reuse && registered.status === 409) return;
  expect(registered.status).toBe(302);
  expect(registered.headers.get("location")).toMatch(/\/checkconfirmation$/);
  if (!confirmed) return;
  const mail = await waitForMail(email, "/confirmemail", on.identityOutbox);
  const link = new URL(mail.links.find((l) => l.includes("/confirmemail"))!);
  const confirmation = await fetch(`${on.appUrl}/confirmemail${link.search}`);
  expect(confirmation.status).toBe(200);
}

/** Invites `email` as the business side does: an account without a password, and a mail to set it. */
export async function inviteAccount(email: string): Promise<void> {
  const response = await fetch(`${identityUrl()}/api/account/invite`, {
    method: "POST",
    headers: { authorization: `Bearer ${await clientToken(identityUrl())}`, "content-type": "application/json" },
    body: JSON.stringify({ userName: email }),
  });
  expect(response.status).toBe(200);
}

/**
 * Shows a field's validation message the way each project does: with JavaScript on blur,
 * without it by submitting the form to the server.
 */
export async function blurOrSubmit(page: Page, submitName: string, hasJs: boolean): Promise<void> {
  if (hasJs) {
    await page.keyboard.press("Tab");
  } else {
    await page.getByRole("button", { name: submitName }).click();
    await page.waitForLoadState("domcontentloaded");
  }
}

/** Fills /registration (both toggles on, strongPassword twice) and presses Create Account. */
export async function createAccountThroughForm(page: Page, email: string): Promise<void> {
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(strongPassword);
  await page.getByLabel("Confirm Password").fill(strongPassword);
  await page.getByRole("switch", { name: /Terms of Service/ }).check();
  await page.getByRole("switch", { name: /Privacy Policy/ }).check();
  await page.getByRole("button", { name: "Create Account" }).click();
}

/** Signs in through the /login form. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Submit" }).click();
}

/** Fails the test when axe finds any accessibility violation on the page as it is now. */
export async function expectAccessible(page: Page): Promise<void> {
  if (base.info().project.use.javaScriptEnabled !== false) return expectPageAccessible(page);
  // axe runs as a script, which a page without JavaScript cannot run: check a copy of the page as
  // it is now, without its scripts, in a JavaScript-enabled page of the same browser.
  const browser = page.context().browser();
  if (!browser) throw new Error("no browser");
  const html = (await page.content())
    .replace(/<script\b[\s\S]*?<\/script>/gi, "")
    .replace(/<head>/i, `<head><base href="${page.url()}">`);
  const context = await browser.newContext({ javaScriptEnabled: true });
  try {
    const copy = await context.newPage();
    await copy.setContent(html, { waitUntil: "load" });
    await expectPageAccessible(copy);
  } finally {
    await context.close();
  }
}

async function expectPageAccessible(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`)).toEqual([]);
}

export interface Profile {
  firstName: string;
  lastName: string;
  /** MM/DD/YYYY */
  dob: string;
  postalCode: string;
}

export const sampleProfile: Profile = { firstName: "Zoë", lastName: "O'Brien-Smith", dob: "03/04/1990", postalCode: "98101" };

/** Fills the four profile inputs of /yourinfo or /personalinfo. */
export async function fillProfile(page: Page, profile: Partial<Profile>): Promise<void> {
  if (profile.firstName !== undefined) await page.getByLabel("First Name").fill(profile.firstName);
  if (profile.lastName !== undefined) await page.getByLabel("Last Name").fill(profile.lastName);
  if (profile.dob !== undefined) await page.getByLabel("Date of Birth").fill(profile.dob);
  if (profile.postalCode !== undefined) await page.getByLabel("Postal Code").fill(profile.postalCode);
}

/**
 * A confirmed account, signed in through /login; with `profile`, also through /yourinfo to /welcome.
 * @returns the account's e-mail
 */
export async function signedInUser(page: Page, testInfo: TestInfo, label: string, profile?: Profile): Promise<string> {
  const email = uniqueEmail(testInfo, label);
  await createAccount(email, strongPassword, { confirmed: true });
  await page.goto("/login");
  await signIn(page, email, strongPassword);
  await expect(page).toHaveURL(/\/yourinfo$/);
  if (profile) {
    await fillProfile(page, profile);
    await page.getByRole("button", { name: "Finish" }).click();
    await expect(page).toHaveURL(/\/welcome$/);
  }
  return email;
}

/** MM/DD/YYYY of the day `years` years before today, shifted by `days`; today is the age rule's date (UTC−12, contracts/rules.ts). */
export function birthday(years: number, days = 0): string {
  const today = ageRuleDate(new Date());
  const date = new Date(Date.UTC(today.year - years, today.month - 1, today.day + days));
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${pad(date.getUTCMonth() + 1)}/${pad(date.getUTCDate())}/${date.getUTCFullYear()}`;
}

/** A second person in their own browser context (cookie banner answered, same JavaScript setting). */
export async function otherPerson(browser: import("@playwright/test").Browser, testInfo: TestInfo, baseURL: string) {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: testInfo.project.use.javaScriptEnabled });
  await context.addCookies([{ ...consentCookie, url: baseURL }]);
  return { context, page: await context.newPage() };
}

/** A profile with a last name no other test uses, so searches find exactly this person. */
export function uniqueProfile(firstName: string): Profile {
  const letters = Array.from({ length: 8 }, () => "abcdefghjkmnpqrstuvwxyz"[Math.floor(Math.random() * 23)]).join("");
  return { firstName, lastName: `Fol${letters}`, dob: "07/14/1988", postalCode: "02139" };
}

/** YYYY-MM-DD of a profile's MM/DD/YYYY date of birth (the fixtures' format). */
export function isoDob(profile: Profile): string {
  const [month, day, year] = profile.dob.split("/");
  return `${year}-${month}-${day}`;
}

/** Uploads `bytes` as `name` through the /mytests form (a multipart post, with or without JavaScript), finding its controls by `words` (the page's language). */
export async function uploadPdf(page: Page, bytes: Uint8Array, name = "result.pdf", words: { resultFileLabel: string; uploadButton: string } = messages): Promise<void> {
  await page.getByLabel(words.resultFileLabel).setInputFiles({ name, mimeType: "application/pdf", buffer: Buffer.from(bytes) });
  const answered = page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/mytests"));
  await page.getByRole("button", { name: words.uploadButton }).click();
  await answered;
  await page.waitForLoadState("domcontentloaded");
}

/**
 * On My Tests, dismisses the 'Before You Add' guidelines when they show. Waits for the page first:
 * after a client-side navigation the URL changes before React has rendered the new page, and a
 * dialog looked for in between would be missed.
 */
export async function dismissGuidelines(page: Page): Promise<void> {
  await expect(page.getByRole("heading", { level: 1, name: "My Tests" })).toBeVisible();
  const dialog = page.getByRole("dialog", { name: "Before You Add" });
  if (await dialog.isVisible()) {
    await dialog.getByRole("button", { name: "I understand" }).click();
    await expect(dialog).toHaveCount(0);
  }
}

/**
 * Chooses `language` ("es") on My Settings' Language card, a plain form posting to /language that
 * keeps the choice in the sw_lang cookie (docs/architecture/behaviour.md §4 "Language"); the card's
 * words are read in English, the page's language before the choice. Ends back on /settings.
 */
export async function chooseLanguageInSettings(page: Page, language: string): Promise<void> {
  await page.goto("/settings");
  const card = page.getByRole("region", { name: messages.languageTitle });
  await card.getByLabel(messages.languageTitle).selectOption(language);
  await card.getByRole("button", { name: messages.languageSave }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.locator("html")).toHaveAttribute("lang", language);
}
