import { CompiledQuery, type DatabaseConnection, type Dialect, type Driver, type TransactionSettings } from 'kysely';

/**
 * A SQLite dialect whose transactions take the write lock when they begin (`begin immediate`), not at their first
 * write. The CLI's commands write beside the running server (a second connection to the same file), and a
 * deferred transaction that read before another connection committed cannot write any more: SQLite refuses its
 * first write with SQLITE_BUSY at once, without the busy timeout, because its snapshot is stale. Taken at the
 * start, the lock is waited for (busy_timeout) like any write. Within one process Kysely runs one transaction at
 * a time on its one connection already, so nothing waits longer than before; readers never wait in WAL mode.
 */
export function immediateTransactions(inner: Dialect): Dialect {
  return {
    createAdapter: () => inner.createAdapter(),
    createIntrospector: (db) => inner.createIntrospector(db),
    createQueryCompiler: () => inner.createQueryCompiler(),
    createDriver: () => new ImmediateDriver(inner.createDriver()),
  };
}

const BEGIN_IMMEDIATE = CompiledQuery.raw('begin immediate');

class ImmediateDriver implements Driver {
  constructor(private readonly inner: Driver) {}

  init(): Promise<void> {
    return this.inner.init();
  }
  acquireConnection(): Promise<DatabaseConnection> {
    return this.inner.acquireConnection();
  }
  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    // SQLite has no isolation levels or access modes to set (Kysely's SQLite driver ignores them too).
    void settings;
    await connection.executeQuery(BEGIN_IMMEDIATE);
  }
  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(connection);
  }
  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.rollbackTransaction(connection);
  }
  savepoint: Driver['savepoint'] = (connection, name, compile) => this.inner.savepoint!(connection, name, compile);
  rollbackToSavepoint: Driver['rollbackToSavepoint'] = (connection, name, compile) => this.inner.rollbackToSavepoint!(connection, name, compile);
  releaseSavepoint: Driver['releaseSavepoint'] = (connection, name, compile) => this.inner.releaseSavepoint!(connection, name, compile);
  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(connection);
  }
  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}
