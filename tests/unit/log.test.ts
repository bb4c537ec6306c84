import type { IncomingMessage, ServerResponse } from "node:http";
import { Writable } from "node:stream";
import express from "express";
import { describe, expect, it } from "vitest";
import { createLogger, redactUrl, requestId, type TrustProxy } from "../../app/server/log.server";

describe("redactUrl", () => {
  it("hides docs/product/calls.md §7's secret query parameters and keeps the rest", () => {
    expect(redactUrl("/api/account/confirmaccount?email=a%40b.c&password=Secret1!&token=abc")).toBe(
      "/api/account/confirmaccount?email=a%40b.c&password=[redacted]&token=[redacted]",
    );
    expect(redactUrl("/x?newPassword=P&currentPassword=Q")).toBe("/x?newPassword=[redacted]&currentPassword=[redacted]");
    expect(redactUrl("/plain?email=a")).toBe("/plain?email=a");
    // Spelled with percent-encoding or another case, the name still counts.
    expect(redactUrl("/resetpassword?email=a&%74oken=abc&PassWord=p")).toBe("/resetpassword?email=a&%74oken=[redacted]&PassWord=[redacted]");
  });
});

describe("requestId", () => {
  /** Express's own trust function for a TRUST_PROXY value, as server/app.ts makes it. */
  const trustOf = (setting: string): TrustProxy => express().set("trust proxy", setting).get("trust proxy fn") as TrustProxy;
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

  /** The id `requestId` gives a request from `peer` carrying `header`, and the X-Request-Id it echoes. */
  function idOf(trusts: TrustProxy, peer: string | undefined, header: string | string[] | undefined): { id: string; echoed: unknown } {
    const req = { headers: header === undefined ? {} : { "x-request-id": header }, socket: { remoteAddress: peer } } as unknown as IncomingMessage;
    const sent: Record<string, unknown> = {};
    const res = { setHeader: (name: string, value: unknown) => (sent[name.toLowerCase()] = value) } as unknown as ServerResponse;
    const id = requestId(trusts)(req, res);
    return { id, echoed: sent["x-request-id"] };
  }

  it("a request from a trusted peer keeps its X-Request-Id, echoed back (TRUST_PROXY's default, loopback)", () => {
    const loopback = trustOf("loopback");
    for (const peer of ["127.0.0.1", "::1", "::ffff:127.0.0.1"]) {
      expect(idOf(loopback, peer, "edge-req.42_a")).toEqual({ id: "edge-req.42_a", echoed: "edge-req.42_a" });
    }
    // A proxy on a private network, as docs/operating.md suggests behind one.
    expect(idOf(trustOf("uniquelocal"), "10.1.2.3", "from-proxy").id).toBe("from-proxy");
  });

  it("a request from an untrusted peer gets a fresh UUID, whatever its X-Request-Id", () => {
    const loopback = trustOf("loopback");
    for (const peer of ["203.0.113.9", "10.1.2.3", "2001:db8::1", undefined]) {
      const { id, echoed } = idOf(loopback, peer, "chosen-by-client");
      expect(id, String(peer)).toMatch(uuid);
      expect(echoed, String(peer)).toBe(id);
    }
    // Loopback is not trusted when TRUST_PROXY names only a private network.
    expect(idOf(trustOf("uniquelocal"), "127.0.0.1", "chosen-by-client").id).toMatch(uuid);
    // Two requests get two ids.
    expect(idOf(loopback, "203.0.113.9", undefined).id).not.toBe(idOf(loopback, "203.0.113.9", undefined).id);
  });

  it("a trusted peer's X-Request-Id that is not a short plain token is replaced by a UUID", () => {
    const loopback = trustOf("loopback");
    for (const header of ["", "x".repeat(65), "a b", "id\nforged", "<script>", ["one", "two"]]) {
      expect(idOf(loopback, "127.0.0.1", header).id, JSON.stringify(header)).toMatch(uuid);
    }
    expect(idOf(loopback, "127.0.0.1", "x".repeat(64)).id).toBe("x".repeat(64));
  });
});

describe("createLogger", () => {
  it("redacts passwords and tokens in logged objects", () => {
    const lines: string[] = [];
    const sink = new Writable({ write(chunk, _enc, done) { lines.push(String(chunk)); done(); } });
    const log = createLogger("info", sink);
    log.info({ password: "Secret1!", user: { token: "tok-123", accessToken: "at-456" } }, "hello");
    const text = lines.join("");
    expect(text).toContain("hello");
    expect(text).not.toContain("Secret1!");
    expect(text).not.toContain("tok-123");
    expect(text).not.toContain("at-456");
  });
});

describe("endLog", () => {
  // A process that logs, then exits at once, writing into a pipe its reader drains slowly (a busy
  // log collector): pino's asynchronous stdout writer still holds lines when process.exit comes.
  // Without endLog, lines come out of order or not at all (a shutdown's "stopped" before its
  // "in-flight requests finished", seen in CI).
  const child = (end: boolean) => `
    import { createLogger, endLog } from ${JSON.stringify(new URL("../../app/server/log.server.ts", import.meta.url).pathname)};
    const log = createLogger("info");
    const padding = "x".repeat(2000);
    for (let n = 0; n < 400; n++) log.info({ n, padding }, "line");
    // By now the pipe is full and a write is waiting in the thread pool.
    setTimeout(async () => {
      log.info({ n: 400 }, "last");
      ${end ? "await endLog(log);" : ""}
      process.exit(0);
    }, 100);
  `;

  async function run(end: boolean): Promise<number[]> {
    const { spawn } = await import("node:child_process");
    const proc = spawn(process.execPath, ["--input-type=module", "-e", child(end)], { stdio: ["ignore", "pipe", "inherit"] });
    // Read slowly at first, so that the pipe fills and the writer waits.
    proc.stdout.pause();
    await new Promise((resolve) => setTimeout(resolve, 300));
    let text = "";
    proc.stdout.on("data", (chunk: Buffer) => (text += String(chunk)));
    proc.stdout.resume();
    await new Promise((resolve) => proc.on("close", resolve));
    return text
      .split("\n")
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { n: number }).n);
  }

  it("writes every line in order before the process exits", async () => {
    const numbers = await run(true);
    expect(numbers).toEqual(Array.from({ length: 401 }, (_, n) => n));
  });
});
