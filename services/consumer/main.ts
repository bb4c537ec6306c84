// Runs the consumer API alone: `node services/consumer/main.ts` (docs/architecture/README.md §1).
// Configuration from the environment, validated; SIGTERM / SIGINT stop it gracefully.
import { pino } from "pino";
import { z } from "zod";
import { databaseUrlSchema, errorSummary, logLevelSchema, parseEnvOrExit, portSchema, secureDataDirOrExit, stopOnSignals, unsetIfEmpty, upstreamExtensionsSchema } from "../shared/main.ts";
import { labTestServerFromEnv } from "./results/link.ts";
import type { DccSigner } from "./results/proof/dcc.ts";
import type { ShcIssuer } from "./results/proof/shc.ts";
import { readDccTrustList, readExtraIssuers } from "./results/proof/trust.ts";
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
  // on (default) or off: plain mode, extension calls 404 and the product rules' fields only (docs/product/calls.md §7.4 "Extensions").
  UPSTREAM_EXTENSIONS: upstreamExtensionsSchema,
  // Comma-separated e-mail addresses of the dispute reviewers (results/reviews.ts); default none.
  REVIEWER_EMAILS: z.preprocess(unsetIfEmpty, z.string().default("")),
  // The app's public URL (mails link to its pages), and the mail transport, as the identity authority's.
  PUBLIC_URL: z.preprocess(unsetIfEmpty, z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).default("http://localhost:3000")),
  SMTP_URL: z.preprocess(unsetIfEmpty, z.url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL" }).optional()),
  MAIL_FROM: z.preprocess(unsetIfEmpty, z.string().optional()),
  SUPPORT_EMAIL: z.preprocess(unsetIfEmpty, z.email().optional()),
  // The business API, which keeps the venues (GET /search/, check-in); unset: the venue calls answer 404.
  BUSINESS_API_URL: z.preprocess(unsetIfEmpty, z.url({ protocol: /^https?$/, error: "must be the business API's http(s) URL" }).optional()),
  // Test only (results/link.ts labTestServerFromEnv): the reference lab server and its certificate.
  LAB_LINKS_TEST_SERVER: z.preprocess(unsetIfEmpty, z.string().optional()),
  LAB_LINKS_TEST_CA: z.preprocess(unsetIfEmpty, z.string().optional()),
  // Signed results (results/proof/trust.ts): JSON files of extra SMART Health Card issuers and of EU DCC document signers.
  SHC_EXTRA_ISSUERS: z.preprocess(unsetIfEmpty, z.string().optional()),
  DCC_TRUST_LIST: z.preprocess(unsetIfEmpty, z.string().optional()),
  // The secret the pass keys are sealed with (pass/keys.ts); unset: DATA_DIR/consumer-pass-secret, made at
  // first start. Replicas on one DATABASE_URL share it.
  CONSUMER_PASS_SECRET: z.preprocess(unsetIfEmpty, z.string().min(32, "must be at least 32 characters").optional()),
});

const env = parseEnvOrExit("consumer", envSchema, process.env);
const logger = pino({ level: env.LOG_LEVEL });
// Owner-only DATA_DIR (docs/security/data.md "DATA_DIR"): tightened before anything is written there.
const dataDirWasOpen = secureDataDirOrExit("consumer", env.DATA_DIR, logger, "the pass keys are replaced at this start (a separate identity authority replaces its own key when its DATA_DIR was open)");

let labTestServer: ReturnType<typeof labTestServerFromEnv>;
let proof: { shcIssuers?: ShcIssuer[]; dccSigners?: DccSigner[] };
try {
  labTestServer = labTestServerFromEnv(env.LAB_LINKS_TEST_SERVER, env.LAB_LINKS_TEST_CA);
  proof = {
    ...(env.SHC_EXTRA_ISSUERS ? { shcIssuers: readExtraIssuers(env.SHC_EXTRA_ISSUERS) } : {}),
    ...(env.DCC_TRUST_LIST ? { dccSigners: readDccTrustList(env.DCC_TRUST_LIST) } : {}),
  };
} catch (err) {
  logger.fatal({ err: errorSummary(err) }, "consumer API failed to start");
  process.exit(1);
}

// Signal handlers go in before the start: a SIGTERM that arrives right after the listening line
// (before this module's await returns) still stops it gracefully, once the start has finished.
const service = startConsumerService({
  dataDir: env.DATA_DIR,
  ...(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : {}),
  identityUrl: env.IDENTITY_URL,
  ...(env.IDENTITY_ISSUER ? { identityIssuer: env.IDENTITY_ISSUER } : {}),
  logger,
  extensions: env.UPSTREAM_EXTENSIONS === "on",
  host: env.HOST,
  port: env.PORT,
  reviewers: env.REVIEWER_EMAILS.split(","),
  publicUrl: env.PUBLIC_URL,
  ...(env.SMTP_URL ? { smtpUrl: env.SMTP_URL } : {}),
  ...(env.MAIL_FROM ? { mailFrom: env.MAIL_FROM } : {}),
  ...(env.SUPPORT_EMAIL ? { supportEmail: env.SUPPORT_EMAIL } : {}),
  businessUrl: env.BUSINESS_API_URL,
  ...(labTestServer ? { links: { testServer: labTestServer } } : {}),
  proof,
  ...(env.CONSUMER_PASS_SECRET ? { passSecret: env.CONSUMER_PASS_SECRET } : {}),
  replacePassKeys: dataDirWasOpen,
}).catch((err: unknown) => {
  logger.fatal({ err: errorSummary(err) }, "consumer API failed to start");
  process.exit(1);
});

stopOnSignals(logger, async () => (await service).close());
await service;
