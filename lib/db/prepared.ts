/**
 * Kysely's PGlite dialect with a cache of named prepared statements (docs/architecture/README.md §2
 * "database"). PGlite's `query` sends every statement as the unnamed statement (Parse, Describe,
 * Bind, Describe, Execute, Sync), so PostgreSQL parses, analyses and plans it on every call; planning
 * also asks the file system each relation's size. The same SQL text is what Kysely compiles for a
 * call site, so a statement run outside a transaction is parsed once under a name and then only
 * bound and executed: one exchange with the database instead of six, and no planning once
 * PostgreSQL keeps a generic plan (bench/README.md "CPU per request").
 *
 * What stays as PGlite's own `query` does it:
 * - statements in a transaction (Kysely's, through PGlite's `transaction`), and every statement
 *   that is not a select, insert, update, delete or with (DDL, `set`, savepoints); such a statement
 *   outside a transaction also closes every cached statement, since it may change what they read;
 * - the type parsers and serializers, the answer's rows and `affectedRows`, and the errors
 *   (PostgreSQL's `DatabaseError` with its `code` and `constraint`);
 * - PGlite's locks: a cached exchange waits for any transaction on the instance, and runs alone.
 *
 * A cached statement PostgreSQL no longer runs (its result type changed under it after DDL made
 * elsewhere, or it was closed) is parsed again and run once more. At most
 * `maxStatements` are kept per PGlite, the least recently used closed first.
 */
import { type PGlite, parse, protocol, type Results } from "@electric-sql/pglite";
import type { CompiledQuery, DatabaseConnection, Driver, QueryResult } from "kysely";
import { PGliteDialect, PGliteDriver } from "kysely";
import { LRUCache } from "lru-cache";

/** How many named statements one PGlite keeps (each holds its parse tree and plan in the WebAssembly memory). */
const maxStatements = 200;

/** A statement that can be kept by name: one DML statement (what Kysely's query builder compiles). */
const preparable = /^\s*(select|insert|update|delete|with)\b/i;

/**
 * PostgreSQL's answers to a cached statement that must be parsed again: "cached plan must not change
 * result type" (0A000) and "prepared statement does not exist" (26000, closed by someone else).
 */
const parseAgain = new Set(["0A000", "26000"]);

/** One PGlite's named statements: SQL text → name and parameter type OIDs; closes queued for the next exchange. */
interface StatementCache {
  statements: LRUCache<string, { name: string; types: number[] }>;
  /** Close messages of statements evicted or dropped, sent ahead of the next exchange. */
  closes: Uint8Array[];
  next: number;
}

const caches = new WeakMap<PGlite, StatementCache>();

function cacheOf(pglite: PGlite): StatementCache {
  let cache = caches.get(pglite);
  if (!cache) {
    const closes: Uint8Array[] = [];
    cache = {
      closes,
      next: 0,
      statements: new LRUCache({ max: maxStatements, dispose: ({ name }) => closes.push(protocol.serialize.close({ type: "S", name })) }),
    };
    caches.set(pglite, cache);
  }
  return cache;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** The closes queued in `cache`, taken (they go out with the caller's exchange). */
function takeCloses(cache: StatementCache): Uint8Array[] {
  return cache.closes.splice(0, cache.closes.length);
}

/**
 * Runs `sql` with `parameters` as a named statement of `pglite`, parsing it first when it is not
 * cached. The caller holds PGlite's locks.
 * @throws DatabaseError as PGlite's `query` throws it
 */
async function runPrepared(pglite: PGlite, cache: StatementCache, sql: string, parameters: readonly unknown[]): Promise<Results<Record<string, unknown>>> {
  const { serialize } = protocol;
  let statement = cache.statements.get(sql);
  if (!statement) {
    const name = `k${cache.next++}`;
    const prepared = await pglite.execProtocol(concat([...takeCloses(cache), serialize.parse({ name, text: sql }), serialize.describe({ type: "S", name }), serialize.sync()]), { syncToFs: false });
    statement = { name, types: parse.parseDescribeStatementResults(prepared.messages) };
    cache.statements.set(sql, statement);
  }
  const { types } = statement;
  const values = parameters.map((value, i) => {
    if (value === null || value === undefined) return null;
    const serializer = pglite.serializers[types[i] as number];
    return serializer ? serializer(value) : String(value);
  });
  const answer = await pglite.execProtocol(
    concat([...takeCloses(cache), serialize.bind({ statement: statement.name, values }), serialize.describe({ type: "P" }), serialize.execute({}), serialize.sync()]),
  );
  return parse.parseResults(answer.messages, pglite.parsers, { rowMode: "object" })[0] as Results<Record<string, unknown>>;
}

class PreparedConnection implements DatabaseConnection {
  /** Inside a Kysely transaction: statements go through PGlite's transaction, uncached. */
  inTransaction = false;

  readonly inner: DatabaseConnection;
  private readonly pglite: PGlite;

  constructor(inner: DatabaseConnection, pglite: PGlite) {
    this.inner = inner;
    this.pglite = pglite;
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    if (this.inTransaction) return this.inner.executeQuery(compiled);
    const cache = cacheOf(this.pglite);
    if (!preparable.test(compiled.sql)) {
      const result = await this.inner.executeQuery<R>(compiled);
      // The statement may have changed what the cached ones read: they are parsed again on next use.
      cache.statements.clear();
      return result;
    }
    const run = () => this.pglite._runExclusiveTransaction(() => this.pglite._runExclusiveQuery(() => runPrepared(this.pglite, cache, compiled.sql, compiled.parameters)));
    let result: Results<Record<string, unknown>>;
    try {
      result = await run();
    } catch (error) {
      if (!parseAgain.has((error as { code?: string }).code ?? "")) throw error;
      cache.statements.delete(compiled.sql);
      result = await run();
    }
    return { numAffectedRows: result.affectedRows != null ? BigInt(result.affectedRows) : undefined, rows: result.rows as R[] };
  }

  streamQuery<R>(compiled: CompiledQuery, chunkSize: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery(compiled, chunkSize);
  }
}

/** The connection type of Kysely's PGlite driver (not exported by name). */
type InnerConnection = Parameters<PGliteDriver["beginTransaction"]>[0];

/** Ends `connection`'s transaction with `end` (a commit or a rollback); its statements are cached again after, whatever the end. */
async function ending(connection: DatabaseConnection, end: (inner: InnerConnection) => Promise<void>): Promise<void> {
  const prepared = connection as PreparedConnection;
  try {
    await end(prepared.inner as InnerConnection);
  } finally {
    prepared.inTransaction = false;
  }
}

/** Kysely's PGlite driver, its connection wrapped in `PreparedConnection`. */
class PreparedDriver implements Driver {
  readonly #inner: PGliteDriver;
  readonly #pglite: PGlite;
  #connection?: PreparedConnection;

  constructor(pglite: PGlite) {
    this.#pglite = pglite;
    this.#inner = new PGliteDriver({ pglite });
  }

  init(): Promise<void> {
    return this.#inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const inner = await this.#inner.acquireConnection();
    if (this.#connection?.inner !== inner) this.#connection = new PreparedConnection(inner, this.#pglite);
    return this.#connection;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const prepared = connection as PreparedConnection;
    await this.#inner.beginTransaction(prepared.inner as InnerConnection);
    prepared.inTransaction = true;
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return ending(connection, (inner) => this.#inner.commitTransaction(inner));
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return ending(connection, (inner) => this.#inner.rollbackTransaction(inner));
  }

  savepoint(connection: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver["savepoint"]>>[2]): Promise<void> {
    return this.#inner.savepoint((connection as PreparedConnection).inner, name, compile);
  }

  rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver["rollbackToSavepoint"]>>[2]): Promise<void> {
    return this.#inner.rollbackToSavepoint((connection as PreparedConnection).inner, name, compile);
  }

  releaseSavepoint(connection: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver["releaseSavepoint"]>>[2]): Promise<void> {
    return this.#inner.releaseSavepoint((connection as PreparedConnection).inner, name, compile);
  }

  releaseConnection(): Promise<void> {
    return this.#inner.releaseConnection();
  }

  destroy(): Promise<void> {
    return this.#inner.destroy();
  }
}

/**
 * Kysely's PGlite dialect whose statements outside transactions are cached by name (see the
 * module's comment). Use as `new Kysely({ dialect: new PreparedPGliteDialect(pglite) })`.
 */
export class PreparedPGliteDialect extends PGliteDialect {
  readonly #pglite: PGlite;

  constructor(pglite: PGlite) {
    super({ pglite });
    this.#pglite = pglite;
  }

  override createDriver(): Driver {
    return new PreparedDriver(this.#pglite);
  }
}
