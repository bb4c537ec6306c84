/**
 * Spanish is offered only once no screen carries English written into its markup
 * (docs/architecture/behaviour.md §4 "Language"): this test reads every route and component module
 * and lists the text a person reads that does not come from the catalogues (JSX text, visible
 * attributes such as aria-label, placeholder, title, alt and label, string literals shown in JSX, and
 * the meta titles). While that list is not empty, `offeredLanguages` must be English alone.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { offeredLanguages } from "../../app/i18n";

const root = path.resolve(import.meta.dirname, "../..");

/** Attributes whose value a person reads or hears. */
const visibleAttributes = new Set(["aria-label", "placeholder", "title", "alt", "label", "aria-description", "aria-valuetext"]);
/** Text with at least two letters in a row: not punctuation, separators or numbers. */
const words = /[A-Za-z]{2,}/;

/** The modules whose markup a person reads: app/root.tsx, app/routes/, app/components/ (with sub-folders). */
function screenModules(): string[] {
  const files = ["app/root.tsx"];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const file = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(file);
      else if (entry.name.endsWith(".tsx")) files.push(file);
    }
  };
  walk("app/routes");
  walk("app/components");
  return files;
}

/** The English-only texts of one module, as "line: text". */
export function inlineTexts(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(path.join(root, file), "utf8"), ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const note = (node: ts.Node, text: string) => {
    const trimmed = text.replace(/\s+/g, " ").trim();
    if (words.test(trimmed)) found.push(`${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${trimmed}`);
  };
  /** String literals a JSX expression shows: itself, the branches of a conditional, either side of ?? and ||. */
  const shown = (expression: ts.Expression | undefined) => {
    if (!expression) return;
    if (ts.isStringLiteral(expression) || ts.isNoSubstitutionTemplateLiteral(expression)) note(expression, expression.text);
    else if (ts.isTemplateExpression(expression)) note(expression, expression.head.text + expression.templateSpans.map((span) => span.literal.text).join(" "));
    else if (ts.isConditionalExpression(expression)) {
      shown(expression.whenTrue);
      shown(expression.whenFalse);
    } else if (ts.isBinaryExpression(expression)) {
      shown(expression.left);
      shown(expression.right);
    } else if (ts.isParenthesizedExpression(expression)) shown(expression.expression);
  };
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node)) note(node, node.text);
    else if (ts.isJsxAttribute(node) && visibleAttributes.has(node.name.getText(source))) {
      const value = node.initializer;
      if (value && ts.isStringLiteral(value)) note(value, value.text);
      else if (value && ts.isJsxExpression(value)) shown(value.expression);
    } else if (ts.isJsxExpression(node) && node.parent && (ts.isJsxElement(node.parent) || ts.isJsxFragment(node.parent))) shown(node.expression);
    else if (ts.isPropertyAssignment(node) && ["title", "content"].includes(node.name.getText(source)) && isInMeta(node)) shown(node.initializer);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** True inside `export const meta = ...` (the page's title and description). */
function isInMeta(node: ts.Node): boolean {
  for (let at: ts.Node | undefined = node; at; at = at.parent) {
    if (ts.isVariableDeclaration(at) && at.name.getText() === "meta") return true;
  }
  return false;
}

describe("English written into the screens' markup", () => {
  const inventory = Object.fromEntries(screenModules().map((file) => [file, inlineTexts(file)]));
  const left = Object.entries(inventory).filter(([, texts]) => texts.length > 0);

  it("is found where it is (the reader itself works, on a module written with English in each place it reads)", () => {
    const texts = inlineTexts("tests/unit/fixtures/inline-text.tsx");
    const has = (text: string) => texts.some((found) => found.endsWith(`: ${text}`));
    expect(has("Create Account · SafeWindow"), "a meta title").toBe(true);
    expect(has("Cookie consent"), "an aria-label").toBe(true);
    expect(has("Skip to content"), "JSX text").toBe(true);
    expect(has("MM/DD/YYYY"), "a placeholder").toBe(true);
    expect(has("Confirm Password") && has("Set Password"), "both branches of a conditional").toBe(true);
    expect(has("Nobody yet"), "the right side of ??").toBe(true);
    expect(has("Back to Create Account"), "a string literal shown in JSX").toBe(true);
    expect(texts, "nothing else: an expression without words is not English").toHaveLength(8);
  });

  it("finds none in Sign In, whose words come in its loader data", () => {
    expect(inventory["app/routes/login.tsx"]).toEqual([]);
  });

  it("finds none in the Terms, the Privacy Policy and the testing philosophy, whose words come in their loader data", () => {
    for (const page of ["app/routes/terms.tsx", "app/routes/privacy.tsx", "app/routes/testing-philosophy.tsx"]) expect(inventory[page], page).toEqual([]);
  });

  it("finds none in the test, follow, venue and reviewers' screens and the window card, whose words come in their loader data", () => {
    const done = [
      "app/routes/mytests.tsx",
      "app/routes/safewindow.tsx",
      "app/routes/testdetail.tsx",
      "app/components/testdetail/DisputeTab.tsx",
      "app/components/testdetail/LargeView.tsx",
      "app/components/testdetail/ResultChecks.tsx",
      "app/components/mytests/Guidelines.tsx",
      "app/routes/testresultviewer.tsx",
      "app/components/SafeWindowCard.tsx",
      "app/components/ProofBadge.tsx",
      "app/routes/people.tsx",
      "app/routes/follower.tsx",
      "app/routes/following.tsx",
      "app/routes/addpublisher.tsx",
      "app/routes/myfun.tsx",
      "app/routes/checkin.tsx",
      "app/routes/locations.tsx",
      "app/routes/reviews.tsx",
      "app/routes/reviews.dispute.tsx",
      "app/routes/reviews.history.tsx",
    ];
    for (const file of done) expect(inventory[file], file).toEqual([]);
  });

  it("keeps every language but English from being offered while any is left", () => {
    const summary = left.map(([file, texts]) => `${file}: ${texts.length}`);
    if (left.length > 0) expect(offeredLanguages, `screens with English of their own:\n${summary.join("\n")}`).toEqual(["en"]);
    else expect(offeredLanguages.length).toBeGreaterThanOrEqual(1);
  });
});
