// Runs the business API alone: `node services/business/main.ts` (docs/architecture/README.md §1).
// Configuration from the environment, validated; SIGTERM / SIGINT stop it gracefully.
import { pino } from "pino";
import { z } from "zod";
import { databaseUrlSchema, errorSummary, logLevelSchema, parseEnvOrExit, portSchema, secureDataDirOrExit, stopOnSignals, unsetIfEmpty, upstreamExtensionsSchema } from "../shared/main.ts";
import { startBusinessService } from "./server.ts";

const envSchema = z.object({
  PORT: portSchema(5003),
  HOST: z.preprocess(unsetIfEmpty, z.string().default("127.0.0.1")),
  DATA_DIR: z.preprocess(unsetIfEmpty, z.string().default("./data")),
  DATABASE_URL: databaseUrlSchema,
  IDENTITY_URL: z.preprocess(unsetIfEmpty, z.url({ protocol: /^https?$/, error: "is required: the identity authority's http(s) URL" })),
  // Compared exactly with the token's `iss`, so taken as given (no trailing-slash trimming).
  IDENTITY_ISSUER: z.preprocess(unsetIfEmpty, z.string().optional()),
  LOG_LEVEL: logLevelSchema,
  // on (default) or off: plain mode, extension calls 404 and the product rules' fields only (docs/product/calls.md §7.4 "Extensions").
  UPSTREAM_EXTENSIONS: upstreamExtensionsSchema,
});

const env = parseEnvOrExit("business", envSchema, process.env);
const logger = pino({ level: env.LOG_LEVEL });
// Owner-only DATA_DIR (docs/security/data.md "DATA_DIR"): tightened before anything is written there.
secureDataDirOrExit("business", env.DATA_DIR, logger, "nothing to replace here: a separate identity authority replaces its own key when its DATA_DIR was open");

// Signal handlers go in before the start: a SIGTERM that arrives right after the listening line
// (before this module's await returns) still stops it gracefully, once the start has finished.
const service = startBusinessService({
  dataDir: env.DATA_DIR,
  databaseUrl: env.DATABASE_URL,
  identityUrl: env.IDENTITY_URL,
  identityIssuer: env.IDENTITY_ISSUER,
  logger,
  extensions: env.UPSTREAM_EXTENSIONS === "on",
  host: env.HOST,
  port: env.PORT,
}).catch((err: unknown) => {
  logger.fatal({ err: errorSummary(err) }, "business API failed to start");
  process.exit(1);
});

stopOnSignals(logger, async () => (await service).close());
await service;
