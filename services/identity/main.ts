// Runs the identity authority alone: `node services/identity/main.ts` (docs/architecture/README.md §1).
// Configuration from the environment, validated; SIGTERM / SIGINT stop it gracefully.
import { pino } from "pino";
import { z } from "zod";
import { databaseUrlSchema, errorSummary, logLevelSchema, parseEnvOrExit, portSchema, secureDataDirOrExit, stopOnSignals, unsetIfEmpty, upstreamExtensionsSchema } from "../shared/main.ts";
import { startIdentityService } from "./server.ts";

const httpUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" });

const envSchema = z.object({
  PORT: portSchema(5001),
  HOST: z.preprocess(unsetIfEmpty, z.string().default("127.0.0.1")),
  DATA_DIR: z.preprocess(unsetIfEmpty, z.string().default("./data")),
  DATABASE_URL: databaseUrlSchema,
  PUBLIC_URL: z.preprocess(unsetIfEmpty, httpUrl.default("http://localhost:3000")),
  SMTP_URL: z.preprocess(unsetIfEmpty, z.url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL" }).optional()),
  MAIL_FROM: z.preprocess(unsetIfEmpty, z.string().optional()),
  // Named in notices of account changes as where to write when the change was not theirs; the
  // web app's SUPPORT_EMAIL, so one value configures both (services/identity/README.md "Mails").
  SUPPORT_EMAIL: z.preprocess(unsetIfEmpty, z.email("must be an e-mail address").optional()),
  // The JWT issuer; unset: `${PUBLIC_URL}/identity`. Same name as the consumer API's expected
  // issuer, so one value configures both (services/identity/README.md "Issuer").
  IDENTITY_ISSUER: z.preprocess(
    unsetIfEmpty,
    httpUrl.refine((v) => !v.includes("?") && !v.includes("#"), "must not have a query or fragment").optional(),
  ),
  // Same default as the web app's IDENTITY_CLIENT_ID, so only the secret must be shared.
  IDENTITY_CLIENT_ID: z.preprocess(unsetIfEmpty, z.string().default("safewindow-web")),
  IDENTITY_CLIENT_SECRET: z.preprocess(unsetIfEmpty, z.string({ error: "is required" }).min(16, "must be at least 16 characters")),
  // The secret the signing keys are sealed with; unset: DATA_DIR/identity-signing-secret, made at
  // the first start. Identity authorities sharing one DATABASE_URL need the same one
  // (docs/decisions/0015-owner-only-data-dir.md).
  IDENTITY_SIGNING_SECRET: z.preprocess(unsetIfEmpty, z.string().min(32, "must be at least 32 characters").optional()),
  LOG_LEVEL: logLevelSchema,
  // on (default) or off: off is plain mode, extension calls 404 and the product rules' fields only (docs/product/calls.md §7 "Extensions").
  UPSTREAM_EXTENSIONS: upstreamExtensionsSchema,
});

const env = parseEnvOrExit("identity", envSchema, process.env);
const logger = pino({ level: env.LOG_LEVEL });
// Owner-only DATA_DIR (docs/security/data.md "DATA_DIR"): tightened before anything is written there.
const dataDirWasOpen = secureDataDirOrExit("identity", env.DATA_DIR, logger, "the identity signing key is replaced at this start");

// Signal handlers go in before the start: a SIGTERM that arrives right after the listening line
// (before this module's await returns) still stops it gracefully, once the start has finished.
const service = startIdentityService({
  dataDir: env.DATA_DIR,
  ...(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : {}),
  publicUrl: env.PUBLIC_URL.replace(/\/+$/, ""),
  ...(env.SMTP_URL ? { smtpUrl: env.SMTP_URL } : {}),
  ...(env.MAIL_FROM ? { mailFrom: env.MAIL_FROM } : {}),
  ...(env.SUPPORT_EMAIL ? { supportEmail: env.SUPPORT_EMAIL } : {}),
  ...(env.IDENTITY_ISSUER ? { issuer: env.IDENTITY_ISSUER.replace(/\/+$/, "") } : {}),
  clients: [{ clientId: env.IDENTITY_CLIENT_ID, clientSecret: env.IDENTITY_CLIENT_SECRET }],
  logger,
  extensions: env.UPSTREAM_EXTENSIONS === "on",
  rotateSigningKey: dataDirWasOpen,
  ...(env.IDENTITY_SIGNING_SECRET ? { signingSecret: env.IDENTITY_SIGNING_SECRET } : {}),
  host: env.HOST,
  port: env.PORT,
}).catch((err: unknown) => {
  logger.fatal({ err: errorSummary(err) }, "identity authority failed to start");
  process.exit(1);
});

stopOnSignals(logger, async () => (await service).close());
await service;
