// Comments and documents cite the repository's docs by path and section (docs/style-guide.md): a
// citation that names a file that is gone, or a section or heading the file no longer has, sends
// the reader nowhere. Checked for every tracked source and document.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const tracked = execFileSync("git", ["ls-files"], { cwd: root, encoding: "utf8" })
  .split("\n")
  .filter((file) => /\.(ts|tsx|md|yaml|css)$/.test(file) && existsSync(path.join(root, file)));

/** Each cited doc's anchors (`<a id="s7-4">`) and headings, read once. */
const docs = new Map<string, { anchors: Set<string>; headings: string[] }>();
function doc(file: string) {
  let found = docs.get(file);
  if (!found) {
    const text = readFileSync(path.join(root, file), "utf8");
    found = {
      anchors: new Set([...text.matchAll(/<a id="([^"]+)"><\/a>/g)].map((m) => m[1]!)),
      headings: [...text.matchAll(/^#{1,4} (.+)$/gm)].map((m) => m[1]!.replace(/[`*]/g, "")),
    };
    docs.set(file, found);
  }
  return found;
}

/** Every `docs/….md` citation in the tree, with its § or quoted heading when it has one. */
function citations() {
  const found: { where: string; file: string; section?: string; heading?: string }[] = [];
  for (const file of tracked) {
    const lines = readFileSync(path.join(root, file), "utf8").split("\n");
    lines.forEach((line, index) => {
      for (const m of line.matchAll(/\bdocs\/([\w./-]+?\.md)(?:\s*§\s*(\d+(?:\.\d+)*)|\s+"([^"]+)")?/g)) {
        found.push({ where: `${file}:${index + 1}`, file: `docs/${m[1]}`, section: m[2], heading: m[3] });
      }
    });
  }
  return found;
}

describe("citations of docs/", () => {
  const all = citations();

  it("finds the citations (the check itself works)", () => {
    expect(all.length).toBeGreaterThan(300);
    expect(all.some((c) => c.section)).toBe(true);
  });

  it("name files that exist", () => {
    expect(all.filter((c) => !existsSync(path.join(root, c.file))).map((c) => `${c.where}: ${c.file}`)).toEqual([]);
  });

  it("name sections the cited file has (§N as its anchor sN, §N.M as sN-M)", () => {
    const missing = all
      .filter((c) => c.section && existsSync(path.join(root, c.file)))
      .filter((c) => !doc(c.file).anchors.has(`s${c.section!.replace(/\./g, "-")}`))
      .map((c) => `${c.where}: ${c.file} §${c.section}`);
    expect(missing).toEqual([]);
  });

  it("name headings the cited file has (a quoted name after the path)", () => {
    const missing = all
      .filter((c) => c.heading && existsSync(path.join(root, c.file)))
      .filter((c) => !doc(c.file).headings.some((heading) => heading.includes(c.heading!)))
      .map((c) => `${c.where}: ${c.file} "${c.heading}"`);
    expect(missing).toEqual([]);
  });

  it("Markdown links between the documents reach a file, and an anchor or heading it has", () => {
    const broken: string[] = [];
    for (const file of tracked.filter((name) => name.endsWith(".md"))) {
      const text = readFileSync(path.join(root, file), "utf8");
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const link = m[1]!;
        if (/^(https?:|mailto:)/.test(link)) continue;
        const [target, anchor] = link.split("#") as [string, string | undefined];
        const resolved = target ? path.normalize(path.join(path.dirname(file), target)) : file;
        if (!existsSync(path.join(root, resolved))) {
          broken.push(`${file}: ${link} (no ${resolved})`);
          continue;
        }
        if (anchor && resolved.endsWith(".md")) {
          const { anchors, headings } = doc(resolved);
          if (!anchors.has(anchor) && !headings.some((heading) => slug(heading) === anchor)) broken.push(`${file}: ${link} (no anchor)`);
        }
      }
    }
    expect(broken).toEqual([]);
  });
});

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as dashes. */
function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");
}
