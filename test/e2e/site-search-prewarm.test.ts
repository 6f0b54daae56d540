import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildSpace, editLive, markdown } from '../factories.ts';
import { isPostgres } from '../../src/db/dialect.ts';
import { requestSearchBackfill } from '../../src/features/search/backfill.ts';
import { rejectsWith } from './gitbook-client.ts';
import { e2eSession } from './e2e-session.ts';

/** prewarmSiteSearch (0.202.0) through the official client: a site's search is ready before its first request. */

const OPERATIONS = ['prewarmSiteSearch'];

describe("warming a site's search through the official client", { timeout: 120_000 }, () => {
  const session = e2eSession();

  /** A space whose pages are not indexed yet, waiting for the search backfill (content from before search). */
  async function unindexedSpace(title: string, word: string) {
    const { t } = session;
    const space = await buildSpace(t, { title });
    await editLive(t, space.id, [{ operation: 'insert_page', title: `${title} page`, document: markdown(`All about the ${word}.`) }]);
    await t.db.deleteFrom('search_sections').where('space_id', '=', space.id).execute();
    if (!isPostgres(t.db)) await t.db.deleteFrom('search_pages').where('space_id', '=', space.id).execute();
    await requestSearchBackfill(t.db, [space.id]);
    return space;
  }

  const listed = async (spaceId: string) => (await session.t.db.selectFrom('search_backfill').select('space_id').where('space_id', '=', spaceId).execute()).length > 0;

  test("indexes the site's spaces not indexed yet, and only those; again is the same; whoever may search the site may warm it", async () => {
    const { t } = session;
    const org = t.org.id;
    const inSite = await unindexedSpace('Guide', 'lighthouse');
    const elsewhere = await unindexedSpace('Other', 'harbour');
    const { data: site } = await session.client().orgs.createSite(org, { title: 'Docs', spaces: [inSite.id] } as never);
    const search = async () => (await t.api('POST', `/v1/orgs/${org}/sites/${site.id}/search`, { body: { query: 'lighthouse', scope: { mode: 'all' } } })).body as { count: number };
    assert.equal((await search()).count, 0);

    const api = session.latest().orgs;
    assert.equal((await api.prewarmSiteSearch(org, site.id)).status, 204);
    assert.equal((await search()).count, 1);
    assert.equal(await listed(inSite.id), false);
    assert.equal(await listed(elsewhere.id), true, "another space's backfill is left to the worker");
    assert.equal((await api.prewarmSiteSearch(org, site.id)).status, 204);
    assert.equal((await search()).count, 1);

    const reader = await t.member('read');
    assert.equal((await session.latest(reader.token).orgs.prewarmSiteSearch(org, site.id)).status, 204);
    const outsider = await t.outsider();
    await rejectsWith(session.latest(outsider.token).orgs.prewarmSiteSearch(org, site.id), 404);
    await rejectsWith(api.prewarmSiteSearch(org, 'no-site'), 404);
    await rejectsWith(session.latest(null).orgs.prewarmSiteSearch(org, site.id), 401);
  });

  test('every exchange conformed to the official spec', () => session.assertConformed(OPERATIONS));
});
