/**
 * The data thread (server/data-thread.ts, docs/decisions/0016-services-in-a-data-thread.md): when
 * it dies, the server says so in one fatal line naming it, stops with exit code 1 and gives DATA_DIR
 * up, so that a new server can start on it; and every session call made to a dead thread rejects
 * instead of hanging. The server.ts cases need `npm run build` first.
 */
import { existsSync, mkdtempSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../app/server/config.server.ts";
import { startUpstreams, type Upstreams } from "../../server/upstreams.ts";
import { startServer, type Running } from "./server-process.ts";

const hook = path.join(import.meta.dirname, "crash-data-thread.mjs");
const temp = (name: string) => mkdtempSync(path.join(tmpdir(), `sw-data-thread-${name}-`));

/** The parsed JSON log lines of `output` (other lines skipped). */
function logLines(output: string): { level: number; msg: string; err?: { message?: string } }[] {
  return output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { level: number; msg: string; err?: { message?: string } });
}

describe("a crash of the data thread", () => {
  const running: Running[] = [];
  afterAll(() => {
    for (const server of running) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill("SIGKILL");
  });

  /** Starts server.ts on `dataDir` with the crash hook; the thread dies once `trigger` holds "throw" or "exit". */
  async function crashable(dataDir: string, trigger: string): Promise<Running> {
    const server = await startServer({ DATA_DIR: dataDir, NODE_OPTIONS: `--import ${hook}`, CRASH_DATA_THREAD_FILE: trigger });
    running.push(server);
    expect((await fetch(`${server.url}/login`)).status).toBe(200);
    return server;
  }

  /**
   * Kills the data thread of a server on `dataDir` the way `how` says, and checks what decision 0016
   * promises: exit 1, one fatal line naming the data thread with the thread's error, a clean stop,
   * and DATA_DIR given up.
   */
  async function crashAndCheck(dataDir: string, how: "throw" | "exit", errorText: string): Promise<void> {
    const trigger = path.join(temp("trigger"), "crash");
    const server = await crashable(dataDir, trigger);
    // Written beside it, then renamed: the thread polls for the file and must never read it empty
    // (created, not yet written), which it took for "throw".
    writeFileSync(`${trigger}.part`, how);
    renameSync(`${trigger}.part`, trigger);
    expect(await server.exited).toBe(1);
    const fatal = logLines(server.output()).filter((line) => line.level === 60);
    expect(fatal).toHaveLength(1);
    expect(fatal[0]!.msg).toContain("data thread");
    expect(fatal[0]!.err?.message).toContain(errorText);
    expect(server.output()).toContain('"msg":"stopped"');
    expect(existsSync(path.join(dataDir, "server.lock"))).toBe(false);
  }

  it("stops the server with one fatal line naming the data thread, exit 1, and DATA_DIR given up for the next server", async () => {
    const dataDir = temp("dir");
    await crashAndCheck(dataDir, "throw", "simulated fault in the data thread");
    // A new server takes the same DATA_DIR at once; a thread that exits by itself stops it too.
    await crashAndCheck(dataDir, "exit", "exited with code 3");
  }, 240_000);
});

describe("the session store over the data thread", () => {
  let upstreams: Upstreams | undefined;
  afterAll(async () => {
    await upstreams?.close();
  });

  it("keeps sessions in the thread's database, and rejects pending and later calls once the thread has died", async () => {
    const dataDir = temp("sessions");
    const crashes: Error[] = [];
    upstreams = await startUpstreams({
      config: parseConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent", PORT: "0" }),
      identityClientSecret: "a-client-secret-for-the-test",
      rotateSigningKey: false,
      extensions: true,
      redisSessions: false,
      onCrash: (error) => crashes.push(error),
    });
    const sessions = upstreams.sessions!;
    expect(sessions).toBeDefined();
    const id = await sessions.createData({ userName: "grace@example.com" });
    expect(await sessions.readData(id)).toEqual({ userName: "grace@example.com" });
    expect(await sessions.nextUserGeneration("grace@example.com")).toBe(1);

    // A backup takes the thread a while: it is still pending when the thread dies.
    const pending = upstreams.backup(path.join(temp("backup"), "backup.zip"));
    await upstreams.worker!.terminate();
    await expect(pending).rejects.toThrow(/data thread/);
    await expect(sessions.readData(id)).rejects.toThrow(/data thread/);
    expect(crashes).toHaveLength(1);
    expect(crashes[0]!.message).toContain("exited with code 1");
    // Closing after the crash settles at once.
    await upstreams.close();
  }, 120_000);
});
