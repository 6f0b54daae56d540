import { availableParallelism } from 'node:os';
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
  /**
   * Whether PUBLIC_URL was set. Unset, publicUrl is http://localhost:PORT: right for a server tried on one's own
   * machine, a guess for a command run in another shell than the server's (`quire user invite`).
   */
  publicUrlSet: boolean;
  /** Folder for the embedded database and stored files. */
  dataDir: string;
  /**
   * How long a job a process runs is reserved for it (renewed every third of it while it runs), in
   * milliseconds: the jobs of a process that died are taken over by another after this long.
   */
  jobLeaseMs: number;
  /** How old stored bytes that no row names must be before the collecting sweep removes them, in milliseconds. */
  blobGraceMs: number;
  /** Where file bytes are kept: `local` (DATA_DIR/blobs) or `s3` (an S3-compatible bucket, `s3`). */
  fileStorage: 'local' | 's3';
  /** The bucket (S3_BUCKET and the other S3_ settings), used when FILE_STORAGE=s3 and by `quire files migrate`. */
  s3: S3Settings | undefined;
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
   * How often integration events are looked for and delivered, in ms (a sweep of the worker that also runs on
   * this shorter interval, so an integration hears of a change within about a second). 0: only with the worker.
   */
  eventDeliveryIntervalMs: number;
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
  /** Git Sync: time limit of one import or export (clone, conversion, write, push), in milliseconds. */
  gitSyncTimeoutMs: number;
  /** Git Sync: most bytes one Git request may answer, and most bytes of files read from one repository. */
  gitSyncMaxBytes: number;
  /** Git Sync: how often the worker looks for connected spaces to sync, in ms (0: only every WORKER_INTERVAL_MS). */
  gitSyncIntervalMs: number;
  /** Git Sync: how long main must stay unchanged before it is exported, in ms (a burst of edits is one commit). */
  gitSyncDebounceMs: number;
  /** Git Sync: how often a connected branch is polled for pushes (`git ls-remote`), in ms (0: never; webhooks only). */
  gitSyncPollIntervalMs: number;
  /** Git Sync installations: base URL of GitHub's REST API (GitHub Enterprise: `https://HOST/api/v3`). */
  githubApiUrl: string;
  /** Git Sync installations: the GitLab instance whose REST API (`<url>/api/v4`) installations call, unless one names its own. */
  gitlabUrl: string;
  /** OpenAPI specs: largest document accepted (fetched or given as text), in bytes. */
  openapiMaxBytes: number;
  /** OpenAPI specs: a spec fetched from a URL is fetched again after this long, in ms (0: never). */
  openapiRefreshIntervalMs: number;
  /** OpenAPI specs: time limit of parsing and validating one document (in a worker thread), in ms. */
  openapiParseTimeoutMs: number;
  /** Longest wait, after SIGTERM/SIGINT, for in-flight requests and jobs before the process exits anyway. */
  shutdownTimeoutMs: number;
  /** Bearer token that `GET /metrics` requires; unset, /metrics answers only clients on a loopback address. */
  metricsToken: string | undefined;
  /** Origins (`https://app.example.com`) whose browser pages may call the API; none by default, `*` for any. */
  corsOrigins: string[];
  /** Requests per token (per IP address without one) in each rate-limit window; 0 turns the limit off. */
  rateLimitMax: number;
  /** Requests per token in each window on expensive operations (imports, search, PDF); 0 turns it off. */
  rateLimitExpensiveMax: number;
  /** Length of a rate-limit window, in milliseconds. */
  rateLimitWindowMs: number;
  /** Failed authentications from one IP address in a window before it must wait for the next; 0 turns it off. */
  authFailureLimit: number;
  /** `redis://…`: rate-limit counters are shared through this Redis by every process; unset, kept in-process. */
  redisUrl: string | undefined;
  /** Event-loop delay above which requests are shed with 503 (under pressure), in milliseconds; 0 turns it off. */
  maxEventLoopDelayMs: number;
  /** Worker threads that convert large markdown and documents off the request thread (0: all on it). */
  conversionThreads: number;
  /** Longest one conversion (markdown to document or back) may run before it is stopped, in milliseconds. */
  conversionTimeoutMs: number;
  /**
   * Base URL of a LibreTranslate-compatible API that translation runs send text to (`POST <url>/translate`);
   * unset, runs copy the source text and flag the pages for a human translation.
   */
  translationProviderUrl: string | undefined;
  /** `api_key` sent to the translation provider, if it needs one. */
  translationProviderApiKey: string | undefined;
  /**
   * Base URL of an OpenAI-compatible API (`<url>/chat/completions`, `<url>/embeddings`) that Ask sends questions
   * and excerpts of the docs to; unset (or without AI_CHAT_MODEL), Ask is off and says so.
   */
  aiProviderUrl: string | undefined;
  /** Bearer key sent to the model provider, if it needs one. */
  aiApiKey: string | undefined;
  /** The chat model Ask answers with (`llama3.1`, `gpt-4o-mini`…). */
  aiChatModel: string | undefined;
  /** The embedding model retrieval also ranks with, if any. */
  aiEmbeddingModel: string | undefined;
  /** Time limit of one exchange with the model provider, the streamed answer's last byte included, in milliseconds. */
  aiTimeoutMs: number;
  /** Most pages of content one PDF export lays out; larger scopes end with a note saying what was left out. */
  pdfMaxPages: number;
  /**
   * `smtp://user:pass@host:587` or `smtps://…`: invitations and password resets are e-mailed through it
   * (nodemailer); unset, no mail is sent and the links are only shown to the admin who made them.
   */
  smtpUrl: string | undefined;
  /** The From address of those e-mails. */
  mailFrom: string;
}

/** An S3-compatible bucket that holds the files (FILE_STORAGE=s3). */
export interface S3Settings {
  /** S3_ENDPOINT: the service's URL (MinIO, Ceph, R2…); unset for AWS S3 itself. */
  endpoint: string | undefined;
  bucket: string;
  region: string;
  /** Unset: the SDK's own chain (environment, instance role, ~/.aws). */
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  /** S3_FORCE_PATH_STYLE: `endpoint/bucket/key` instead of `bucket.endpoint/key` (MinIO and most self-hosted servers). */
  forcePathStyle: boolean;
  /** S3_PRESIGNED_DOWNLOADS: downloads are redirected to a URL of the bucket, signed for minutes, instead of streamed through Quire. */
  presignedDownloads: boolean;
  /** S3_PREFIX: a folder of the bucket for Quire's objects (`quire/`), so that a bucket may be shared. */
  prefix: string;
}

/** The levels LOG_LEVEL accepts (pino's, plus `silent`). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Shortest QUIRE_ADMIN_TOKEN accepted: a short admin token can be guessed. */
export const MIN_ADMIN_TOKEN_LENGTH = 16;

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

function logLevel(env: NodeJS.ProcessEnv): string {
  const raw = (env.LOG_LEVEL || 'info').trim().toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(raw)) throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}; got "${env.LOG_LEVEL}"`);
  return raw;
}

function adminToken(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.QUIRE_ADMIN_TOKEN;
  if (!raw) return undefined;
  if (raw.length < MIN_ADMIN_TOKEN_LENGTH || /\s/.test(raw)) {
    throw new Error(`QUIRE_ADMIN_TOKEN must be at least ${MIN_ADMIN_TOKEN_LENGTH} characters without spaces (it has ${raw.length}); e.g. openssl rand -hex 24`);
  }
  return raw;
}

function redisUrl(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.REDIS_URL;
  if (!raw) return undefined;
  if (!/^rediss?:\/\//.test(raw)) throw new Error(`REDIS_URL must start with redis:// or rediss://, got "${raw}"`);
  return raw;
}

function smtpUrl(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.SMTP_URL?.trim();
  if (!raw) return undefined;
  if (!/^smtps?:\/\//.test(raw)) throw new Error(`SMTP_URL must start with smtp:// or smtps://, got "${raw.replace(/\/\/[^@/]*@/, '//…@')}"`);
  return raw;
}

function translationProviderUrl(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.TRANSLATION_PROVIDER_URL?.trim();
  if (!raw) return undefined;
  if (!/^https?:\/\//.test(raw)) throw new Error(`TRANSLATION_PROVIDER_URL must start with http:// or https://, got "${raw}"`);
  return raw.replace(/\/+$/, '');
}

/** A provider's base URL set by the operator: http(s), without a trailing slash. */
function providerUrl(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const raw = env[name]?.trim() || fallback;
  if (!/^https?:\/\/[^/]/.test(raw)) throw new Error(`${name} must start with http:// or https://, got "${raw}"`);
  return raw.replace(/\/+$/, '');
}

/** A provider's base URL the operator may leave unset: http(s), without a trailing slash. */
function optionalProviderUrl(env: NodeJS.ProcessEnv, name: string): string | undefined {
  return env[name]?.trim() ? providerUrl(env, name, '') : undefined;
}

function list(env: NodeJS.ProcessEnv, name: string): string[] {
  return (env[name] ?? '')
    .split(',')
    .map((item) => item.trim().replace(/\/+$/, ''))
    .filter((item) => item !== '');
}

function fileStorage(env: NodeJS.ProcessEnv): Pick<Config, 'fileStorage' | 's3'> {
  const raw = (env.FILE_STORAGE || 'local').trim().toLowerCase();
  if (raw !== 'local' && raw !== 's3') throw new Error(`FILE_STORAGE must be local or s3, got "${env.FILE_STORAGE}"`);
  const bucket = env.S3_BUCKET?.trim();
  if (raw === 's3' && !bucket) throw new Error('FILE_STORAGE=s3 needs S3_BUCKET, the name of the bucket that holds the files');
  // The bucket is read with FILE_STORAGE=local too: `quire files migrate --to s3` copies the files there first.
  if (!bucket) return { fileStorage: 'local', s3: undefined };
  const endpoint = env.S3_ENDPOINT?.trim().replace(/\/+$/, '') || undefined;
  if (endpoint && !/^https?:\/\/[^/]/.test(endpoint)) throw new Error(`S3_ENDPOINT must start with http:// or https://, got "${endpoint}"`);
  const accessKeyId = env.S3_ACCESS_KEY_ID?.trim() || undefined;
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY?.trim() || undefined;
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) {
    throw new Error('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both, or neither to use the AWS SDK\'s own credentials');
  }
  const prefix = (env.S3_PREFIX ?? '').trim().replace(/^\/+/, '');
  return {
    fileStorage: raw,
    s3: {
      endpoint,
      bucket,
      region: env.S3_REGION?.trim() || 'us-east-1',
      accessKeyId,
      secretAccessKey,
      forcePathStyle: boolean(env, 'S3_FORCE_PATH_STYLE', false),
      presignedDownloads: boolean(env, 'S3_PRESIGNED_DOWNLOADS', false),
      prefix: prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/`,
    },
  };
}

function databaseUrl(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.DATABASE_URL;
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`DATABASE_URL is not a URL: expected postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE, or leave it unset for SQLite in DATA_DIR`);
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new Error(`DATABASE_URL must start with postgres:// (got ${url.protocol}//…); leave it unset for SQLite in DATA_DIR`);
  }
  return raw;
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
    publicUrlSet: Boolean(env.PUBLIC_URL),
    dataDir: resolve(env.DATA_DIR || './data'),
    ...fileStorage(env),
    blobGraceMs: integer(env, 'BLOB_GRACE_MS', 24 * 60 * 60_000),
    jobLeaseMs: integer(env, 'JOB_LEASE_MS', 60_000) || 60_000,
    databaseUrl: databaseUrl(env),
    adminToken: adminToken(env),
    bodyLimit: integer(env, 'BODY_LIMIT', 10 * 1024 * 1024),
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_MS', 60_000),
    headersTimeoutMs: integer(env, 'HEADERS_TIMEOUT_MS', 20_000),
    maxConnections: integer(env, 'MAX_CONNECTIONS', 1024),
    defaultPageSize: 50,
    workerIntervalMs: integer(env, 'WORKER_INTERVAL_MS', 60_000),
    eventDeliveryIntervalMs: integer(env, 'EVENT_DELIVERY_INTERVAL_MS', 1_000),
    cacheTtlMs: integer(env, 'CACHE_TTL_MS', 2_000),
    logLevel: logLevel(env),
    fileSizeLimit: integer(env, 'FILE_SIZE_LIMIT', 100 * 1024 * 1024),
    allowPrivateFetch: boolean(env, 'ALLOW_PRIVATE_FETCH', false),
    fetchTimeoutMs: integer(env, 'FETCH_TIMEOUT_MS', 10_000),
    importMaxPages: integer(env, 'IMPORT_MAX_PAGES', 50),
    importMaxDepth: integer(env, 'IMPORT_MAX_DEPTH', 3),
    importMaxBytes: integer(env, 'IMPORT_MAX_BYTES', 20 * 1024 * 1024),
    importTimeoutMs: integer(env, 'IMPORT_TIMEOUT_MS', 60_000),
    gitSyncTimeoutMs: integer(env, 'GIT_SYNC_TIMEOUT_MS', 300_000),
    gitSyncMaxBytes: integer(env, 'GIT_SYNC_MAX_BYTES', 200 * 1024 * 1024),
    gitSyncIntervalMs: integer(env, 'GIT_SYNC_INTERVAL_MS', 1_000),
    gitSyncDebounceMs: integer(env, 'GIT_SYNC_DEBOUNCE_MS', 2_000),
    gitSyncPollIntervalMs: integer(env, 'GIT_SYNC_POLL_INTERVAL_MS', 5 * 60_000),
    githubApiUrl: providerUrl(env, 'GITHUB_API_URL', 'https://api.github.com'),
    gitlabUrl: providerUrl(env, 'GITLAB_URL', 'https://gitlab.com'),
    openapiMaxBytes: integer(env, 'OPENAPI_MAX_BYTES', 10 * 1024 * 1024),
    openapiRefreshIntervalMs: integer(env, 'OPENAPI_REFRESH_INTERVAL_MS', 60 * 60_000),
    openapiParseTimeoutMs: integer(env, 'OPENAPI_PARSE_TIMEOUT_MS', 60_000) || 60_000,
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 10_000),
    metricsToken: env.METRICS_TOKEN || undefined,
    corsOrigins: list(env, 'CORS_ORIGINS'),
    rateLimitMax: integer(env, 'RATE_LIMIT_MAX', 600),
    rateLimitExpensiveMax: integer(env, 'RATE_LIMIT_EXPENSIVE_MAX', 20),
    rateLimitWindowMs: integer(env, 'RATE_LIMIT_WINDOW_MS', 60_000) || 60_000,
    authFailureLimit: integer(env, 'AUTH_FAILURE_LIMIT', 20),
    redisUrl: redisUrl(env),
    maxEventLoopDelayMs: integer(env, 'MAX_EVENT_LOOP_DELAY_MS', 1_000),
    conversionThreads: integer(env, 'CONVERSION_THREADS', Math.max(1, Math.min(4, availableParallelism() - 1))),
    conversionTimeoutMs: integer(env, 'CONVERSION_TIMEOUT_MS', 30_000) || 30_000,
    translationProviderUrl: translationProviderUrl(env),
    translationProviderApiKey: env.TRANSLATION_PROVIDER_API_KEY || undefined,
    aiProviderUrl: optionalProviderUrl(env, 'AI_PROVIDER_URL'),
    aiApiKey: env.AI_API_KEY || undefined,
    aiChatModel: env.AI_CHAT_MODEL?.trim() || undefined,
    aiEmbeddingModel: env.AI_EMBEDDING_MODEL?.trim() || undefined,
    aiTimeoutMs: integer(env, 'AI_TIMEOUT_MS', 60_000) || 60_000,
    pdfMaxPages: integer(env, 'PDF_MAX_PAGES', 2_000) || 2_000,
    smtpUrl: smtpUrl(env),
    mailFrom: env.MAIL_FROM?.trim() || `Quire <quire@${new URL(publicUrl).hostname}>`,
  };
}
