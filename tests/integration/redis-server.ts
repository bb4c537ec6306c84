/**
 * A throwaway Redis for the scale-out tests: Debian's redis-server (which .ci/run installs), or
 * the binary at REDIS_SERVER_PATH, on a loopback port, without persistence.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";

export const redisServerPath = process.env.REDIS_SERVER_PATH || "/usr/bin/redis-server";

/** A free loopback port (asked of the OS, then released). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * Starts redis-server on 127.0.0.1:`port` without persistence; resolves once it accepts connections.
 * @throws when the binary is missing, or it exits or is not ready within 10 s (with its output)
 */
export async function startRedis(port: number): Promise<ChildProcess> {
  if (!existsSync(redisServerPath)) throw new Error(`${redisServerPath} is missing: install Debian's redis-server (.ci/run does)`);
  const child = spawn(redisServerPath, ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 10_000);
    child.stdout!.on("data", (chunk) => {
      output += String(chunk);
      if (output.includes("Ready to accept connections")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on("exit", (code) => reject(new Error(`redis-server exited ${code}:\n${output}`)));
  });
  return child;
}

/** Stops a child process (redis-server, a service) with SIGTERM and waits for it to exit. */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.on("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}
