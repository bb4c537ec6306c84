// The reference identity authority as a service (docs/architecture/README.md §1): database, migrations, signing
// keys, mail and the HTTP app on one listening socket. server.ts at the repo root embeds it;
// main.ts runs it alone.
import path from "node:path";
import { sql, type Kysely } from "kysely";
import type { Logger } from "pino";
import { createDatabase } from "../../lib/db/database.ts";
import { migrateToLatest } from "../../lib/db/migrate.ts";
import { closeHttp, listenHttp } from "../shared/listen.ts";
import { resolvePasswordResetRequest } from "./accounts.ts";
import type { AccountsContext } from "./accounts.ts";
import { createIdentityApp } from "./http.ts";
import { DEFAULT_MAIL_FROM, DEFAULT_SUPPORT_EMAIL, accountMailRenderer, createMailer } from "./mail.ts";
import { createOutbox } from "./outbox.ts";
import type { Outbox, OutboxTimings } from "./outbox.ts";
import { IDENTITY_MIGRATION_TABLE, identityMigrations } from "./schema/migrations.ts";
import type { IdentityDatabase } from "./schema/tables.ts";
import { keptDataDirSecret } from "../../lib/data-dir.ts";
import { SIGNING_SECRET_FILE, loadSigningKeys } from "./tokens.ts";

export interface IdentityOptions {
  /**
   * PGlite lives in `${dataDir}/identity` unless databaseUrl; the mail outbox in `${dataDir}/outbox/`;
   * the secret the signing key is sealed with in `${dataDir}/identity-signing-secret` (made 0600 on first start).
   */
  dataDir: string;
  /**
   * Replace the stored signing keys by a new one before serving: DATA_DIR was found open to other
   * local users, who may have read the key (docs/security/data.md "DATA_DIR"). Tokens signed with the old
   * key are refused from then on; the replacement is logged with the new kid.
   */
  rotateSigningKey?: boolean;
  /**
   * The secret the signing keys are sealed with, instead of `${dataDir}/identity-signing-secret`:
   * identity authorities that share one database (`databaseUrl`) must all be given the same one
   * (IDENTITY_SIGNING_SECRET; docs/operating.md "Every variable"). At least 32 characters.
   */
  signingSecret?: string;
  /** PostgreSQL connection string; tables are prefixed identity_ so the database can be shared. */
  databaseUrl?: string;
  /**
   * An open database to keep the identity_ tables in, shared with the embedding process (server.ts's
   * one embedded database, lib/db/embedded.ts); the service migrates it but does not close it.
   * Without it the service opens its own (`databaseUrl`, or PGlite under `${dataDir}/identity`).
   */
  db?: Kysely<any>;
  /** The web app's public URL incl. base path, no trailing slash (e.g. http://localhost:3000); mail links use it. */
  publicUrl: string;
  /** nodemailer SMTP URL; when unset each mail is written to `${dataDir}/outbox/<ISO time>-<random>.eml`. */
  smtpUrl?: string;
  /** Default 'SafeWindow <no-reply@safewindow.local>'. */
  mailFrom?: string;
  /**
   * The address notices of account changes (password changed or reset, e-mail address changed)
   * tell someone to write to when the change was not theirs; the web app's SUPPORT_EMAIL.
   * Default 'support@safewindow.local'.
   */
  supportEmail?: string;
  /** The confidential OAuth clients allowed (the web app is one). */
  clients: { clientId: string; clientSecret: string }[];
  /**
   * JWT `iss` of every token, and `issuer` of the discovery document: an absolute http(s) URL
   * without query or fragment, compared exactly by verifiers. Default `${publicUrl}/identity`,
   * so it does not depend on the port the service happens to listen on and tokens stay valid
   * across restarts (services/identity/README.md "Issuer").
   */
  issuer?: string;
  logger: Logger;
  /** Default 127.0.0.1 and 0 (ephemeral). */
  host?: string;
  port?: number;
  /** The clock, for tests. */
  now?: () => Date;
  /** Failed /connect/token attempts allowed per client IP + username; default 20 per 15 min. */
  tokenRateLimit?: { limit: number; windowMs: number };
  /**
   * Pacing of the mail outbox (hold of a registration's mail, retry backoff, attempts, lease,
   * poll interval); defaults in outbox.ts DEFAULT_OUTBOX_TIMINGS. Tests shorten them.
   */
  mailQueue?: Partial<OutboxTimings>;
  /**
   * False: the reference services' plain mode (UPSTREAM_EXTENSIONS=off, docs/product/calls.md §7 "Extensions"): extension
   * calls answer 404 and answers carry the product rules' fields only (shared/http.ts plainMode). Default true.
   */
  extensions?: boolean;
}

export interface IdentityService {
  /** Base URL the service listens on, e.g. http://127.0.0.1:41234 (no trailing slash). */
  url: string;
  /** The JWT `iss` of its tokens (opts.issuer, else `${publicUrl}/identity`); never contains `url`'s port. */
  issuer: string;
  /**
   * The service's open database, for an embedding process that keeps its own tables beside the
   * identity_ ones. Closed by `close()` unless it was given in the options.
   */
  db: Kysely<IdentityDatabase>;
  /**
   * Stops accepting connections, lets requests in flight finish (up to 5 s), stops the mail
   * sender (no timer left; a delivery in flight gets up to 5 s more, then is left to its lease
   * and sent again at the next start), closes the mail transport and the database. Idempotent.
   */
  close(): Promise<void>;
}

/** The issuer when none is configured: a name under the web app's public URL, not this service's address. */
export function defaultIssuer(publicUrl: string): string {
  return `${publicUrl.replace(/\/+$/, "")}/identity`;
}

function checkOptions(opts: IdentityOptions): { publicUrl: string; issuer: string } {
  let publicUrl: URL;
  try {
    publicUrl = new URL(opts.publicUrl);
  } catch {
    throw new Error(`identity: publicUrl is not an absolute URL: ${JSON.stringify(opts.publicUrl)}`);
  }
  if (publicUrl.protocol !== "http:" && publicUrl.protocol !== "https:") throw new Error("identity: publicUrl must be http(s)");
  if (publicUrl.search || publicUrl.hash) throw new Error("identity: publicUrl must not have a query or fragment");
  if (opts.clients.length === 0) throw new Error("identity: at least one OAuth client is required");
  for (const c of opts.clients) {
    if (!c.clientId || !c.clientSecret) throw new Error("identity: every client needs a clientId and a clientSecret");
  }
  const trimmedPublicUrl = opts.publicUrl.replace(/\/+$/, "");
  const issuer = opts.issuer ?? defaultIssuer(trimmedPublicUrl);
  let issuerUrl: URL;
  try {
    issuerUrl = new URL(issuer);
  } catch {
    throw new Error(`identity: issuer is not an absolute URL: ${JSON.stringify(issuer)}`);
  }
  // RFC 8414 §2: an issuer is a URL with no query or fragment.
  if (issuerUrl.protocol !== "http:" && issuerUrl.protocol !== "https:") throw new Error("identity: issuer must be http(s)");
  if (issuer.includes("?") || issuer.includes("#")) throw new Error("identity: issuer must not have a query or fragment");
  return { publicUrl: trimmedPublicUrl, issuer };
}

/**
 * Starts the identity authority: opens the database (PGlite under dataDir, or PostgreSQL),
 * migrates it, loads or creates (or, with rotateSigningKey, replaces) the RS256 signing key, sealed
 * with the secret in dataDir, starts the mail outbox's sender (which
 * first delivers what an earlier run left pending), and listens on host:port. Tokens carry
 * the configured issuer (default `${publicUrl}/identity`), never the listening URL, so a
 * restart on another port keeps them valid.
 * @returns the base URL, the issuer, the open database and a close function.
 * @throws Error for invalid options (publicUrl or issuer not an http(s) URL, query or fragment, no client), an unreachable database, a failed migration or a port in use;
 *   SigningKeySealError when the stored key was sealed with another dataDir's secret.
 */
export async function startIdentityService(opts: IdentityOptions): Promise<IdentityService> {
  const { publicUrl, issuer } = checkOptions(opts);
  const now = opts.now ?? (() => new Date());
  // The embedding app may already have bound `service`; binding it twice duplicates the JSON key.
  const logger = "service" in opts.logger.bindings() ? opts.logger : opts.logger.child({ service: "identity" });
  const shared = opts.db !== undefined;
  const db: Kysely<IdentityDatabase> =
    opts.db ??
    (await createDatabase<IdentityDatabase>({
      dataDir: opts.dataDir,
      ...(opts.databaseUrl ? { databaseUrl: opts.databaseUrl } : {}),
      name: "identity",
    }));
  let mailer: ReturnType<typeof createMailer> | undefined;
  let outbox: Outbox | undefined;
  try {
    const applied = await migrateToLatest(db, identityMigrations, IDENTITY_MIGRATION_TABLE);
    if (applied.length > 0) logger.info({ migrations: applied }, "identity database migrated");
    const keys = await loadSigningKeys(db, now(), { sealingSecret: opts.signingSecret ?? keptDataDirSecret(opts.dataDir, SIGNING_SECRET_FILE), rotate: opts.rotateSigningKey ?? false });
    if (keys.replaced.length > 0 || opts.rotateSigningKey) {
      logger.warn({ kid: keys.kid, replaced: keys.replaced }, "identity signing key replaced: tokens signed with the old key are refused, everyone signs in again");
    }
    mailer = createMailer({
      ...(opts.smtpUrl ? { smtpUrl: opts.smtpUrl } : {}),
      from: opts.mailFrom ?? DEFAULT_MAIL_FROM,
      outboxDir: path.join(opts.dataDir, "outbox"),
      logger,
    });

    outbox = createOutbox({
      db,
      mailer,
      render: accountMailRenderer(publicUrl, opts.supportEmail ?? DEFAULT_SUPPORT_EMAIL),
      logger,
      now,
      ...(opts.mailQueue ? { timings: opts.mailQueue } : {}),
      // Called by the sender only, which starts below, once `accounts` exists.
      resolveResetRequest: (trx, request) => resolvePasswordResetRequest(accounts, trx, request),
    });
    const accounts: AccountsContext = { db, now, outbox, logger };

    const { server, url, port } = await listenHttp(opts.host ?? "127.0.0.1", opts.port ?? 0);
    const app = createIdentityApp({
      accounts,
      keys,
      clients: opts.clients,
      issuer,
      url,
      logger,
      now,
      checkDatabase: async () => {
        await sql`select 1`.execute(db);
      },
      ...(opts.tokenRateLimit ? { tokenRateLimit: opts.tokenRateLimit } : {}),
      ...(opts.extensions === false ? { extensions: false } : {}),
    });
    server.on("request", app);
    logger.info({ port, issuer, storage: opts.databaseUrl ? "postgresql" : "pglite", mail: opts.smtpUrl ? "smtp" : "outbox" }, "identity authority listening");

    const openMailer = mailer;
    const openOutbox = outbox;
    openOutbox.start();
    let closing: Promise<void> | undefined;
    return {
      url,
      issuer,
      db,
      close() {
        closing ??= (async () => {
          await closeHttp(server);
          await openOutbox.close();
          openMailer.close();
          if (!shared) await db.destroy();
          logger.info("identity authority stopped");
        })();
        return closing;
      },
    };
  } catch (err) {
    await outbox?.close();
    mailer?.close();
    if (!shared) await db.destroy().catch(() => {});
    throw err;
  }
}
