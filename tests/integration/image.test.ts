/**
 * The container image's contents, proven to start (docs/operating.md "What runs, and where it listens"). These machines have no
 * container daemon, so the test builds the image's final stage by hand from the Dockerfile itself: it
 * reads the final stage's ENV, COPY and CMD lines and assembles exactly those files in a temporary
 * directory (node_modules as the `deps` stage makes it: a copy pruned with `npm prune --omit=dev`; the
 * built app as the `build` stage leaves it, from `npm run build`), then starts `server.ts` there as the
 * image's CMD does, with this Node 24 (the image's base provides Node 24) and a fresh DATA_DIR, and
 * checks /healthz, /login, and a user's registration, profile and PDF upload. A file the image forgets
 * fails the start or the journey; .dockerignore keeps data, builds and tests out of the build context.
 *
 * Needs `npm run build` (npm test builds first) and npm (for the prune).
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { harborviewPdf } from "../fixtures/index";
import { finalStage } from "./dockerfile";
import { stopProcess } from "./redis-server";
import { get, root, signedUpUser, startServer, upload, type Running } from "./server-process";

const dirs: string[] = [];
const temp = (name: string) => {
  const dir = mkdtempSync(path.join(tmpdir(), `sw-image-${name}-`));
  dirs.push(dir);
  return dir;
};

/** Copies `source` (relative to the project root) to `destination` within `image`, as COPY does (a directory's contents go into the destination). */
function copyInto(image: string, source: string, destination: string): void {
  const from = path.join(root, source);
  if (!existsSync(from)) throw new Error(`the Dockerfile copies ${source}, which does not exist`);
  const target = destination.endsWith("/") ? path.join(image, destination, path.basename(source)) : path.join(image, destination);
  mkdirSync(path.dirname(target), { recursive: true });
  cpSync(from, target, { recursive: true, verbatimSymlinks: true });
}

/** The `deps` stage's node_modules: this checkout's, pruned to the production dependencies (npm ci --omit=dev installs the same lockfile's). */
function productionNodeModules(): string {
  const deps = temp("deps");
  for (const file of ["package.json", "package-lock.json"]) cpSync(path.join(root, file), path.join(deps, file));
  cpSync(path.join(root, "node_modules"), path.join(deps, "node_modules"), { recursive: true, verbatimSymlinks: true });
  execFileSync("npm", ["prune", "--omit=dev", "--offline", "--no-audit", "--no-fund"], { cwd: deps, stdio: "pipe" });
  return path.join(deps, "node_modules");
}

describe("the container image's final stage, assembled from the Dockerfile", () => {
  const stage = finalStage(readFileSync(path.join(root, "Dockerfile"), "utf8"));
  let image: string;
  let server: Running;
  let dataDir: string;

  beforeAll(async () => {
    if (!existsSync(path.join(root, "build", "server"))) throw new Error("build/ is missing: run `npm run build` first (npm test does)");
    image = temp("app");
    for (const copy of stage.copies) {
      if (copy.from === "deps") cpSync(productionNodeModules(), path.join(image, "node_modules"), { recursive: true, verbatimSymlinks: true });
      else if (copy.from === "build") copyInto(image, "build", copy.destination);
      else if (copy.from === null) for (const source of copy.sources) copyInto(image, source, copy.sources.length > 1 ? `${copy.destination.replace(/\/?$/, "/")}` : copy.destination);
      else throw new Error(`COPY --from=${copy.from}: a stage this test does not know`);
    }
    dataDir = temp("data");
    // As the image runs: its ENV, its CMD (node server.ts) in its WORKDIR; only the port is ours.
    expect(stage.cmd).toEqual(["node", "server.ts"]);
    server = await startServer({ ...stage.env, DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1" }, { cwd: image });
  }, 180_000);

  afterAll(async () => {
    if (server) await stopProcess(server.child);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it("holds none of the test and build tools, and nothing the image does not copy", () => {
    // (A devDependency that a production package needs, like typescript for @react-router/node, stays, as in the real image.)
    for (const name of ["vitest", "@playwright/test", "@react-router/dev", "node"]) expect(existsSync(path.join(image, "node_modules", name)), name).toBe(false);
    for (const absent of ["tests", "bench", "docs", ".git", "app/routes"]) expect(existsSync(path.join(image, absent)), absent).toBe(false);
  });

  it("starts, answers /healthz and /login, and takes a user from registration to an uploaded result", async () => {
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const login = await fetch(`${server.url}/login`);
    expect(login.status).toBe(200);
    expect(await login.text()).toContain("Sign In");

    const cookie = await signedUpUser(server, path.join(dataDir, "outbox"), `image-${Date.now()}@example.com`);
    // The PDF pipeline (worker threads, pdf.js, the image renderer) runs from the image's files.
    const collectedAt = new Date(Date.now() - 3 * 3600_000);
    const uploaded = await upload(server, cookie, await harborviewPdf({ firstName: "Grace", lastName: "Hopper", dob: "1986-12-09", collectedAt }));
    expect(uploaded.headers.get("location")).toBe("/mytests");
    const myTests = await (await get(server, "/mytests", cookie)).text();
    expect(myTests).toContain("Your test result was validated.");
    const id = /testdetail\?id=([0-9a-f-]{36})/.exec(myTests)?.[1];
    expect(id).toBeTruthy();
    const jpeg = await get(server, `/testresultviewer/image?id=${id}`, cookie);
    expect(jpeg.headers.get("content-type")).toBe("image/jpeg");
    expect([...new Uint8Array(await jpeg.arrayBuffer()).subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
  });
});
