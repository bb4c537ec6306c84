// `npm run backup -- FILE` and `npm run restore -- FILE` (docs/operating.md "Backups"): the embedded data
// of DATA_DIR (default ./data) to one file and back (lib/db/backup.ts).
//
// A DATA_DIR belongs to one process at a time (its lock, docs/decisions/0008). So a backup either asks
// the server that holds it, when it runs on this machine: it writes the request to
// DATA_DIR/backup-request.json and sends the server SIGUSR2, and the server, which has the database
// open, writes the file; or, when no server runs, it takes the lock and opens the database itself. A
// restore needs the lock: stop the server first. Exit codes: 0 done, 1 refused or failed (the reason
// on stderr), 2 wrong usage.
import { existsSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { DataDirInUseError, lockDataDir } from "../data-dir-lock.ts";
import { ownerOnlyUmask } from "../data-dir.ts";
import { BackupError, restoreBackup, writeBackup } from "./backup.ts";
import { openPglite } from "./database.ts";

// The backup file, the request file, the lock and a restored DATA_DIR are owner-only whatever the
// umask of the shell (docs/decisions/0015-owner-only-data-dir.md). A restore does not tighten an
// existing DATA_DIR that is looser: the next start does, and replaces the signing key as it does.
ownerOnlyUmask();

/** Where a backup asked of the running server is requested (server.ts reads it on SIGUSR2). */
export const REQUEST_FILE = "backup-request.json";
/** How long a backup asked of the running server may take. */
const SERVER_BACKUP_TIMEOUT_MS = 120_000;

async function backup(dataDir: string, file: string): Promise<string> {
  if (!existsSync(path.join(dataDir, "db", "PG_VERSION"))) {
    throw new BackupError(`${dataDir} holds no embedded database (DATA_DIR/db). With DATABASE_URL, back up PostgreSQL with pg_dump.`);
  }
  try {
    const lock = await lockDataDir(dataDir, { onLost: () => {} });
    try {
      const pglite = await openPglite(path.join(dataDir, "db"));
      try {
        const bytes = await writeBackup(pglite, dataDir, file);
        return `backup of ${dataDir} written to ${file} (${bytes} bytes)`;
      } finally {
        await pglite.close();
      }
    } finally {
      await lock.release();
    }
  } catch (error) {
    if (!(error instanceof DataDirInUseError)) throw error;
    if (error.state !== "running" || !error.owner) {
      throw new BackupError(`${error.message}\nRun the backup where that server runs (for a container: docker exec <container> npm run backup -- FILE).`);
    }
    return askServer(dataDir, file, error.owner.pid);
  }
}

/** Asks the server `pid` that holds `dataDir` to write the backup, and waits for it. */
async function askServer(dataDir: string, file: string, pid: number): Promise<string> {
  const request = path.join(dataDir, REQUEST_FILE);
  await rm(file, { force: true });
  await writeFile(request, JSON.stringify({ file, requestedAt: new Date().toISOString() }), { mode: 0o600 });
  process.kill(pid, "SIGUSR2");
  const deadline = Date.now() + SERVER_BACKUP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    if (existsSync(file)) return `backup of ${dataDir} written to ${file} by the running server (process ${pid})`;
    if (!existsSync(request)) throw new BackupError(`the running server (process ${pid}) could not write the backup: see its log`);
  }
  await rm(request, { force: true });
  throw new BackupError(`the running server (process ${pid}) did not write the backup within ${SERVER_BACKUP_TIMEOUT_MS / 1000} s`);
}

async function restore(dataDir: string, file: string): Promise<string> {
  if (!existsSync(file)) throw new BackupError(`${file} does not exist`);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const lock = await lockDataDir(dataDir, { onLost: () => {} }).catch((error: unknown) => {
    throw error instanceof DataDirInUseError ? new BackupError(`${error.message}\nStop that server before restoring.`) : error;
  });
  try {
    await restoreBackup(file, dataDir);
  } finally {
    await lock.release();
  }
  return `${file} restored into ${dataDir}; start the server on it`;
}

const [command, file] = process.argv.slice(2);
if ((command !== "backup" && command !== "restore") || !file) {
  console.error("usage: npm run backup -- FILE | npm run restore -- FILE   (DATA_DIR from the environment, default ./data)");
  process.exit(2);
}
const dataDir = path.resolve(process.env.DATA_DIR || "./data");
const target = path.resolve(file);
try {
  console.log(command === "backup" ? await backup(dataDir, target) : await restore(dataDir, target));
} catch (error) {
  console.error(error instanceof BackupError || error instanceof DataDirInUseError ? error.message : error);
  process.exitCode = 1;
}
