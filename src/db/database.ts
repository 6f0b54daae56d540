import { accessSync, constants, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type LogEvent, type SqliteDatabase, type SqliteStatement } from 'kysely';
import { LRUCache } from 'lru-cache';
import { migrations } from './migrations/index.ts';
import { registerNotifications } from './notifications.ts';
import { BACKSTOP_PAGES, checkpointInBackground } from './sqlite-checkpoints.ts';
import { SQLite } from './sqlite-library.ts';
import { immediateTransactions } from './sqlite-transactions.ts';
import { registerWatched, watchedDialect, type StatementWatcher } from './statement-watch.ts';
import type { Database, Db } from './types.ts';

export interface DatabaseOptions {
  /** `postgres://…`; absent means SQLite. */
  url?: string | undefined;
  /** SQLite file; defaults to `quire.db` in dataDir. */
  sqliteFile?: string;
  dataDir?: string;
  /** PostgreSQL schema to work in (created when missing); tests give each server its own. */
  schema?: string;
}

/** Told the duration of every query (for the metrics), in milliseconds, and whether it failed. */
export type QueryListener = (durationMs: number, failed: boolean) => void;
const queryListeners = new WeakMap<object, Set<QueryListener>>();

/**
 * Observes every query of `db` from now on; returns the function that stops observing. Kysely takes its log
 * callback when the instance is built, and main.ts builds the database before the app that has the metrics.
 */
export function onQuery(db: Db, listener: QueryListener): () => void {
  let listeners = queryListeners.get(db);
  if (!listeners) queryListeners.set(db, (listeners = new Set()));
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Which database a Db is, for people: `PostgreSQL at host:port/db` or `SQLite file /path`. No password. */
export function describeDatabase(options: DatabaseOptions): string {
  if (options.url) {
    try {
      const url = new URL(options.url);
      return `PostgreSQL at ${url.hostname}:${url.port || '5432'}${url.pathname}`;
    } catch {
      return 'PostgreSQL';
    }
  }
  return `SQLite file ${resolve(options.sqliteFile ?? join(options.dataDir ?? './data', 'quire.db'))}`;
}

export function createDatabase(options: DatabaseOptions): Db {
  const listeners = new Set<QueryListener>();
  const log = (event: LogEvent) => {
    for (const listener of listeners) listener(event.queryDurationMillis, event.level === 'error');
  };
  const db = openDatabase(options, log);
  queryListeners.set(db, listeners);
  return db;
}

function openDatabase(options: DatabaseOptions, log: (event: LogEvent) => void): Db {
  if (options.url) {
    if (!/^postgres(ql)?:\/\//.test(options.url)) throw new Error('DATABASE_URL must start with postgres://');
    // A database that does not answer fails the start within seconds, not after the operating system's timeout.
    const connection = {
      connectionString: options.url,
      connectionTimeoutMillis: 10_000,
      // libpq's PGOPTIONS (which pg reads only when no options are given) is kept beside the schema's search path.
      ...(options.schema ? { options: [process.env.PGOPTIONS, `-c search_path=${options.schema}`].filter(Boolean).join(' ') } : {}),
    };
    const pool = new pg.Pool({ ...connection, max: 10 });
    // A connection that breaks (PostgreSQL restarted, network cut) is an 'error' event, on the pool while the
    // connection is idle and on the client while a query holds it; unheard, either would end the process.
    // The query in flight fails on its own, the pool drops the connection and the next query opens a new one.
    pool.on('error', () => undefined);
    pool.on('connect', (client) => client.on('error', () => undefined));
    const db = watched((set) => new Kysely<Database>({ dialect: watchedDialect(new PostgresDialect({ pool }), set), log }));
    // LISTEN needs a connection of its own, opened like the pool's (notifications.ts).
    registerNotifications(db, connection);
    return db;
  }
  const file = options.sqliteFile ?? join(options.dataDir ?? './data', 'quire.db');
  try {
    mkdirSync(join(file, '..'), { recursive: true });
    accessSync(join(file, '..'), constants.W_OK);
  } catch (error) {
    throw new Error(`DATA_DIR ${resolve(join(file, '..'))} is not writable (${(error as NodeJS.ErrnoException).code ?? String(error)}): point DATA_DIR to a folder this user (uid ${process.getuid?.() ?? '?'}) may write`);
  }
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // Past the log size at which the connection checkpoints as a backstop (sqlite-checkpoints.ts), a log that
  // starts over is cut back, so one large transaction does not leave a file that large behind.
  sqlite.pragma(`journal_size_limit = ${BACKSTOP_PAGES * 4096}`);
  const letGo = checkpointInBackground(resolve(file), sqlite);
  return watched((set) => new Kysely<Database>({ dialect: watchedDialect(immediateTransactions(new SqliteDialect({ database: reusingStatements(sqlite, letGo) })), set), log }));
}

/**
 * better-sqlite3 compiles a statement on every `prepare`, and Kysely prepares each query it runs; the same few
 * hundred SQL texts come back all the time, so their compiled statements are kept (least recently used go).
 * Safe to share: every call runs to completion synchronously (nothing here streams rows).
 */
function reusingStatements(sqlite: BetterSqlite3.Database, beforeClose: () => void): SqliteDatabase {
  const statements = new LRUCache<string, SqliteStatement>({ max: 1_000 });
  return {
    prepare(text: string) {
      let statement = statements.get(text);
      if (!statement) statements.set(text, (statement = withFastRows(sqlite.prepare(text))));
      return statement;
    },
    close: () => {
      statements.clear();
      beforeClose();
      sqlite.close();
    },
  };
}

/**
 * A statement whose rows are built by a function compiled for its columns: better-sqlite3 builds each row object
 * property by property, about twice as slow as an object literal over its raw (array) rows. The same objects
 * (a later column of the same name wins, as in better-sqlite3); statements that return no rows, and column
 * names an object literal would treat specially, keep better-sqlite3's own rows.
 */
function withFastRows(statement: BetterSqlite3.Statement): SqliteStatement {
  if (!statement.reader) return statement;
  const names = statement.columns().map((column) => column.name);
  if (names.includes('__proto__')) return statement;
  const build = new Function('r', `return {${names.map((name, i) => `${JSON.stringify(name)}: r[${i}]`).join(', ')}};`) as (raw: unknown[]) => unknown;
  const raw = statement.raw(true);
  return {
    reader: true,
    all: (parameters) => (raw.all(parameters) as unknown[][]).map(build),
    run: (parameters) => raw.run(parameters),
    *iterate(parameters) {
      for (const row of raw.iterate(parameters)) yield build(row as unknown[]);
    },
  };
}

/** Every database handle reports its statements and commits (see statement-watch.ts): read caches listen. */
function watched(build: (set: Set<StatementWatcher>) => Db): Db {
  const set = new Set<StatementWatcher>();
  const db = build(set);
  registerWatched(db, set);
  return db;
}

/** Migrations known to this build that the database has not recorded as applied (readiness, /readyz). */
export async function pendingMigrations(db: Db): Promise<string[]> {
  // Read directly (Kysely's Migrator introspects every table of every schema first, too slow for a probe).
  const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
  const applied = new Set(rows.map((row) => row.name));
  return Object.keys(migrations).filter((name) => !applied.has(name));
}

/**
 * Turns a failure to reach the database into what an operator can fix: which setting, which host. Without
 * this, pg's "connect ECONNREFUSED 127.0.0.1:5432" or "password authentication failed" name neither.
 */
export function explainDatabaseError(error: unknown, options: DatabaseOptions): Error {
  const message = error instanceof Error ? error.message : String(error);
  if (!options.url) return new Error(`Cannot open the SQLite database (${describeDatabase(options)}): ${message}; check DATA_DIR`);
  return new Error(`Cannot use the database of DATABASE_URL (${describeDatabase(options)}): ${message}; check DATABASE_URL and that PostgreSQL is running there`);
}

/** Applies every pending migration; safe to call at each start (and from several processes on PostgreSQL). */
export async function migrateToLatest(db: Db, schema?: string): Promise<void> {
  if (schema) await sql`create schema if not exists ${sql.id(schema)}`.execute(db);
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  let { error, results } = await migrator.migrateToLatest();
  // Kysely's migrator looks for its own tables by introspecting every schema of the database (with
  // pg_get_serial_sequence on each table), so a schema dropped meanwhile by another process (tests drop theirs
  // in parallel) fails that look-up with "schema … does not exist" before any migration ran. It is harmless
  // to look again.
  for (let attempt = 1; attempt < 4 && error && !results?.length && /does not exist/.test(String((error as Error).message)); attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    ({ error, results } = await migrator.migrateToLatest());
  }
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
