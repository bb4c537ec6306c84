// The documents' mechanical claims, checked against the repository (docs/architecture/conventions.md
// §9.6 "Docs"): every repository path a document names in backticks exists; every document is short
// enough to hold (docs/ and the services' READMEs at most 25,000 words, 300 lines a file and 400 characters a line outside code; the README at most 10,000 bytes); the counts and
// ranges they state (route modules, decisions) and the default ports they name match the code.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");
const tracked = execFileSync("git", ["ls-files"], { cwd: root, encoding: "utf8" }).split("\n").filter(Boolean);
/** README.md, every document under docs/, and the services' READMEs. */
const documents = tracked.filter((file) => /^(README\.md|docs\/.+\.md|services\/[^/]+\/README\.md)$/.test(file) && existsSync(path.join(root, file)));

/** Top-level folders of the repository a backticked path may start with. */
const TOP = "app|bench|contracts|deploy|docs|lib|public|scripts|server|services|tests|\\.ci";
const repositoryPath = new RegExp(`^(?:${TOP})/[\\w.@+-]+(?:/[\\w.@+-]+)*/?$`);

/** Every backticked span of a document that reads as a path from the repository's root. */
export function backtickedPaths(text: string): string[] {
  return [...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!.trim()).filter((span) => repositoryPath.test(span));
}

describe("backticked repository paths", () => {
  it("are found in a sample (the check itself works)", () => {
    expect(backtickedPaths("see `app/routes/`, `services/*/README.md`, `lib/db/database.ts` and `DATA_DIR/db`")).toEqual([
      "app/routes/",
      "lib/db/database.ts",
    ]);
  });

  it("name files and folders that exist, in every document", () => {
    const all = documents.flatMap((file) => backtickedPaths(read(file)).map((p) => ({ file, p })));
    expect(all.length).toBeGreaterThan(200);
    expect(all.filter(({ p }) => !existsSync(path.join(root, p))).map(({ file, p }) => `${file}: ${p}`)).toEqual([]);
  });
});

/**
 * The names in the left column of docs/architecture/README.md §3's folder tree, as paths: a line
 * indented by 2 per level names one or more entries (split by two spaces), a name ending in `/` is
 * a folder the lines below it are inside.
 */
export function folderTree(text: string): string[] {
  const block = /<a id="s3"><\/a>[\s\S]*?```\n([\s\S]*?)```/.exec(text)?.[1] ?? "";
  const parents: string[] = [];
  const found: string[] = [];
  for (const line of block.split("\n")) {
    const left = /^( *)(\S.*)$/.exec(line);
    if (!left || left[1]!.length >= 26) continue; // a description's continuation
    const depth = left[1]!.length / 2;
    parents.length = depth;
    // The first entry, then any more that read as file names (`a.ts  b.ts`), up to the description.
    const names: string[] = [];
    for (const token of left[2]!.split(/ {2,}/)) {
      const name = /^([\w.+-]+(?:\/[\w.+-]*)*)(?: \(|$)/.exec(token)?.[1];
      if (!name || (names.length > 0 && !/[./]/.test(name))) break;
      names.push(name);
    }
    for (const name of names) found.push([...parents, name].join(""));
    if (names[0]?.endsWith("/")) parents[depth] = names[0]!;
  }
  return found;
}

describe("docs/architecture/README.md §3, the folder tree", () => {
  it("is read as paths (the check itself works)", () => {
    const tree = "<a id=\"s3\"></a>\n```\napp/                       x\n  routes/                  y\n                           z\n  a.ts  b.ts\nlib/                       w\n```\n";
    expect(folderTree(tree)).toEqual(["app/", "app/routes/", "app/a.ts", "app/b.ts", "lib/"]);
  });

  it("names files and folders that exist", () => {
    const tree = folderTree(read("docs/architecture/README.md"));
    expect(tree.length).toBeGreaterThan(50);
    expect(tree.filter((entry) => !existsSync(path.join(root, entry)))).toEqual([]);
  });
});

describe("document sizes", () => {
  /** docs/ and the services' READMEs: what a newcomer reads (docs/architecture/conventions.md §9.6). */
  const docs = documents.filter((file) => file !== "README.md");
  /** The lines of `text` outside fenced code blocks. */
  const prose = (text: string) => {
    let fenced = false;
    return text.split("\n").filter((line) => {
      if (/^\s*```/.test(line)) fenced = !fenced;
      return !fenced && !/^\s*```/.test(line);
    });
  };

  it("docs/ and the services' READMEs hold at most 25,000 words together (words as wc -w counts them)", () => {
    const words = docs.reduce((sum, file) => sum + read(file).split(/\s+/).filter(Boolean).length, 0);
    expect(docs.length).toBeGreaterThan(30);
    expect(words).toBeLessThanOrEqual(25_000);
  });

  it("every one of them is at most 300 lines", () => {
    const long = docs.map((file) => ({ file, lines: read(file).split("\n").length - 1 })).filter(({ lines }) => lines > 300);
    expect(long).toEqual([]);
  });

  it("no line outside a code block is over 400 characters", () => {
    const wide = docs.flatMap((file) => prose(read(file)).filter((line) => line.length > 400).map((line) => `${file}: ${line.slice(0, 60)}… (${line.length})`));
    expect(wide).toEqual([]);
  });

  it("README.md is at most 10,000 bytes", () => {
    expect(statSync(path.join(root, "README.md")).size).toBeLessThanOrEqual(10_000);
  });
});

describe("counts, ranges and ports the documents state", () => {
  const decisions = readdirSync(path.join(root, "docs/decisions"))
    .filter((name) => /^\d{4}-.+\.md$/.test(name))
    .map((name) => name.slice(0, 4))
    .sort();

  it("every stated decision range (`decisions/ (0001–00NN)`) ends at the last decision, numbered without gaps", () => {
    expect(decisions.map(Number)).toEqual(decisions.map((_, i) => i + 1));
    const ranges = documents.flatMap((file) => [...read(file).matchAll(/decisions\/ \((\d{4})[–-](\d{4})\)/g)].map((m) => ({ file, range: `${m[1]}-${m[2]}` })));
    expect(ranges.length).toBeGreaterThan(0);
    for (const { file, range } of ranges) expect(`${file}: ${range}`).toBe(`${file}: ${decisions[0]}-${decisions.at(-1)}`);
  });

  it("the route modules' count in docs/architecture/README.md §3 is app/routes/'s", () => {
    const count = readdirSync(path.join(root, "app/routes")).filter((name) => /\.tsx?$/.test(name)).length;
    const stated = [...read("docs/architecture/README.md").matchAll(/routes\/\s+one module per screen[^(]*\((\d+) files\)/g)].map((m) => Number(m[1]));
    expect(stated).toEqual([count]);
  });

  it("every pinned version docs/architecture/README.md §2 gives (`package` 1.2.3) is package.json's", () => {
    const pkg = JSON.parse(read("package.json")) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
    const pinned = { ...pkg.dependencies, ...pkg.devDependencies };
    const stated = [...read("docs/architecture/README.md").matchAll(/`(@?[\w./-]+)` (\d+\.\d+\.\d+)/g)].map((m) => ({ name: m[1]!, version: m[2]! }));
    expect(stated.length).toBeGreaterThan(30);
    expect(stated.filter(({ name, version }) => pinned[name] !== version).map(({ name, version }) => `${name} ${version}: package.json ${pinned[name]}`)).toEqual([]);
  });

  it("the ports of docs/operating.md's table are the processes' defaults", () => {
    const doc = read("docs/operating.md");
    const row = (process: string) => doc.split("\n").find((line) => line.startsWith(`| ${process}`)) ?? "";
    const defaultPort = (file: string) => Number(/\bPORT: (?:portSchema\((\d+)\)|z\.[^\n]*\.default\((\d+)\))/.exec(read(file))?.slice(1).find(Boolean));
    const expected: [string, string][] = [
      ["the web app", "app/server/config.server.ts"],
      ["the identity authority alone", "services/identity/main.ts"],
      ["the consumer API alone", "services/consumer/main.ts"],
      ["the business API alone", "services/business/main.ts"],
    ];
    for (const [process, file] of expected) {
      const port = defaultPort(file);
      expect(port, file).toBeGreaterThan(0);
      expect(row(process), process).toContain(`\`PORT\`, ${port}`);
    }
    const ports = expected.map(([, file]) => defaultPort(file)).join(", ");
    expect(doc).toContain(`| \`PORT\` | ✓ | ✓ | ✓ | ✓ | port (${ports};`);
  });
});
