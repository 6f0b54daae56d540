import { TableNode, type CompiledQuery, type DatabaseConnection, type Dialect, type Driver, type Kysely, type QueryCompiler, type QueryResult, type RootOperationNode, type TransactionSettings } from 'kysely';

/**
 * Which tables a statement writes: a list, or '*' when it cannot be told (raw SQL, DDL) and everything must be
 * assumed changed. Reads write nothing.
 */
export type WrittenTables = readonly string[] | '*';

export interface StatementWatcher {
  /** Every statement, as it is sent (reads too: the query-budget tests count them). */
  statement?(sql: string, written: WrittenTables): void;
  /**
   * Tables whose new contents other connections can now see: after a statement outside a transaction, and
   * after the commit of a transaction, for every table it changed rows of.
   */
  committed?(written: WrittenTables): void;
}

const watchers = new WeakMap<object, Set<StatementWatcher>>();

/**
 * Tells `watcher` about every statement run through `db` (and its transactions); returns the unsubscribe.
 * Returns undefined when `db` was not built over a watched dialect (see `watchedDialect`).
 */
export function watchStatements(db: object, watcher: StatementWatcher): (() => void) | undefined {
  const set = watchers.get(db);
  if (!set) return undefined;
  set.add(watcher);
  return () => set.delete(watcher);
}

/** Registers the watcher set of a Kysely instance built over `watchedDialect(…, set)`. */
export function registerWatched(db: object, set: Set<StatementWatcher>): void {
  watchers.set(db, set);
}

/**
 * Calls `callback` once what was written through `db` can be seen by other connections: after the commit of its
 * transaction, never when it rolls back; at once outside a transaction (each statement commits on its own).
 * Kysely has no such hook: the watched driver keeps the callbacks of each transaction's connection. Over a handle
 * that is not watched the commit cannot be seen, and the callback is not called.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function afterCommit(db: Kysely<any>, callback: () => void): Promise<void> {
  if (!db.isTransaction) return callback();
  await db.getExecutor().provideConnection(async (connection) => {
    if (connection instanceof WatchedConnection && connection.pending !== null) connection.afterCommit.push(callback);
  });
}

/**
 * A dialect whose driver reports statements and commits to the watchers: read caches (platform/read-cache.ts)
 * drop what a write may have changed, at the write and again at its commit, so a read that raced the
 * transaction cannot keep what it saw before the commit. Everything else is the inner dialect's.
 */
export function watchedDialect(inner: Dialect, set: Set<StatementWatcher>): Dialect {
  return {
    createAdapter: () => inner.createAdapter(),
    createIntrospector: (db) => inner.createIntrospector(db),
    createQueryCompiler: () => inner.createQueryCompiler(),
    createDriver: () => new WatchedDriver(inner.createDriver(), set),
  };
}

class WatchedConnection implements DatabaseConnection {
  /** Tables written by the open transaction; null outside a transaction. */
  pending: Set<string> | '*' | null = null;
  /** What to call when the open transaction commits (see `afterCommit`). */
  afterCommit: (() => void)[] = [];
  constructor(
    readonly inner: DatabaseConnection,
    private readonly set: Set<StatementWatcher>,
  ) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const written = writtenBy(compiled.query, compiled.sql);
    if (this.set.size > 0) for (const w of this.set) w.statement?.(compiled.sql, written);
    const result = await this.inner.executeQuery<R>(compiled);
    if (written === '*' || (written.length > 0 && changedRows(result) > 0)) {
      if (this.pending === null) notifyCommitted(this.set, written);
      else if (written === '*' || this.pending === '*') this.pending = '*';
      else for (const t of written) this.pending.add(t);
      // Said at the write too: a reader of this process must not fill a cache from the old rows meanwhile.
      if (this.pending !== null) notifyCommitted(this.set, written);
    }
    return result;
  }

  streamQuery<R>(compiled: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(compiled, chunkSize);
  }
}

/**
 * How many rows a write changed. A write that changed none (a sweep's DELETE that found nothing, an upsert that
 * did nothing) leaves every cache warm. SQLite answers a statement with RETURNING with its rows only.
 */
function changedRows(result: QueryResult<unknown>): number {
  return result.numAffectedRows !== undefined ? Number(result.numAffectedRows) : result.rows.length;
}

function notifyCommitted(set: Set<StatementWatcher>, written: WrittenTables): void {
  for (const w of set) w.committed?.(written);
}

class WatchedDriver implements Driver {
  constructor(
    private readonly inner: Driver,
    private readonly set: Set<StatementWatcher>,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    return new WatchedConnection(await this.inner.acquireConnection(), this.set);
  }
  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const c = connection as WatchedConnection;
    await this.inner.beginTransaction(c.inner, settings);
    c.pending = new Set();
  }
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const c = connection as WatchedConnection;
    const callbacks = c.afterCommit.splice(0);
    try {
      await this.inner.commitTransaction(c.inner);
    } finally {
      const written = c.pending;
      c.pending = null;
      if (written === '*') notifyCommitted(this.set, '*');
      else if (written && written.size > 0) notifyCommitted(this.set, [...written]);
    }
    // Only once the commit succeeded; a callback that throws must not turn a commit into a failure.
    for (const callback of callbacks) {
      try {
        callback();
      } catch {
        // The callback's own concern (a wake-up that the interval repeats anyway).
      }
    }
  }
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const c = connection as WatchedConnection;
    c.pending = null;
    c.afterCommit = [];
    await this.inner.rollbackTransaction(c.inner);
  }
  async savepoint(connection: DatabaseConnection, name: string, compileQuery: QueryCompiler['compileQuery']): Promise<void> {
    await this.inner.savepoint?.((connection as WatchedConnection).inner, name, compileQuery);
  }
  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compileQuery: QueryCompiler['compileQuery']): Promise<void> {
    await this.inner.rollbackToSavepoint?.((connection as WatchedConnection).inner, name, compileQuery);
  }
  async releaseSavepoint(connection: DatabaseConnection, name: string, compileQuery: QueryCompiler['compileQuery']): Promise<void> {
    await this.inner.releaseSavepoint?.((connection as WatchedConnection).inner, name, compileQuery);
  }
  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection((connection as WatchedConnection).inner);
  }
  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

const READ_ONLY_RAW = /^\s*(select|begin|commit|rollback|savepoint|release|pragma\s+\w+\s*$)/i;

/** The tables a statement writes, from its operation tree (or '*' when the tree does not say). */
export function writtenBy(node: RootOperationNode, sqlText: string): WrittenTables {
  switch (node.kind) {
    case 'SelectQueryNode':
      // A data-modifying CTE could hide in a WITH; none is written here, but be safe.
      return node.with ? '*' : [];
    case 'InsertQueryNode':
      return node.into ? [node.into.table.identifier.name] : '*';
    case 'UpdateQueryNode':
      return node.table && TableNode.is(node.table) ? [node.table.table.identifier.name] : '*';
    case 'DeleteQueryNode': {
      const names: string[] = [];
      for (const from of node.from.froms) {
        if (!TableNode.is(from)) return '*';
        names.push(from.table.identifier.name);
      }
      return names;
    }
    case 'RawNode':
      return READ_ONLY_RAW.test(sqlText) ? [] : '*';
    default:
      return '*';
  }
}
