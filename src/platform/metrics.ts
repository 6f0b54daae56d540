import { timingSafeEqual } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { onQuery } from '../db/database.ts';
import type { AppContext } from './context.ts';
import { jobQueueStats } from './job-store.ts';
import { readCachesOf } from './read-cache.ts';
import { deliveryStatsOf, pendingDeliveries } from './delivery-stats.ts';

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function isLoopback(address: string): boolean {
  try {
    const parsed = ipaddr.process(address);
    return parsed.range() === 'loopback';
  } catch {
    return false;
  }
}

/** METRICS_TOKEN set: only `Authorization: Bearer <it>`; unset: only clients on this machine (loopback). */
function mayScrape(request: FastifyRequest, token: string | undefined): boolean {
  if (token) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    return match !== null && sameSecret(match[1]!, token);
  }
  return isLoopback(request.socket.remoteAddress ?? '');
}

/**
 * `GET /metrics` in Prometheus text format: requests by route, method and status with their durations,
 * database query durations, the job queue's depth and the age of its oldest due job, the hits and misses of
 * each read cache (platform/read-cache.ts) and their ratio, and Node's process metrics. Each app has its own
 * registry (tests build many apps). Every request pays a map lookup for its series (route, method, status),
 * whose label objects are built once; the cache counts are read only when scraped.
 */
export function registerMetrics(app: FastifyInstance, ctx: AppContext): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'quire_' });

  const requests = new Counter({
    name: 'quire_http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'quire_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route pattern, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const queries = new Histogram({
    name: 'quire_db_query_duration_seconds',
    help: 'Database query durations, by result',
    labelNames: ['result'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
    registers: [registry],
  });
  const queryOk = queries.labels('ok');
  const queryFailed = queries.labels('error');
  const stopObserving = onQuery(ctx.db, (ms, failed) => (failed ? queryFailed : queryOk).observe(ms / 1000));

  // Read at scrape time: one count and one indexed lookup on the jobs table.
  const jobs = { depth: 0, age: 0 };
  const refreshJobs = async () => {
    try {
      const stats = await jobQueueStats(ctx.db, ctx.clock.now().toISOString());
      jobs.depth = stats.depth;
      jobs.age = stats.oldestDueAgeSeconds;
    } catch {
      // The database is down: /readyz says so; the metrics keep their last values.
    }
  };
  new Gauge({ name: 'quire_job_queue_depth', help: 'Jobs waiting in the queue', registers: [registry], collect() { this.set(jobs.depth); } });
  new Gauge({
    name: 'quire_job_queue_oldest_due_age_seconds',
    help: 'How long the oldest due job has waited',
    registers: [registry],
    collect() {
      this.set(jobs.age);
    },
  });
  // Integration event deliveries (features/integration-events): attempts by outcome, and the events waiting.
  const deliveries = deliveryStatsOf(ctx.db);
  const deliveryQueue = { depth: 0 };
  new Counter({
    name: 'quire_integration_event_deliveries_total',
    help: 'Integration event delivery attempts, by outcome: delivered (2xx), failed (refused or given up), retried (scheduled again)',
    labelNames: ['outcome'] as const,
    registers: [registry],
    collect() {
      this.reset();
      this.inc({ outcome: 'delivered' }, deliveries.delivered);
      this.inc({ outcome: 'failed' }, deliveries.failed);
      this.inc({ outcome: 'retried' }, deliveries.retried);
    },
  });
  new Gauge({
    name: 'quire_integration_event_queue_depth',
    help: 'Integration events waiting for delivery (due or retrying later)',
    registers: [registry],
    collect() {
      this.set(deliveryQueue.depth);
    },
  });
  const caches = () => readCachesOf(ctx.db);
  new Counter({
    name: 'quire_cache_hits_total',
    help: 'Lookups of each read cache answered from it',
    labelNames: ['cache'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [name, cache] of caches()) this.inc({ cache: name }, cache.hits);
    },
  });
  new Counter({
    name: 'quire_cache_misses_total',
    help: 'Lookups of each read cache that read the database',
    labelNames: ['cache'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [name, cache] of caches()) this.inc({ cache: name }, cache.misses);
    },
  });
  new Gauge({
    name: 'quire_cache_hit_ratio',
    help: 'Hits over lookups of each read cache since start',
    labelNames: ['cache'] as const,
    registers: [registry],
    collect() {
      for (const [name, cache] of caches()) {
        const lookups = cache.hits + cache.misses;
        this.set({ cache: name }, lookups === 0 ? 0 : cache.hits / lookups);
      }
    },
  });

  // The series of a route pattern (never the raw URL: ids in paths would make one series per object), method
  // and status, found by one string key.
  type Series = { count: { inc(): void }; duration: { observe(value: number): void } };
  const series = new Map<string, Series>();
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    if (route !== '/metrics') {
      const key = `${route} ${request.method} ${reply.statusCode}`;
      let entry = series.get(key);
      if (!entry) {
        const labels = [route, request.method, String(reply.statusCode)] as const;
        series.set(key, (entry = { count: requests.labels(...labels), duration: durations.labels(...labels) }));
      }
      entry.count.inc();
      entry.duration.observe(reply.elapsedTime / 1000);
    }
    done();
  });

  app.get('/metrics', { config: { public: true, probe: true }, schema: { hide: true } }, async (request, reply) => {
    if (!mayScrape(request, ctx.config.metricsToken)) {
      return reply.status(403).send({
        error: { code: 403, message: ctx.config.metricsToken ? 'GET /metrics needs "Authorization: Bearer <METRICS_TOKEN>"' : 'GET /metrics answers only local clients; set METRICS_TOKEN to scrape it from elsewhere' },
      });
    }
    await refreshJobs();
    try {
      deliveryQueue.depth = await pendingDeliveries(ctx.db);
    } catch {
      // As for the job queue: the last value stays while the database is down.
    }
    return reply.header('content-type', registry.contentType).send(await registry.metrics());
  });
  app.addHook('onClose', async () => stopObserving());
  return registry;
}
