import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp, type App } from '../src/app.ts';
import { bootstrapIfEmpty } from '../src/bootstrap.ts';
import { loadConfig } from '../src/config.ts';
import { createDatabase, migrateToLatest } from '../src/db/database.ts';

export interface BenchServer {
  app: App;
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
 * The real application as `quire serve` builds it (system clock, SQLite with WAL), on a fresh database in a
 * temporary folder, listening on a random port of 127.0.0.1 only. The job worker does not run: its ticks
 * would be noise in the measurements.
 */
export async function startBenchServer(): Promise<BenchServer> {
  const dir = mkdtempSync(join(tmpdir(), 'quire-bench-'));
  const config = { ...loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', HOST: '127.0.0.1', PORT: '0', RATE_LIMIT_MAX: '0', RATE_LIMIT_EXPENSIVE_MAX: '0', AUTH_FAILURE_LIMIT: '0', MAX_EVENT_LOOP_DELAY_MS: '0' }), databaseUrl: undefined };
  const db = createDatabase({ dataDir: dir });
  await migrateToLatest(db);
  const app = await buildApp({ config, db });
  const boot = await bootstrapIfEmpty(app.ctx, { adminEmail: 'bench@quire.test' });
  if (!boot) throw new Error('bootstrap did not run on a fresh database');
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  config.publicUrl = url;

  return {
    app,
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
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
