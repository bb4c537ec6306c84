/**
 * The web app's side of the data thread (server/data-thread.ts; docs/decisions/0016-services-in-a-data-thread.md,
 * docs/architecture/README.md §1): starts it when this server needs it, waits until it is ready, and
 * reaches it over a MessagePort for the session store, the SIGUSR2 backup, /metrics and the close.
 *
 * The thread is needed when an upstream is embedded (IDENTITY_URL, CONSUMER_API_URL or
 * BUSINESS_API_URL unset) or when sessions are not in Redis (they are then in a database, which only
 * the data thread opens). With every upstream external and Redis, no thread starts and nothing of
 * the services or the databases is loaded.
 *
 * Every call to the thread settles: it rejects when the thread has died (pending calls at once, later
 * calls when made) and after `callTimeoutMs` when the thread does not answer.
 */
import { MessageChannel, Worker } from "node:worker_threads";
import { createBirpc, type BirpcReturn } from "birpc";
import type { Config } from "../app/server/config.server.ts";
import type { SessionDataStore } from "../app/server/session-store.server.ts";
import type { DataThreadCalls, DataThreadData, DataThreadReady, MetricsJson } from "./data-thread.ts";

export type { MetricsJson } from "./data-thread.ts";

/** How long a call to the data thread may take before it rejects, ms (a backup of a large database included). */
const callTimeoutMs = 120_000;
/** How long the thread may take to close its services and databases, ms; then it is terminated. */
const closeTimeoutMs = 30_000;

/** What `startUpstreams` needs: plain values, handed to the thread as workerData. */
export interface UpstreamsOptions {
  /** The server's parsed configuration. */
  config: Config;
  /** The identity client secret the embedded identity authority accepts (unused when IDENTITY_URL is set). */
  identityClientSecret: string | undefined;
  /** DATA_DIR was open to other users at this start: the embedded identity authority replaces its signing key, and the consumer API its pass keys. */
  rotateSigningKey: boolean;
  /** UPSTREAM_EXTENSIONS=on. */
  extensions: boolean;
  /** Sessions are in Redis (REDIS_URL). */
  redisSessions: boolean;
  /**
   * Called once when the data thread dies after it was ready (an uncaught error, or an exit nobody
   * asked for), with the error or an Error naming the exit code. The server must stop: the services
   * and the sessions are gone (docs/decisions/0016-services-in-a-data-thread.md).
   */
  onCrash: (error: Error) => void;
}

/** The started upstreams. */
export interface Upstreams {
  /** Base URLs (no trailing slash) of the identity authority, consumer API and business API, embedded or configured. */
  identityUrl: string;
  consumerUrl: string;
  businessUrl: string;
  /** The session store served by the data thread; undefined when sessions are in Redis. */
  sessions?: SessionDataStore;
  /**
   * Writes a backup of the embedded database to `file` (lib/db/backup.ts), in the data thread.
   * @returns the backup's size in bytes
   * @throws Error when there is no embedded database (DATABASE_URL is set, or no data thread)
   */
  backup(file: string): Promise<number>;
  /** The data thread's metrics (the services' series) as prom-client JSON; empty without a thread. */
  metrics(): Promise<MetricsJson>;
  /** Closes the services and the databases in the thread and ends it. Safe to call twice, and after a crash. */
  close(): Promise<void>;
  /** The data thread itself, for tests (a crash is simulated by terminating it); undefined when none runs. */
  worker?: Worker;
}

/** True when this server needs the data thread (an embedded upstream, or sessions in a database). */
export function needsDataThread(config: Config, redisSessions: boolean): boolean {
  return !config.IDENTITY_URL || !config.CONSUMER_API_URL || !config.BUSINESS_API_URL || !redisSessions;
}

/**
 * Starts the data thread when needed (needsDataThread) and resolves once it is ready: every
 * embedded service listening, every migration run, the session table in place.
 * @returns the upstreams' URLs, the session store when the thread holds it, backup, metrics and close
 * @throws the thread's own error when it fails before it is ready (a database that cannot be
 *   opened, a port that cannot be taken), or an Error naming its exit code
 */
export async function startUpstreams(options: UpstreamsOptions): Promise<Upstreams> {
  const { config } = options;
  if (!needsDataThread(config, options.redisSessions)) {
    return {
      identityUrl: config.IDENTITY_URL as string,
      consumerUrl: config.CONSUMER_API_URL as string,
      businessUrl: config.BUSINESS_API_URL as string,
      backup: async () => {
        throw new Error("no embedded database here (every upstream and the sessions are elsewhere)");
      },
      metrics: async () => [],
      close: async () => {},
    };
  }

  const { port1, port2 } = new MessageChannel();
  const workerData: DataThreadData = {
    config: options.config,
    identityClientSecret: options.identityClientSecret,
    rotateSigningKey: options.rotateSigningKey,
    extensions: options.extensions,
    redisSessions: options.redisSessions,
    port: port2,
  };
  const worker = new Worker(new URL("./data-thread.ts", import.meta.url), { workerData, transferList: [port2], name: "data" });
  const rpc: BirpcReturn<DataThreadCalls, Record<string, never>> = createBirpc<DataThreadCalls, Record<string, never>>(
    {},
    {
      post: (message) => port1.postMessage(message),
      on: (handler) => port1.on("message", handler),
      off: (handler) => port1.off("message", handler),
      timeout: callTimeoutMs,
    },
  );

  let ready = false;
  let closing = false;
  let exited = false;
  /** Why calls fail from now on (the thread died or was closed); undefined while it runs. */
  let gone: Error | undefined;
  /** Ends the connection: every pending and later call rejects with `error`. */
  const disconnect = (error: Error) => {
    gone ??= error;
    if (!rpc.$closed) rpc.$close(error);
    port1.close();
  };
  /** `method` of the thread called with `args`; rejects at once, naming the data thread, when it is gone. */
  const call = async <K extends keyof DataThreadCalls>(method: K, ...args: Parameters<DataThreadCalls[K]>): Promise<Awaited<ReturnType<DataThreadCalls[K]>>> => {
    if (gone) throw gone;
    return rpc.$call(method, ...args);
  };

  const readyMessage = await new Promise<DataThreadReady>((resolve, reject) => {
    worker.on("message", (message: DataThreadReady) => {
      if (message?.type !== "ready") return;
      ready = true;
      resolve(message);
    });
    let died = false;
    /** The thread is gone: every call rejects from now on; before it was ready the start fails, afterwards the server is told, once. */
    const dead = (error: Error) => {
      disconnect(new Error(`the data thread stopped: ${error.message}`));
      if (died) return;
      died = true;
      if (!ready) reject(error);
      else if (!closing) options.onCrash(error);
    };
    worker.on("error", (error) => dead(error instanceof Error ? error : new Error(String(error))));
    worker.on("exit", (code) => {
      exited = true;
      dead(new Error(`the data thread exited with code ${code}`));
    });
  });

  const sessions: SessionDataStore | undefined = readyMessage.sessions
    ? {
        createData: (data, expires) => call("createData", data, expires),
        readData: (id) => call("readData", id),
        readSession: (id) => call("readSession", id),
        updateData: (id, data, expires) => call("updateData", id, data, expires),
        deleteData: (id) => call("deleteData", id),
        userGeneration: (userName) => call("userGeneration", userName),
        nextUserGeneration: (userName) => call("nextUserGeneration", userName),
        deleteUserSessions: (userName) => call("deleteUserSessions", userName),
      }
    : undefined;

  let closed: Promise<void> | undefined;
  return {
    identityUrl: readyMessage.identityUrl,
    consumerUrl: readyMessage.consumerUrl,
    businessUrl: readyMessage.businessUrl,
    ...(sessions ? { sessions } : {}),
    backup: (file) => call("backup", file),
    metrics: () => call("metrics"),
    close() {
      closed ??= (async () => {
        closing = true;
        // After a crash there is nothing left to close.
        if (exited || gone) {
          await worker.terminate();
          return;
        }
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<never>((_resolve, reject) => {
          timer = setTimeout(() => reject(new Error(`the data thread did not close within ${closeTimeoutMs} ms: terminated`)), closeTimeoutMs);
        });
        try {
          await Promise.race([call("close"), late]);
        } finally {
          clearTimeout(timer);
          disconnect(new Error("the data thread is closed"));
          await worker.terminate();
        }
      })();
      return closed;
    },
    worker,
  };
}
