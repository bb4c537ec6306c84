// The container image runs server.ts from source: every project file that server.ts and its data
// thread (server/data-thread.ts, started as a worker, not imported) import at run time (the embedded
// services included) must be copied into the final stage, and every
// package it imports must be a production dependency (the image installs with --omit=dev).
// docs/architecture/README.md §3 (folders) and README "Docker".
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseDependencyTree } from "dpdm";
import { describe, expect, it } from "vitest";
import { finalStage, finalStage as finalStageOf } from "../integration/dockerfile";

const root = path.resolve(import.meta.dirname, "../..");

/** Sources of the final stage's COPY lines that copy from the build context (not --from). */
function copiedPaths(): string[] {
  return finalStage(readFileSync(path.join(root, "Dockerfile"), "utf8"))
    .copies.filter((copy) => copy.from === null)
    .flatMap((copy) => copy.sources);
}

async function runtimeImports() {
  const tree = await parseDependencyTree(["server.ts", "server/data-thread.ts"], {
    cwd: root,
    context: root,
    tsconfig: path.join(root, "tsconfig.json"),
    transform: true, // type-only imports are gone at run time
    skipDynamicImports: false,
  });
  const files = Object.keys(tree);
  const packages = new Set<string>();
  for (const dependencies of Object.values(tree)) {
    for (const dependency of dependencies ?? []) {
      const request = dependency.request;
      if (request.startsWith(".") || request.startsWith("node:") || request.startsWith("~/")) continue;
      // `npm run dev` (server.ts --dev) loads vite, a devDependency; the image never runs it.
      if (request === "vite" && dependency.issuer === "server.ts") continue;
      packages.add(request.startsWith("@") ? request.split("/").slice(0, 2).join("/") : request.split("/")[0]!);
    }
  }
  return { projectFiles: files.filter((file) => !file.includes("node_modules") && !file.startsWith("node:")), packages };
}

describe("Dockerfile", () => {
  it("copies every project file server.ts imports at run time", async () => {
    const copied = copiedPaths();
    const { projectFiles } = await runtimeImports();
    expect(projectFiles).toContain(path.join("services", "consumer", "server.ts"));
    expect(projectFiles).toContain(path.join("server", "upstreams.ts"));
    const missing = projectFiles.filter((file) => !copied.some((source) => file === source || file.startsWith(`${source.replace(/\/$/, "")}/`)));
    expect(missing).toEqual([]);
  });

  it("needs only production dependencies at run time", async () => {
    const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { dependencies: Record<string, string> };
    const { packages } = await runtimeImports();
    const builtins = new Set(["node", ...(await import("node:module")).builtinModules]);
    const notInstalled = [...packages].filter((name) => !builtins.has(name) && !(name in manifest.dependencies));
    expect(notInstalled).toEqual([]);
  });

  it("runs server.ts with the V8 heap options npm start uses (package.json config.nodeOptions)", () => {
    const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { config: { nodeOptions: string }; scripts: { start: string } };
    const finalStage = readFileSync(path.join(root, "Dockerfile"), "utf8").split(/^FROM /m).at(-1)!;
    expect(manifest.config.nodeOptions).toMatch(/--max-old-space-size=\d+/);
    expect(finalStage).toContain(`NODE_OPTIONS="${manifest.config.nodeOptions}"`);
    // npm start applies them unless the operator's NODE_OPTIONS says otherwise.
    expect(manifest.scripts.start).toContain("NODE_OPTIONS=\"${NODE_OPTIONS:-$npm_package_config_nodeOptions}\" ");
  });

  it("runs server.ts with the compile cache npm start uses (package.json config.compileCache), in a directory only the node user writes", () => {
    const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { config: { compileCache: string }; scripts: { start: string } };
    const dockerfile = readFileSync(path.join(root, "Dockerfile"), "utf8");
    // Relative, so the same value names node_modules/.cache under the project and under the image's WORKDIR.
    expect(manifest.config.compileCache).toBe("node_modules/.cache/node-compile-cache");
    expect(finalStageOf(dockerfile).env.NODE_COMPILE_CACHE).toBe(manifest.config.compileCache);
    const finalStage = dockerfile.split(/^FROM /m).at(-1)!;
    expect(finalStage).toContain(`chown node:node ${manifest.config.compileCache} && chmod 0700 ${manifest.config.compileCache}`);
    expect(manifest.scripts.start).toContain('NODE_COMPILE_CACHE="${NODE_COMPILE_CACHE:-$npm_package_config_compileCache}" ');
  });

  it("runs server.ts with the malloc settings npm start uses (package.json config.glibcTunables)", () => {
    const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { config: { glibcTunables: string }; scripts: { start: string } };
    // Two arenas and a fixed mmap threshold (docs/decisions/0013-bounded-v8-heap.md "glibc's malloc").
    expect(manifest.config.glibcTunables).toMatch(/(^|:)glibc\.malloc\.arena_max=2(:|$)/);
    expect(manifest.config.glibcTunables).toMatch(/(^|:)glibc\.malloc\.mmap_threshold=\d+(:|$)/);
    expect(finalStageOf(readFileSync(path.join(root, "Dockerfile"), "utf8")).env.GLIBC_TUNABLES).toBe(manifest.config.glibcTunables);
    // glibc reads it when the process starts, so it is set on node's own command line, not by server.ts;
    // an operator's own GLIBC_TUNABLES replaces it.
    expect(manifest.scripts.start).toMatch(/GLIBC_TUNABLES="\$\{GLIBC_TUNABLES:-\$npm_package_config_glibcTunables\}" (\S+=\S+ )*node server\.ts$/);
  });

  it("makes /data the node user's alone (0700) and runs as that user", () => {
    const finalStage = readFileSync(path.join(root, "Dockerfile"), "utf8").split(/^FROM /m).at(-1)!;
    const made = finalStage.split("\n").find((line) => line.startsWith("RUN ") && line.includes("mkdir -p /data"));
    expect(made).toBeDefined();
    expect(made).toContain("chown node:node /data");
    expect(made).toMatch(/chmod 0?700 \/data(\s|$)/);
    expect(finalStage).toMatch(/^USER node$/m);
    // The directory made owner-only is the one the server uses.
    expect(finalStageOf(readFileSync(path.join(root, "Dockerfile"), "utf8")).env.DATA_DIR).toBe("/data");
  });

  it("keeps data, builds and tests out of the build context (.dockerignore)", () => {
    const ignored = readFileSync(path.join(root, ".dockerignore"), "utf8")
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith("#"));
    for (const entry of ["node_modules", "build", "data", ".data", ".e2e-data", "tests", "test-results", ".git", ".env"]) expect(ignored, entry).toContain(entry);
  });
});
