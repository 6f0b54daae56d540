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
  /** Time to receive a whole request (headers and body) before the socket is answered 408 and closed, in ms. */
  requestTimeoutMs: number;
  /** Time to receive a request's headers, in ms. */
  headersTimeoutMs: number;
  /** Most open client connections; further ones are closed at once (0: no cap). */
  maxConnections: number;
  /** Default and maximum page sizes of list endpoints. */
  defaultPageSize: number;
  /** How often the job worker looks for due work, in milliseconds (0 disables the worker loop). */
  workerIntervalMs: number;
  /**
   * How long cached authorization facts (tokens, memberships, grants, collection trees) may be served, in ms:
   * the longest a change made by another process on the same PostgreSQL goes unseen here. 0: not cached.
   */
  cacheTtlMs: number;
  /** Log level of the HTTP server (`silent` in tests). */
  logLevel: string;
  /** Largest file accepted (upload, import or remote download), in bytes. */
  fileSizeLimit: number;
  /**
   * Whether outbound fetches (imports, remote files) may reach loopback, private, link-local and other
   * non-public addresses. Off by default so a user cannot make the server probe its own network.
   */
  allowPrivateFetch: boolean;
  /** Time limit of one outbound fetch, redirects and body included, in milliseconds. */
  fetchTimeoutMs: number;
  /** Website import: most pages imported from one site. */
  importMaxPages: number;
  /** Website import: most links followed from the start page (0 imports the start page alone). */
  importMaxDepth: number;
  /** Website import: most bytes downloaded in all (pages and images), after decompression. */
  importMaxBytes: number;
  /** Website import: time limit of the whole crawl, in milliseconds; what was fetched by then is imported. */
  importTimeoutMs: number;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

function boolean(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new Error(`${name} must be true or false, got "${env[name]}"`);
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
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_MS', 60_000),
    headersTimeoutMs: integer(env, 'HEADERS_TIMEOUT_MS', 20_000),
    maxConnections: integer(env, 'MAX_CONNECTIONS', 1024),
    defaultPageSize: 50,
    workerIntervalMs: integer(env, 'WORKER_INTERVAL_MS', 60_000),
    cacheTtlMs: integer(env, 'CACHE_TTL_MS', 2_000),
    logLevel: env.LOG_LEVEL || 'info',
    fileSizeLimit: integer(env, 'FILE_SIZE_LIMIT', 100 * 1024 * 1024),
    allowPrivateFetch: boolean(env, 'ALLOW_PRIVATE_FETCH', false),
    fetchTimeoutMs: integer(env, 'FETCH_TIMEOUT_MS', 10_000),
    importMaxPages: integer(env, 'IMPORT_MAX_PAGES', 50),
    importMaxDepth: integer(env, 'IMPORT_MAX_DEPTH', 3),
    importMaxBytes: integer(env, 'IMPORT_MAX_BYTES', 20 * 1024 * 1024),
    importTimeoutMs: integer(env, 'IMPORT_TIMEOUT_MS', 60_000),
  };
}
