import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { ok } from '../../../test/assertions.ts';
import { buildSpace, editLive, markdown } from '../../../test/factories.ts';
import { isPostgres } from '../../db/dialect.ts';
import { backfillSearchIndex, requestSearchBackfill } from './backfill.ts';

describe('the search backfill', () => {
  let t: TestServer;
  before(async () => {
    t = await startServer();
  });
  after(() => t.close());

  const titles = async (spaceId: string, query: string) =>
    (ok(await t.api('GET', `/v1/spaces/${spaceId}/search?query=${encodeURIComponent(query)}&limit=50`)).items as { title: string }[]).map((i) => i.title).sort();

  /** As if the space's content had been written before search indexed it (before migration 0008). */
  async function forgetIndex(spaceId: string) {
    await t.db.deleteFrom('search_sections').where('space_id', '=', spaceId).execute();
    if (!isPostgres(t.db)) await t.db.deleteFrom('search_pages').where('space_id', '=', spaceId).execute();
  }

  const pages = (n: number, word: string) =>
    Array.from({ length: n }, (_, i) => ({ operation: 'insert_page', title: `Page ${i}`, document: markdown(`About the ${word} number ${i}.\n\n## Details\n\nMore.`) }));

  test('content written before search indexed it is found once the worker has run the backfill', async () => {
    const space = await buildSpace(t, { title: 'Old content' });
    await editLive(t, space.id, pages(5, 'lighthouse'));
    await forgetIndex(space.id);
    assert.deepEqual(await titles(space.id, 'lighthouse'), []);
    await requestSearchBackfill(t.db, [space.id]);
    await t.app.jobs.runDue();
    assert.deepEqual(await titles(space.id, 'lighthouse'), ['Page 0', 'Page 1', 'Page 2', 'Page 3', 'Page 4']);
    const listed = await t.db.selectFrom('search_backfill').select('space_id').where('space_id', '=', space.id).execute();
    assert.equal(listed.length, 0, 'a space leaves the list once indexed');
    // Running it again for a space already indexed changes nothing.
    await requestSearchBackfill(t.db, [space.id]);
    await t.app.jobs.runDue();
    assert.equal((ok(await t.api('GET', `/v1/spaces/${space.id}/search?query=lighthouse`))).count, 5);
  });

  test('the backfill goes in batches, and an edit between batches is not undone', async () => {
    const space = await buildSpace(t, { title: 'Batches' });
    const ids = await editLive(t, space.id, pages(7, 'harbour'));
    await forgetIndex(space.id);
    await requestSearchBackfill(t.db, [space.id]);
    // One batch of three pages per run: a run with no time left stops after its first batch.
    assert.equal(await backfillSearchIndex(t.app.ctx, { batch: 3, budgetMs: 0 }), 3);
    const found = (await titles(space.id, 'harbour')).length;
    assert.equal(found, 3);
    // Every page is edited on the main line between batches: the commit indexes what it writes.
    await editLive(t, space.id, ids.map((id) => ({ operation: 'update_page', page: id, document: markdown('Now about the lagoon.') })));
    assert.equal(await backfillSearchIndex(t.app.ctx, { batch: 3 }), 4);
    assert.deepEqual(await titles(space.id, 'harbour'), []);
    assert.equal((await titles(space.id, 'lagoon')).length, 7);
  });
});
