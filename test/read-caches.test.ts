import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildApp, type App } from '../src/app.ts';
import { createDatabase } from '../src/db/database.ts';
import type { Db } from '../src/db/types.ts';
import { ReadCache } from '../src/platform/read-cache.ts';
import { revokeToken } from '../src/features/tokens/service.ts';
import { startServer, type TestServer } from './helpers.ts';

/**
 * The read caches (platform/read-cache.ts) against what they must never do: serve what this process has
 * changed, or serve for more than a few seconds what another process has changed.
 */
describe('read caches', () => {
  let t: TestServer;
  // A second application on the same database, as a second server process would be.
  let other: { app: App; db: Db };

  before(async () => {
    t = await startServer();
    const db = process.env.TEST_DATABASE_URL ? createDatabase({ url: process.env.TEST_DATABASE_URL, schema: t.schema }) : createDatabase({ dataDir: t.config.dataDir });
    other = { app: await buildApp({ config: t.config, db, clock: t.clock }), db };
  });

  after(async () => {
    await other.app.close();
    await other.db.destroy();
    await t.close();
  });

  const asUser = (app: App, token: string) => app.inject({ method: 'GET', url: '/v1/user', headers: { authorization: `Bearer ${token}` } });

  test('a token revoked in this process is refused by the next request', async () => {
    const user = await t.member('read');
    assert.equal((await asUser(t.app, user.token)).statusCode, 200);
    await revokeToken(t.app.ctx, { token: user.token });
    assert.equal((await asUser(t.app, user.token)).statusCode, 401);
  });

  test('a token revoked by another process is refused within CACHE_TTL_MS', async () => {
    const user = await t.member('read');
    assert.equal((await asUser(other.app, user.token)).statusCode, 200);
    await revokeToken(t.app.ctx, { token: user.token });
    assert.equal((await asUser(t.app, user.token)).statusCode, 401);
    await sleep(t.config.cacheTtlMs + 200);
    assert.equal((await asUser(other.app, user.token)).statusCode, 401);
  });

  test('a member demoted by another process loses the role within CACHE_TTL_MS', async () => {
    const user = await t.member('admin');
    const url = `/v1/orgs/${t.org.id}/members/${user.userId}`;
    const before = await other.app.inject({ method: 'PATCH', url, headers: { authorization: `Bearer ${user.token}` }, payload: { role: 'admin' } });
    assert.equal(before.statusCode, 200, before.body);
    assert.equal((await t.api('PATCH', url, { body: { role: 'read' } })).status, 200);
    await sleep(t.config.cacheTtlMs + 200);
    const after = await other.app.inject({ method: 'PATCH', url, headers: { authorization: `Bearer ${user.token}` }, payload: { role: 'admin' } });
    assert.equal(after.statusCode, 403, after.body);
  });

  test('a read that overlapped an invalidation is served but not kept', async () => {
    const cache = new ReadCache<string>({ max: 10, ttlMs: 60_000, dependsOn: ['t'] }, 60_000);
    let loads = 0;
    const first = cache.get('k', async () => {
      loads += 1;
      await sleep(10);
      return 'old';
    });
    cache.clear();
    assert.equal(await first, 'old');
    assert.equal(await cache.get('k', async () => (loads += 1, 'new')), 'new');
    assert.equal(await cache.get('k', async () => (loads += 1, 'newer')), 'new');
    assert.equal(loads, 2);
  });
});
