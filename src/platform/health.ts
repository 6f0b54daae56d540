import underPressure from '@fastify/under-pressure';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { pendingMigrations } from '../db/database.ts';
import type { AppContext } from './context.ts';
import { ApiError } from './errors.ts';
import type { JobWorker } from './jobs.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Health probes: answered even under pressure and outside rate limits. */
    probe?: boolean;
  }
}

/** Longest a readiness probe waits for the database: a probe that hangs is as bad as one that fails. */
const PROBE_TIMEOUT_MS = 2_000;

function withTimeout<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${PROBE_TIMEOUT_MS} ms`)), PROBE_TIMEOUT_MS);
  });
  // The work may still fail after the timeout has answered: that late failure is expected, not unhandled.
  work.catch(() => undefined);
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

interface Readiness {
  ready: boolean;
  checks: { database: string; migrations: string; worker: string };
}

/** What /readyz reports: each check is `ok` or says what is wrong. */
export async function readiness(ctx: AppContext, jobs: JobWorker): Promise<Readiness> {
  const checks = { database: 'ok', migrations: 'ok', worker: 'ok' };
  try {
    await withTimeout(sql`select 1`.execute(ctx.db), 'the database');
    const pending = await withTimeout(pendingMigrations(ctx.db), 'the database');
    if (pending.length > 0) checks.migrations = `pending: ${pending.join(', ')} (run quire migrate)`;
  } catch (error) {
    checks.database = `unreachable: ${error instanceof Error ? error.message : String(error)}`;
    checks.migrations = 'unknown';
  }
  // WORKER_INTERVAL_MS=0 turns the worker off on purpose (another process runs the jobs): not a failure.
  if (ctx.config.workerIntervalMs > 0 && !jobs.isRunning) checks.worker = 'stopped';
  else if (ctx.config.workerIntervalMs === 0) checks.worker = 'disabled';
  return { ready: Object.values(checks).every((c) => c === 'ok' || c === 'disabled'), checks };
}

/**
 * `GET /healthz` (the process answers), `GET /readyz` (it can serve: database reachable, migrations applied,
 * job worker running; 503 otherwise) and load shedding: while the event loop lags more than
 * MAX_EVENT_LOOP_DELAY_MS, requests other than these probes are answered 503 with Retry-After.
 */
export async function registerHealth(app: FastifyInstance, ctx: AppContext, jobs: JobWorker): Promise<void> {
  if (ctx.config.maxEventLoopDelayMs > 0) {
    await app.register(underPressure, {
      maxEventLoopDelay: ctx.config.maxEventLoopDelayMs,
      retryAfter: 10,
      // Resolving lets the request through (the probes: an orchestrator must still see the process); the
      // error is answered in the API's shape by the error handler.
      pressureHandler: async (request, reply, type, value) => {
        if (request.routeOptions.config?.probe) return;
        void reply.header('retry-after', '10');
        throw new ApiError(503, `The server is under pressure (${type}: ${String(value)}); retry later`);
      },
    });
  }
  const probe = { public: true, probe: true };
  app.get('/healthz', { config: probe, schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { config: probe, schema: { hide: true } }, async (_request, reply) => {
    const result = await readiness(ctx, jobs);
    return reply.status(result.ready ? 200 : 503).send({ status: result.ready ? 'ready' : 'not ready', checks: result.checks });
  });
}
