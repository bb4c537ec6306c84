// The reference business API as a service (docs/architecture/README.md §1; services/business/README.md):
// database, migrations, token verification against the identity authority, and the HTTP app on one
// listening socket. server.ts at the repo root embeds it; main.ts runs it alone.
import { sql, type Kysely } from "kysely";
import type { Logger } from "pino";
import { createDatabase } from "../../lib/db/database.ts";
import { migrateToLatest } from "../../lib/db/migrate.ts";
import { BUSINESS_AUDIENCE, checkIdentityUrl, createTokenVerifier } from "../shared/auth.ts";
import { closeHttp, listenHttp } from "../shared/listen.ts";
import { createBusinessApp } from "./http.ts";
import { BUSINESS_MIGRATION_TABLE, businessMigrations } from "./schema/migrations.ts";
import type { BusinessDatabase } from "./schema/tables.ts";

export interface BusinessOptions {
  /** PGlite lives in `${dataDir}/business` unless databaseUrl or db. */
  dataDir: string;
  /** PostgreSQL connection string; tables are prefixed business_ so it can be shared. */
  databaseUrl?: string | undefined;
  /**
   * An open database to keep the business_ tables in, shared with the embedding process (server.ts's
   * one embedded database); the service migrates it but does not close it.
   */
  db?: Kysely<any> | undefined;
  /** The identity authority's base URL; its JWKS is at `${identityUrl}/.well-known/jwks.json`. */
  identityUrl: string;
  /** Expected JWT `iss`; default: read from the authority's discovery document on the first token. */
  identityIssuer?: string | undefined;
  logger: Logger;
  /** Default 127.0.0.1 and 0 (ephemeral). */
  host?: string;
  port?: number;
  /** The clock (token expiry, time stamps), for tests. */
  now?: () => Date;
  /**
   * False: plain mode (UPSTREAM_EXTENSIONS=off, docs/product/calls.md §7.4 "Extensions"): extension
   * calls answer 404 and answers carry the product rules' fields only (shared/http.ts plainMode). Default true.
   */
  extensions?: boolean;
}

export interface BusinessService {
  /** Base URL the service listens on, e.g. http://127.0.0.1:41236 (no trailing slash). */
  url: string;
  db: Kysely<BusinessDatabase>;
  /** Stops accepting connections, lets requests in flight finish (up to 5 s), closes its own database. Idempotent. */
  close(): Promise<void>;
}

/**
 * Starts the business API: opens the database (the given one, PGlite under dataDir, or PostgreSQL),
 * migrates it and listens on host:port. Nothing is asked of the identity authority until the first
 * token arrives.
 * @throws Error for invalid options, an unreachable database, a failed migration or a port in use.
 */
export async function startBusinessService(opts: BusinessOptions): Promise<BusinessService> {
  const identityUrl = checkIdentityUrl("business", opts.identityUrl);
  const now = opts.now ?? (() => new Date());
  const logger = "service" in opts.logger.bindings() ? opts.logger : opts.logger.child({ service: "business" });
  const shared = opts.db !== undefined;
  const db: Kysely<BusinessDatabase> =
    opts.db ?? (await createDatabase<BusinessDatabase>({ dataDir: opts.dataDir, ...(opts.databaseUrl ? { databaseUrl: opts.databaseUrl } : {}), name: "business" }));
  try {
    const applied = await migrateToLatest(db, businessMigrations, BUSINESS_MIGRATION_TABLE);
    if (applied.length > 0) logger.info({ migrations: applied }, "business database migrated");
    const { server, url, port } = await listenHttp(opts.host ?? "127.0.0.1", opts.port ?? 0);
    const app = createBusinessApp({
      db,
      verifier: createTokenVerifier({ identityUrl, audience: BUSINESS_AUDIENCE, ...(opts.identityIssuer ? { issuer: opts.identityIssuer } : {}), now }),
      logger,
      now,
      ...(opts.extensions === false ? { extensions: false } : {}),
      checkDatabase: async () => {
        await sql`select 1`.execute(db);
      },
    });
    server.on("request", app);
    logger.info({ port, storage: opts.db ? "shared" : opts.databaseUrl ? "postgresql" : "pglite" }, "business API listening");
    let closing: Promise<void> | undefined;
    return {
      url,
      db,
      close() {
        closing ??= (async () => {
          await closeHttp(server);
          if (!shared) await db.destroy();
          logger.info("business API stopped");
        })();
        return closing;
      },
    };
  } catch (err) {
    if (!shared) await db.destroy().catch(() => {});
    throw err;
  }
}
