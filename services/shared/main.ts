// What every service's main.ts does around its start function: read the environment through a
// zod schema (a bad value exits 1 naming the variable, never its value), and stop gracefully on
// SIGTERM / SIGINT (a second signal exits at once).
import type { Logger } from "pino";
import { z } from "zod";
import { ForeignEntryError, ownerOnlyUmask, secureDataDir, tightenedMessage } from "../../lib/data-dir.ts";
import { endLog } from "../../lib/end-log.ts";

/** zod preprocess step: an empty variable (`FOO=`) counts as unset, so defaults apply. */
export const unsetIfEmpty = (v: unknown): unknown => (v === "" ? undefined : v);

/** LOG_LEVEL: a pino level, default info. */
export const logLevelSchema = z.preprocess(unsetIfEmpty, z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"));

/** PORT with the service's default; 0 means ephemeral. */
export function portSchema(defaultPort: number) {
  return z.preprocess(unsetIfEmpty, z.coerce.number({ error: "must be a number" }).int("must be an integer").min(0).max(65535).default(defaultPort));
}

/**
 * UPSTREAM_EXTENSIONS: `on` (default) or `off`, the reference services' plain mode
 * (docs/product/calls.md §7 "Extensions"; services/shared/http.ts plainMode). Read by each service's
 * main.ts, and by server/process.ts only to pass it to the services it embeds.
 */
export const upstreamExtensionsSchema = z.preprocess(unsetIfEmpty, z.enum(["on", "off"], { error: "must be on or off" }).default("on"));

/** DATABASE_URL: optional postgres:// or postgresql:// URL. */
export const databaseUrlSchema = z.preprocess(unsetIfEmpty, z.url({ protocol: /^postgres(ql)?$/, error: "must be a postgres:// or postgresql:// URL" }).optional());

/**
 * Parses `env` with `schema`, or prints `${service}: NAME rule` for each problem to stderr and
 * exits the process with 1. Values are never printed (they may be secrets).
 */
export function parseEnvOrExit<T extends z.ZodType>(service: string, schema: T, env: NodeJS.ProcessEnv): z.infer<T> {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) console.error(`${service}: ${issue.path.join(".")} ${issue.message}`);
    process.exit(1);
  }
  return parsed.data;
}

/** Error fields for a fatal log line: type and message only. */
export function errorSummary(err: unknown): { type: string; message: string } {
  return err instanceof Error ? { type: err.name, message: err.message } : { type: typeof err, message: String(err) };
}

/**
 * On SIGTERM or SIGINT calls `close` once and exits 0 when it resolves (1 when it rejects);
 * a second signal while closing exits 1 at once.
 */
export function stopOnSignals(logger: Logger, close: () => Promise<void>): void {
  let stopping = false;
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.on(signal, () => {
      if (stopping) {
        logger.warn({ signal }, "second signal: exiting now");
        process.exit(1);
      }
      stopping = true;
      logger.info({ signal }, "stopping");
      close().then(
        () => endLog(logger).then(() => process.exit(0)),
        (err: unknown) => {
          logger.error({ err: errorSummary(err) }, "error while stopping");
          void endLog(logger).then(() => process.exit(1));
        },
      );
    });
  }
}

/**
 * A service's DATA_DIR made owner-only before it starts (docs/security/data.md "DATA_DIR"): sets the
 * umask to 0o077, creates DATA_DIR 0700 when missing and tightens what is open to other users,
 * logging one warning line that ends with `consequence`. An entry of another user prints
 * `${service}: Cannot start: …` to stderr and exits the process with 1.
 * @returns true when something was tightened (the identity authority then replaces its signing key)
 */
export function secureDataDirOrExit(service: string, dataDir: string, logger: Logger, consequence: string): boolean {
  ownerOnlyUmask();
  try {
    const secured = secureDataDir(dataDir);
    if (secured.tightened.length === 0) return false;
    logger.warn({ tightened: secured.tightened.length }, tightenedMessage(secured, consequence));
    return true;
  } catch (error) {
    if (!(error instanceof ForeignEntryError)) throw error;
    console.error(`${service}: Cannot start:\n  ${error.message}`);
    process.exit(1);
  }
}
