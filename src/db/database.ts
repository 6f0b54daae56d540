import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type SqliteDatabase } from 'kysely';
import { LRUCache } from 'lru-cache';
import { migrations } from './migrations/index.ts';
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

export function createDatabase(options: DatabaseOptions): Db {
  if (options.url) {
    if (!/^postgres(ql)?:\/\//.test(options.url)) throw new Error('DATABASE_URL must start with postgres://');
    const pool = new pg.Pool({
      connectionString: options.url,
      max: 10,
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    });
    return watched((set) => new Kysely<Database>({ dialect: watchedDialect(new PostgresDialect({ pool }), set) }));
  }
  const file = options.sqliteFile ?? join(options.dataDir ?? './data', 'quire.db');
  mkdirSync(join(file, '..'), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return watched((set) => new Kysely<Database>({ dialect: watchedDialect(new SqliteDialect({ database: reusingStatements(sqlite) }), set) }));
}

/**
 * better-sqlite3 compiles a statement on every `prepare`, and Kysely prepares each query it runs; the same few
 * hundred SQL texts come back all the time, so their compiled statements are kept (least recently used go).
 * Safe to share: every call runs to completion synchronously (nothing here streams rows).
 */
function reusingStatements(sqlite: SQLite.Database): SqliteDatabase {
  const statements = new LRUCache<string, SQLite.Statement>({ max: 1_000 });
  return {
    prepare(text: string) {
      let statement = statements.get(text);
      if (!statement) statements.set(text, (statement = sqlite.prepare(text)));
      return statement;
    },
    close: () => {
      statements.clear();
      sqlite.close();
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
