// The reference consumer API as a service (docs/architecture/README.md §1): database, migrations, token
// verification against the identity authority, and the HTTP app on one listening socket.
// server.ts at the repo root embeds it; main.ts runs it alone.
import path from "node:path";
import { sql, type Kysely } from "kysely";
import type { Logger } from "pino";
import { createDatabase } from "../../lib/db/database.ts";
import { migrateToLatest } from "../../lib/db/migrate.ts";
import { keptDataDirSecret } from "../../lib/data-dir.ts";
import { closeHttp, listenHttp } from "../shared/listen.ts";
import { DEFAULT_MAIL_FROM, DEFAULT_SUPPORT_EMAIL, createMailer } from "../shared/mail.ts";
import type { Mailer } from "../shared/mail.ts";
import type { QueueTimings } from "../shared/outbox.ts";
import { checkIdentityUrl, createTokenVerifier } from "../shared/auth.ts";
import { createConsumerApp } from "./http.ts";
import { createBusinessClient } from "./venues.ts";
import { consumerMailRenderer } from "./mail.ts";
import { createConsumerOutbox } from "./outbox.ts";
import type { ConsumerOutbox } from "./outbox.ts";
import { createPdfPool } from "./results/pool.ts";
import type { PdfPool, PdfPoolOptions } from "./results/pool.ts";
import { reviewerList } from "./results/reviews.ts";
import type { LinkFetchOptions } from "./results/link.ts";
import type { DccSigner } from "./results/proof/dcc.ts";
import type { ShcIssuer } from "./results/proof/shc.ts";
import { proofTrust } from "./results/proof/trust.ts";
import { rematchResults } from "./results/store.ts";
import { PASS_SECRET_FILE, loadPassKeys } from "./pass/keys.ts";
import type { PassKeyOptions } from "./pass/keys.ts";
import type { GuessLimits } from "./guesses.ts";
import { CONSUMER_MIGRATION_TABLE, consumerMigrations } from "./schema/migrations.ts";
import type { ConsumerDatabase } from "./schema/tables.ts";

export interface ConsumerOptions {
  /** PGlite lives in `${dataDir}/consumer` unless databaseUrl. */
  dataDir: string;
  /** PostgreSQL connection string; tables are prefixed consumer_ so it can be shared with identity. */
  databaseUrl?: string;
  /**
   * An open database to keep the consumer_ tables in, shared with the embedding process (server.ts's
   * one embedded database, lib/db/embedded.ts); the service migrates it but does not close it.
   * Without it the service opens its own (`databaseUrl`, or PGlite under `${dataDir}/consumer`).
   */
  db?: Kysely<any>;
  /** The identity authority's base URL; its JWKS is at `${identityUrl}/.well-known/jwks.json`. */
  identityUrl: string;
  /**
   * Expected JWT `iss`. Default: `issuer` of `${identityUrl}/.well-known/openid-configuration`,
   * read on the first token (the authority may start after us; a failed read is retried).
   */
  identityIssuer?: string;
  logger: Logger;
  /** Default 127.0.0.1 and 0 (ephemeral). */
  host?: string;
  port?: number;
  /** The clock (token expiry, age rule, time stamps), for tests. */
  now?: () => Date;
  /** The PDF worker pool's threads and budgets (results/pool.ts); defaults suit production. */
  pdf?: PdfPoolOptions;
  /** E-mail addresses of the provider's dispute reviewers (results/reviews.ts); default none. */
  reviewers?: readonly string[];
  /**
   * False: plain mode (UPSTREAM_EXTENSIONS=off, docs/product/calls.md §7.4 "Extensions"): extension
   * calls answer 404 and answers carry the product rules' fields only (shared/http.ts plainMode). Default true.
   */
  extensions?: boolean;
  /** The app's public URL incl. base path: mails link to its pages. Default http://localhost:3000. */
  publicUrl?: string;
  /** nodemailer SMTP URL; when unset each mail is written to `${dataDir}/outbox/<ISO time>-<random>.eml`. */
  smtpUrl?: string;
  /** The From of every mail; default services/shared/mail.ts DEFAULT_MAIL_FROM. */
  mailFrom?: string;
  /** Where mails send other questions; default support@safewindow.local. */
  supportEmail?: string;
  /** Pacing of the mail outbox (services/shared/outbox.ts DEFAULT_QUEUE_TIMINGS); tests shorten it. */
  mailTimings?: Partial<QueueTimings>;
  /** The business API's base URL (venues: search, check-in); without it the venue calls answer 404 no_venues. */
  businessUrl?: string | undefined;
  /** How result links are fetched (results/link.ts: resolver, time and byte limits, the test-only lab server). */
  links?: LinkFetchOptions;
  /**
   * Who may sign a result besides the VCI directory snapshot (results/proof/trust.ts): SMART Health Card
   * issuers (SHC_EXTRA_ISSUERS) and EU DCC document signers (DCC_TRUST_LIST).
   */
  proof?: { shcIssuers?: readonly ShcIssuer[]; dccSigners?: readonly DccSigner[] };
  /** The check-in code guess limits per 10 minutes (guesses.ts); default GUESS_LIMITS, which tests lower. */
  checkinLimits?: Partial<GuessLimits>;
  /** How long an e-mail stored for search is trusted before a call writes it again, ms (subscriptions.ts EmailMemory); default EMAIL_MEMORY_TTL_MS. */
  emailMemoryMs?: number;
  /**
   * The secret the pass keys are sealed with (CONSUMER_PASS_SECRET, at least 32 characters), instead of
   * `${dataDir}/consumer-pass-secret` (made 0600 on first start). The same on every replica of one database.
   */
  passSecret?: string;
  /** DATA_DIR was open to other local users at this start: every pass key is replaced (pass/keys.ts). */
  replacePassKeys?: boolean;
  /** Overrides of the pass keys' lead and rotation age, ms (pass/keys.ts PASS_KEY_LEAD_MS, PASS_KEY_ROTATE_AFTER_MS); tests shorten them. */
  passKeyTimings?: { leadMs?: number; rotateAfterMs?: number };
}

export interface ConsumerService {
  /** Base URL the service listens on, e.g. http://127.0.0.1:41235 (no trailing slash). */
  url: string;
  /**
   * The service's open database, for an embedding process that keeps its own tables beside the
   * consumer_ ones. Closed by `close()` unless it was given in the options.
   */
  db: Kysely<ConsumerDatabase>;
  /** Stops accepting connections, lets requests in flight finish (up to 5 s), closes the database. Idempotent. */
  close(): Promise<void>;
}

/**
 * Starts the consumer API: opens the database (PGlite under dataDir, or PostgreSQL), migrates
 * it and listens on host:port. Nothing is asked of the identity authority until the first
 * token arrives.
 * @returns the base URL and a close function.
 * @throws Error for invalid options, an unreachable database, a failed migration or a port in use.
 */
export async function startConsumerService(opts: ConsumerOptions): Promise<ConsumerService> {
  const identityUrl = checkIdentityUrl("consumer", opts.identityUrl);
  const now = opts.now ?? (() => new Date());
  // The embedding app may already have bound `service`; binding it twice duplicates the JSON key.
  const logger = "service" in opts.logger.bindings() ? opts.logger : opts.logger.child({ service: "consumer" });
  const shared = opts.db !== undefined;
  const db: Kysely<ConsumerDatabase> =
    opts.db ??
    (await createDatabase<ConsumerDatabase>({
      dataDir: opts.dataDir,
      ...(opts.databaseUrl ? { databaseUrl: opts.databaseUrl } : {}),
      name: "consumer",
    }));
  let pool: PdfPool | undefined;
  let mailer: Mailer | undefined;
  let outbox: ConsumerOutbox | undefined;
  try {
    // The trust anchors first: a snapshot that does not verify stops the start (results/proof/trust.ts).
    const trust = proofTrust(opts.proof ?? {});
    const applied = await migrateToLatest(db, consumerMigrations, CONSUMER_MIGRATION_TABLE);
    if (applied.length > 0) logger.info({ migrations: applied }, "consumer database migrated");
    // The pass keys before serving: a first key, or a tightening start's new set (pass/keys.ts).
    const passKeyOptions: PassKeyOptions = { secret: opts.passSecret ?? keptDataDirSecret(opts.dataDir, PASS_SECRET_FILE), ...opts.passKeyTimings };
    const passKeys = await loadPassKeys(db, now(), { ...passKeyOptions, replace: opts.replacePassKeys ?? false });
    if (passKeys.deleted.length > 0 && opts.replacePassKeys) logger.warn({ deleted: passKeys.deleted, kid: passKeys.signing.kid }, "pass keys replaced: DATA_DIR was open to other users; passes issued before no longer check");
    else if (passKeys.made.length > 0) logger.info({ kid: passKeys.made }, "pass key made");

    const { server, url, port } = await listenHttp(opts.host ?? "127.0.0.1", opts.port ?? 0);
    pool = createPdfPool(logger, opts.pdf);
    mailer = createMailer({
      ...(opts.smtpUrl ? { smtpUrl: opts.smtpUrl } : {}),
      from: opts.mailFrom ?? DEFAULT_MAIL_FROM,
      outboxDir: path.join(opts.dataDir, "outbox"),
      logger,
    });
    outbox = createConsumerOutbox({
      db,
      mailer,
      render: consumerMailRenderer((opts.publicUrl ?? "http://localhost:3000").replace(/\/+$/, ""), opts.supportEmail ?? DEFAULT_SUPPORT_EMAIL),
      logger,
      ...(opts.mailTimings ? { timings: opts.mailTimings } : {}),
    });
    outbox.start();
    const app = createConsumerApp({
      outbox,
      // A profile change re-runs matching of the stored results (docs/architecture/results-pipeline.md §5).
      profiles: { db, onProfileChanged: rematchResults },
      results: { db, pool, proofTrust: trust, ...(opts.links ? { links: opts.links } : {}) },
      reviewers: reviewerList(opts.reviewers ?? []),
      ...(opts.extensions === false ? { extensions: false } : {}),
      business: createBusinessClient(opts.businessUrl?.replace(/\/+$/, "")),
      ...(opts.checkinLimits ? { checkinLimits: opts.checkinLimits } : {}),
      ...(opts.emailMemoryMs !== undefined ? { emailMemoryMs: opts.emailMemoryMs } : {}),
      passKeys: passKeyOptions,
      verifier: createTokenVerifier({ identityUrl, ...(opts.identityIssuer ? { issuer: opts.identityIssuer } : {}), now }),
      logger,
      now,
      checkDatabase: async () => {
        await sql`select 1`.execute(db);
      },
    });
    server.on("request", app);
    logger.info({ port, storage: opts.databaseUrl ? "postgresql" : "pglite" }, "consumer API listening");
    if (opts.links?.testServer) logger.warn({ labTestServer: `${opts.links.testServer.address}:${opts.links.testServer.port}` }, "result links go to the test lab server: never in production");

    let closing: Promise<void> | undefined;
    const openOutbox = outbox;
    const openMailer = mailer;
    return {
      url,
      db,
      close() {
        closing ??= (async () => {
          await closeHttp(server);
          await openOutbox.close();
          openMailer.close();
          await pool?.close();
          if (!shared) await db.destroy();
          logger.info("consumer API stopped");
        })();
        return closing;
      },
    };
  } catch (err) {
    await outbox?.close().catch(() => {});
    mailer?.close();
    await pool?.close().catch(() => {});
    if (!shared) await db.destroy().catch(() => {});
    throw err;
  }
}
