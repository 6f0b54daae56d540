import { resolve } from 'node:path';

/**
 * Every setting of the server, read once from the environment. The README's configuration table lists the
 * same names; keep them in step.
 */
export interface Config {
  /** TCP port the HTTP server listens on. */
  port: number;
  /** Interface the HTTP server binds to. */
  host: string;
  /** Absolute base URL under which clients reach this server; used to build every `urls` field. */
  publicUrl: string;
  /** Folder for the embedded database and stored files. */
  dataDir: string;
  /** `postgres://…` to use PostgreSQL; absent means SQLite in `dataDir`. */
  databaseUrl: string | undefined;
  /** When set on first start, the bootstrap admin's API token takes this value instead of a random one. */
  adminToken: string | undefined;
  /** Largest request body accepted, in bytes. */
  bodyLimit: number;
  /** Default and maximum page sizes of list endpoints. */
  defaultPageSize: number;
  /** How often the job worker looks for due work, in milliseconds (0 disables the worker loop). */
  workerIntervalMs: number;
  /** Log level of the HTTP server (`silent` in tests). */
  logLevel: string;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = integer(env, 'PORT', 8080);
  const host = env.HOST || '0.0.0.0';
  const publicUrl = (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, '');
  try {
    new URL(publicUrl);
  } catch {
    throw new Error(`PUBLIC_URL must be an absolute URL, got "${publicUrl}"`);
  }
  return {
    port,
    host,
    publicUrl,
    dataDir: resolve(env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    adminToken: env.QUIRE_ADMIN_TOKEN || undefined,
    bodyLimit: integer(env, 'BODY_LIMIT', 10 * 1024 * 1024),
    defaultPageSize: 50,
    workerIntervalMs: integer(env, 'WORKER_INTERVAL_MS', 60_000),
    logLevel: env.LOG_LEVEL || 'info',
  };
}
