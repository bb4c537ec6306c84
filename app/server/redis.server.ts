/**
 * The Redis connection for scale-out (docs/architecture/README.md §1): with `REDIS_URL` set, sessions and the
 * account-form rate-limit counters live in Redis, so N replicas of the app behind a load
 * balancer share them. Without it the one-machine defaults stay (session files under DATA_DIR,
 * counters in memory).
 *
 * Imported both by server.ts (rate limits, readiness) and by the app bundle (sessions), so it
 * imports nothing but @redis/client (when it connects) and node built-ins. Each side opens its own
 * connection.
 *
 * Failure policy: the first connection must succeed within `connectTimeoutMs`, else
 * `connectRedis` rejects with a `RedisUnavailableError` (the start stops, naming REDIS_URL but
 * never its value, which may hold a password). Once connected, a lost connection is retried
 * with backoff, and commands fail at once while it is down (no offline queue), so a request
 * gets an error page instead of hanging.
 */
import type * as RedisModule from "@redis/client";

/** A client as `connectRedis` opens it (RESP3, no modules). */
export type RedisClient = ReturnType<typeof newClient>;

function newClient(redis: typeof RedisModule, url: string, reconnectStrategy: (retries: number, cause: Error) => number | Error) {
  return redis.createClient({
    url,
    RESP: 3,
    disableOfflineQueue: true,
    socket: { connectTimeout: connectTimeoutMs, reconnectStrategy },
  });
}

/** Time allowed to open the connection, ms. */
export const connectTimeoutMs = 5_000;
/** Longest wait between reconnection attempts, ms. */
const maxReconnectDelayMs = 3_000;

/** The first connection to REDIS_URL failed. The message names the variable, not its value. */
export class RedisUnavailableError extends Error {
  override name = "RedisUnavailableError";
}

/** Where connection errors go: a pino logger or anything with the same `error(obj, msg)`. */
export interface ErrorLog {
  error(details: object, message: string): void;
}

/**
 * Opens a connection to `url` (redis:// or rediss://).
 * @param log receives connection errors after the start, with the error's code only
 * @throws RedisUnavailableError when the server cannot be reached or refuses the credentials
 */
export async function connectRedis(url: string, log: ErrorLog): Promise<RedisClient> {
  let ready = false;
  // Loaded only with REDIS_URL: a server without Redis never holds the client (about 5 MiB of heap).
  const client = newClient(await import("@redis/client"), url, (retries, cause) => (ready ? Math.min(100 * 2 ** retries, maxReconnectDelayMs) : cause));
  // Without a listener an 'error' event would end the process; the error's text can carry the
  // host and port, so only its code is logged.
  client.on("error", (error: NodeJS.ErrnoException) => {
    if (ready) log.error({ code: error.code ?? error.name }, "redis connection error");
  });
  try {
    await client.connect();
  } catch (error) {
    if (client.isOpen) client.destroy();
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).name;
    throw new RedisUnavailableError(`REDIS_URL: cannot connect to Redis (${code})`);
  }
  ready = true;
  return client;
}

/** True when Redis answers PING within 2 s (for /readyz). */
export async function redisReachable(client: RedisClient): Promise<boolean> {
  try {
    const answer = await Promise.race([
      client.ping(),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error("timeout")), 2_000).unref()),
    ]);
    return answer === "PONG";
  } catch {
    return false;
  }
}
