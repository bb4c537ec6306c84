/**
 * Vitest's global setup: one blank embedded database (lib/db/initdb.ts, the same initdb a first
 * start runs) made once per run, which every fresh data dir of the run copies instead of running
 * initdb again: ~3 s of CPU saved per fresh database, over a hundred of them. Its directory is
 * PGLITE_TEMPLATE, and tests/pglite-template.mjs, preloaded into the test processes and every
 * process they start (NODE_OPTIONS), does the copy in initdb's child. The tests of initdb itself
 * (embedded-db, data-dir-modes) unset PGLITE_TEMPLATE. The directory is removed when the run ends.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const root = path.resolve(import.meta.dirname, "..");
/** The Node option that preloads tests/pglite-template.mjs. */
export const pgliteTemplateImport = `--import ${path.join(root, "tests/pglite-template.mjs")}`;

export default async function setup(): Promise<() => Promise<void>> {
  const parent = await mkdtemp(path.join(tmpdir(), "pglite-template-"));
  const template = path.join(parent, "db");
  await promisify(execFile)(process.execPath, [path.join(root, "lib/db/initdb.ts"), template], { timeout: 120_000 });
  process.env.PGLITE_TEMPLATE = template;
  process.env.NODE_OPTIONS = [process.env.NODE_OPTIONS, pgliteTemplateImport].filter(Boolean).join(" ");
  return async () => {
    await rm(parent, { recursive: true, force: true });
  };
}
