// No import cycles in the code that ships (docs/architecture/conventions.md §9: import cycles are avoided).
// A cycle makes a module's exports undefined while the other one is still loading, and hides which
// layer depends on which. Type-only imports count too: a type cycle is a layering cycle.
import path from "node:path";
import { parseCircular } from "dpdm";
import { describe, expect, it } from "vitest";
import { dependencyTree } from "./dependency-tree";

const entries = ["server.ts", "app/**/*.{ts,tsx}", "lib/**/*.ts", "services/**/*.ts", "contracts/**/*.ts"];

const projectTree = () => dependencyTree(entries);

describe("import cycles", () => {
  it("resolves the app's ~/ imports, so that cycles through them are seen", async () => {
    const tree = await projectTree();
    const fromResultIcon = tree[path.join("app", "components", "ResultIcon.tsx")] ?? [];
    const windows = fromResultIcon.find((dependency) => dependency.request === "~/windows");
    expect(windows?.id).toBe(path.join("app", "windows.ts"));
  });

  it("finds none in server.ts, app/, lib/, services/ and contracts/", async () => {
    const cycles = parseCircular(await projectTree()).map((cycle) => cycle.join(" -> "));
    expect(cycles).toEqual([]);
  });
});
