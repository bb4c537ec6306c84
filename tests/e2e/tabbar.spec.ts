/**
 * The bottom tab bar on a phone (docs/product/screens.md §2 bottom navigation), in both projects: at
 * 320 and 390 px wide, in English and in Spanish, at the default font size, on /safewindow of
 * someone with all six tabs (a new profile's screens: services/consumer/permissions.ts
 * DEFAULT_SCREENS): every tab is inside the screen; no label runs out of its tab, is clipped or
 * cut with an ellipsis; no label takes more than two lines; each tab is at least 44 px tall.
 * The labels are the catalogue's (app/messages), read here, not copied. In Spanish the bar is
 * checked a second time with the Settings label set to "Configuración", the longest Settings
 * label Spanish has had, so that the layout keeps room for it whatever the catalogue says now.
 * The layout is the stylesheet's alone (no script measures anything), so the same checks hold
 * with and without JavaScript.
 */
import type { Cookie, Page } from "@playwright/test";
import { catalogues } from "../../app/messages/catalogues";
import { tabs } from "../../app/screens";
import { consentCookie, expect, sampleProfile, signedInUser, test } from "./support";

const widths = [320, 390];
const languages = ["en", "es"] as const;
/** The longest Settings label of either language's catalogue, past or present. */
const longSettingsLabel = "Configuración";

/** What is wrong with the tab bar as laid out now (empty: nothing). */
async function tabBarProblems(page: Page, width: number): Promise<string[]> {
  return page.evaluate((viewportWidth) => {
    const problems: string[] = [];
    const links = [...document.querySelectorAll<HTMLAnchorElement>("nav.tab-bar a.tab")];
    for (const link of links) {
      const label = link.querySelector<HTMLElement>(".tab-label");
      const name = label?.textContent ?? link.textContent ?? "?";
      if (!label) {
        problems.push(`${name}: no label element`);
        continue;
      }
      const box = link.getBoundingClientRect();
      const labelBox = label.getBoundingClientRect();
      const linkStyle = getComputedStyle(link);
      const style = getComputedStyle(label);
      if (box.left < 0 || box.right > viewportWidth) problems.push(`${name}: tab at ${box.left.toFixed(1)}..${box.right.toFixed(1)}, outside 0..${viewportWidth}`);
      if (box.height < 44) problems.push(`${name}: tab ${box.height.toFixed(1)} px tall, under 44`);
      // Nothing runs out of the tab (a word wider than its tab), nor out of the label itself.
      if (link.scrollWidth > link.clientWidth) problems.push(`${name}: tab content ${link.scrollWidth} px wide in a ${link.clientWidth} px tab`);
      if (labelBox.left < box.left - 0.5 || labelBox.right > box.right + 0.5) problems.push(`${name}: label at ${labelBox.left.toFixed(1)}..${labelBox.right.toFixed(1)}, tab at ${box.left.toFixed(1)}..${box.right.toFixed(1)}`);
      if (label.scrollWidth > label.clientWidth) problems.push(`${name}: label scrollWidth ${label.scrollWidth} > clientWidth ${label.clientWidth}`);
      if (label.scrollHeight > label.clientHeight) problems.push(`${name}: label scrollHeight ${label.scrollHeight} > clientHeight ${label.clientHeight}`);
      for (const [what, s] of [["label", style], ["tab", linkStyle]] as const) {
        if (s.textOverflow === "ellipsis") problems.push(`${name}: text-overflow: ellipsis on the ${what}`);
      }
      const fontSize = parseFloat(style.fontSize);
      if (fontSize < 11) problems.push(`${name}: font size ${fontSize} px, under 11`);
      // At most two lines: `normal` is about 1.2 em in the fonts browsers use.
      const lineHeight = style.lineHeight === "normal" ? fontSize * 1.2 : parseFloat(style.lineHeight);
      if (labelBox.height > 2 * lineHeight + 1) problems.push(`${name}: label ${labelBox.height.toFixed(1)} px tall, more than two lines of ${lineHeight.toFixed(1)} px`);
    }
    return problems;
  }, width);
}

test.describe("the tab bar on a phone: six tabs fit, no label clipped", () => {
  let session: Cookie[];
  test.beforeAll(async ({ browser }, testInfo) => {
    const context = await browser.newContext({ baseURL: testInfo.project.use.baseURL, javaScriptEnabled: testInfo.project.use.javaScriptEnabled });
    await context.addCookies([{ ...consentCookie, url: testInfo.project.use.baseURL! }]);
    await signedInUser(await context.newPage(), testInfo, "tabbar", sampleProfile);
    session = (await context.cookies()).filter((c) => c.name !== consentCookie.name);
    await context.close();
  });

  for (const language of languages) {
    for (const width of widths) {
      test(`at ${width} px in ${language === "en" ? "English" : "Spanish"}: every tab inside the screen, each label whole and on at most two lines`, async ({ context, page, baseURL }) => {
        // The explicit choice, as the /language form keeps it (createCookie's encoding of "es": base64 of the JSON string).
        await context.addCookies([...session, { name: "sw_lang", value: encodeURIComponent(btoa(JSON.stringify(language))), url: baseURL! }]);
        await page.setViewportSize({ width, height: 740 });
        await page.goto("/safewindow");
        await expect(page.locator("html")).toHaveAttribute("lang", language);

        const labels = catalogues[language].tabLabels;
        const bar = page.getByRole("navigation", { name: catalogues[language].mainNavigationLabel });
        await expect(bar.getByRole("link")).toHaveCount(tabs.length);
        // Soft: a label that differs from the catalogue's (a stale build) still gets its geometry checked below.
        await expect.soft(bar.locator(".tab-label")).toHaveText(tabs.map((tab) => labels[tab.screen as keyof typeof labels]));
        await expect(bar.getByRole("link", { name: labels.SafeWindow })).toHaveAttribute("aria-current", "page");

        // Nothing wider than the screen either.
        expect(await page.evaluate(() => document.documentElement.scrollWidth), `page width at ${width} px`).toBeLessThanOrEqual(width);
        expect(await tabBarProblems(page, width), `${language} at ${width} px`).toEqual([]);
        for (const tab of await bar.getByRole("link").all()) {
          const box = (await tab.boundingBox())!;
          expect(box.x, await tab.innerText()).toBeGreaterThanOrEqual(0);
          expect(box.x + box.width, await tab.innerText()).toBeLessThanOrEqual(width);
        }

        if (language === "es") {
          await bar.locator(`a[href$="/settings"] .tab-label`).evaluate((label, text) => (label.textContent = text), longSettingsLabel);
          expect(await tabBarProblems(page, width), `es at ${width} px with "${longSettingsLabel}"`).toEqual([]);
        }
      });
    }
  }
});
