/**
 * One server per DATA_DIR (docs/decisions/0008-one-process-per-data-dir-and-draining-shutdown.md).
 *
 * `lockDataDir(dir)` takes DATA_DIR for this process or throws `DataDirInUseError`, whose message
 * names the directory and the process that holds it. Two servers on one DATA_DIR would each open
 * the embedded databases and the kept secrets and overwrite each other's data.
 *
 * Files in DATA_DIR:
 * - `server.lock/`: the lock itself, a directory made by proper-lockfile (mkdir is atomic), its
 *   mtime refreshed every `updateMs` while the server runs; older than `staleMs`, it is stale.
 * - `server.lock.json`: who holds it (pid, host, start time), for the message and the check below.
 * - `server.lock.json.lock/`: a short lock taken around reading and writing the two above, so two
 *   servers starting at once cannot both decide that an old lock is theirs to take.
 *
 * A lock left by a process killed with `kill -9` does not block a restart: when the holder ran on
 * this machine in the same process namespace, its pid is checked at once (gone, or reused by a
 * process that started at another time: the lock is taken over). Only when the holder cannot be
 * seen from here (another host sharing the directory, another container) does the start wait for
 * the lock to go stale (at most `staleMs`) before giving up with the message.
 *
 * Imported by server.ts with Node's type stripping: node modules and proper-lockfile only.
 */
import { readFileSync, readlinkSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import lockfile from "proper-lockfile";

/** After this long without a refresh a lock is stale (proper-lockfile's default), ms. */
const staleMs = 10_000;
/** How often the running server refreshes its lock, ms. */
const updateMs = 2_000;
/** How long a start may wait for the short lock around the owner record (covers its staleness, 2 s), ms. */
const takeoverWaitMs = 5_000;

/** The process that holds (or held) a DATA_DIR, as written in server.lock.json. */
export interface LockOwner {
  pid: number;
  hostname: string;
  /** ISO time the server started. */
  startedAt: string;
  /** Linux: this boot of the machine (/proc/sys/kernel/random/boot_id). */
  bootId?: string;
  /** Linux: the pid namespace the pid belongs to (/proc/self/ns/pid). */
  pidNamespace?: string;
  /** Linux: the process's start time in clock ticks since boot (/proc/<pid>/stat), against pid reuse. */
  processStart?: string;
}

/** Whether the holder of a lock still runs, as far as this process can tell. */
export type OwnerState = "running" | "gone" | "not visible from here";

/** A second server on a DATA_DIR that another one uses. */
export class DataDirInUseError extends Error {
  readonly dataDir: string;
  readonly owner: LockOwner | undefined;
  readonly state: OwnerState;
  constructor(dataDir: string, owner: LockOwner | undefined, state: OwnerState) {
    super(inUseMessage(dataDir, owner, state));
    this.name = "DataDirInUseError";
    this.dataDir = dataDir;
    this.owner = owner;
    this.state = state;
  }
}

/** A held DATA_DIR. */
export interface DataDirLock {
  /** The real path of the locked directory. */
  dataDir: string;
  /** Gives the directory up (removes the owner record, then the lock). Safe to call twice. */
  release(): Promise<void>;
}

/**
 * Takes `dataDir` (which must exist) for this process.
 * @param onLost called if the lock is lost while the server runs (its directory removed, or taken
 *   over after this process stopped refreshing it for `staleMs`): the server must stop, since
 *   another one may now be writing the same files
 * @throws DataDirInUseError when another running process holds it
 */
export async function lockDataDir(dataDir: string, { onLost }: { onLost: (error: Error) => void }): Promise<DataDirLock> {
  const dir = realpathSync(dataDir);
  const heldPath = path.join(dir, "server.lock");
  const ownerPath = path.join(dir, "server.lock.json");
  const me = currentProcess();
  const heldOptions = { lockfilePath: heldPath, realpath: false, stale: staleMs, update: updateMs, onCompromised: onLost };
  const key = path.join(dir, "server");

  // Waits only while the holder is not visible from here and its lock is still fresh.
  const deadline = Date.now() + staleMs + updateMs;
  for (;;) {
    const releaseOwnerRecord = await lockfile.lock(ownerPath, {
      realpath: false,
      stale: 2_000,
      retries: { retries: takeoverWaitMs / 100, factor: 1, minTimeout: 100, maxTimeout: 100 },
      onCompromised: () => {},
    });
    let owner: LockOwner | undefined;
    let state: OwnerState = "not visible from here";
    try {
      try {
        // proper-lockfile itself takes over a lock that has gone stale.
        const releaseHeld = await lockfile.lock(key, heldOptions);
        return held(dir, ownerPath, me, releaseHeld);
      } catch (error) {
        if ((error as { code?: string }).code !== "ELOCKED") throw error;
      }
      owner = readOwner(ownerPath);
      state = ownerState(owner, me);
      if (state === "gone") {
        rmSync(heldPath, { recursive: true, force: true });
        const releaseHeld = await lockfile.lock(key, heldOptions);
        return held(dir, ownerPath, me, releaseHeld);
      }
    } finally {
      await releaseOwnerRecord().catch(() => {});
    }
    if (state === "running" || Date.now() > deadline) throw new DataDirInUseError(dir, owner, state);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** Writes this process as the owner and returns the held lock. */
function held(dir: string, ownerPath: string, me: LockOwner, releaseHeld: () => Promise<void>): DataDirLock {
  const temporary = `${ownerPath}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(me, null, 2)}\n`);
  renameSync(temporary, ownerPath);
  let released: Promise<void> | undefined;
  return {
    dataDir: dir,
    release() {
      released ??= (async () => {
        if (readOwner(ownerPath)?.pid === me.pid) rmSync(ownerPath, { force: true });
        await releaseHeld().catch(() => {});
      })();
      return released;
    },
  };
}

/**
 * Whether `owner` still runs, seen from `here`: "gone" when it ran in this process namespace of
 * this boot and its pid no longer exists, is this process, or now belongs to a process that
 * started at another time; "not visible from here" when it ran elsewhere (another host, boot or
 * container: then only the lock's staleness tells); else "running". No owner record (a holder
 * killed between taking the lock and writing it) counts as not visible.
 */
export function ownerState(owner: LockOwner | undefined, here: LockOwner): OwnerState {
  if (!owner) return "not visible from here";
  if (owner.hostname !== here.hostname || owner.bootId !== here.bootId || owner.pidNamespace !== here.pidNamespace) return "not visible from here";
  if (owner.pid === here.pid || !processExists(owner.pid)) return "gone";
  const start = processStart(owner.pid);
  if (owner.processStart && start && start !== owner.processStart) return "gone";
  return "running";
}

/** This process as a lock owner. */
export function currentProcess(): LockOwner {
  return {
    pid: process.pid,
    hostname: os.hostname(),
    startedAt: new Date(Date.now() - process.uptime() * 1000).toISOString(),
    bootId: readOr(() => readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim()),
    pidNamespace: readOr(() => readlinkSync("/proc/self/ns/pid")),
    processStart: processStart(process.pid),
  };
}

function readOwner(ownerPath: string): LockOwner | undefined {
  try {
    const owner = JSON.parse(readFileSync(ownerPath, "utf8")) as LockOwner;
    return Number.isInteger(owner.pid) && owner.pid > 0 ? owner : undefined;
  } catch {
    return undefined;
  }
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return (error as { code?: string }).code === "EPERM";
  }
}

/** Field 22 of /proc/<pid>/stat (start time since boot), after the command name, which may hold spaces. */
function processStart(pid: number): string | undefined {
  return readOr(() => {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  });
}

function readOr(read: () => string | undefined): string | undefined {
  try {
    return read() || undefined;
  } catch {
    return undefined;
  }
}

function inUseMessage(dir: string, owner: LockOwner | undefined, state: OwnerState): string {
  const who = owner ? `process ${owner.pid} on ${owner.hostname}, started ${owner.startedAt}` : "a process that left no record of itself";
  const refreshed = readOr(() => `${Math.round((Date.now() - statSync(path.join(dir, "server.lock")).mtimeMs) / 1000)}`);
  const detail =
    state === "running"
      ? ""
      : ` That process is not visible from here (another host or container?); its lock was last refreshed ${refreshed ?? "?"} s ago and counts as abandoned ${staleMs / 1000} s after its last refresh.`;
  return `DATA_DIR ${dir} is in use by another SafeWindow server (${who}).${detail} One server per DATA_DIR: stop the other one, or give this one another DATA_DIR.`;
}
