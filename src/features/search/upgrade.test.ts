import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Migrator } from 'kysely';
import { startServer } from '../../../test/helpers.ts';
import { ok } from '../../../test/assertions.ts';
import { buildPage, buildSpace } from '../../../test/factories.ts';
import { migrations } from '../../db/migrations/index.ts';

test('migration 0012 on a database with content: the page index is built and every space is listed for the backfill', async () => {
  const t = await startServer();
  try {
    const space = await buildSpace(t);
    await buildPage(t, space.id, { title: 'Quasar', markdown: 'A bright quasar.' });
    const migrator = new Migrator({ db: t.db, provider: { getMigrations: async () => migrations } });
    const down = await migrator.migrateTo('0009_links');
    assert.equal(down.error, undefined);
    const up = await migrator.migrateToLatest();
    assert.equal(up.error, undefined, String(up.error));
    const listed = await t.db.selectFrom('search_backfill').select('space_id').execute();
    assert.ok(listed.some((r) => r.space_id === space.id));
    const body = ok(await t.api('GET', `/v1/spaces/${space.id}/search?query=quasar`));
    assert.deepEqual(body.items.map((i: { title: string }) => i.title), ['Quasar']);
    await t.app.jobs.runDue();
    assert.equal((await t.db.selectFrom('search_backfill').select('space_id').execute()).length, 0);
    assert.equal(ok(await t.api('GET', `/v1/spaces/${space.id}/search?query=quasar`)).count, 1);
  } finally {
    await t.close();
  }
});
