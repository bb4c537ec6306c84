// The server build holds the Express pipeline (docs/architecture/README.md §3): server/app.ts is the Vite
// server build's input, the built bundle exports its factory, and server.ts loads it from there (and
// through Vite in development). Needs `npm run build`.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");

describe("the server build", () => {
  it("loads the pipeline from the server build, whose input it is", () => {
    expect(read("vite.config.ts")).toMatch(/input:\s*\{\s*"server-build":\s*"\.\/server\/app\.ts"\s*\}/);
    const bundle = read(path.join(process.env.BUILD_DIR || "build", "server", "index.js"));
    expect(bundle).toMatch(/export \{[^}]*\bcreateApp\b[^}]*\}/);
    expect(read("server.ts")).toContain('ssrLoadModule("./server/app.ts")');
  });
});
