import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildApp, type App } from '../src/app.ts';
import { createDatabase } from '../src/db/database.ts';
import type { Db } from '../src/db/types.ts';
import { startServer, type TestServer } from './helpers.ts';
import { buildChangeRequest, buildSpace, writeContent } from './factories.ts';

const paragraph = (text: string) => ({
  document: { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] }] },
});

/**
 * Concurrent writes to one space. On PostgreSQL a second application instance with its own connection pool
 * shares the database, as a second server process would; on SQLite one process serializes its transactions.
 */
describe('concurrent writes to one space', () => {
  let t: TestServer;
  let second: { app: App; db: Db } | undefined;
  const apps: App[] = [];

  before(async () => {
    t = await startServer();
    apps.push(t.app);
    const url = process.env.TEST_DATABASE_URL;
    if (url) {
      const db = createDatabase({ url, schema: t.schema });
      const app = await buildApp({ config: t.config, db, clock: t.clock });
      second = { app, db };
      apps.push(app);
    }
  });

  after(async () => {
    if (second) {
      await second.app.close();
      await second.db.destroy();
    }
    await t.close();
  });

  const call = (i: number, method: 'GET' | 'POST', url: string, body?: unknown) =>
    apps[i % apps.length]!.inject({ method, url, headers: { authorization: `Bearer ${t.admin.token}` }, ...(body !== undefined ? { payload: body as object } : {}) });

  test('change requests opened at once get the numbers 1..n, without gap or duplicate', async () => {
    const space = await buildSpace(t, { title: 'Numbers' });
    const responses = await Promise.all(Array.from({ length: 20 }, (_, i) => call(i, 'POST', `/v1/spaces/${space.id}/change-requests`, {})));
    for (const r of responses) assert.equal(r.statusCode, 201, r.body);
    const numbers = responses.map((r) => (JSON.parse(r.body) as { number: number }).number).sort((a, b) => a - b);
    assert.deepEqual(numbers, Array.from({ length: 20 }, (_, i) => i + 1));
  });

  test('change requests merged at once are all in the space, one merge revision each', async () => {
    const space = await buildSpace(t, { title: 'Merges' });
    const S = `/v1/spaces/${space.id}`;
    const crs: string[] = [];
    for (let i = 0; i < 8; i++) {
      const cr = await buildChangeRequest(t, space.id);
      await writeContent(t, space.id, cr.id, [{ operation: 'insert_page', title: `Page ${i}`, document: paragraph(`text ${i}`) }]);
      crs.push(cr.id);
    }
    const merges = await Promise.all(crs.map((id, i) => call(i, 'POST', `${S}/change-requests/${id}/merge`)));
    for (const r of merges) {
      assert.equal(r.statusCode, 200, r.body);
      assert.equal((JSON.parse(r.body) as { result: string }).result, 'merge');
    }
    const content = (await t.api('GET', `${S}/content`)).body;
    assert.deepEqual(content.pages.map((p: { title: string }) => p.title).sort(), Array.from({ length: 8 }, (_, i) => `Page ${i}`));
    // Each merge builds on the previous one: the merge revisions form one line.
    const revisions = await Promise.all(merges.map((r) => t.api('GET', `${S}/revisions/${(JSON.parse(r.body) as { revision: string }).revision}`)));
    const heads = new Set(revisions.map((r) => r.body.parents[0]));
    assert.equal(heads.size, 8, 'no two merges started from the same revision');
  });

  test('edits to one change request sent at once each become their own revision', async () => {
    const space = await buildSpace(t, { title: 'Edits' });
    const S = `/v1/spaces/${space.id}`;
    const cr = await buildChangeRequest(t, space.id);
    const writes = await Promise.all(
      Array.from({ length: 10 }, (_, i) => call(i, 'POST', `${S}/change-requests/${cr.id}/content`, { changes: [{ operation: 'insert_page', title: `P${i}`, document: paragraph('x') }] })),
    );
    for (const r of writes) assert.equal(r.statusCode, 200, r.body);
    const content = (await t.api('GET', `${S}/change-requests/${cr.id}/content`)).body;
    assert.equal(content.pages.length, 10);
  });
});
