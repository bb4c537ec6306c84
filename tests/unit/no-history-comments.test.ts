// Comments and docs say what the code does and why, citing docs/ where a rule lives; the history is
// in git. A line of the repository's own text that cites "issue N" points to a tracker the
// repository does not contain, so it explains nothing to a reader. Links to other projects'
// trackers (a URL, or "its issue #40") are references, not history, and stay.
//
// The same holds for a document the repository does not contain: the code and its tests say "the
// product rules" (docs/product/) and "plain mode", never the name of the document those rules were
// first written from. That name is caught as a whole word in capitals, so `.spec.ts` is not.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..", "..");
const scanned = ["app", "services", "server.ts", "server", "lib", "contracts", "bench", "docs", "tests"];
const skippedDirectories = new Set(["node_modules", "build", ".react-router"]);
const self = relative(root, import.meta.filename).split(sep).join("/");

/** A citation of an issue by number; the same pattern as `grep -iE "\bissue [0-9]+"`. */
const issueCitation = /\bissue [0-9]+/i;
/** A URL: another project's tracker, e.g. https://github.com/owner/name/issues/40. */
const url = /\b[a-z][a-z0-9+.-]*:\/\/\S+/gi;

/** What is scanned for the outside document's name: everything but docs/ (its own words there are the docs' affair) and the tests' fixtures (third-party data). */
const namedOutside = ["app", "services", "server.ts", "server", "lib", "contracts", "bench", "scripts", "deploy", "tests", "Dockerfile", "package.json", "playwright.config.ts", "vite.config.ts", "vitest.config.ts", "react-router.config.ts"];
const fixtures = ["tests/fixtures/", "tests/unit/fixtures/"];
/** The outside document's name, put together so that this file does not hold it. */
const outsideDocument = new RegExp(`\\b${["S", "P", "E", "C"].join("")}\\b`);

function files(path: string): string[] {
  const entries = readdirSync(join(root, path), { withFileTypes: true });
  return entries.flatMap((entry) => {
    const child = `${path}/${entry.name}`;
    if (entry.isDirectory()) return skippedDirectories.has(entry.name) ? [] : files(child);
    return entry.isFile() ? [child] : [];
  });
}

function scannedFiles(paths: string[] = scanned): string[] {
  return paths.flatMap((path) => (path.includes(".") || path === "Dockerfile" ? [path] : files(path)));
}

/** The text of `path`, or null for a binary file (a NUL byte in it). */
function text(path: string): string | null {
  const bytes = readFileSync(join(root, path));
  return bytes.includes(0) ? null : bytes.toString("utf8");
}

/**
 * The lines of `content` that cite "issue N", as "path:line: text". URLs are removed first. An
 * "issue" that ends a line and a number that starts the next (a wrapped citation) count too.
 */
function issueCitations(path: string, content: string): string[] {
  const lines = content.split("\n").map((line) => line.replace(url, ""));
  const found: string[] = [];
  lines.forEach((line, i) => {
    const wrapped = /\bissue\s*$/i.test(line) && /^\s*(?:\/\/|\/?\*+|#+|-)?\s*[0-9]+\b/.test(lines[i + 1] ?? "");
    if (issueCitation.test(line) || wrapped) found.push(`${path}:${i + 1}: ${line.trim()}`);
  });
  return found;
}

describe("no comment or doc cites an issue of a tracker the repository does not contain", () => {
  it("finds a citation when there is one, and leaves other projects' tracker links alone", () => {
    // The citations are put together here, so that this file holds none for `grep` to find.
    const cite = (word: string, n: number) => `${word} ${n}`;
    expect(issueCitations("x.ts", `// the lock (${cite("issue", 9)}; docs/decisions/0008)`)).toHaveLength(1);
    expect(issueCitations("x.md", `${cite("Issue", 11)} set three gates`)).toHaveLength(1);
    expect(issueCitations("x.ts", "// measured in issue\n// 10 first")).toHaveLength(1);
    expect(issueCitations("x.md", "see https://github.com/gajus/http-terminator/issues/40")).toEqual([]);
    expect(issueCitations("x.md", "(its issue #40, open since 2022)")).toEqual([]);
    expect(issueCitations("x.ts", "// an issue of the PDF")).toEqual([]);
  });

  it("has no line in app/, services/, server.ts, server/, lib/, contracts/, bench/, docs/ or tests/ that cites one", () => {
    const cited = scannedFiles()
      .filter((path) => path !== self)
      .flatMap((path) => {
        const content = text(path);
        return content === null ? [] : issueCitations(path, content);
      });
    expect(cited).toEqual([]);
  });
});

describe("no code or test names a document the repository does not contain", () => {
  it("finds the name as a whole word in capitals, and leaves `.spec.ts`, `specOnly` and `spec-js` alone", () => {
    const name = ["S", "P", "E", "C"].join("");
    expect(outsideDocument.test(`// the ${name}-only mode`)).toBe(true);
    expect(outsideDocument.test(`// as ${name} §7 says`)).toBe(true);
    expect(outsideDocument.test("tests/e2e/profile.spec.ts, specOnly(schema), spec-js")).toBe(false);
  });

  it("has no line outside docs/ and the tests' fixtures that names it", () => {
    const named = scannedFiles(namedOutside)
      .filter((path) => path !== self && !fixtures.some((fixture) => path.startsWith(fixture)))
      .flatMap((path) => {
        const content = text(path);
        if (content === null) return [];
        return content.split("\n").flatMap((line, i) => (outsideDocument.test(line) ? [`${path}:${i + 1}: ${line.trim()}`] : []));
      });
    expect(named).toEqual([]);
  });
});
