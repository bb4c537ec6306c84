// docs/operating.md names every environment variable the shipped code reads.
//
// Scanned: app/, server/, server.ts, lib/, services/ and contracts/ (what runs in a deployment), and
// the build's own configuration (vite.config.ts, react-router.config.ts). Not scanned: bench/ and
// scripts/, tools a developer runs by hand that say their variables in their own header comments,
// and tests/ with playwright.config.ts and vitest.config.ts.
//
// A read is `process.env.NAME`, `process.env["NAME"]` or a name destructured from `process.env`.
// Where the whole of `process.env` is handed on (to `parseConfig`, `startProcess`, `parseEnvOrExit`),
// the names read are those its reader takes: the top-level keys of the reader's `envSchema`, and
// `env.NAME` in it. Each such hand-on is listed in `wholeEnvReaders` with its readers, so a new one
// fails this test until its reader is named here. Read with TypeScript's parser, so a comment that
// mentions `process.env` counts for nothing.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const scanned = ["app", "server", "server.ts", "lib", "services", "contracts", "vite.config.ts", "react-router.config.ts"];
const skippedDirectories = new Set(["node_modules", "build", ".react-router"]);
const sourceFile = /\.(ts|tsx|mts|mjs|js)$/;

/** Files that hand the whole of `process.env` on, and the files whose names that hand-on reads. */
const wholeEnvReaders: Record<string, string[]> = {
  "server.ts": ["server/process.ts", "app/server/config.server.ts"],
  "app/server/config.server.ts": ["app/server/config.server.ts"],
  "services/identity/main.ts": ["services/identity/main.ts"],
  "services/consumer/main.ts": ["services/consumer/main.ts"],
  "services/business/main.ts": ["services/business/main.ts"],
};

/**
 * Variables the code reads that docs/operating.md does not name yet, each with where it is read.
 * Empty once the table names them all; a name here that the doc names, or that no code reads, fails.
 */
const notYetInTheDoc: Record<string, string> = {};

function files(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const child = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return skippedDirectories.has(entry.name) ? [] : files(child);
    return entry.isFile() && sourceFile.test(entry.name) ? [child] : [];
  });
}

function parse(file: string): ts.SourceFile {
  const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : file.endsWith("js") ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  return ts.createSourceFile(file, readFileSync(path.join(root, file), "utf8"), ts.ScriptTarget.Latest, true, kind);
}

const isProcessEnv = (node: ts.Node): boolean =>
  ts.isPropertyAccessExpression(node) && node.name.text === "env" && ts.isIdentifier(node.expression) && node.expression.text === "process";

const literalName = (node: ts.Expression): string | undefined => (ts.isStringLiteralLike(node) ? node.text : undefined);

/** A file's reads of `process.env`: the names it reads one by one, and the lines where it hands the whole on. */
function envReads(file: string): { names: string[]; whole: number[] } {
  const source = parse(file);
  const names: string[] = [];
  const whole: number[] = [];
  const visit = (node: ts.Node) => {
    if (isProcessEnv(node)) {
      const parent = node.parent;
      if (ts.isPropertyAccessExpression(parent) && parent.expression === node) names.push(parent.name.text);
      else if (ts.isElementAccessExpression(parent) && parent.expression === node && literalName(parent.argumentExpression)) names.push(literalName(parent.argumentExpression)!);
      else if (ts.isVariableDeclaration(parent) && parent.initializer === node && ts.isObjectBindingPattern(parent.name)) {
        for (const element of parent.name.elements) names.push((element.propertyName ?? element.name).getText(source));
      } else whole.push(source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { names, whole };
}

/** The names a reader of the whole `process.env` takes: its `envSchema`'s top-level keys and its `env.NAME` reads. */
function readerNames(file: string): string[] {
  const source = parse(file);
  const names: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.name.text === "envSchema" && node.initializer && ts.isCallExpression(node.initializer)) {
      const shape = node.initializer.arguments[0];
      if (shape && ts.isObjectLiteralExpression(shape)) {
        for (const property of shape.properties) if (property.name && ts.isIdentifier(property.name)) names.push(property.name.text);
      }
    }
    if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === "env" && /^[A-Z][A-Z0-9_]+$/.test(node.name.text)) names.push(node.name.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
}

/** Every variable the scanned code reads, with the first file that reads it. */
function variablesRead(): Map<string, string> {
  const read = new Map<string, string>();
  const add = (name: string, file: string) => {
    if (!read.has(name)) read.set(name, file);
  };
  for (const file of scanned.flatMap((entry) => (sourceFile.test(entry) ? [entry] : files(entry)))) {
    const { names, whole } = envReads(file);
    for (const name of names) add(name, file);
    if (whole.length === 0) continue;
    const readers = wholeEnvReaders[file];
    expect(readers, `${file}:${whole.join(",")} hands process.env on: list its reader in wholeEnvReaders`).toBeDefined();
    for (const reader of readers!) for (const name of readerNames(reader)) add(name, reader);
  }
  return read;
}

describe("docs/operating.md", () => {
  it("reads process.env whole only where this test knows the reader, and each reader reads names", () => {
    for (const [file, readers] of Object.entries(wholeEnvReaders)) {
      expect(envReads(file).whole.length, `${file} hands process.env on`).toBeGreaterThan(0);
      for (const reader of readers) expect(readerNames(reader).length, reader).toBeGreaterThan(0);
    }
  });

  it("names every variable the code reads", () => {
    const doc = readFileSync(path.join(root, "docs/operating.md"), "utf8");
    const read = variablesRead();
    // The schemas of the web app and of the three services are read, not only single reads.
    for (const name of ["SESSION_SECRET", "IDENTITY_SIGNING_SECRET", "CONSUMER_PASS_SECRET", "BUSINESS_API_URL", "BUILD_DIR"]) expect(read.has(name), name).toBe(true);
    const missing = [...read].filter(([name]) => !doc.includes(`\`${name}\``) && !(name in notYetInTheDoc)).map(([name, file]) => `${name} (${file})`);
    expect(missing).toEqual([]);
    // The allow-list holds only what is still missing.
    const stale = Object.keys(notYetInTheDoc).filter((name) => doc.includes(`\`${name}\``) || !read.has(name));
    expect(stale).toEqual([]);
  });
});
