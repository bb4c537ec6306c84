/**
 * A throwaway PostgreSQL server for the DATABASE_URL tests: Debian's `postgresql` package (which
 * .ci/run installs), not an emulation. startPostgres() runs initdb into a fresh temporary
 * directory, starts `postgres` on a free loopback port, creates a database and answers its URL;
 * close() stops the server and deletes the directory.
 *
 * PostgreSQL refuses to run as root, and CI runs as root: then initdb and postgres run as the
 * `postgres` user the Debian package creates (else `nobody`), through `setpriv`, and the
 * temporary directory is handed to that user. Run as anyone else, they run as that user.
 *
 * The binaries are looked up in this order: `PG_BIN` (a directory holding initdb and postgres),
 * the highest version under /usr/lib/postgresql/<version>/bin (where Debian puts them, off PATH),
 * then PATH.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chownSync, existsSync, mkdtempSync, readdirSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";

/** A running throwaway cluster. */
export interface PostgresServer {
  /** postgresql://postgres:<password>@127.0.0.1:<port>/<database>: the database startPostgres() created. */
  databaseUrl: string;
  /** Creates another database in the same cluster and answers its URL. */
  createDatabase(name: string): Promise<string>;
  /** What the server logged so far (to explain a failure). */
  output(): string;
  /** Stops the server (waiting up to 3 s for open connections to close, then ending them) and deletes its directory. */
  close(): Promise<void>;
}

export interface PostgresOptions {
  /** The database to create (default "safewindow"). */
  database?: string;
}

/** Where initdb and postgres are, and which major version they are. */
export interface PostgresBinaries {
  initdb: string;
  postgres: string;
}

/**
 * Finds initdb and postgres: in `env.PG_BIN`, else the highest /usr/lib/postgresql/<n>/bin,
 * else on `env.PATH`.
 * @throws naming PG_BIN and the Debian package when none is found
 */
export function findPostgresBinaries(env: NodeJS.ProcessEnv = process.env): PostgresBinaries {
  const inDir = (dir: string): PostgresBinaries | undefined => {
    const initdb = path.join(dir, "initdb");
    const postgres = path.join(dir, "postgres");
    return existsSync(initdb) && existsSync(postgres) ? { initdb, postgres } : undefined;
  };
  if (env.PG_BIN) {
    const found = inDir(env.PG_BIN);
    if (!found) throw new Error(`PG_BIN=${env.PG_BIN} holds no initdb and postgres`);
    return found;
  }
  const debian = "/usr/lib/postgresql";
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((v) => /^\d+(\.\d+)?$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    for (const version of versions) {
      const found = inDir(path.join(debian, version, "bin"));
      if (found) return found;
    }
  }
  for (const dir of (env.PATH ?? "").split(path.delimiter).filter(Boolean)) {
    // initdb finds its postgres beside its real path (/usr/local/bin/initdb may be a symlink).
    if (existsSync(path.join(dir, "initdb"))) {
      const found = inDir(path.dirname(realpathSync(path.join(dir, "initdb")))) ?? inDir(dir);
      if (found) return found;
    }
  }
  throw new Error("PostgreSQL server binaries (initdb, postgres) not found: install Debian's postgresql package (.ci/run does) or set PG_BIN");
}

/** The unprivileged account the server runs as when this process is root. */
interface RunAs {
  uid: number;
  gid: number;
}

/** `postgres` (created by the Debian package), else `nobody`; undefined when this process is not root. */
function unprivilegedUser(): RunAs | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (const name of ["postgres", "nobody"]) {
    try {
      const uid = Number(execFileSync("id", ["-u", name], { encoding: "utf8" }).trim());
      const gid = Number(execFileSync("id", ["-g", name], { encoding: "utf8" }).trim());
      return { uid, gid };
    } catch {
      // no such user: try the next
    }
  }
  throw new Error("running as root, and neither a postgres nor a nobody user exists to run PostgreSQL as");
}

/** True when every directory from `dir` up to / lets other users through (o+x), so the unprivileged user reaches `dir`. */
function othersCanReach(dir: string): boolean {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    if ((statSync(d).mode & 0o001) === 0) return false;
    if (d === path.dirname(d)) return true;
  }
}

/** Runs `command args` as `as` (via setpriv) or as this user; stdout and stderr piped. */
function spawnAs(as: RunAs | undefined, command: string, args: string[]): ChildProcess {
  // A fixed environment: C messages (the readiness line below is matched in English), no PG* variables.
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", LC_ALL: "C" };
  const options = { env, stdio: ["ignore", "pipe", "pipe"] as ("ignore" | "pipe")[] };
  if (!as) return spawn(command, args, options);
  // setpriv execs the command itself, so signals sent to the child reach postgres directly.
  return spawn("setpriv", [`--reuid=${as.uid}`, `--regid=${as.gid}`, "--clear-groups", "--", command, ...args], options);
}

/** Collects a child's stdout and stderr; resolves with its exit code. */
function watch(child: ChildProcess): { output: () => string; exited: Promise<number | null> } {
  let output = "";
  child.stdout?.on("data", (chunk) => (output += String(chunk)));
  child.stderr?.on("data", (chunk) => (output += String(chunk)));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { output: () => output, exited };
}

/** A free loopback port (asked of the OS, then released). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Creates database `name` over a superuser connection to the `postgres` database of `url`. */
async function createDatabaseAt(url: string, name: string): Promise<string> {
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`create database ${pg.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
  const created = new URL(url);
  created.pathname = `/${encodeURIComponent(name)}`;
  return created.toString();
}

/**
 * Starts a fresh PostgreSQL cluster (C locale, UTF-8, password authentication, TCP on 127.0.0.1
 * only, no unix socket, durability off: it is thrown away) and creates `options.database`.
 * Takes about 2-4 s. Call close() in afterAll; a test process that exits without it still stops
 * the server.
 * @throws when the binaries are missing, initdb fails or the server does not accept connections
 *   within 30 s; the error carries what PostgreSQL printed
 */
export async function startPostgres(options: PostgresOptions = {}): Promise<PostgresServer> {
  const bin = findPostgresBinaries();
  const as = unprivilegedUser();
  const base = as && !othersCanReach(tmpdir()) ? "/tmp" : tmpdir();
  const dir = mkdtempSync(path.join(base, "sw-postgres-"));
  const dataDir = path.join(dir, "data");
  const password = randomBytes(18).toString("base64url");
  const pwfile = path.join(dir, "pwfile");
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (as) {
    chownSync(dir, as.uid, as.gid);
    chownSync(pwfile, as.uid, as.gid);
  }

  let server: ChildProcess | undefined;
  const stopOnExit = () => {
    server?.kill("SIGQUIT");
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const init = watch(spawnAs(as, bin.initdb, ["-D", dataDir, "-U", "postgres", `--pwfile=${pwfile}`, "--auth=scram-sha-256", "-E", "UTF8", "--locale=C", "--no-sync"]));
    if ((await init.exited) !== 0) throw new Error(`initdb failed:\n${init.output()}`);
    rmSync(pwfile);

    // The free port can be taken between asking and binding: then try another.
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      server = spawnAs(as, bin.postgres, [
        "-D", dataDir,
        "-p", String(port),
        "-c", "listen_addresses=127.0.0.1",
        "-c", "unix_socket_directories=",
        "-c", "fsync=off",
        "-c", "synchronous_commit=off",
        "-c", "full_page_writes=off",
      ]);
      process.once("exit", stopOnExit);
      const running = watch(server);
      const started = await new Promise<"ready" | "exited" | "timeout">((resolve) => {
        const timer = setTimeout(() => resolve("timeout"), 30_000);
        const onData = () => {
          if (running.output().includes("database system is ready to accept connections")) {
            clearTimeout(timer);
            resolve("ready");
          }
        };
        server!.stdout?.on("data", onData);
        server!.stderr?.on("data", onData);
        void running.exited.then(() => {
          clearTimeout(timer);
          resolve("exited");
        });
      });
      if (started === "exited" && attempt < 3 && /could not bind|Address already in use/.test(running.output())) {
        process.removeListener("exit", stopOnExit);
        continue;
      }
      if (started !== "ready") {
        throw new Error(`postgres did not start (${started}):\n${running.output()}`);
      }
      const child = server;
      const root = `postgresql://postgres:${password}@127.0.0.1:${port}/postgres`;
      const databaseUrl = await createDatabaseAt(root, options.database ?? "safewindow");
      return {
        databaseUrl,
        createDatabase: (name) => createDatabaseAt(root, name),
        output: running.output,
        async close() {
          process.removeListener("exit", stopOnExit);
          if (child.exitCode === null && child.signalCode === null) {
            // Smart shutdown first: a pool's end() resolves before its connections have closed,
            // and a fast shutdown would answer those last connections with an error (57P01) that
            // surfaces as an unhandled error in the test. A connection still open after 3 s is
            // a pool the test never closed: end it (fast shutdown), then give up on the process.
            child.kill("SIGTERM");
            const fast = setTimeout(() => child.kill("SIGINT"), 3_000);
            const kill = setTimeout(() => child.kill("SIGKILL"), 10_000);
            await running.exited;
            clearTimeout(fast);
            clearTimeout(kill);
          }
          rmSync(dir, { recursive: true, force: true });
        },
      };
    }
  } catch (error) {
    process.removeListener("exit", stopOnExit);
    if (server && server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((resolve) => server!.once("exit", resolve));
      server.kill("SIGKILL");
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
