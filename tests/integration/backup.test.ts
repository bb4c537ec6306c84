/**
 * Backup and restore of the embedded data (docs/operating.md "Backups"; lib/db/backup.ts and
 * backup-cli.ts): a backup asked of the running server, which holds DATA_DIR, and one made with no
 * server running; a restore into an empty DATA_DIR, where a new server signs the same user in (even
 * with the cookie the first server gave: the session and its secret come along) and shows the same
 * result. A restore over a database, or while a server holds the directory, is refused.
 * Needs `npm run build`.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { harborviewPdf } from "../fixtures/index";
import { stopProcess } from "./redis-server";
import { childEnv, form, get, node, root, sessionCookieOf, signedUpUser, startServer, upload, type Running } from "./server-process";

const dirs: string[] = [];
const temp = (name: string) => {
  const dir = mkdtempSync(path.join(tmpdir(), `sw-backup-${name}-`));
  dirs.push(dir);
  return dir;
};
const running: Running[] = [];

afterAll(async () => {
  for (const server of running) await stopProcess(server.child);
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}, 60_000);

/** `npm run backup|restore -- file` with DATA_DIR=dataDir, as an operator runs it. */
function cli(command: "backup" | "restore", file: string, dataDir: string) {
  const result = spawnSync(node, [path.join(root, "lib/db/backup-cli.ts"), command, file], { cwd: root, env: childEnv({ DATA_DIR: dataDir }), encoding: "utf8", timeout: 120_000 });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

const resultIds = (html: string) => [...html.matchAll(/testdetail\?id=([0-9a-f-]{36})/g)].map((m) => m[1]);

describe("backup and restore of DATA_DIR", () => {
  it("backs up a running server and an idle DATA_DIR, and restores into an empty one with the same users, results and sessions", async () => {
    const first = temp("first");
    const a = await startServer({ DATA_DIR: first });
    running.push(a);
    const email = `backup-${Date.now()}@example.com`;
    const cookie = await signedUpUser(a, path.join(first, "outbox"), email);
    const pdf = await harborviewPdf({ firstName: "Grace", lastName: "Hopper", dob: "1986-12-09", collectedAt: new Date(Date.now() - 3 * 3600_000) });
    expect((await upload(a, cookie, pdf)).headers.get("location")).toBe("/mytests");
    const ids = resultIds(await (await get(a, "/mytests", cookie)).text());
    expect(ids).toHaveLength(1);

    // While the server runs: it writes the backup for the command.
    const backups = temp("files");
    const live = path.join(backups, "live.zip");
    const asked = cli("backup", live, first);
    expect(asked, asked.err).toMatchObject({ code: 0 });
    expect(asked.out).toContain("by the running server");
    // A restore while the server holds the directory is refused.
    const busy = cli("restore", live, first);
    expect(busy.code).toBe(1);
    expect(busy.err).toContain("Stop that server before restoring");
    await stopProcess(a.child);
    running.splice(running.indexOf(a), 1);

    // With no server: the command opens the database itself.
    const idle = path.join(backups, "idle.zip");
    const made = cli("backup", idle, first);
    expect(made, made.err).toMatchObject({ code: 0 });
    expect(existsSync(`${idle}.partial`)).toBe(false);

    // Into an existing database: refused, nothing touched.
    const over = cli("restore", live, first);
    expect(over.code).toBe(1);
    expect(over.err).toContain("already holds a database");

    // Into an empty DATA_DIR: a server there signs the same user in and shows the same result.
    const second = temp("second");
    const restored = cli("restore", live, second);
    expect(restored, restored.err).toMatchObject({ code: 0 });
    const b = await startServer({ DATA_DIR: second });
    running.push(b);
    expect(resultIds(await (await get(b, "/mytests", cookie)).text())).toEqual(ids);
    const signedIn = await fetch(`${b.url}/login`, form({ email, password: "Window#2026a" }, b.url));
    expect(signedIn.status).toBe(302);
    expect(resultIds(await (await get(b, "/mytests", sessionCookieOf(signedIn)!)).text())).toEqual(ids);
  }, 240_000);

  it("refuses a file that is not a backup, and says how to use it", () => {
    const dataDir = temp("bad");
    const notBackup = path.join(root, "package.json");
    const refused = cli("restore", notBackup, dataDir);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain("is not a SafeWindow backup");
    const usage = spawnSync(node, [path.join(root, "lib/db/backup-cli.ts")], { encoding: "utf8" });
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain("usage: npm run backup -- FILE");
  });
});
