// The SafeWindow Pass end to end (docs/product/pass.md §11): a person opens their pass on My Safe Window,
// and a checker in a second browser context, with no account, checks it at /verify: with JavaScript
// from the QR's URL with the network off, and from the camera (Chromium's fake camera playing a video
// of the code); without JavaScript by pasting its text and by uploading a photo of the code. The PDF's
// code checks too; every bad input is red with its reason, never a 500; a person without an open
// window is offered no pass; English and Spanish; axe on both screens.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { chromium, type Page } from "@playwright/test";
import { passClockToleranceSeconds } from "../../contracts/pass";
import { maxPassPhotoMegabytes } from "../../app/limits";
import * as messages from "../../app/messages";
import * as spanish from "../../app/messages/es";
import { harborviewPdf } from "../fixtures/index";
import { fakeCameraVideo } from "./fake-camera";
import { readQrImage, readQrPdf } from "./qr-read";
import { englishOn, englishOnlyStrings } from "./catalogue-english";
import { chooseLanguageInSettings, consentCookie, dismissGuidelines, expect, expectAccessible, isoDob, otherPerson, signedInUser, test, uniqueProfile, uploadPdf } from "./support";

/** The pass screen of a new person with a result collected `hoursAgo` (NAAT: strong 48 h; antigen: strong 24 h, weak 48 h). */
async function personWithPass(page: Page, testInfo: import("@playwright/test").TestInfo, label: string, result: { hoursAgo: number; method?: "NAAT" | "antigen" }) {
  const profile = uniqueProfile("Ada");
  await signedInUser(page, testInfo, label, profile);
  await page.goto("/mytests");
  await dismissGuidelines(page);
  const collectedAt = new Date(Date.now() - result.hoursAgo * 3600_000);
  await uploadPdf(page, await harborviewPdf({ firstName: profile.firstName, lastName: profile.lastName, dob: isoDob(profile), collectedAt, ...(result.method ? { method: result.method } : {}) }));
  await page.goto("/safewindow");
  await page.getByRole("link", { name: messages.passLink }).click();
  await expect(page).toHaveURL(/\/safewindow\/pass$/);
  const qr = page.getByRole("img", { name: messages.passQrLabel(`A${profile.lastName[0]}`) });
  await expect(qr).toBeVisible();
  // The code as a phone's camera reads it off the screen.
  const url = await readQrImage(await qr.screenshot());
  expect(url).toMatch(/\/verify#[\w-]+\.[\w-]+\.[\w-]+$/);
  return { profile, url: url!, initials: `A${profile.lastName[0]}`, qrPng: await qr.screenshot() };
}

/** The checker's verdict box. */
const verdictOf = (page: Page) => page.getByRole("alert").filter({ has: page.locator(".glance-verdict") });

test("a person opens their pass; a checker without an account checks it: the QR's URL, pasted text, a photo, the PDF", async ({ page, browser, baseURL, hasJs }, testInfo) => {
  test.slow();
  const { url, initials, qrPng } = await personWithPass(page, testInfo, "pass-ada", { hoursAgo: 3 });
  await expect(page.getByText(messages.passHint)).toBeVisible();
  await expect(page.locator(".pass-words")).toContainText(initials);
  await expect(page.locator(".pass-words")).toContainText("July 14");
  await expectAccessible(page);
  // The page and its code stay small (docs/product/pass.md §11.4).
  const screen = await page.request.get("/safewindow/pass");
  expect(screen.status()).toBe(200);
  expect(gzipSync(await screen.body()).length).toBeLessThan(30 * 1024);

  // Opening the screen again issues a fresh pass.
  await page.reload();
  const again = await readQrImage(await page.getByRole("img", { name: messages.passQrLabel(initials) }).screenshot());
  expect(again).not.toBe(url);

  // The PDF: one page whose code is a pass that checks, opened from the screen's link.
  await expect(page.getByRole("link", { name: messages.passPrint })).toHaveAttribute("href", "/safewindow/pass.pdf");
  const pdf = await page.request.get("/safewindow/pass.pdf");
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()["content-type"]).toBe("application/pdf");
  const printed = await readQrPdf(new Uint8Array(await pdf.body()));
  expect(printed.pages).toBe(1);
  expect(printed.text).toMatch(/\/verify#/);

  // The checker: another browser context, no account, no cookie but the banner's answer.
  const checker = await otherPerson(browser, testInfo, baseURL!);
  const check = checker.page;
  await check.goto("/verify");
  await expect(check.getByRole("heading", { name: messages.verifyTitle })).toBeVisible();
  await expect(check.locator(".verify-domain strong")).toHaveText(new URL(baseURL!).host);
  await expectAccessible(check);
  const posts: string[] = [];
  check.on("request", (request) => {
    if (request.method() === "POST") posts.push(request.url());
  });

  if (hasJs) {
    // The QR's URL opened with the network off: a fragment change, checked in the browser.
    await checker.context.setOffline(true);
    await check.goto(url);
    await expect(verdictOf(check)).toContainText(messages.verifyStrong);
    await expect(verdictOf(check)).toContainText(initials);
    await expect(verdictOf(check)).toContainText(messages.verifyCompareId);
    // The pass is taken out of the address bar.
    expect(new URL(check.url()).hash).toBe("");
    // The PDF's pass, pasted, still offline.
    await check.getByLabel(messages.verifyPasteLabel).fill(printed.text!);
    await check.getByRole("button", { name: messages.verifyCheck }).click();
    await expect(verdictOf(check)).toContainText(messages.verifyStrong);
    await checker.context.setOffline(false);
    expect(posts).toEqual([]);
  } else {
    // Pasted text, posted: the server checks it and answers the same screen.
    await check.getByLabel(messages.verifyPasteLabel).fill(url);
    await check.getByRole("button", { name: messages.verifyCheck }).click();
    await expect(verdictOf(check)).toContainText(messages.verifyStrong);
    await expect(verdictOf(check)).toContainText(initials);
    await expectAccessible(check);
    // A photo of the code, and the PDF's pass.
    await check.getByLabel(messages.verifyPhotoLabel).setInputFiles({ name: "qr.png", mimeType: "image/png", buffer: qrPng });
    await check.getByRole("button", { name: messages.verifyCheck }).click();
    await expect(verdictOf(check)).toContainText(messages.verifyStrong);
    await check.getByLabel(messages.verifyPasteLabel).fill(printed.text!);
    await check.getByRole("button", { name: messages.verifyCheck }).click();
    await expect(verdictOf(check)).toContainText(messages.verifyStrong);
  }

  // Bad input: red, with its reason, in both modes.
  const [head, body, signature] = url.split("#")[1]!.split(".");
  const tampered = `${head}.${body!.slice(0, -2)}${body!.at(-2) === "A" ? "B" : "A"}${body!.at(-1)}.${signature}`;
  const cases: [string, string][] = [
    [tampered, messages.verifyReasons.damaged],
    [url.replace(new URL(baseURL!).host, "evil.example"), messages.verifyReasons.other_issuer],
    ["not a pass", messages.verifyReasons.damaged],
    [`${head}.${body}`, messages.verifyReasons.damaged],
  ];
  for (const [given, reason] of cases) {
    await check.getByLabel(messages.verifyPasteLabel).fill(given);
    await check.getByRole("button", { name: messages.verifyCheck }).click();
    await expect(verdictOf(check)).toContainText(messages.verifyNotValid);
    await expect(verdictOf(check)).toContainText(reason);
  }
  // A picture without a code.
  await check.getByLabel(messages.verifyPhotoLabel).setInputFiles({ name: "blank.png", mimeType: "image/png", buffer: await page.screenshot({ clip: { x: 0, y: 0, width: 40, height: 40 } }) });
  await check.getByRole("button", { name: messages.verifyCheck }).click();
  await expect(verdictOf(check)).toContainText(messages.verifyPhotoReasons(maxPassPhotoMegabytes).no_code);
  await checker.context.close();
});

test("a weak window shows amber, and as not accepted for a checker who takes strong windows only; the setting is remembered", async ({ page, browser, baseURL }, testInfo) => {
  test.slow();
  const { url, initials } = await personWithPass(page, testInfo, "pass-weak", { hoursAgo: 30, method: "antigen" });
  await expect(page.locator(".pass-strength")).toHaveText(messages.verifyWeak);
  const checker = await otherPerson(browser, testInfo, baseURL!);
  const check = checker.page;
  await check.goto("/verify");
  await check.getByLabel(messages.verifyPasteLabel).fill(url);
  await check.getByRole("button", { name: messages.verifyCheck }).click();
  await expect(verdictOf(check)).toContainText(messages.verifyWeak);
  await expect(verdictOf(check)).toContainText(initials);
  await expect(check.locator(".glance-weak")).toBeVisible();
  // Strong only, remembered on this device.
  await check.getByLabel(messages.verifyStrongOnly).check();
  const saved = check.waitForResponse((response) => response.request().method() === "POST" && new URL(response.url()).pathname.startsWith("/verify"));
  await check.getByRole("button", { name: messages.verifySave }).click();
  await saved;
  await check.goto("/verify");
  await expect(check.getByLabel(messages.verifyStrongOnly)).toBeChecked();
  await check.getByLabel(messages.verifyPasteLabel).fill(url);
  await check.getByRole("button", { name: messages.verifyCheck }).click();
  await expect(verdictOf(check)).toContainText(messages.verifyWeakRefused);
  await expect(check.locator(".glance-none")).toBeVisible();
  await checker.context.close();

  // The holder's pass screen in Spanish: no English word of ours on it.
  await chooseLanguageInSettings(page, "es");
  await page.goto("/safewindow/pass");
  await expect(page.getByRole("heading", { name: spanish.passTitle })).toBeVisible();
  await expect(page.locator(".pass-strength")).toHaveText(spanish.verifyWeak);
  await expect(page.locator(".pass-words")).toContainText("14 de julio");
  expect(await englishOn(page, englishOnlyStrings())).toEqual([]);
  await expectAccessible(page);
});

test("a person without an open window is offered no pass, and the pass screen says why", async ({ page }, testInfo) => {
  await signedInUser(page, testInfo, "pass-none", uniqueProfile("Bo"));
  await page.goto("/safewindow");
  await expect(page.getByRole("heading", { name: messages.safeWindowTitle })).toBeVisible();
  await expect(page.getByRole("link", { name: messages.passLink })).toHaveCount(0);
  const answer = await page.goto("/safewindow/pass");
  expect(answer?.status()).toBe(409);
  await expect(page.getByText(messages.passNoWindow)).toBeVisible();
  // The PDF leads back to the screen that says why.
  await page.goto("/safewindow/pass.pdf");
  await expect(page).toHaveURL(/\/safewindow\/pass$/);
});

test("the checker reads /verify in their own language, with its headers, and its public keys are a JWK Set", async ({ browser, baseURL }, testInfo) => {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: testInfo.project.use.javaScriptEnabled, locale: "es-US", extraHTTPHeaders: { "accept-language": "es-US,es;q=0.9" } });
  await context.addCookies([{ ...consentCookie, url: baseURL! }]);
  const page = await context.newPage();
  const answer = await page.goto("/verify");
  expect(answer?.headers()["permissions-policy"]).toContain("camera=(self)");
  expect(answer?.headers()["content-security-policy"]).toContain("'wasm-unsafe-eval'");
  await expect(page.getByRole("heading", { name: spanish.verifyTitle })).toBeVisible();
  await page.getByLabel(spanish.verifyPasteLabel).fill("esto no es un pase");
  await page.getByRole("button", { name: spanish.verifyCheck }).click();
  await expect(verdictOf(page)).toContainText(spanish.verifyNotValid);
  await expect(verdictOf(page)).toContainText(spanish.verifyReasons.damaged);
  await expectAccessible(page);
  // Every other page keeps the camera and WebAssembly off.
  const login = await page.request.get("/login");
  expect(login.headers()["permissions-policy"]).toContain("camera=()");
  expect(login.headers()["content-security-policy"]).not.toContain("wasm-unsafe-eval");
  // The checker's clock: 10 minutes off the server's is said with JavaScript; without it the server's clock checks.
  const skewed = await browser.newContext({ baseURL, javaScriptEnabled: testInfo.project.use.javaScriptEnabled });
  await skewed.addCookies([{ ...consentCookie, url: baseURL! }]);
  const late = await skewed.newPage();
  if (testInfo.project.use.javaScriptEnabled !== false) await late.clock.install({ time: new Date(Date.now() + 10 * 60_000) });
  await late.goto("/verify");
  await expect(late.getByRole("heading", { name: messages.verifyTitle })).toBeVisible();
  await expect(late.getByText(messages.verifyClockOff(passClockToleranceSeconds / 60))).toHaveCount(testInfo.project.use.javaScriptEnabled === false ? 0 : 1);
  await skewed.close();

  const keys = await page.request.get("/.well-known/safewindow-pass-keys");
  expect(keys.status()).toBe(200);
  expect(keys.headers()["cache-control"]).toBe("public, max-age=60");
  expect(keys.headers()["access-control-allow-origin"]).toBe("*");
  const set = (await keys.json()) as { keys: { kty: string; crv: string; alg: string; kid: string; d?: string }[] };
  expect(set.keys.length).toBeGreaterThan(0);
  for (const key of set.keys) expect(key).toMatchObject({ kty: "EC", crv: "P-256", alg: "ES256" });
  expect(set.keys.some((key) => "d" in key)).toBe(false);
  await context.close();
});

test("with JavaScript, the camera reads the pass: Chromium's fake camera plays a video of its QR code", async ({ page, baseURL, hasJs }, testInfo) => {
  if (!hasJs) {
    // Without JavaScript no camera button shows that could not work; the checker pastes or uploads a photo (the first journey).
    await page.goto("/verify");
    await expect(page.getByLabel(messages.verifyPhotoLabel)).toBeVisible();
    await expect(page.getByRole("button", { name: messages.scanStart })).toHaveCount(0);
    return;
  }
  test.slow();
  const { url, initials } = await personWithPass(page, testInfo, "pass-camera", { hoursAgo: 2 });
  const dir = await mkdtemp(path.join(tmpdir(), "sw-camera-"));
  const video = path.join(dir, "qr.y4m");
  await fakeCameraVideo(url, video);
  const launch = testInfo.project.use.launchOptions ?? {};
  const camera = await chromium.launch({ ...launch, args: [...(launch.args ?? []), "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream", `--use-file-for-fake-video-capture=${video}`] });
  try {
    const context = await camera.newContext({ baseURL });
    await context.grantPermissions(["camera"]);
    await context.addCookies([{ ...consentCookie, url: baseURL! }]);
    const check = await context.newPage();
    await check.goto("/verify");
    await check.getByRole("button", { name: messages.scanStart }).click();
    await expect(verdictOf(check)).toContainText(messages.verifyStrong, { timeout: 20_000 });
    await expect(verdictOf(check)).toContainText(initials);
    // The camera has started once: the decoder works with the network off.
    await context.setOffline(true);
    await check.getByRole("button", { name: messages.scanStart }).click();
    await expect(verdictOf(check)).toContainText(messages.verifyStrong);
  } finally {
    await camera.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test("with JavaScript but without WebCrypto (a page not served over https), the check falls back to the server", async ({ page, browser, baseURL, hasJs }, testInfo) => {
  test.slow();
  const { url, initials } = await personWithPass(page, testInfo, "pass-nosubtle", { hoursAgo: 1 });
  const checker = await otherPerson(browser, testInfo, baseURL!);
  await checker.context.addInitScript(() => Object.defineProperty(globalThis.crypto, "subtle", { value: undefined, configurable: true }));
  await checker.page.goto("/verify");
  const posted = checker.page.waitForRequest((request) => request.method() === "POST" && new URL(request.url()).pathname.startsWith("/verify"));
  await checker.page.getByLabel(messages.verifyPasteLabel).fill(url);
  await checker.page.getByRole("button", { name: messages.verifyCheck }).click();
  await posted;
  await expect(verdictOf(checker.page)).toContainText(messages.verifyStrong);
  await expect(verdictOf(checker.page)).toContainText(initials);
  // With JavaScript, the QR's URL opened on such a page is checked by the server too.
  if (hasJs) {
    await checker.page.goto("/verify");
    const again = checker.page.waitForRequest((request) => request.method() === "POST");
    await checker.page.goto(url);
    await again;
    await expect(verdictOf(checker.page)).toContainText(messages.verifyStrong);
  }
  await checker.context.close();
});
