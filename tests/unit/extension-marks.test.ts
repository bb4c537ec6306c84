// docs/product/calls.md §7.4 "Extensions" and the contracts' marks (contracts/extension-marks.ts) are one
// list: the attack it stops is a quiet extension, a field the app comes to need that no document
// names as beyond the product rules, which then breaks against a plain upstream.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { extensionMarks } from "../../contracts/extension-marks.ts";
import { extensionGroups } from "../../contracts/extension.ts";

const root = path.resolve(import.meta.dirname, "../..");

/** The rows of §7.4's table as `upstream kind name group` (a call's name is `METHOD path`), plus `kept` for a row that says it stays. */
function tableRows(): string[] {
  const doc = readFileSync(path.join(root, "docs/product/calls.md"), "utf8");
  const section = doc.slice(doc.indexOf('<a id="s7-4"></a>'), doc.indexOf('<a id="s7-5"></a>'));
  expect(section.length).toBeGreaterThan(100);
  return section
    .split("\n")
    .filter((line) => /^\| (call|field|value) `/.test(line))
    .map((line) => {
      const [what, upstream, group, where, without] = line.split("|").slice(1, -1).map((cell) => cell.trim());
      const [, kind, name] = /^(call|field|value) `([^`]+)`$/.exec(what!) ?? [];
      expect(without, line).not.toBe("");
      return `${upstream} ${kind} ${name} ${group}${where!.startsWith("kept in plain mode") ? " kept" : ""}`;
    });
}

/** The contracts' marks the same way: one per call, one per field or value (however many calls carry it). */
function markRows(): string[] {
  const rows = extensionMarks().map((m) =>
    m.kind === "call" ? `${m.upstream} call ${m.method} ${m.path} ${m.group}${m.keptWhenOff ? " kept" : ""}` : `${m.upstream} ${m.kind} ${m.name} ${m.group}`,
  );
  return [...new Set(rows)];
}

describe("docs/product/calls.md §7.4 and the contracts' extension marks", () => {
  it("list the same calls, fields and values, with the same groups and the same kept calls", () => {
    const table = tableRows();
    expect(new Set(table).size, "a row twice").toBe(table.length);
    expect([...table].sort()).toEqual(markRows().sort());
  });

  it("name the fields the product rules leave out that the app once required, and every group that is used", () => {
    const rows = markRows();
    for (const row of ["identity field requestedUri mail", "consumer field result outcome", "consumer field consumer ids", "consumer field sF_TestResultId ids", "consumer field sF_ConsumerSubscriptionId ids", "consumer field safeWindowId ids", "business call POST /applicationsecurity/deleteuserinfo/ data", "business call GET /location/search/ venues kept"]) {
      expect(rows).toContain(row);
    }
    const used = new Set(extensionMarks().map((m) => m.group));
    expect([...used].sort()).toEqual(Object.keys(extensionGroups).sort());
  });
});

describe("UPSTREAM_EXTENSIONS", () => {
  it("is read by no module of the app: the app learns each extension from the upstream's answers (docs/product/calls.md §7.4)", () => {
    const files = readdirSync(path.join(root, "app"), { recursive: true, encoding: "utf8" }).filter((f) => /\.(ts|tsx)$/.test(f));
    expect(files.length).toBeGreaterThan(50);
    expect(files.filter((f) => readFileSync(path.join(root, "app", f), "utf8").includes("UPSTREAM_EXTENSIONS"))).toEqual([]);
  });
});
