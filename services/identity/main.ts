// Runs the identity authority alone: `node services/identity/main.ts` (DESIGN.md §1).
// Configuration from the environment, validated; SIGTERM / SIGINT stop it gracefully.
import { pino } from "pino";
import { z } from "zod";
import { startIdentityService } from "./server.ts";

const unsetIfEmpty = (v: unknown) => (v === "" ? undefined : v);
const httpUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" });

const envSchema = z.object({
  PORT: z.preprocess(unsetIfEmpty, z.coerce.number({ error: "must be a number" }).int("must be an integer").min(0).max(65535).default(5001)),
  HOST: z.preprocess(unsetIfEmpty, z.string().default("127.0.0.1")),
  DATA_DIR: z.preprocess(unsetIfEmpty, z.string().default("./data")),
  DATABASE_URL: z.preprocess(unsetIfEmpty, z.url({ protocol: /^postgres(ql)?$/, error: "must be a postgres:// or postgresql:// URL" }).optional()),
  PUBLIC_URL: z.preprocess(unsetIfEmpty, httpUrl.default("http://localhost:3000")),
  SMTP_URL: z.preprocess(unsetIfEmpty, z.url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL" }).optional()),
  MAIL_FROM: z.preprocess(unsetIfEmpty, z.string().optional()),
  IDENTITY_ISSUER: z.preprocess(unsetIfEmpty, httpUrl.optional()),
  // Same default as the web app's IDENTITY_CLIENT_ID, so only the secret must be shared.
  IDENTITY_CLIENT_ID: z.preprocess(unsetIfEmpty, z.string().default("safewindow-web")),
  IDENTITY_CLIENT_SECRET: z.preprocess(unsetIfEmpty, z.string({ error: "is required" }).min(16, "must be at least 16 characters")),
  LOG_LEVEL: z.preprocess(unsetIfEmpty, z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info")),
});

const parsed = envSchema.safeParse(process.env);
if (!parsed.success) {
  // Name the variable and the rule, never the value (it may be a secret).
  for (const issue of parsed.error.issues) console.error(`identity: ${issue.path.join(".")} ${issue.message}`);
  process.exit(1);
}
const env = parsed.data;
const logger = pino({ level: env.LOG_LEVEL });

const service = await startIdentityService({
  dataDir: env.DATA_DIR,
  ...(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : {}),
  publicUrl: env.PUBLIC_URL.replace(/\/+$/, ""),
  ...(env.SMTP_URL ? { smtpUrl: env.SMTP_URL } : {}),
  ...(env.MAIL_FROM ? { mailFrom: env.MAIL_FROM } : {}),
  ...(env.IDENTITY_ISSUER ? { issuer: env.IDENTITY_ISSUER.replace(/\/+$/, "") } : {}),
  clients: [{ clientId: env.IDENTITY_CLIENT_ID, clientSecret: env.IDENTITY_CLIENT_SECRET }],
  logger,
  host: env.HOST,
  port: env.PORT,
}).catch((err: unknown) => {
  logger.fatal({ err: { type: (err as Error).name, message: (err as Error).message } }, "identity authority failed to start");
  process.exit(1);
});

let stopping = false;
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    if (stopping) {
      logger.warn({ signal }, "second signal: exiting now");
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, "stopping");
    service.close().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err: { type: (err as Error).name, message: (err as Error).message } }, "error while stopping");
        process.exit(1);
      },
    );
  });
}
