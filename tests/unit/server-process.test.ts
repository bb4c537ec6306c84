// server.ts is the process only (docs/architecture/README.md §3): at most 250 lines, nothing written into
// process.env, and the Express pipeline (server/app.ts) loaded once, from the server build, together
// with the app modules it reaches; server.ts itself loads from source no app module the build holds,
// except the configuration parser (stateless: it validates before the build loads). That the build
// holds the pipeline is checked on the build itself (tests/integration/server-build.test.ts).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { dependencyTree } from "./dependency-tree";

const root = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");

/** Every project file reached at run time from `entries` (type-only imports left out). */
async function runtimeGraph(entries: string[]): Promise<Set<string>> {
  const tree = await dependencyTree(entries, { runtime: true });
  return new Set(Object.keys(tree).filter((file) => !file.includes("node_modules") && !file.startsWith("node:")));
}

/** The .ts/.tsx files under `dir`, relative to the root. */
function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })
    .filter((file) => /\.tsx?$/.test(file) && !file.includes("+types"))
    .map((file) => path.join(dir, file));
}

/** Writes into process.env: `process.env.X =`, `??=`, `||=`, `process.env[…] =`, Object.assign(process.env…), delete. */
const envWrite = /process\.env(\.\w+|\[[^\]]+\])\s*(=(?!=)|\?\?=|\|\|=|&&=)|Object\.assign\(\s*process\.env|delete\s+process\.env/;

describe("server.ts, the process", () => {
  it("is at most 250 lines", () => {
    expect(read("server.ts").split("\n").length).toBeLessThanOrEqual(250);
  });

  it("writes nothing into process.env, nor does the pipeline, the app or lib/", () => {
    const files = ["server.ts", ...sources("server"), ...sources("app"), ...sources("lib")];
    const writes = files.flatMap((file) => read(file).split("\n").map((line, i) => ({ file, line: i + 1, text: line })).filter(({ text }) => envWrite.test(text)));
    expect(writes).toEqual([]);
    // The check itself sees a write.
    expect(envWrite.test('process.env.IDENTITY_URL = "x"')).toBe(true);
    expect(envWrite.test("process.env.SESSION_SECRET ??= secret")).toBe(true);
    expect(envWrite.test('process.env.X === "y"')).toBe(false);
  });

  it("imports from source no app module the build holds, except the configuration parser", async () => {
    const processFiles = await runtimeGraph(["server.ts"]);
    expect(processFiles.has(path.join("server", "app.ts"))).toBe(false);
    expect(processFiles.has(path.join("server", "process.ts"))).toBe(true);
    const buildFiles = await runtimeGraph([path.join("server", "app.ts"), path.join("app", "root.tsx"), path.join("app", "entry.server.tsx"), ...sources(path.join("app", "routes"))]);
    expect(buildFiles.has(path.join("app", "server", "session.server.ts"))).toBe(true);
    const twice = [...processFiles].filter((file) => buildFiles.has(file) && file.startsWith(`app${path.sep}`));
    expect(twice).toEqual([path.join("app", "server", "config.server.ts")]);
  }, 60_000);
});
