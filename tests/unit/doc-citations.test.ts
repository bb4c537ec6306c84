// Comments and documents cite the repository's docs by path and section (docs/style-guide.md): a
// citation that names a file that is gone, or a section or heading the file no longer has, sends
// the reader nowhere. Checked for every tracked source and document; and, for every document, the
// README sections it cites (`services/identity/README.md "Mail outbox"`), and the links of
// docs/README.md "Start here", the newcomer's five questions.
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

/** The headings of a Markdown file, without their backticks and stars. */
function headingsOf(file: string): string[] {
  return [...readFileSync(path.join(root, file), "utf8").matchAll(/^#{1,4} (.+)$/gm)].map((m) => m[1]!.replace(/[`*]/g, ""));
}

/**
 * The README a citation means: `dir/README.md` when it names a folder (`services/consumer README`),
 * else the nearest README.md above the citing file outside docs/ (the repository's own at the top).
 */
export function citedReadme(citingFile: string, folder: string | undefined): string {
  if (folder?.includes("/")) return path.join(folder.replace(/\/$/, ""), "README.md");
  for (let dir = path.dirname(citingFile); dir !== "." && dir !== ""; dir = path.dirname(dir)) {
    if (!dir.startsWith("docs") && existsSync(path.join(root, dir, "README.md"))) return path.join(dir, "README.md");
  }
  return "README.md";
}

/** Every `README "Heading"` citation of a document outside docs/ READMEs cited by their docs/ path (checked above). */
export function readmeCitations(file: string, text: string) {
  const found: { where: string; readme: string; heading: string }[] = [];
  for (const m of text.matchAll(/(?:\b([\w.-]+(?:\/[\w.-]+)*)\/?\s*)?\bREADME(?:\.md)?,?\s+"([^"\n]+)"/g)) {
    if (m[1]?.startsWith("docs/")) continue;
    const line = text.slice(0, m.index).split("\n").length;
    found.push({ where: `${file}:${line}`, readme: citedReadme(file, m[1]), heading: m[2]! });
  }
  return found;
}

describe("README sections the documents cite", () => {
  const documents = tracked.filter((file) => file.endsWith(".md"));
  const all = documents.flatMap((file) => readmeCitations(file, readFileSync(path.join(root, file), "utf8")));

  it("are found, with the README each means (the check itself works)", () => {
    expect(readmeCitations("notes/x.md", 'see services/consumer\n  README, "Results" and README "Docker"').map(({ readme, heading }) => [readme, heading])).toEqual([
      ["services/consumer/README.md", "Results"],
      ["README.md", "Docker"],
    ]);
    expect(citedReadme("services/identity/accounts.ts", undefined)).toBe("services/identity/README.md");
    expect(all.length).toBeGreaterThan(5);
  });

  it("name a README that exists, and a heading it has", () => {
    const missing = all
      .filter(({ readme, heading }) => !existsSync(path.join(root, readme)) || !headingsOf(readme).some((h) => h.includes(heading)))
      .map(({ where, readme, heading }) => `${where}: ${readme} "${heading}"`);
    expect(missing).toEqual([]);
  });
});

describe('docs/README.md "Start here"', () => {
  const text = readFileSync(path.join(root, "docs/README.md"), "utf8");
  const section = /^## Start here\n([\s\S]*?)(?=^## |$(?![\s\S]))/m.exec(text)?.[1] ?? "";
  /** The numbered questions, each with the links of its item. */
  const questions = section
    .split(/^\d+\. /m)
    .slice(1)
    .map((item) => ({ question: /\*\*(.+?)\*\*/.exec(item)?.[1] ?? "", text: item, links: [...item.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!) }));

  it("asks a newcomer's five questions, each answered by files of the repository", () => {
    const expected: [RegExp, string[]][] = [
      [/window computed/, ["../services/consumer/results/windows.ts", "architecture/request-path.md#s7-6"]],
      [/lab added/, ["architecture/how-to.md#s8-3", "../services/consumer/labs/types.ts", "../services/consumer/results/link.ts"]],
      [/upload/, ["architecture/request-path.md#s7-7", "../services/consumer/results/pipeline.ts"]],
      [/scaled out, with real upstreams/, ["architecture/how-to.md#s8-4", "../deploy/compose.yaml"]],
      [/reach the reference services/, ["architecture/upstream-calls.md#s6", "../app/server/upstream/http.server.ts"]],
    ];
    expect(questions).toHaveLength(expected.length);
    expected.forEach(([question, links], i) => {
      expect(questions[i]!.question).toMatch(question);
      expect(questions[i]!.links).toEqual(expect.arrayContaining(links));
    });
    // The lab question answers both kinds of lab.
    expect(questions[1]!.text).toMatch(/A PDF lab/);
    expect(questions[1]!.text).toMatch(/A lab served by link/);
  });

  it("links only to files that exist, and to anchors or headings they have", () => {
    const broken: string[] = [];
    for (const link of questions.flatMap((q) => q.links)) {
      const [target, anchor] = link.split("#") as [string, string | undefined];
      const resolved = path.normalize(path.join("docs", target));
      if (!existsSync(path.join(root, resolved))) broken.push(`${link} (no ${resolved})`);
      else if (anchor && !(doc(resolved).anchors.has(anchor) || headingsOf(resolved).some((h) => slug(h) === anchor))) broken.push(`${link} (no anchor)`);
    }
    expect(questions.flatMap((q) => q.links).length).toBeGreaterThan(10);
    expect(broken).toEqual([]);
  });
});
