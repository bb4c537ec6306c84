// A route module tells its whole story (docs/architecture/conventions.md §9.1) in at most 250 lines:
// past that, its pieces of markup move to app/components/<area>/ and its server-side helpers to
// app/server/<area>.server.ts, while the exports React Router reads stay in the route.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
/** The most lines a route module may have. */
const maxRouteLines = 250;

/** The lines of `text` as `wc -l` counts them (its newlines). */
function lineCount(text: string): number {
  return text.split("\n").length - 1;
}

/** Every .ts and .tsx file under app/routes/ (sub-folders too), relative to the repository. */
function routeModules(): string[] {
  return readdirSync(path.join(root, "app/routes"), { recursive: true, encoding: "utf8" })
    .filter((name) => /\.tsx?$/.test(name))
    .map((name) => path.join("app/routes", name));
}

describe("route module sizes", () => {
  it("counts lines as wc -l does (the check itself works)", () => {
    expect(lineCount("")).toBe(0);
    expect(lineCount("a\nb\n")).toBe(2);
    expect(lineCount("a\nb")).toBe(1);
  });

  it(`keeps every module in app/routes/ at ${maxRouteLines} lines or fewer`, () => {
    const modules = routeModules();
    expect(modules.length).toBeGreaterThan(30);
    const long = modules
      .map((file) => ({ file, lines: lineCount(readFileSync(path.join(root, file), "utf8")) }))
      .filter(({ lines }) => lines > maxRouteLines)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(long).toEqual([]);
  });
});
