/**
 * DATA_DIR is owner-only (docs/security/data.md "DATA_DIR", docs/decisions/0015-owner-only-data-dir.md),
 * tested as the attack it stops: another local user reading the database's files (password hashes,
 * addresses, the identity authority's signing key) or the kept secrets. Everything server.ts, the
 * services run alone and `npm run backup/restore` write is 0700/0600 even when they were started
 * with umask 000; a DATA_DIR left open by an earlier version is tightened at start with one line,
 * and the signing key replaced, so a token signed with a key read out of it is refused by the
 * consumer API. An entry of another user stops the start. Needs `npm run build` (server.ts) and root
 * (chown to nobody).
 */
import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, mkdirSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { importJWK } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { harborviewPdf } from "../fixtures/index";
import { createDatabase } from "../../lib/db/database";
import { issueAccessToken, SIGNING_SECRET_FILE, unsealPrivateKey } from "../../services/identity/tokens";
import { stopProcess } from "./redis-server";
import { get, node, root, runServerToExit, signedUpUser, startServer, upload, type Running } from "./server-process";
import { contractFetch, listeningUrl, runMain, type MainProcess } from "./support";

// This file tests what a first start does to a fresh DATA_DIR, initdb included: no copied blank
// database (tests/global-setup.ts). Each test file runs in a process of its own.
delete process.env.PGLITE_TEMPLATE;

const dirs: string[] = [];
const temp = (name: string) => {
  const dir = mkdtempSync(path.join(tmpdir(), `sw-modes-${name}-`));
  dirs.push(dir);
  return dir;
};
const running: { child: Running["child"] }[] = [];
let startUmask: number;

// Every process the tests start inherits umask 000: what they create would be 0777/0666 unless they
// make it owner-only themselves.
beforeAll(() => {
  startUmask = process.umask(0);
});
afterAll(async () => {
  process.umask(startUmask);
  for (const server of running) await stopProcess(server.child);
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}, 60_000);

/** Every entry under `dir` (itself included, no link followed) with a group or other bit, as "mode path". */
function openToOthers(dir: string): string[] {
  const found: string[] = [];
  const visit = (full: string) => {
    const stat = lstatSync(full);
    if (stat.isSymbolicLink()) return;
    if (stat.mode & 0o077) found.push(`${(stat.mode & 0o777).toString(8)} ${path.relative(dir, full) || "."}`);
    if (stat.isDirectory()) for (const name of readdirSync(full)) visit(path.join(full, name));
  };
  visit(dir);
  return found;
}

/** How many entries (files and directories) are under `dir`, itself included. */
function entriesUnder(dir: string): number {
  return 1 + (statSync(dir).isDirectory() ? readdirSync(dir).reduce((sum, name) => sum + entriesUnder(path.join(dir, name)), 0) : 0);
}

/** What an earlier version left: directories 0755, files 0644 and 0666 in turn. */
function openUp(dir: string): void {
  let turn = 0;
  const visit = (full: string) => {
    const stat = lstatSync(full);
    if (stat.isDirectory()) {
      chmodSync(full, 0o755);
      for (const name of readdirSync(full)) visit(path.join(full, name));
    } else if (stat.isFile()) chmodSync(full, turn++ % 2 ? 0o666 : 0o644);
  };
  visit(dir);
}

/** `npm run backup|restore -- file` with DATA_DIR=dataDir, as an operator runs it. */
function cli(command: "backup" | "restore", file: string, dataDir: string) {
  const result = spawnSync(node, [path.join(root, "lib/db/backup-cli.ts"), command, file], { cwd: root, env: { PATH: process.env.PATH ?? "", DATA_DIR: dataDir }, encoding: "utf8", timeout: 120_000 });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

/** The signing keys' kids stored in the embedded database of `dataDir` (no server running). */
async function storedKids(dataDir: string, table = "identity_signing_keys"): Promise<string[]> {
  const db = await createDatabase<any>({ dataDir, name: "db" });
  try {
    return (await db.selectFrom(table).select("kid").execute()).map((row: { kid: string }) => row.kid);
  } finally {
    await db.destroy();
  }
}

const tightenedLine = /was open to other local users/g;

describe("server.ts and npm run backup/restore keep DATA_DIR owner-only", () => {
  let first: string;
  let restored: string;
  let liveBackup: string;
  let cookie: string;

  it("a fresh DATA_DIR after a start, a sign-up, an upload and a backup has no group or other bits anywhere, DATA_DIR included", async () => {
    first = path.join(temp("fresh"), "data");
    const server = await startServer({ DATA_DIR: first });
    running.push(server);
    cookie = await signedUpUser(server, path.join(first, "outbox"), `modes-${Date.now()}@example.com`);
    const pdf = await harborviewPdf({ firstName: "Grace", lastName: "Hopper", dob: "1986-12-09", collectedAt: new Date(Date.now() - 3 * 3600_000) });
    expect((await upload(server, cookie, pdf)).headers.get("location")).toBe("/mytests");
    const backups = path.join(temp("backups"), "new-folder");
    liveBackup = path.join(backups, "live.zip");
    const asked = cli("backup", liveBackup, first);
    expect(asked, asked.err).toMatchObject({ code: 0 });
    expect(server.output()).not.toMatch(tightenedLine);
    expect(entriesUnder(first)).toBeGreaterThan(500);
    expect(openToOthers(first)).toEqual([]);
    await stopProcess(server.child);
    running.splice(running.indexOf(server), 1);
    // What the database writes at its close too.
    expect(openToOthers(first)).toEqual([]);
    expect(openToOthers(backups)).toEqual([]);
    expect(readdirSync(path.join(first, "outbox")).length).toBeGreaterThan(0);
    for (const secret of ["session-secret", "identity-client-secret", SIGNING_SECRET_FILE]) expect(statSync(path.join(first, secret)).mode & 0o777, secret).toBe(0o600);

    // With no server running: the command opens the database itself.
    const idle = path.join(backups, "idle.zip");
    expect(cli("backup", idle, first)).toMatchObject({ code: 0 });
    expect(statSync(idle).mode & 0o777).toBe(0o600);
    expect(openToOthers(first)).toEqual([]);
  }, 240_000);

  it("a restore writes an owner-only DATA_DIR; a start there tightens nothing and keeps the sessions", async () => {
    restored = path.join(temp("restored"), "data");
    const result = cli("restore", liveBackup, restored);
    expect(result, result.err).toMatchObject({ code: 0 });
    expect(entriesUnder(restored)).toBeGreaterThan(500);
    expect(openToOthers(restored)).toEqual([]);
    const server = await startServer({ DATA_DIR: restored });
    running.push(server);
    expect(server.output()).not.toMatch(tightenedLine);
    expect(server.output()).not.toContain("signing key replaced");
    const mytests = await get(server, "/mytests", cookie);
    expect(mytests.status, server.output().slice(-3000)).toBe(200);
    await stopProcess(server.child);
    running.splice(running.indexOf(server), 1);
    expect(openToOthers(restored)).toEqual([]);
  }, 240_000);

  it("a DATA_DIR left open to others is tightened at start with one line, the signing key and the pass keys are replaced and the session signed with the old one signs in again", async () => {
    const [oldKid] = await storedKids(restored);
    const oldPassKids = await storedKids(restored, "consumer_pass_keys");
    expect(oldPassKids).toHaveLength(1);
    openUp(restored);
    expect(openToOthers(restored).length).toBeGreaterThan(500);
    const server = await startServer({ DATA_DIR: restored });
    running.push(server);
    const output = server.output();
    expect(output.match(tightenedLine)).toHaveLength(1);
    expect(output).toMatch(/"tightened":\d{3,}/);
    const replaced = /"kid":"([^"]+)","replaced":\["([^"]+)"\][^\n]*identity signing key replaced/.exec(output);
    expect(replaced?.[2]).toBe(oldKid);
    expect(replaced?.[1]).not.toBe(oldKid);
    expect(openToOthers(restored)).toEqual([]);
    // The access token in the session was signed with the old key: the consumer API refuses it.
    const refused = await get(server, "/mytests", cookie);
    expect(refused.status).toBe(302);
    expect(refused.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent("/mytests")}`);
    await stopProcess(server.child);
    running.splice(running.indexOf(server), 1);
    expect(await storedKids(restored)).toEqual([replaced?.[1]]);
    // The pass keys too: every pass signed before stops checking (decision 0019).
    expect(output).toContain("pass keys replaced");
    const passKids = await storedKids(restored, "consumer_pass_keys");
    expect(passKids).toHaveLength(1);
    expect(passKids).not.toContain(oldPassKids[0]);
  }, 240_000);

  it("an entry owned by another user stops the start with a line naming it", async () => {
    const stray = path.join(restored, "outbox", "planted.eml");
    writeFileSync(stray, "From: someone\n");
    chownSync(stray, 65534, 65534);
    const start = await runServerToExit({ NODE_ENV: "production", HOST: "127.0.0.1", PORT: "0", LOG_LEVEL: "info", DATA_DIR: restored });
    expect(start.code).toBe(1);
    expect(start.stderr).toContain(`Cannot start:\n  ${stray} belongs to another user (uid 65534`);
    expect(start.stdout).not.toContain("listening");
    // Nothing of it was changed on the other user's behalf.
    expect(lstatSync(stray).uid).toBe(65534);
  }, 60_000);
});

describe("the services run alone keep their DATA_DIR owner-only", () => {
  const CLIENT_SECRET = "modes-client-secret-0123456789";
  const processes: MainProcess[] = [];
  afterAll(async () => {
    for (const p of processes) if (p.child.exitCode === null) await stopProcess(p.child);
  }, 30_000);

  const start = async (service: "identity" | "consumer", env: Record<string, string>) => {
    const p = runMain(path.join(root, `services/${service}/main.ts`), { LOG_LEVEL: "info", PORT: "0", ...env });
    processes.push(p);
    // This file runs initdb itself (no blank database to copy): a first start makes its database,
    // seconds of CPU that a machine busy with other tests stretches past listeningUrl's 30 s.
    const url = await listeningUrl(p, service === "identity" ? "identity authority listening" : "consumer API listening", 90_000);
    return { p, url };
  };
  const stop = async (p: MainProcess) => {
    p.child.kill("SIGTERM");
    const code = await p.exited;
    expect(code, `ended by ${p.signal()}; stderr: ${p.err()}; stdout tail: ${p.out().slice(-2000)}`).toBe(0);
  };

  it("a token forged with the key read out of an open identity DATA_DIR is refused by the consumer API after the identity authority's next start", async () => {
    const identityDir = path.join(temp("identity"), "data");
    const consumerDir = path.join(temp("consumer"), "data");
    let identity = await start("identity", { DATA_DIR: identityDir, IDENTITY_CLIENT_SECRET: CLIENT_SECRET });
    await stop(identity.p);
    expect(openToOthers(identityDir)).toEqual([]);

    // The attack: a local user who read the key and its secret out of a DATA_DIR as an earlier version left it open.
    const db = await createDatabase<any>({ dataDir: identityDir, name: "identity" });
    const row = (await db.selectFrom("identity_signing_keys").selectAll().executeTakeFirstOrThrow()) as { kid: string; sealed_private_jwk: string };
    await db.destroy();
    const secret = readFileSync(path.join(identityDir, SIGNING_SECRET_FILE), "utf8").trim();
    const privateKey = (await importJWK(JSON.parse(unsealPrivateKey(row.sealed_private_jwk, row.kid, secret)), "RS256")) as CryptoKey;
    const forged = await issueAccessToken({ kid: row.kid, privateKey } as never, {
      issuer: "http://localhost:3000/identity",
      clientId: "safewindow-web",
      scopes: ["consumer.api"],
      now: new Date(),
      user: { id: crypto.randomUUID(), userName: "victim@example.com", emailConfirmed: true },
    });

    // Before the open DATA_DIR is noticed, the consumer API accepts the forged token.
    identity = await start("identity", { DATA_DIR: identityDir, IDENTITY_CLIENT_SECRET: CLIENT_SECRET });
    const before = await start("consumer", { DATA_DIR: path.join(temp("consumer-before"), "data"), IDENTITY_URL: identity.url });
    expect((await contractFetch(`${before.url}/consumer`, { headers: { authorization: `Bearer ${forged}` } })).status).toBe(200);
    await stop(before.p);
    await stop(identity.p);
    openUp(identityDir);

    identity = await start("identity", { DATA_DIR: identityDir, IDENTITY_CLIENT_SECRET: CLIENT_SECRET });
    expect(identity.p.out().match(tightenedLine)).toHaveLength(1);
    expect(identity.p.out()).toContain(`"replaced":["${row.kid}"]`);
    expect(openToOthers(identityDir)).toEqual([]);
    // The consumer API alone, on a DATA_DIR also left open: tightened too, and its pass keys replaced.
    mkdirSync(consumerDir, { recursive: true, mode: 0o755 });
    writeFileSync(path.join(consumerDir, "left-over"), "", { mode: 0o644 });
    expect(openToOthers(consumerDir)).toHaveLength(2);
    const consumer = await start("consumer", { DATA_DIR: consumerDir, IDENTITY_URL: identity.url });
    expect(consumer.p.out().match(tightenedLine)).toHaveLength(1);
    expect(consumer.p.out()).toContain("the pass keys are replaced at this start");
    expect(openToOthers(consumerDir)).toEqual([]);
    const answer = await contractFetch(`${consumer.url}/consumer`, { headers: { authorization: `Bearer ${forged}` } });
    expect(answer.status).toBe(401);
    await stop(consumer.p);
    await stop(identity.p);
    expect(openToOthers(identityDir)).toEqual([]);
    expect(openToOthers(consumerDir)).toEqual([]);
  }, 240_000);
});
