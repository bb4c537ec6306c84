// Runs the consumer API alone: `node services/consumer/main.ts` (docs/architecture.md §1).
// Configuration from the environment, validated; SIGTERM / SIGINT stop it gracefully.
import { pino } from "pino";
import { z } from "zod";
import { databaseUrlSchema, errorSummary, logLevelSchema, parseEnvOrExit, portSchema, stopOnSignals, unsetIfEmpty } from "../shared/main.ts";
import { startConsumerService } from "./server.ts";

const envSchema = z.object({
  PORT: portSchema(5002),
  HOST: z.preprocess(unsetIfEmpty, z.string().default("127.0.0.1")),
  DATA_DIR: z.preprocess(unsetIfEmpty, z.string().default("./data")),
  DATABASE_URL: databaseUrlSchema,
  IDENTITY_URL: z.preprocess(unsetIfEmpty, z.url({ protocol: /^https?$/, error: "is required: the identity authority's http(s) URL" })),
  // Compared exactly with the token's `iss`, so taken as given (no trailing-slash trimming).
  IDENTITY_ISSUER: z.preprocess(unsetIfEmpty, z.string().optional()),
  LOG_LEVEL: logLevelSchema,
  // Comma-separated e-mail addresses of the dispute reviewers (results/reviews.ts); default none.
  REVIEWER_EMAILS: z.preprocess(unsetIfEmpty, z.string().default("")),
});

const env = parseEnvOrExit("consumer", envSchema, process.env);
const logger = pino({ level: env.LOG_LEVEL });

const service = await startConsumerService({
  dataDir: env.DATA_DIR,
  ...(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : {}),
  identityUrl: env.IDENTITY_URL,
  ...(env.IDENTITY_ISSUER ? { identityIssuer: env.IDENTITY_ISSUER } : {}),
  logger,
  host: env.HOST,
  port: env.PORT,
  reviewers: env.REVIEWER_EMAILS.split(","),
}).catch((err: unknown) => {
  logger.fatal({ err: errorSummary(err) }, "consumer API failed to start");
  process.exit(1);
});

stopOnSignals(logger, () => service.close());
