/**
 * Vitest's global setup, first of every project: one scratch directory for the whole run, made the
 * run's TMPDIR, so that `os.tmpdir()` in the test files and in every process they start (servers,
 * CLIs, PostgreSQL, Redis) points into it; it is removed with all it holds when the run ends. The
 * data dirs, databases and certificates a run makes (about 3 GB over the suite: a fresh embedded
 * database is some 40 MB) then never outlive it, whether or not a test removes its own.
 *
 * Idempotent within one run: the second project's setup finds the directory made by the first
 * (SAFEWINDOW_TEST_SCRATCH) and leaves its removal to it. A run killed before its teardown leaves
 * the directory behind, named `safewindow-tests-*` in the machine's temporary directory.
 */
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

export default async function setup(): Promise<() => Promise<void>> {
  if (process.env.SAFEWINDOW_TEST_SCRATCH) return async () => {};
  const outer = tmpdir();
  const scratch = await mkdtemp(path.join(outer, "safewindow-tests-"));
  // As open as /tmp (sticky, world-writable): the throwaway PostgreSQL runs as its own user when
  // the tests run as root (tests/integration/postgres.ts) and must reach its directory in here.
  await chmod(scratch, 0o1777);
  process.env.SAFEWINDOW_TEST_SCRATCH = scratch;
  process.env.TMPDIR = scratch;
  return async () => {
    process.env.TMPDIR = outer;
    delete process.env.SAFEWINDOW_TEST_SCRATCH;
    await rm(scratch, { recursive: true, force: true });
  };
}
