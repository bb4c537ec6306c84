/**
 * Graceful shutdown that drains an HTTP server (docs/decisions/0008-one-process-per-data-dir-and-draining-shutdown.md).
 *
 * `drainable(server)` watches the server's requests from the start; `drain()` then, on SIGTERM or
 * SIGINT:
 * - stops accepting connections and closes every idle keep-alive connection at once;
 * - answers every request already in flight, and any that still arrives on an open connection,
 *   with `Connection: close`, so the client opens no further request on it and Node closes the
 *   connection after the answer;
 * - closes a connection whose answer was already under way without that header (its headers had
 *   gone out before the signal) as soon as that answer is complete;
 * - resolves when the last connection has closed, or after `graceMs` by cutting what is left.
 *
 * Node's own `server.close()` (Node >= 19) stops listening and closes the connections idle at that
 * moment, but keeps a connection open after an answer that was in flight, and keeps answering
 * new requests on it, until its keep-alive timeout: under keep-alive load it never drains.
 *
 * Idle connections are closed one turn of the event loop after the signal (setImmediate), not in
 * the signal handler: a request whose bytes had already reached this process when the signal came
 * is read in the same turn, so its connection is no longer idle and it gets its answer. A request
 * a client sends on an idle connection after that can still meet the close, as with any HTTP/1.1
 * keep-alive close (RFC 9112 §9.3.1: clients retry such a request on a new connection).
 *
 * Imported by server.ts with Node's type stripping: node modules only.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";

/** What `drain()` did. */
export interface DrainResult {
  /** Requests that were in flight when the drain began. */
  inFlightAtStart: number;
  /** Connections still open when `graceMs` ran out, closed by force (0 when everything finished). */
  cut: number;
}

/** A server watched for a draining shutdown. */
export interface Drainable {
  /**
   * Stops accepting, answers what is in flight with `Connection: close`, closes idle connections;
   * resolves when every connection has closed (at most `graceMs` after the call). Calling it again
   * returns the same promise.
   */
  drain(): Promise<DrainResult>;
  /** True once `drain()` was called. */
  readonly draining: boolean;
}

/**
 * Watches `server` for `drain()`. Call it right after creating the server, before it serves a
 * request: a request it did not see cannot be answered with `Connection: close`.
 * @param graceMs how long in-flight requests may take after `drain()` before their connections are cut, ms
 */
export function drainable(server: Server, { graceMs }: { graceMs: number }): Drainable {
  /** The answers not finished yet, per connection (HTTP/1.1 without pipelining: at most one). */
  const inFlight = new Map<Socket, Set<ServerResponse>>();
  const connections = new Set<Socket>();
  let draining: Promise<DrainResult> | undefined;

  server.on("connection", (socket: Socket) => {
    connections.add(socket);
    socket.once("close", () => connections.delete(socket));
  });

  // Prepended, so the header is set before the application's handler can send its answer.
  server.prependListener("request", (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    if (draining && !res.headersSent) res.setHeader("Connection", "close");
    let answers = inFlight.get(socket);
    if (!answers) inFlight.set(socket, (answers = new Set()));
    answers.add(res);
    res.once("close", () => {
      answers.delete(res);
      if (answers.size === 0) inFlight.delete(socket);
      // An answer whose headers went out before the drain without `Connection: close` leaves a
      // keep-alive connection: close it once Node has marked it idle (after this event).
      if (draining) setImmediate(() => server.closeIdleConnections());
    });
  });

  return {
    get draining() {
      return draining !== undefined;
    },
    drain() {
      draining ??= new Promise<DrainResult>((resolve) => {
        let inFlightAtStart = 0;
        for (const answers of inFlight.values()) {
          for (const res of answers) {
            inFlightAtStart++;
            if (!res.headersSent) res.setHeader("Connection", "close");
          }
        }
        let cut = 0;
        const force = setTimeout(() => {
          cut = connections.size;
          server.closeAllConnections();
        }, graceMs);
        force.unref();
        setImmediate(() => {
          // Stops listening and closes the connections idle now (Node >= 19); the callback runs
          // once every connection has closed.
          server.close(() => {
            // (An error here only says the server was not listening: nothing to wait for.)
            clearTimeout(force);
            resolve({ inFlightAtStart, cut });
          });
        });
      });
      return draining;
    },
  };
}

