// The layers of docs/architecture/README.md "Folders": app/ (the web app) and services/ (the reference
// upstreams, replaceable by any that answer as the contracts say) never import each other; what
// both need lives in lib/ (the shared floor) or contracts/ (the upstream contracts), which import
// neither. Static and dynamic imports count, type-only ones too.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { dependencyTree } from "./dependency-tree";

/** "from -> to" for every import of a file under `from` that resolves into one of `forbidden`. */
async function crossings(from: string, forbidden: string[]): Promise<string[]> {
  const tree = await dependencyTree([`${from}/**/*.{ts,tsx}`]);
  const found: string[] = [];
  for (const [file, dependencies] of Object.entries(tree)) {
    if (!file.startsWith(`${from}${path.sep}`)) continue;
    for (const dependency of dependencies ?? []) {
      if (dependency.id && forbidden.some((layer) => dependency.id!.startsWith(`${layer}${path.sep}`))) found.push(`${file} -> ${dependency.id}`);
    }
  }
  return found.sort();
}

describe("layers", () => {
  it("app/ imports nothing from services/", async () => {
    expect(await crossings("app", ["services"])).toEqual([]);
  });

  it("services/ imports nothing from app/", async () => {
    expect(await crossings("services", ["app"])).toEqual([]);
  });

  it("lib/ and contracts/ import nothing from app/ or services/", async () => {
    expect(await crossings("lib", ["app", "services"])).toEqual([]);
    expect(await crossings("contracts", ["app", "services"])).toEqual([]);
  });

  it("sees a dynamic import across the line (the check itself works)", async () => {
    // server/ is the process around both: its data thread loads the services, and the test must see it.
    const thread = path.join("server", "data-thread.ts");
    const tree = await dependencyTree([thread]);
    const ids = (tree[thread] ?? []).map((dependency) => dependency.id);
    expect(ids).toContain(path.join("services", "identity", "server.ts"));
  });
});
