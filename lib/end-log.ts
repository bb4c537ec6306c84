// Ending a pino logger before process.exit, shared by server.ts and the services' main.ts.
import { pino, type Logger } from "pino";

/**
 * Writes out every line `logger` still holds and ends its destination; resolves when the last
 * line is written or after `timeoutMs` (ms), whichever comes first. pino's default destination
 * writes asynchronously: a line still being written when the process calls `process.exit` could
 * otherwise land after a later one, or not at all (a shutdown's "in-flight requests finished"
 * after its "stopped"). Call it once, just before exiting; the logger writes nothing afterwards.
 */
export function endLog(logger: Logger, timeoutMs = 2_000): Promise<void> {
  const destination = (logger as unknown as Record<symbol, unknown>)[pino.symbols.streamSym] as
    | (NodeJS.EventEmitter & { end?: () => void; destroyed?: boolean })
    | undefined;
  if (!destination || typeof destination.end !== "function" || destination.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, timeoutMs);
    destination.once("close", () => {
      clearTimeout(timer);
      resolve();
    });
    destination.end!();
  });
}
