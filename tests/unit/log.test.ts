import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger, redactUrl } from "../../app/server/log.server";

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
