import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { sql } from 'kysely';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { buildApp } from '../app.ts';
import { createDatabase, migrateToLatest } from '../db/database.ts';
import { startServer, type TestServer } from '../../test/helpers.ts';
import { assertError, ok } from '../../test/assertions.ts';
import { enqueueJob } from './jobs.ts';

describe('health probes', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ env: { WORKER_INTERVAL_MS: '60000' } });
    server.config.workerIntervalMs = 60_000;
  });
  after(() => server.close());

  test('/healthz answers without a token while the process runs', async () => {
    assert.deepEqual(ok(await server.api('GET', '/healthz', { token: null })), { status: 'ok' });
  });

  test('/readyz is 503 while the job worker is stopped and 200 once it runs', async () => {
    const stopped = await server.api('GET', '/readyz', { token: null });
    assert.equal(stopped.status, 503);
    assert.equal(stopped.body.checks.worker, 'stopped');
    assert.equal(stopped.body.checks.database, 'ok');
    assert.equal(stopped.body.checks.migrations, 'ok');
    server.app.jobs.start(60_000);
    try {
      const ready = ok(await server.api('GET', '/readyz', { token: null }));
      assert.deepEqual(ready, { status: 'ready', checks: { database: 'ok', migrations: 'ok', worker: 'ok' } });
    } finally {
      await server.app.jobs.stop();
    }
  });

  test('/readyz names a migration the database lacks', async () => {
    // Put back as it was, its timestamp included: on PostgreSQL the schema goes back to the test pool, and a row
    // stamped later than 0008's is what Kysely's migrator calls corrupted (a later suite's migrateTo failed).
    const row = await server.db.selectFrom('kysely_migration' as never).selectAll().where('name' as never, '=', '0007_sites' as never).executeTakeFirstOrThrow();
    await server.db.deleteFrom('kysely_migration' as never).where('name' as never, '=', '0007_sites' as never).execute();
    try {
      const res = await server.api('GET', '/readyz', { token: null });
      assert.equal(res.status, 503);
      assert.match(res.body.checks.migrations, /0007_sites/);
    } finally {
      await server.db.insertInto('kysely_migration' as never).values(row).execute();
    }
  });
});

describe('readiness follows the database', { skip: !process.env.TEST_DATABASE_URL && 'PostgreSQL only (a TCP proxy stands for the database)' }, () => {
  test('/readyz goes 503 when the database stops answering and back to 200 when it returns', async () => {
    // A proxy in front of PostgreSQL stands for the database: closing it (and its connections) is a stopped
    // database for this app, without stopping the PostgreSQL that other tests use.
    const target = new URL(process.env.TEST_DATABASE_URL!);
    const sockets = new Set<Socket>();
    let proxy: Server | undefined;
    const open = (port = 0) =>
      new Promise<number>((resolve) => {
        proxy = createServer((client) => {
          const upstream = connect(Number(target.port || 5432), target.hostname);
          sockets.add(client).add(upstream);
          client.pipe(upstream).pipe(client);
          client.on('error', () => upstream.destroy());
          upstream.on('error', () => client.destroy());
        });
        proxy.listen(port, '127.0.0.1', () => resolve((proxy!.address() as { port: number }).port));
      });
    const close = () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        sockets.clear();
        if (!proxy?.listening) return resolve();
        proxy.close(() => resolve());
      });
    const port = await open();
    const url = new URL(target);
    url.port = String(port);
    const schema = `t_ready_${Date.now().toString(36)}`;
    const db = createDatabase({ url: url.href, schema });
    await migrateToLatest(db, schema);
    const base = await startServer();
    const app = await buildApp({ config: { ...base.config, workerIntervalMs: 0 }, db });
    try {
      assert.equal((await app.inject({ method: 'GET', url: '/readyz' })).statusCode, 200);
      await close();
      const down = await app.inject({ method: 'GET', url: '/readyz' });
      assert.equal(down.statusCode, 503);
      assert.match(down.json().checks.database, /unreachable/);
      await open(port);
      assert.equal((await app.inject({ method: 'GET', url: '/readyz' })).statusCode, 200);
    } finally {
      await app.close();
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db).catch(() => undefined);
      await db.destroy();
      await close();
      await base.close();
    }
  });
});

describe('metrics', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  test('/metrics is Prometheus text: requests by route and status, query durations, job queue', async () => {
    ok(await server.api('GET', `/v1/orgs/${server.org.id}`));
    assertError(await server.api('GET', '/v1/orgs/nope'), 404);
    await enqueueJob(server.app.ctx, server.db, 'nothing', {}, new Date(server.clock.now().getTime() - 30_000));
    const res = await server.app.inject({ method: 'GET', url: '/metrics' });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
    const families = new Map(parsePrometheusTextFormat(res.body).map((f) => [f.name, f]));
    const requests = families.get('quire_http_requests_total')!;
    assert.equal(requests.type, 'COUNTER');
    const sample = (route: string, status: string) => requests.metrics.find((m) => m.labels?.route === route && m.labels?.status === status);
    assert.equal(sample('/v1/orgs/:organizationId', '200')?.value, '1');
    assert.equal(sample('/v1/orgs/:organizationId', '404')?.value, '1');
    assert.equal(families.get('quire_http_request_duration_seconds')?.type, 'HISTOGRAM');
    const queries = families.get('quire_db_query_duration_seconds')!;
    assert.equal(queries.type, 'HISTOGRAM');
    assert.ok(Number(queries.metrics[0]?.buckets?.['+Inf']) > 0, 'queries are timed');
    assert.equal(families.get('quire_job_queue_depth')?.metrics[0]?.value, '1');
    assert.ok(Number(families.get('quire_job_queue_oldest_due_age_seconds')?.metrics[0]?.value) >= 30);
    assert.ok(families.has('quire_process_resident_memory_bytes'));
  });

  test('/metrics counts the hits and misses of each read cache', async () => {
    const space = (await server.api('POST', `/v1/orgs/${server.org.id}/spaces`, { body: { title: 'Cached' } })).body as { id: string };
    // The first read loads the space row, the second finds it in the cache.
    for (let i = 0; i < 2; i++) ok(await server.api('GET', `/v1/spaces/${space.id}`));
    const res = await server.app.inject({ method: 'GET', url: '/metrics' });
    const families = new Map(parsePrometheusTextFormat(res.body).map((f) => [f.name, f]));
    const value = (name: string) => Number(families.get(name)?.metrics.find((m) => m.labels?.cache === 'spaces:rows')?.value);
    assert.equal(families.get('quire_cache_hits_total')?.type, 'COUNTER');
    assert.ok(value('quire_cache_hits_total') >= 1, 'the second read is a hit');
    assert.ok(value('quire_cache_misses_total') >= 1, 'the first read is a miss');
    const ratio = value('quire_cache_hit_ratio');
    assert.ok(ratio > 0 && ratio < 1, `a ratio between 0 and 1, got ${ratio}`);
  });

  test('/metrics refuses a remote client without METRICS_TOKEN set', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.7' });
    assert.equal(res.statusCode, 403);
    assert.match(res.json().error.message, /METRICS_TOKEN/);
  });

  test('with METRICS_TOKEN, /metrics needs that bearer token, from anywhere', async () => {
    const guarded = await startServer({ env: { METRICS_TOKEN: 'scrape-secret-0123456789' } });
    try {
      const refused = await guarded.app.inject({ method: 'GET', url: '/metrics' });
      assert.equal(refused.statusCode, 403);
      const wrong = await guarded.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer nope' } });
      assert.equal(wrong.statusCode, 403);
      const scraped = await guarded.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.7', headers: { authorization: 'Bearer scrape-secret-0123456789' } });
      assert.equal(scraped.statusCode, 200);
    } finally {
      await guarded.close();
    }
  });
});

describe('CORS and security headers', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ env: { CORS_ORIGINS: 'https://app.example.com, https://docs.example.com/' } });
  });
  after(() => server.close());

  test('a preflight from an allowed origin is answered without a token', async () => {
    const res = await server.api('OPTIONS', `/v1/orgs/${server.org.id}/spaces`, {
      token: null,
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });
    assert.equal(res.status, 204);
    assert.equal(res.headers['access-control-allow-origin'], 'https://app.example.com');
    assert.match(String(res.headers['access-control-allow-methods']), /POST/);
    assert.match(String(res.headers['access-control-allow-headers']), /Authorization/);
  });

  test('responses to an allowed origin carry Access-Control-Allow-Origin; other origins get none', async () => {
    const allowed = await server.api('GET', `/v1/orgs/${server.org.id}`, { headers: { origin: 'https://docs.example.com' } });
    ok(allowed);
    assert.equal(allowed.headers['access-control-allow-origin'], 'https://docs.example.com');
    const other = await server.api('GET', `/v1/orgs/${server.org.id}`, { headers: { origin: 'https://evil.example.net' } });
    ok(other);
    assert.equal(other.headers['access-control-allow-origin'], undefined);
  });

  test('unknown paths stay 404 and wrong methods 405 with CORS on', async () => {
    assertError(await server.api('GET', '/v1/nothing-here'), 404);
    const res = await server.api('PUT', `/v1/orgs/${server.org.id}`);
    assertError(res, 405);
    assert.doesNotMatch(String(res.headers.allow), /OPTIONS/);
  });

  test('without CORS_ORIGINS no origin is allowed', async () => {
    const plain = await startServer();
    try {
      const res = await plain.api('GET', `/v1/orgs/${plain.org.id}`, { headers: { origin: 'https://app.example.com' } });
      ok(res);
      assert.equal(res.headers['access-control-allow-origin'], undefined);
    } finally {
      await plain.close();
    }
  });

  test('HTML pages carry security headers; API JSON does not', async () => {
    const page = await server.app.inject({ method: 'GET', url: '/v1/docs/' });
    assert.equal(page.statusCode, 200);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    assert.match(String(page.headers['content-security-policy']), /default-src 'self'/);
    assert.equal(page.headers['x-content-type-options'], 'nosniff');
    assert.equal(page.headers['x-frame-options'], 'SAMEORIGIN');
    const json = await server.api('GET', `/v1/orgs/${server.org.id}`);
    assert.equal(json.headers['content-security-policy'], undefined);
    assert.equal(json.headers['x-frame-options'], undefined);
  });
});

describe('rate limits', () => {
  test('a token over its limit gets 429 in the error shape with RateLimit and Retry-After headers', async () => {
    const server = await startServer({ env: { RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_MS: '60000' } });
    try {
      const first = ok(await server.api('GET', `/v1/orgs/${server.org.id}`)) && (await server.api('GET', `/v1/orgs/${server.org.id}`));
      assert.equal(first.headers['ratelimit-limit'], '3');
      assert.equal(first.headers['ratelimit-remaining'], '1');
      ok(await server.api('GET', `/v1/orgs/${server.org.id}`));
      const refused = await server.api('GET', `/v1/orgs/${server.org.id}`);
      assertError(refused, 429, 'Rate limit exceeded');
      assert.ok(Number(refused.headers['retry-after']) > 0);
      assert.equal(refused.headers['ratelimit-remaining'], '0');
      // Another token has its own counter; the probes have none.
      const member = await server.member('read');
      ok(await server.api('GET', `/v1/orgs/${server.org.id}`, { token: member.token }));
      for (let i = 0; i < 5; i++) ok(await server.api('GET', '/healthz', { token: null }));
    } finally {
      await server.close();
    }
  });

  test('expensive operations (imports) have a stricter bucket of their own', async () => {
    const server = await startServer({ env: { RATE_LIMIT_MAX: '100', RATE_LIMIT_EXPENSIVE_MAX: '1' } });
    try {
      const space = ok(await server.api('POST', `/v1/orgs/${server.org.id}/spaces`, { body: { title: 'S' } }), 201);
      const path = `/v1/spaces/${space.id}/content/import`;
      const first = await server.api('POST', path, { body: {} });
      assert.equal(first.headers['ratelimit-limit'], '1');
      assert.notEqual(first.status, 429);
      assertError(await server.api('POST', path, { body: {} }), 429);
      ok(await server.api('GET', `/v1/spaces/${space.id}`));
    } finally {
      await server.close();
    }
  });

  test('an address that keeps failing authentication is refused for the rest of the window', async () => {
    const server = await startServer({ env: { AUTH_FAILURE_LIMIT: '2' } });
    try {
      assertError(await server.api('GET', `/v1/orgs/${server.org.id}`, { token: 'wrong-1' }), 401);
      assertError(await server.api('GET', `/v1/orgs/${server.org.id}`, { token: 'wrong-2' }), 401);
      const refused = await server.api('GET', `/v1/orgs/${server.org.id}`);
      assertError(refused, 429, 'failed authentications');
      assert.ok(Number(refused.headers['retry-after']) > 0);
    } finally {
      await server.close();
    }
  });

  test('two processes sharing Redis share the counters', async () => {
    const env = { RATE_LIMIT_MAX: '4', REDIS_URL: 'redis://127.0.0.1:6379' };
    const one = await startServer({ env });
    try {
      const two = await buildApp({ config: one.config, db: one.db, clock: one.clock });
      try {
        const headers = { authorization: `Bearer ${one.admin.token}` };
        const url = `/v1/orgs/${one.org.id}`;
        assert.equal((await one.app.inject({ method: 'GET', url, headers })).statusCode, 200);
        assert.equal((await two.inject({ method: 'GET', url, headers })).statusCode, 200);
        assert.equal((await one.app.inject({ method: 'GET', url, headers })).statusCode, 200);
        const last = await two.inject({ method: 'GET', url, headers });
        assert.equal(last.statusCode, 200);
        assert.equal(last.headers['ratelimit-remaining'], '0');
        const refused = await one.app.inject({ method: 'GET', url, headers });
        assert.equal(refused.statusCode, 429);
        assert.equal(refused.json().error.code, 429);
      } finally {
        await two.close();
      }
    } finally {
      await one.close();
    }
  });
});
