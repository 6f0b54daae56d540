import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InjectOptions } from 'fastify';
import { buildApp, type App } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { createDatabase, migrateToLatest } from '../src/db/database.ts';
import type { Db } from '../src/db/types.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { newId } from '../src/platform/ids.ts';
import { bootstrapIfEmpty } from '../src/bootstrap.ts';
import { createUser } from '../src/features/users/service.ts';
import { addOrUpdateMember } from '../src/features/members/service.ts';
import { issueToken } from '../src/features/tokens/service.ts';
import { insertOrganizationWithAdmin } from '../src/features/organizations/service.ts';
import type { Role } from '../src/features/access/roles.ts';
import { forgetSchema, returnSchema, takeSchema } from './pg-schema-pool.ts';

export interface TestUser {
  userId: string;
  email: string;
  token: string;
}

export interface ApiResponse {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  headers: Record<string, unknown>;
}

export interface TestServer {
  app: App;
  db: Db;
  clock: ManualClock;
  config: Config;
  /** PostgreSQL schema of this server's tables (undefined on SQLite): a second instance can share it. */
  schema: string | undefined;
  /** The bootstrap organization and its admin. */
  org: { id: string };
  admin: TestUser;
  /** Calls the API in-process; `token: null` sends no Authorization header. Defaults to the admin's token. */
  api(method: InjectOptions['method'], path: string, options?: { token?: string | null; body?: unknown; headers?: Record<string, string> }): Promise<ApiResponse>;
  /** A new user, member of `organizationId` (default: the bootstrap organization) with `role` (null: guest). */
  member(role: Role | null, organizationId?: string): Promise<TestUser>;
  /** A new user who is admin of a new organization of their own. */
  outsider(): Promise<TestUser & { organizationId: string }>;
  close(): Promise<void>;
}

/**
 * A server on a fresh database: SQLite in a temporary file, or, when TEST_DATABASE_URL is set, a schema of
 * its own in that PostgreSQL. Every test builds what it needs through the API or the services.
 */
/**
 * A test server's limit on one conversion only bounds a hang: on a machine loaded past its cores, a corpus page of
 * GitBook's documentation once took more than the production default (30 s) to convert. The tests of the limit set
 * their own.
 */
const TEST_CONVERSION_TIMEOUT_MS = '120000';

export async function startServer(options: { env?: Record<string, string> } = {}): Promise<TestServer> {
  const pgUrl = process.env.TEST_DATABASE_URL;
  const dir = mkdtempSync(join(tmpdir(), 'quire-test-'));
  // PostgreSQL: a migrated schema of the pool (test/pg-schema-pool.ts), emptied, or a new one migrated below.
  const pooled = pgUrl ? await takePooledSchema(pgUrl, dir) : undefined;
  const schema = pooled?.schema;
  const config: Config = {
    // Rate limits and load shedding are off unless a test asks for them: the suite sends many requests per
    // token from one address on a loaded machine, and tests of those features set their own values.
    ...loadConfig({ PUBLIC_URL: 'http://quire.test', DATA_DIR: dir, RATE_LIMIT_MAX: '0', RATE_LIMIT_EXPENSIVE_MAX: '0', AUTH_FAILURE_LIMIT: '0', MAX_EVENT_LOOP_DELAY_MS: '0', CONVERSION_TIMEOUT_MS: TEST_CONVERSION_TIMEOUT_MS, ...options.env }),
    logLevel: 'silent',
    workerIntervalMs: 0,
    databaseUrl: pgUrl,
  };
  const db = createDatabase({ url: pgUrl, dataDir: dir, schema });
  if (!pooled?.reused) {
    try {
      await migrateToLatest(db, schema);
    } catch (error) {
      if (schema) await forgetSchema(db, schema);
      throw error;
    }
  }
  const clock = new ManualClock(new Date('2026-01-05T10:00:00.000Z'));
  const app = await buildApp({ config, db, clock });
  const boot = await bootstrapIfEmpty(app.ctx, { adminEmail: 'admin@quire.test' });
  if (!boot) throw new Error('bootstrap did not run on a fresh database');
  const adminUser = await db.selectFrom('users').select('id').where('email', '=', 'admin@quire.test').executeTakeFirstOrThrow();
  const ctx = app.ctx;
  let counter = 0;

  async function newUser(): Promise<TestUser> {
    counter += 1;
    const email = `user${counter}-${newId(6).toLowerCase()}@quire.test`;
    const user = await createUser(ctx, db, { email, displayName: `User ${counter}`, emailVerified: true });
    const { token } = await issueToken(ctx, db, user.id);
    return { userId: user.id, email, token };
  }

  const server: TestServer = {
    app,
    db,
    clock,
    config,
    schema,
    org: { id: boot.organizationId },
    admin: { userId: adminUser.id, email: 'admin@quire.test', token: boot.token },
    async api(method, path, opts = {}) {
      const token = opts.token === undefined ? boot.token : opts.token;
      const headers: Record<string, string> = { ...(opts.headers ?? {}) };
      if (token !== null) headers.authorization = `Bearer ${token}`;
      const response = await app.inject({
        method,
        url: path,
        headers,
        ...(opts.body !== undefined ? { payload: opts.body as InjectOptions['payload'] } : {}),
      });
      const text = response.body;
      let body: unknown = undefined;
      if (text.length > 0) {
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
        }
      }
      return { status: response.statusCode, body, headers: response.headers };
    },
    async member(role, organizationId = boot.organizationId) {
      const user = await newUser();
      await addOrUpdateMember(ctx, db, organizationId, user.userId, role);
      return user;
    },
    async outsider() {
      const user = await newUser();
      const org = await db.transaction().execute((trx) => insertOrganizationWithAdmin(ctx, trx, { title: `Org of ${user.email}` }, user.userId));
      return { ...user, organizationId: org.id };
    },
    async close() {
      await app.close();
      if (schema) await returnSchema(db, schema);
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return server;
}

/** A schema of the pool, through a connection of its own (the server's opens on the schema it is given). */
async function takePooledSchema(url: string, dir: string) {
  const admin = createDatabase({ url, dataDir: dir });
  try {
    return await takeSchema(admin);
  } finally {
    await admin.destroy();
  }
}

/**
 * Serves a started test server over real HTTP on a random port of 127.0.0.1, for clients that cannot use
 * `inject` (the official @gitbook/api client, autocannon). Every `urls` field then points at that address,
 * so a client can follow them. Returns the base URL, without `/v1`; `close()` stops listening too.
 */
export async function listenOnRandomPort(server: TestServer): Promise<string> {
  const address = await server.app.listen({ port: 0, host: '127.0.0.1' });
  server.config.publicUrl = address;
  return address;
}

/**
 * A port of 127.0.0.1 free a moment ago, for a server that must be told its port before it starts (a `quire
 * serve` child process): one listening on port 0 is let go at once and its port given.
 */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
