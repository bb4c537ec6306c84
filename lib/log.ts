// The process logger (docs/architecture/README.md §2 logging), shared by server.ts and the app's build:
// pino writing JSON lines, with everything secret redacted wherever it is logged.
import { pino, type Logger } from "pino";

/** Paths of objects that pino replaces with [redacted] wherever they are logged. */
export const redactPaths = [
  "req.headers.authorization",
  "req.headers.cookie",
  'res.headers["set-cookie"]',
  "password",
  "newPassword",
  "currentPassword",
  "token",
  "accessToken",
  "access_token",
  "client_secret",
  "*.password",
  "*.token",
  "*.accessToken",
  "*.access_token",
];

/** The process logger at `level` (a pino level name), writing JSON lines to stdout or `destination`. */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino({ level, redact: { paths: redactPaths, censor: "[redacted]" } }, destination);
}
