/**
 * Configuration from environment variables, validated with zod (docs/architecture/README.md §1).
 *
 * `parseConfig(env)` is pure: it returns the typed configuration or throws a `ConfigError`
 * whose message names each wrong variable. server.ts validates at start-up (so a wrong value
 * stops the start) and resolves the secrets kept in DATA_DIR and the upstreams' URLs (its own
 * embedded services' when none are set); server/app.ts hands that resolved configuration to the
 * app once (`setAppConfig`), and the app reads it through `getConfig()`. Nothing is written into
 * `process.env`.
 *
 * This file is imported both by server.ts (run by Node's type stripping) and by the Vite
 * bundle, so it imports nothing but zod, proxy-addr (Express's reader of `trust proxy`) and node
 * built-ins; it holds no state server.ts uses.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { compile as compileTrust } from "proxy-addr";
import { z } from "zod";

const optionalUrl = z
  .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
  .transform((url) => url.replace(/\/+$/, ""))
  .optional();

const basePath = z
  .string()
  .regex(/^\/([A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*)?\/?$/, "must be a path such as / or /safewindow")
  .transform((p) => (p.length > 1 ? p.replace(/\/+$/, "") : "/"));

/**
 * TRUST_PROXY as Express's `trust proxy` setting takes it: `true` or `false`, a whole number of
 * proxies in front (hops, 0-32), or a comma-separated list of addresses, subnets and the names
 * loopback, linklocal and uniquelocal, checked by proxy-addr as Express checks it. Express reads a
 * string as a list only, so "true" or "2" given as text would fail at start or trust the address
 * 0.0.0.2 instead.
 */
const trustProxy = z
  .string()
  .transform((value, context): boolean | number | string => {
    const text = value.trim();
    if (text === "true" || text === "false") return text === "true";
    if (/^\d+$/.test(text) && Number(text) <= 32) return Number(text);
    if (!/^\d+$/.test(text) && isTrustList(text)) return text;
    context.addIssue({ code: "custom", message: "must be true, false, a number of proxies (0-32), or addresses and subnets such as loopback, 10.0.0.0/8" });
    return z.NEVER;
  });

/** True when Express's own reader of `trust proxy` (proxy-addr's compile) takes `text` as its comma-separated list: what it refuses, Express would refuse at start. */
function isTrustList(text: string): boolean {
  try {
    compileTrust(text.split(",").map((entry) => entry.trim()));
    return true;
  } catch {
    return false;
  }
}

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  BASE_PATH: basePath.default("/"),
  DATA_DIR: z.string().min(1).default("./data"),
  PUBLIC_URL: optionalUrl,
  SESSION_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  IDENTITY_URL: optionalUrl,
  IDENTITY_CLIENT_ID: z.string().min(1).default("safewindow-web"),
  IDENTITY_CLIENT_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
  CONSUMER_API_URL: optionalUrl,
  BUSINESS_API_URL: optionalUrl,
  DATABASE_URL: z
    .url({ protocol: /^postgres(ql)?$/, error: "must be a postgres:// URL" })
    .optional(),
  REDIS_URL: z.url({ protocol: /^rediss?$/, error: "must be a redis:// or rediss:// URL" }).optional(),
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL" }).optional(),
  MAIL_FROM: z.string().min(3).default("SafeWindow <no-reply@safewindow.local>"),
  SUPPORT_EMAIL: z.email("must be an e-mail address").default("support@safewindow.local"),
  /** The embedded consumer API's dispute reviewers: comma-separated e-mail addresses of accounts (default none). */
  REVIEWER_EMAILS: z
    .string()
    .default("")
    .transform((value) => value.split(",").map((e) => e.trim()).filter(Boolean))
    .refine((emails) => emails.every((e) => z.email().safeParse(e).success), "must be comma-separated e-mail addresses"),
  /**
   * Test only (docs/operating.md): `127.0.0.1:PORT` of the reference lab server that serves every
   * accepted lab's result links, with LAB_LINKS_TEST_CA (a PEM file) trusted for their hosts. Unset
   * in production: result links are then fetched from the labs' own sites.
   */
  LAB_LINKS_TEST_SERVER: z.string().optional(),
  LAB_LINKS_TEST_CA: z.string().optional(),
  /**
   * The embedded consumer API's signed-result trust (docs/product/labs.md §10.9): a JSON file of SMART Health
   * Card issuers trusted besides the VCI directory snapshot, and one of EU DCC document signers.
   */
  SHC_EXTRA_ISSUERS: z.string().optional(),
  DCC_TRUST_LIST: z.string().optional(),
  /** Bearer token that GET /metrics requires (Prometheus text); unset: /metrics is not served at all. */
  METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  TRUST_PROXY: trustProxy.default("loopback"),
  DEFAULT_TIME_ZONE: z.string().default("America/New_York"),
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
  AUTH_RATE_LIMIT: z.coerce.number().int().positive().default(60),
  VERIFY_RATE_LIMIT: z.coerce.number().int().positive().default(30),
  /** The embedded consumer API's PDF worker threads at most (each holds 60-70 MiB while it runs). */
  MAX_PDF_WORKERS: z.coerce.number().int().min(1).max(16).default(2),
  /**
   * Uploads (files and results by link) this process sends to the consumer API at once; more wait
   * in the app's queue (docs/architecture/results-pipeline.md §5 "Uploads at once"). At most the
   * consumer API's own limit (32).
   */
  UPLOADS_AT_ONCE: z.coerce.number().int().min(1).max(32).default(8),
  /** How long an upload may wait in that queue for its turn, ms; past it: 503 with Retry-After. */
  UPLOAD_QUEUE_WAIT_MS: z.coerce.number().int().positive().default(15_000),
  /**
   * Seconds a PDF worker thread stays without an upload before it stops (the next upload starts one,
   * and waits about 0.2 s for it to load pdf.js). Each holds 60-70 MiB while it runs
   * (docs/decisions/0013-bounded-v8-heap.md "Memory by part", "PDF threads stop after 10 s").
   */
  PDF_WORKER_IDLE_SECONDS: z.coerce.number().int().positive().default(10),
  /**
   * Seconds between two trims of glibc's malloc arenas, which give the memory freed since back to
   * the system (lib/malloc-trim.ts, docs/decisions/0018-malloc-trim.md); 0 turns the periodic trim off.
   */
  MALLOC_TRIM_SECONDS: z.coerce.number().int().min(0).max(3600).default(5),
});

export type Env = z.output<typeof envSchema>;

/** The resolved configuration: env values plus derived ones. */
export interface Config extends Env {
  /** http(s)://host[:port][/base] with no trailing slash; links in e-mails start here. */
  publicUrl: string;
  /** BASE_PATH as a prefix for paths: "" for "/", else "/base". */
  basePrefix: string;
}

/** Thrown when a variable is wrong; the message names every wrong variable. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

/**
 * Parses and validates configuration. IDENTITY_URL, CONSUMER_API_URL and BUSINESS_API_URL are set
 * all three (the upstreams run elsewhere; IDENTITY_CLIENT_SECRET is then required too) or none (the
 * reference services are embedded): docs/architecture/README.md §1.
 * @param env usually process.env
 * @throws ConfigError naming each wrong variable and why, or each missing upstream URL when only some are set
 */
export function parseConfig(env: Record<string, string | undefined>): Config {
  // An empty variable counts as unset (Docker and .env files often leave them empty).
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const value = parsed.data;
  // The reference services are embedded all together or not at all (docs/architecture/README.md §1): a
  // replica with some of them elsewhere would start the others on a private database of its own.
  const upstreams = ["IDENTITY_URL", "CONSUMER_API_URL", "BUSINESS_API_URL"] as const;
  const missing = upstreams.filter((name) => value[name] === undefined);
  if (missing.length > 0 && missing.length < upstreams.length) {
    const set = upstreams.filter((name) => !missing.includes(name)).join(", ");
    const lines = missing.map((name) => `  ${name}: required when ${set} ${set.includes(",") ? "are" : "is"} set (set all three upstream URLs, or none for the embedded services)`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  if (missing.length === 0 && value.IDENTITY_CLIENT_SECRET === undefined) {
    throw new ConfigError("Invalid configuration:\n  IDENTITY_CLIENT_SECRET: required when IDENTITY_URL is set");
  }
  const basePrefix = value.BASE_PATH === "/" ? "" : value.BASE_PATH;
  const publicUrl = value.PUBLIC_URL ?? `http://localhost:${value.PORT}${basePrefix}`;
  return { ...value, publicUrl, basePrefix };
}

let cached: Config | undefined;

/**
 * Sets the configuration `getConfig()` answers: server/app.ts calls it once, before the first
 * request, with the upstream URLs and secrets server.ts resolved.
 */
export function setAppConfig(config: Config): void {
  cached = config;
}

/**
 * The app's configuration: the one `setAppConfig` set, else (app modules run alone, as the client
 * tests run them) `process.env` parsed once.
 * @throws ConfigError when process.env is parsed and a variable is wrong
 */
export function getConfig(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}

/**
 * Returns the secret kept in `${dataDir}/${name}`, creating it (32 random bytes, base64url,
 * file mode 0600) on first use, so that restarts keep sessions and client credentials valid.
 */
export function keptSecret(dataDir: string, name: string): string {
  const file = path.join(dataDir, name);
  try {
    return readFileSync(file, "utf8").trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: "wx" });
  return secret;
}
