// Listening and graceful close for the reference services (docs/architecture/README.md §1: each runs embedded in
// server.ts or alone). The socket is bound before the app is attached, so a service knows its
// own URL (ephemeral port) when it builds its routes.
import { createServer } from "node:http";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";

/** Requests in flight get this long to finish on close before their connections are cut. */
export const CLOSE_GRACE_MS = 5_000;

/** The base URL (no trailing slash) for a bound address; a wildcard bind is reached on 127.0.0.1. */
export function urlOf(address: AddressInfo): string {
  const wildcard = address.address === "0.0.0.0" || address.address === "::";
  const host = wildcard ? "127.0.0.1" : address.family === "IPv6" ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

/**
 * Creates an HTTP server (request timeout 30 s, headers 15 s, keep-alive 5 s) listening on
 * host:port (port 0: ephemeral). Attach the app with `server.on("request", app)`.
 * @returns the server, its base URL and the bound port.
 * @throws the listen error (e.g. EADDRINUSE).
 */
export async function listenHttp(host: string, port: number): Promise<{ server: Server; url: string; port: number }> {
  const server = createServer({ requestTimeout: 30_000, headersTimeout: 15_000, keepAliveTimeout: 5_000 });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  return { server, url: urlOf(address), port: address.port };
}

/**
 * Stops accepting connections, closes idle keep-alive connections, lets requests in flight
 * finish for up to `graceMs` (default CLOSE_GRACE_MS), then cuts the rest.
 * @returns when the server has closed.
 */
export async function closeHttp(server: Server, graceMs = CLOSE_GRACE_MS): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const force = setTimeout(() => server.closeAllConnections(), graceMs);
  await closed;
  clearTimeout(force);
}
