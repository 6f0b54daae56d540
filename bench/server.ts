import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { buildApp, type App } from '../src/app.ts';
import { bootstrapIfEmpty } from '../src/bootstrap.ts';
import { loadConfig } from '../src/config.ts';
import { createDatabase, migrateToLatest } from '../src/db/database.ts';
import { newId } from '../src/platform/ids.ts';
import { preloadHighlighter } from '../src/features/reader/highlight.ts';

export type BenchDatabase = 'sqlite' | 'postgres';

export interface BenchServer {
  app: App;
  database: BenchDatabase;
  /** The PostgreSQL schema of its tables (undefined on SQLite): a second application can share it. */
  schema: string | undefined;
  /** DATA_DIR, and DATABASE_URL on PostgreSQL: what a `quire serve` process needs to serve this database. */
  databaseEnv: Record<string, string>;
  /** Base URL, without `/v1`. */
  url: string;
  /** The bootstrap admin's token and organization. */
  token: string;
  organizationId: string;
  /** Calls the API as the admin; for scenario setup, never measured. */
  api<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  close(): Promise<void>;
}

/**
 * The real application as `quire serve` builds it (system clock), on a fresh database: SQLite (WAL) in a
 * temporary folder, or a schema of its own in the PostgreSQL at `pgUrl`, dropped on close. It listens on a
 * random port of 127.0.0.1 only. The job worker does not run: its ticks would be noise in the measurements.
 */
export async function startBenchServer(options: { pgUrl?: string; redisUrl?: string } = {}): Promise<BenchServer> {
  const dir = mkdtempSync(join(tmpdir(), 'quire-bench-'));
  const schema = options.pgUrl ? `bench_${newId(12).toLowerCase()}` : undefined;
  // Rate limits and load shedding would measure themselves, not the reads.
  const config = { ...loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', HOST: '127.0.0.1', PORT: '0', RATE_LIMIT_MAX: '0', RATE_LIMIT_EXPENSIVE_MAX: '0', AUTH_FAILURE_LIMIT: '0', MAX_EVENT_LOOP_DELAY_MS: '0', ...(options.redisUrl ? { REDIS_URL: options.redisUrl } : {}) }), databaseUrl: options.pgUrl };
  const db = createDatabase({ url: options.pgUrl, dataDir: dir, schema });
  await migrateToLatest(db, schema);
  const app = await buildApp({ config, db });
  const boot = await bootstrapIfEmpty(app.ctx, { adminEmail: 'bench@quire.test' });
  if (!boot) throw new Error('bootstrap did not run on a fresh database');
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  config.publicUrl = url;
  // The grammars' warm-up (about 2 s of CPU on this thread, started when the server listens) must be over before
  // anything is measured: it would be counted in the first run, which is the baseline's in run.ts and cpu.ts.
  await preloadHighlighter();

  const databaseEnv: Record<string, string> = { DATA_DIR: dir };
  if (options.pgUrl && schema) {
    // quire serve has no setting for a schema: the connection's search_path puts its tables in this one.
    const url = new URL(options.pgUrl);
    url.searchParams.set('options', `-c search_path=${schema}`);
    databaseEnv.DATABASE_URL = url.href;
  }

  return {
    app,
    database: options.pgUrl ? 'postgres' : 'sqlite',
    schema,
    databaseEnv,
    url,
    token: boot.token,
    organizationId: boot.organizationId,
    async api<T>(method: string, path: string, body?: unknown) {
      const response = await fetch(`${url}/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${boot.token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
      return (text ? JSON.parse(text) : undefined) as T;
    },
    async close() {
      await app.close();
      await db.destroy();
      if (options.pgUrl && schema) await dropSchema(options.pgUrl, schema);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Drops the run's schema; requests still running when a measurement ended may hold locks a moment longer. */
async function dropSchema(url: string, schema: string): Promise<void> {
  const db = createDatabase({ url });
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db);
        return;
      } catch (error) {
        if (attempt >= 5) throw error;
        await new Promise((resolve) => setTimeout(resolve, 1000 * attempt));
      }
    }
  } finally {
    await db.destroy();
  }
}

/** Whether a PostgreSQL answers at `url` (a short connection attempt). */
export async function postgresReachable(url: string): Promise<string | true> {
  const db = createDatabase({ url });
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await db.destroy().catch(() => undefined);
  }
}
