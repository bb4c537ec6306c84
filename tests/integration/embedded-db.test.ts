// The one embedded database (lib/db/embedded.ts; docs/architecture/README.md §1): server.ts keeps
// the embedded services' tables and the sessions in one PGlite under DATA_DIR/db, and a DATA_DIR
// of the earlier layout (DATA_DIR/identity and DATA_DIR/consumer, sessions in the first) is merged
// into it at the first start, with nothing lost; a merge a crash interrupted is started again.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, readdir, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseSessionStore, migrateSessionTable } from "../../app/server/session-store.server.ts";
import { startConsumerService } from "../../services/consumer/server.ts";
import { openPglite } from "../../lib/db/database.ts";
import { startIdentityService } from "../../services/identity/server.ts";
import { form, sessionCookieOf, startServer, type Running } from "./server-process.ts";
import { makePerson, type Person, type Services } from "./support.ts";

// This file tests what a first start does to a fresh DATA_DIR, initdb included: no copied blank
// database (tests/global-setup.ts), except in the tests of that copy. Each test file runs in a
// process of its own.
const runTemplate = process.env.PGLITE_TEMPLATE;
delete process.env.PGLITE_TEMPLATE;

const client = { clientId: "safewindow-web", clientSecret: "merge-test-client-secret-0123" };
const profile = { firstName: "Ada", lastName: "Lovelace", dob: "1985-12-10", postalCode: "10001" };

describe("one embedded database, merged from the earlier layout", () => {
  let dataDir: string;
  let person: Person;
  let sessionId: string;
  let server: Running | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "sw-merge-"));
    // The earlier layout, as the services made it on their own: DATA_DIR/identity (with the
    // sessions) and DATA_DIR/consumer.
    const silent = pino({ level: "silent" });
    const identity = await startIdentityService({ dataDir, publicUrl: "http://localhost:3000", clients: [client], logger: silent });
    const consumer = await startConsumerService({ dataDir, identityUrl: identity.url, logger: silent });
    const services = { identity, consumer, identityUrl: identity.url, client } as unknown as Services;
    person = await makePerson(services, profile);
    await migrateSessionTable(identity.db);
    sessionId = await databaseSessionStore(identity.db).createData({ userName: person.email }, new Date(Date.now() + 3_600_000));
    await consumer.close();
    await identity.close();
    expect(existsSync(path.join(dataDir, "identity", "PG_VERSION"))).toBe(true);
    expect(existsSync(path.join(dataDir, "consumer", "PG_VERSION"))).toBe(true);
    // What a crash in the middle of a merge leaves behind.
    await mkdir(path.join(dataDir, "db.merging"));
    await writeFile(path.join(dataDir, "db.merging", "half-written"), "x");
  }, 120_000);

  afterAll(async () => {
    if (server && server.child.exitCode === null) {
      server.child.kill("SIGKILL");
      await server.exited;
    }
  });

  /** Signs in through the form and opens /safewindow; the page's HTML. */
  async function signedInWindow(running: Running): Promise<string> {
    const login = await fetch(`${running.url}/login`, form({ email: person.email, password: person.password }, running.url));
    expect(login.status).toBe(302);
    const cookie = sessionCookieOf(login)!;
    const page = await fetch(`${running.url}/safewindow`, { headers: { cookie }, redirect: "manual" });
    expect(page.status).toBe(200);
    return page.text();
  }

  it("merges both databases into DATA_DIR/db at the first start: accounts, profiles and sessions", async () => {
    server = await startServer({ DATA_DIR: dataDir, IDENTITY_CLIENT_SECRET: client.clientSecret });
    const html = await signedInWindow(server);
    expect(html).toContain("Lovelace");
    expect(html).toContain(person.profile.safeWindowId);
    expect(server.output()).toContain("embedded database merged into DATA_DIR/db");
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);

    // The old directories stepped aside, kept for the operator; the half-written merge is gone.
    expect(existsSync(path.join(dataDir, "db", "PG_VERSION"))).toBe(true);
    expect(existsSync(path.join(dataDir, "db.merging"))).toBe(false);
    for (const name of ["identity", "consumer"]) {
      expect(existsSync(path.join(dataDir, name))).toBe(false);
      expect(existsSync(path.join(dataDir, `${name}.before-merge`, "PG_VERSION"))).toBe(true);
    }
    // The session stored in the old identity database is in the merged one, and every table is there.
    const db = await openPglite(path.join(dataDir, "db"));
    try {
      const sessions = await db.query<{ n: number }>("select count(*)::int as n from app_session where id = $1", [sessionId]);
      expect(sessions.rows[0]?.n).toBe(1);
      const tables = await db.query<{ table_name: string }>("select table_name from information_schema.tables where table_schema = 'public'");
      const names = tables.rows.map((row) => row.table_name);
      expect(names).toEqual(expect.arrayContaining(["identity_migration", "consumer_migration", "app_migration", "app_session"]));
      expect(names).toEqual(expect.arrayContaining(["identity_users", "identity_signing_keys"]));
    } finally {
      await db.close();
    }
  }, 120_000);

  it("starts on the merged database again without merging, with the data there", async () => {
    server = await startServer({ DATA_DIR: dataDir, IDENTITY_CLIENT_SECRET: client.clientSecret });
    expect(await signedInWindow(server)).toContain(person.profile.safeWindowId);
    expect(server.output()).not.toContain("merged into DATA_DIR/db");
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
  }, 120_000);

  it("a new DATA_DIR gets one database and no other", async () => {
    const fresh = await mkdtemp(path.join(tmpdir(), "sw-onedb-"));
    server = await startServer({ DATA_DIR: fresh });
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    expect(existsSync(path.join(fresh, "db", "PG_VERSION"))).toBe(true);
    for (const name of ["identity", "consumer", "app"]) expect(existsSync(path.join(fresh, name))).toBe(false);
  }, 120_000);
});

describe("a new embedded database is made in a child process (lib/db/database.ts initializePglite)", () => {
  it("creates it through initdb.ts in another process, leaves no staging directory, and opens it here", async () => {
    const parent = await mkdtemp(path.join(tmpdir(), "sw-initdb-"));
    const dir = path.join(parent, "db");
    // A staging directory a killed initdb left behind is removed, not mistaken for a database.
    await mkdir(path.join(parent, "db.initdb-1-dead"), { recursive: true });
    await writeFile(path.join(parent, "db.initdb-1-dead", "PG_VERSION"), "17\n");
    const pglite = await openPglite(dir);
    try {
      expect((await pglite.query<{ one: number }>("select 1 as one")).rows[0]?.one).toBe(1);
    } finally {
      await pglite.close();
    }
    expect(existsSync(path.join(dir, "PG_VERSION"))).toBe(true);
    expect((await readdir(parent)).sort()).toEqual(["db"]);
  }, 120_000);

  it("a kill -9 of the child during initdb leaves no half-made database, and the next open makes one", async () => {
    const parent = await mkdtemp(path.join(tmpdir(), "sw-initdb-kill-"));
    const dir = path.join(parent, "db");
    const initdb = spawn(process.execPath, [fileURLToPath(new URL("../../lib/db/initdb.ts", import.meta.url)), path.join(parent, "db.initdb-2-killed")]);
    // Kill it once initdb has written part of the directory.
    for (let i = 0; i < 200 && !existsSync(path.join(parent, "db.initdb-2-killed", "base")); i++) await new Promise((r) => setTimeout(r, 25));
    initdb.kill("SIGKILL");
    await new Promise((resolve) => initdb.once("exit", resolve));
    expect(existsSync(path.join(dir, "PG_VERSION"))).toBe(false);
    const pglite = await openPglite(dir);
    try {
      expect((await pglite.query<{ one: number }>("select 1 as one")).rows[0]?.one).toBe(1);
    } finally {
      await pglite.close();
    }
    expect((await readdir(parent)).sort()).toEqual(["db"]);
  }, 120_000);

  it("a directory with other files in it is refused with a clear error, and kept as it was", async () => {
    const parent = await mkdtemp(path.join(tmpdir(), "sw-initdb-busy-"));
    const dir = path.join(parent, "db");
    await mkdir(dir);
    await writeFile(path.join(dir, "notes.txt"), "mine");
    await expect(openPglite(dir)).rejects.toThrow(/holds files but no database/);
    expect(await readdir(dir)).toEqual(["notes.txt"]);
    expect((await readdir(parent)).sort()).toEqual(["db"]);
  }, 120_000);
});

describe("PGLITE_TEMPLATE (the test suite's blank database, copied in initdb's child by tests/pglite-template.mjs)", () => {
  afterAll(() => {
    delete process.env.PGLITE_TEMPLATE;
  });

  it("a new database is a copy of the blank one: owner-only files, and it opens and takes writes", async () => {
    expect(runTemplate, "tests/global-setup.ts made one").toBeTruthy();
    process.env.PGLITE_TEMPLATE = runTemplate;
    const parent = await mkdtemp(path.join(tmpdir(), "sw-template-"));
    const dir = path.join(parent, "db");
    const pglite = await openPglite(dir);
    try {
      await pglite.exec("create table copied (n integer); insert into copied values (7)");
      expect((await pglite.query<{ n: number }>("select n from copied")).rows[0]?.n).toBe(7);
    } finally {
      await pglite.close();
    }
    expect((await readdir(parent)).sort()).toEqual(["db"]);
    for (const entry of await readdir(dir, { recursive: true })) {
      expect((await stat(path.join(dir, entry))).mode & 0o077, entry).toBe(0);
    }
    // The copy is the database's own: the blank one is left as it was. Read through a copy of it:
    // opening the run's blank database itself would write its postmaster.pid while other test
    // files copy it.
    const blankCopy = path.join(await mkdtemp(path.join(tmpdir(), "sw-template-blank-")), "db");
    await cp(runTemplate!, blankCopy, { recursive: true });
    const blank = await openPglite(blankCopy);
    try {
      expect((await blank.query("select 1 from pg_tables where tablename = 'copied'")).rows).toEqual([]);
    } finally {
      await blank.close();
    }
  }, 120_000);

  it("a PGLITE_TEMPLATE that holds no database is refused, and nothing is left behind", async () => {
    process.env.PGLITE_TEMPLATE = await mkdtemp(path.join(tmpdir(), "sw-template-empty-"));
    const parent = await mkdtemp(path.join(tmpdir(), "sw-template-"));
    await expect(openPglite(path.join(parent, "db"))).rejects.toThrow(/Could not create the embedded database/);
    expect(await readdir(parent)).toEqual([]);
  }, 60_000);
});
