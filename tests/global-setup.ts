/**
 * Vitest's global setup: one blank embedded database (lib/db/initdb.ts, the same initdb a first
 * start runs) made once per run, which every fresh data dir of the run copies instead of running
 * initdb again (PGLITE_TEMPLATE, lib/db/database.ts `initializePglite`): ~3 s of CPU saved per
 * fresh database, over a hundred of them. The tests of initdb itself (embedded-db, data-dir-modes)
 * unset it. The directory is removed when the run ends.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const root = path.resolve(import.meta.dirname, "..");

export default async function setup(): Promise<() => Promise<void>> {
  const parent = await mkdtemp(path.join(tmpdir(), "pglite-template-"));
  const template = path.join(parent, "db");
  await promisify(execFile)(process.execPath, [path.join(root, "lib/db/initdb.ts"), template], { timeout: 120_000 });
  process.env.PGLITE_TEMPLATE = template;
  return async () => {
    await rm(parent, { recursive: true, force: true });
  };
}
