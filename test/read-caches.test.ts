import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildApp, type App } from '../src/app.ts';
import { createDatabase } from '../src/db/database.ts';
import type { Db } from '../src/db/types.ts';
import { ReadCache } from '../src/platform/read-cache.ts';
import { watchStatements, type WrittenTables } from '../src/db/statement-watch.ts';
import { revokeToken } from '../src/features/tokens/service.ts';
import { startServer, type TestServer } from './helpers.ts';
import { buildInstallation, buildIntegration, buildSpace } from './factories.ts';

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

  // Answers kept as JSON text (platform/read-cache.ts serializedRead): each write of this process shows in the
  // next read, and a write of another process within CACHE_TTL_MS.
  test('a kept page of comments shows the next comment, reaction and reply, and another process sees them in time', async () => {
    const space = (await t.api('POST', `/v1/orgs/${t.org.id}/spaces`, { body: { title: 'Kept comments' } })).body;
    const list = async (app: App = t.app) => {
      const response = await app.inject({ method: 'GET', url: `/v1/spaces/${space.id}/comments`, headers: { authorization: `Bearer ${t.admin.token}` } });
      assert.equal(response.statusCode, 200, response.body);
      return JSON.parse(response.body) as { count: number; items: { id: string; replies: number; reactions: { emoji: string }[] }[] };
    };
    assert.equal((await list()).count, 0);
    assert.equal((await list(other.app)).count, 0);
    const posted = (await t.api('POST', `/v1/spaces/${space.id}/comments`, { body: { body: { markdown: 'First' } } })).body;
    assert.deepEqual((await list()).items.map((c) => c.id), [posted.id]);
    assert.equal((await t.api('PUT', `/v1/spaces/${space.id}/comments/${posted.id}`, { body: { addedReactions: ['👍'] } })).status, 200);
    assert.deepEqual((await list()).items[0]!.reactions.map((r) => r.emoji), ['👍']);
    assert.equal((await t.api('POST', `/v1/spaces/${space.id}/comments/${posted.id}/replies`, { body: { body: { markdown: 'A reply' } } })).status, 200);
    assert.equal((await list()).items[0]!.replies, 1);
    await sleep(t.config.cacheTtlMs + 200);
    assert.equal((await list(other.app)).count, 1);
  });

  test('a kept space answer and page of spaces show a new title, comment and role at once', async () => {
    const reader = await t.member('read');
    const space = (await t.api('POST', `/v1/orgs/${t.org.id}/spaces`, { body: { title: 'Before' } })).body;
    const get = async (token = t.admin.token) => JSON.parse((await t.app.inject({ method: 'GET', url: `/v1/spaces/${space.id}`, headers: { authorization: `Bearer ${token}` } })).body);
    const listed = async (token = t.admin.token) => {
      const response = await t.app.inject({ method: 'GET', url: `/v1/orgs/${t.org.id}/spaces?limit=1000`, headers: { authorization: `Bearer ${token}` } });
      return (JSON.parse(response.body) as { items: { id: string; title: string; comments: number; permissions: { edit: boolean } }[] }).items.find((s) => s.id === space.id);
    };
    assert.equal((await get()).title, 'Before');
    assert.equal((await listed())!.title, 'Before');
    assert.equal((await listed(reader.token))!.permissions.edit, false);
    assert.equal((await get(reader.token)).permissions.edit, false);
    assert.equal((await t.api('PATCH', `/v1/spaces/${space.id}`, { body: { title: 'After' } })).status, 200);
    assert.equal((await get()).title, 'After');
    assert.equal((await listed())!.title, 'After');
    assert.equal((await t.api('POST', `/v1/spaces/${space.id}/comments`, { body: { body: { markdown: 'Counted' } } })).status, 200);
    assert.equal((await get()).comments, 1);
    assert.equal((await listed())!.comments, 1);
    assert.equal((await t.api('PATCH', `/v1/orgs/${t.org.id}/members/${reader.userId}`, { body: { role: 'edit' } })).status, 200);
    assert.equal((await listed(reader.token))!.permissions.edit, true);
    assert.equal((await get(reader.token)).permissions.edit, true);
  });

  test('a kept page of members shows a new role and a new member at once', async () => {
    const member = await t.member('read');
    const list = async () => {
      const response = await t.api('GET', `/v1/orgs/${t.org.id}/members?limit=1000`);
      return response.body as { count: number; items: { id: string; role: string | null }[] };
    };
    const before = await list();
    assert.equal(before.items.find((m) => m.id === member.userId)!.role, 'read');
    assert.equal((await t.api('PATCH', `/v1/orgs/${t.org.id}/members/${member.userId}`, { body: { role: 'review' } })).status, 200);
    assert.equal((await list()).items.find((m) => m.id === member.userId)!.role, 'review');
    await t.member('comment');
    assert.equal((await list()).count, before.count + 1);
  });

  // An installation token's reach (access/service.ts InstallationAccess) is cached like a member's role.
  test("an installation's new space, wider selection and uninstall apply to its token at once, in another process within CACHE_TTL_MS", async () => {
    const integration = await buildIntegration(t, { endpoint: 'http://127.0.0.1:9/', scopes: ['space:content:read'] });
    const [first, second, third] = [await buildSpace(t, { title: 'First' }), await buildSpace(t, { title: 'Second' }), await buildSpace(t, { title: 'Third' })];
    const installation = await buildInstallation(t, integration.name, { spaces: [first.id] });
    const base = `/v1/integrations/${integration.name}/installations/${installation.id}`;
    const { token } = (await t.api('POST', `${base}/tokens`)).body as { token: string };
    const status = async (spaceId: string, app: App = t.app) => (await app.inject({ method: 'GET', url: `/v1/spaces/${spaceId}`, headers: { authorization: `Bearer ${token}` } })).statusCode;
    assert.deepEqual([await status(first.id), await status(second.id), await status(third.id)], [200, 404, 404]);
    assert.equal((await t.api('POST', `${base}/spaces`, { body: { space: second.id } })).status, 201);
    assert.equal(await status(second.id), 200, 'a space it was just installed on');
    assert.equal((await t.api('PATCH', base, { body: { space_selection: 'all' } })).status, 200);
    assert.equal(await status(third.id), 200, 'every space, once its selection is all');
    assert.equal(await status(third.id, other.app), 200);
    assert.equal((await t.api('DELETE', base)).status, 204);
    assert.equal(await status(first.id), 401, 'uninstalled: its token is gone');
    await sleep(t.config.cacheTtlMs + 200);
    assert.equal(await status(first.id, other.app), 401);
  });

  test('a write that changed no row empties no cache; one that changed a row does, in a transaction or not', async () => {
    const space = await buildSpace(t, { title: 'Watched' });
    const heard: WrittenTables[] = [];
    const stop = watchStatements(t.db, { committed: (tables) => heard.push(tables) });
    assert.ok(stop, 'the test database reports its statements');
    try {
      await t.db.updateTable('spaces').set({ title: 'Nothing' }).where('id', '=', 'no-such-space').execute();
      await t.db.deleteFrom('spaces').where('id', '=', 'no-such-space').execute();
      await t.db.transaction().execute((trx) => trx.updateTable('spaces').set({ title: 'Nothing' }).where('id', '=', 'no-such-space').execute());
      assert.deepEqual([...heard], [], 'writes that matched no row');

      // RETURNING: SQLite answers with the rows, not a count of changes.
      await t.db.updateTable('spaces').set({ title: 'Renamed' }).where('id', '=', space.id).returning('id').execute();
      assert.deepEqual([...heard], [['spaces']]);
      heard.length = 0;
      await t.db.transaction().execute((trx) => trx.updateTable('spaces').set({ title: 'Again' }).where('id', '=', space.id).execute());
      assert.ok(heard.length >= 1 && heard.every((tables) => tables !== '*' && tables.includes('spaces')), 'heard at the write and at the commit');
    } finally {
      stop();
    }
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
