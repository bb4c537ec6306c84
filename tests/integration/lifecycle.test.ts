/**
 * server.ts's life cycle as operators meet it (docs/decisions/0008-one-process-per-data-dir-and-draining-shutdown.md):
 * one server per DATA_DIR (a second start exits at once naming DATA_DIR and the first server's
 * pid; a lock left by `kill -9` does not block the restart), and a shutdown that drains (under
 * keep-alive load nothing that had started is cut, answers after the signal say `Connection:
 * close`, and the process exits 0 once the last answer is out). Asserted by the order of events,
 * never by how long they took; the figures are bench/soak.ts's. Needs `npm run build` first.
 */
import http from "node:http";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { currentProcess, lockDataDir } from "../../lib/data-dir-lock";
import { runServerToExit, startServer, type Running } from "./server-process";

/** Kills what is still running of `servers` (a test that failed midway). */
function killAll(servers: (Running | undefined)[]) {
  for (const server of servers) {
    if (server && server.child.exitCode === null && server.child.signalCode === null) server.child.kill("SIGKILL");
  }
}

describe("one server per DATA_DIR", () => {
  let dataDir: string;
  let first: Running;
  let restarted: Running | undefined;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "sw-lock-"));
    first = await startServer({ DATA_DIR: dataDir });
  }, 60_000);

  afterAll(() => killAll([first, restarted]));

  it("a second server on a DATA_DIR in use exits non-zero, naming DATA_DIR and the first server's pid, before opening anything", async () => {
    const second = await runServerToExit({ NODE_ENV: "production", HOST: "127.0.0.1", PORT: "0", LOG_LEVEL: "info", DATA_DIR: dataDir });
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`DATA_DIR ${realpathSync(dataDir)} is in use`);
    expect(second.stderr).toContain(`process ${first.child.pid} `);
    // It stopped before the embedded services opened their databases, and never listened.
    expect(second.stdout).not.toContain("database");
    expect(second.stdout).not.toContain("listening");
    // The first one was not disturbed.
    expect((await fetch(`${first.url}/healthz`)).status).toBe(200);
  }, 60_000);

  it("a lock left by a server killed with kill -9 does not block the restart", async () => {
    first.child.kill("SIGKILL");
    await first.exited;
    expect(existsSync(path.join(dataDir, "server.lock"))).toBe(true);
    restarted = await startServer({ DATA_DIR: dataDir });
    expect((await fetch(`${restarted.url}/healthz`)).status).toBe(200);
  }, 60_000);

  it("an idle server exits 0 on SIGTERM and gives DATA_DIR up", async () => {
    expect(restarted).toBeDefined();
    const server = restarted!;
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    const output = server.output();
    expect(output.indexOf("in-flight requests finished")).toBeGreaterThan(output.indexOf("shutting down"));
    expect(output).toContain('"msg":"stopped"');
    expect(existsSync(path.join(dataDir, "server.lock"))).toBe(false);
    expect(existsSync(path.join(dataDir, "server.lock.json"))).toBe(false);
  }, 30_000);
});

describe("the DATA_DIR lock's check of its holder", () => {
  /** A DATA_DIR with a lock held, as server.ts leaves it, by `owner`; the lock refreshed `ageMs` ago. */
  function lockedBy(owner: object, ageMs = 0): string {
    const dir = mkdtempSync(path.join(tmpdir(), "sw-lockfile-"));
    mkdirSync(path.join(dir, "server.lock"));
    const refreshed = new Date(Date.now() - ageMs);
    utimesSync(path.join(dir, "server.lock"), refreshed, refreshed);
    writeFileSync(path.join(dir, "server.lock.json"), JSON.stringify(owner));
    return dir;
  }

  it("takes over a lock whose pid now belongs to a process that started at another time (pid reuse)", async () => {
    // The parent process runs, but it is not the one that took the lock.
    const dir = lockedBy({ ...currentProcess(), pid: process.ppid, processStart: "1" });
    const lock = await lockDataDir(dir, { onLost: () => {} });
    await lock.release();
    expect(existsSync(path.join(dir, "server.lock"))).toBe(false);
  });

  it("waits for a lock from a process not visible from here (another host) to go stale, then takes it", async () => {
    // Last refreshed 9 s ago: stale 10 s after its last refresh.
    const dir = lockedBy({ ...currentProcess(), pid: 1, hostname: "another-host" }, 9_000);
    const lock = await lockDataDir(dir, { onLost: () => {} });
    await lock.release();
  }, 20_000);
});

describe("SIGTERM under keep-alive load", () => {
  const connections = 50;
  /** Bounds of every loop: answers per connection, and wall time (a stuck server fails the test instead of hanging it). */
  const maxExchangesPerConnection = 1_000;
  const loadLimitMs = 120_000;
  let server: Running | undefined;
  const agents: http.Agent[] = [];

  afterAll(() => {
    for (const agent of agents) agent.destroy();
    killAll([server]);
  });

  it("answers every request that had started, says Connection: close after the signal, and exits 0 after the last answer", async () => {
    server = await startServer({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "sw-drain-")), AUTH_RATE_LIMIT: "1000000" });
    const running = server;
    const { hostname, port } = new URL(running.url);
    const deadline = performance.now() + loadLimitMs;

    // Events of this process in the order they happened.
    let clock = 0;
    const now = () => ++clock;

    interface Exchange {
      label: string;
      /** When the request was fully handed to the OS ('finish'). */
      sent?: number;
      answered?: number;
      failed?: number;
      status?: number;
      connection?: string;
      body?: string;
      error?: string;
    }

    /** Sends `req` (already created), and resolves with what became of it. */
    function exchange(label: string, request: (onResponse: (res: http.IncomingMessage) => void) => http.ClientRequest): { exchange: Exchange; done: Promise<Exchange>; req: http.ClientRequest } {
      const record: Exchange = { label };
      let settle!: (value: Exchange) => void;
      const done = new Promise<Exchange>((resolve) => (settle = resolve));
      let settled = false;
      const finish = (update: Partial<Exchange>) => {
        if (settled) return;
        settled = true;
        Object.assign(record, update);
        settle(record);
      };
      const req = request((res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => finish({ answered: now(), status: res.statusCode, connection: res.headers.connection, body }));
        res.on("close", () => finish({ failed: now(), error: "answer cut before its end" }));
      });
      req.on("finish", () => (record.sent ??= now()));
      req.on("error", (error: NodeJS.ErrnoException) => finish({ failed: now(), error: error.code ?? error.message }));
      return { exchange: record, done, req };
    }

    // 50 keep-alive connections, each a loop of /login (a server-rendered page) and /healthz; a loop
    // ends on its connection's `Connection: close` answer or error, or at its bounds.
    const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
    agents.push(agent);
    const exchanges: Exchange[] = [];
    const answersOf = Array.from({ length: connections }, () => 0);
    const loop = async (index: number) => {
      for (let n = 0; n < maxExchangesPerConnection && performance.now() < deadline; n++) {
        const target = (index + n) % 2 === 0 ? "/login" : "/healthz";
        const { done } = exchange(target, (onResponse) => http.get({ hostname, port, path: target, agent }, onResponse));
        const result = await done;
        exchanges.push(result);
        if (result.answered) answersOf[index]!++;
        if (result.failed || result.connection === "close") return;
      }
    };
    const loops = Array.from({ length: connections }, (_, index) => loop(index));

    const until = async (condition: () => boolean, what: string) => {
      while (!condition()) {
        if (performance.now() > deadline) throw new Error(`gave up waiting for ${what}:\n${running.output().slice(-2000)}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    // Every connection open and answered twice: the load runs on all of them.
    await until(() => answersOf.every((count) => count >= 2), "two answers on every connection");

    // One request deterministically in flight at the signal: a form post whose body ends only after
    // the server has said it is shutting down. It goes on a connection already open (a first GET).
    const postAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    agents.push(postAgent);
    const opened = exchange("GET /healthz before the post", (onResponse) => http.get({ hostname, port, path: "/healthz", agent: postAgent }, onResponse));
    expect((await opened.done).status).toBe(200);
    const form = new URLSearchParams({ email: "", password: "whatever" }).toString();
    const post = exchange("POST /login ending after the signal", (onResponse) =>
      http.request(
        {
          hostname,
          port,
          path: "/login",
          method: "POST",
          agent: postAgent,
          headers: { "content-type": "application/x-www-form-urlencoded", "content-length": Buffer.byteLength(form), origin: running.url },
        },
        onResponse,
      ),
    );
    post.req.write(form.slice(0, 6));
    // Let the server read it while the load goes on: another round of answers on every connection.
    const answered = answersOf.map((count) => count);
    await until(() => answersOf.every((count, index) => count >= answered[index]! + 1), "another answer on every connection");

    let exited = Infinity;
    void running.exited.then(() => (exited = now()));
    const signal = now();
    running.child.kill("SIGTERM");
    await until(() => running.output().includes("shutting down"), "the server's shutting-down log line");
    const acknowledged = now();
    post.req.end(form.slice(6));

    const [code, postResult] = await Promise.all([running.exited, post.done]);
    await Promise.all(loops);

    // Nothing that was sent before the signal was cut: each has its whole answer.
    const sentBefore = exchanges.filter((e) => e.sent !== undefined && e.sent < signal);
    expect(sentBefore.length).toBeGreaterThan(connections * 2);
    for (const e of sentBefore) {
      expect(e, `${e.label} sent before the signal`).toMatchObject({ status: 200 });
      expect(e.failed, `${e.label}: ${e.error}`).toBeUndefined();
      expect(e.body).toMatch(e.label === "/login" ? /<\/html>$/ : /^\{"ok":true\}$/);
    }
    // The post in flight at the signal got its whole answer (the form's 400), saying Connection: close.
    expect(postResult).toMatchObject({ status: 400, connection: "close" });
    expect(postResult.body).toMatch(/<\/html>$/);
    // Every request the server can only have read after it began shutting down was answered with
    // Connection: close (or met a closed connection).
    for (const e of exchanges.filter((e) => e.sent !== undefined && e.sent > acknowledged && e.answered)) {
      expect(e.connection, `${e.label} sent after the shutdown began`).toBe("close");
    }
    // Then the process exited 0, after the last answer, and without cutting anything.
    expect(code).toBe(0);
    const lastAnswer = Math.max(postResult.answered ?? 0, ...exchanges.map((e) => e.answered ?? 0));
    expect(lastAnswer).toBeLessThan(exited);
    const output = running.output();
    const postLogged = output.search(/"method":"POST","url":"\/login"[^\n]*"statusCode":400/);
    expect(postLogged).toBeGreaterThan(output.indexOf("shutting down"));
    expect(output.indexOf("in-flight requests finished")).toBeGreaterThan(postLogged);
    expect(output.indexOf('"msg":"stopped"')).toBeGreaterThan(output.indexOf("in-flight requests finished"));
    expect(output).not.toContain("were cut");
  }, 240_000);
});
