// The project's import graph as dpdm reads it, shared by the tests of layers, import cycles, the
// process's imports and the image's files: dynamic imports followed, ~/ resolved through
// tsconfig.json, node_modules not entered.
import path from "node:path";
import { parseDependencyTree } from "dpdm";

/** The repository's root. */
export const root = path.resolve(import.meta.dirname, "../..");

/**
 * The import graph from `entries` (globs relative to the root): each file (relative path) with the
 * imports it makes.
 * @param options.runtime leave type-only imports out (what runs), instead of every import (the layering)
 */
export function dependencyTree(entries: string[], options: { runtime?: boolean } = {}) {
  return parseDependencyTree(entries, {
    cwd: root,
    context: root,
    tsconfig: path.join(root, "tsconfig.json"),
    transform: options.runtime ?? false,
    skipDynamicImports: false,
    exclude: /node_modules/,
  });
}
