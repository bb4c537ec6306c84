// docs/architecture/upstream-calls.md §6.3 and §9.4, checked over the source: only the clients in
// app/server/upstream/ make HTTP calls; every other module gets `Result<T>` from them and never
// reads an upstream's HTTP status, catches the upstream error class, or swallows a rejection
// with `.catch(() => …)` (which also hides programming errors).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const app = path.resolve(import.meta.dirname, "../../app");

/** Every .ts/.tsx file under `dir`, relative to app/. */
function sourcesUnder(dir: string): string[] {
  return readdirSync(path.join(app, dir), { recursive: true, encoding: "utf8" })
    .filter((file) => /\.tsx?$/.test(file))
    .map((file) => path.join(dir, file));
}

const clientsDir = path.join("server", "upstream");
const modules = [...sourcesUnder("routes"), ...sourcesUnder("server")].filter((file) => !file.startsWith(clientsDir + path.sep));
/** The modules that use an upstream client. */
const callers = modules.filter((file) => /from "(~\/server\/|\.\/)upstream\/(identity|consumer|business)\.server"/.test(readFileSync(path.join(app, file), "utf8")));

/** The lines of `file` that match `pattern`, as "file:line: text". */
function offending(files: string[], pattern: RegExp): string[] {
  return files.flatMap((file) =>
    readFileSync(path.join(app, file), "utf8")
      .split("\n")
      .flatMap((line, index) => (pattern.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
  );
}

describe("upstream calls go through the clients and answer Result<T>", () => {
  it("finds the route modules and the modules that call the clients", () => {
    // A guard that scans nothing would pass vacuously.
    expect(modules.length).toBeGreaterThan(30);
    expect(callers).toEqual(expect.arrayContaining([path.join("routes", "safewindow.tsx"), path.join("routes", "registration.tsx"), path.join("server", "auth.server.ts")]));
    expect(callers.length).toBeGreaterThan(20);
  });

  it("no module outside the clients imports the HTTP helper or calls fetch", () => {
    expect(offending(modules, /upstream\/http\.server|\bUpstreamError\b|\bcallUpstream\b/)).toEqual([]);
    expect(offending([...sourcesUnder("routes")], /\bfetch\(/)).toEqual([]);
  });

  it("no caller compares an HTTP status of an upstream answer", () => {
    expect(offending(callers, /\.status\s*(===|!==|==|!=|>=|<=|>|<)\s*\d/)).toEqual([]);
  });

  it("no caller swallows a rejection", () => {
    expect(offending(callers, /\.catch\(\s*(\(\s*\)|\w+)\s*=>/)).toEqual([]);
    expect(offending(callers, /catch\s*\{/)).toEqual([]);
  });

  it("the guard itself catches the old styles", () => {
    // Each pattern above, on a line the old code had.
    expect(/\.status\s*(===|!==|==|!=|>=|<=|>|<)\s*\d/.test("if (error instanceof UpstreamError && error.status === 404)")).toBe(true);
    expect(/\.catch\(\s*(\(\s*\)|\w+)\s*=>/.test("const sent = await sendConfirmationEmail(email).catch(() => false);")).toBe(true);
    expect(/upstream\/http\.server|\bUpstreamError\b|\bcallUpstream\b/.test('import { UpstreamError } from "~/server/upstream/http.server";')).toBe(true);
  });
});
