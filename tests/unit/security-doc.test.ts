// docs/security-tests.md "Attacks and the tests that cover them": every test file a row names exists, and
// every test title it quotes stands in that file, so the table cannot keep naming a test that was
// renamed or removed.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");

/** The rows of the table under `heading`: [attack, test cell]. */
function tableRows(doc: string, heading: string): [string, string][] {
  const start = doc.indexOf(`\n${heading}\n`);
  expect(start, heading).toBeGreaterThan(-1);
  const next = doc.indexOf("\n#", start + heading.length + 2);
  const section = doc.slice(start, next === -1 ? undefined : next);
  return section
    .split("\n")
    .filter((line) => line.startsWith("| ") && !line.startsWith("| attack |"))
    .map((line) => {
      const cells = line.split(" | ");
      return [cells[0]!.slice(2), cells.slice(1).join(" | ").replace(/ \|$/, "")];
    });
}

/** The (file, title) pairs of one test cell: each quoted title belongs to the file named before it. */
function namedTests(cell: string): { file: string; title: string }[] {
  const pairs: { file: string; title: string }[] = [];
  let file = "";
  for (const match of cell.matchAll(/`(tests\/[^`]+)`|"([^"]+)"/g)) {
    if (match[1]) file = match[1];
    else pairs.push({ file, title: match[2]! });
  }
  return pairs;
}

describe("docs/security-tests.md", () => {
  it("names, for each attack, test files and titles that exist", () => {
    const doc = readFileSync(path.join(root, "docs/security-tests.md"), "utf8");
    const rows = tableRows(doc, "### Attacks and the tests that cover them");
    expect(rows.length).toBeGreaterThan(20);
    const missing: string[] = [];
    for (const [attack, cell] of rows) {
      const tests = namedTests(cell);
      if (tests.length === 0) missing.push(`${attack}: no test named`);
      for (const { file, title } of tests) {
        const full = path.join(root, file);
        if (!file || !existsSync(full)) missing.push(`${attack}: no file ${file}`);
        else if (!readFileSync(full, "utf8").includes(title)) missing.push(`${attack}: ${file} has no test "${title}"`);
      }
    }
    expect(missing).toEqual([]);
  });
});
