import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { assertError, ok } from '../../../test/assertions.ts';
import { buildPage } from '../../../test/factories.ts';
import { siteBuilders } from '../sites/sites.test-support.ts';
import { visitorContext } from '../adaptive/conditions.ts';
import { findSite } from '../sites/store.ts';
import { searchPublishedSite } from './site-search.ts';

describe('site search', () => {
  let t: TestServer;
  let b: ReturnType<typeof siteBuilders>;
  before(async () => {
    t = await startServer();
    b = siteBuilders(t);
  });
  after(() => t.close());

  /** A site with two sections: "Guides" (space A, with variant B) and "API" (space C); each space has a page about orbits. */
  async function siteWithSections() {
    const [a, bSpace, c] = [await b.space('A'), await b.space('B'), await b.space('C')];
    for (const space of [a, bSpace, c]) await buildPage(t, space.id, { title: `Orbit in ${space.title}`, markdown: 'How an orbit works.' });
    const site = await b.site();
    const guides = await b.section(site.id, a.id, 'Guides');
    const variant = await b.addSpace(site.id, bSpace.id, guides.id);
    const api = await b.section(site.id, c.id, 'API');
    return { site, a, b: bSpace, c, variant, guides, api };
  }

  const searchIn = async (siteId: string, body: unknown, token?: string) => ok(await t.api('POST', `${b.sites}/${siteId}/search`, { body, ...(token ? { token } : {}) }));
  const spaceTitles = (res: { items: { title: string }[] }) => res.items.map((s) => s.title).sort();

  test('the scope decides which site-spaces are searched', async () => {
    const s = await siteWithSections();
    assert.deepEqual(spaceTitles(await searchIn(s.site.id, { query: 'orbit', scope: { mode: 'default' } })), ['A', 'C']);
    assert.deepEqual(spaceTitles(await searchIn(s.site.id, { query: 'orbit', scope: { mode: 'default', currentSiteSpace: s.variant.id } })), ['A', 'B', 'C']);
    assert.deepEqual(spaceTitles(await searchIn(s.site.id, { query: 'orbit', scope: { mode: 'all' } })), ['A', 'B', 'C']);
    assert.deepEqual(spaceTitles(await searchIn(s.site.id, { query: 'orbit', scope: { mode: 'specific', siteSpaceIds: [s.variant.id] } })), ['B']);
    // The deprecated forms of the spec.
    assert.deepEqual(spaceTitles(await searchIn(s.site.id, { query: 'orbit', mode: 'all' })), ['A', 'B', 'C']);
    assert.deepEqual(spaceTitles(await searchIn(s.site.id, { query: 'orbit', siteSpaceIds: [s.variant.id] })), ['B']);
    const res = await searchIn(s.site.id, { query: 'orbit', scope: { mode: 'specific', siteSpaceIds: [s.variant.id] } });
    assert.equal(res.items[0].pages[0].title, 'Orbit in B');
    assert.match(res.items[0].pages[0].sections[0].body, /<mark>orbit<\/mark>/i);
  });

  test('a scope naming another site-space, or no scope at all, is refused', async () => {
    const s = await siteWithSections();
    assertError(await t.api('POST', `${b.sites}/${s.site.id}/search`, { body: { query: 'orbit', scope: { mode: 'specific', siteSpaceIds: ['nope'] } } }), 400, 'siteSpaceIds');
    assertError(await t.api('POST', `${b.sites}/${s.site.id}/search`, { body: { query: 'orbit' } }), 400, 'scope');
    assertError(await t.api('POST', `${b.sites}/${s.site.id}/search`, { body: { scope: { mode: 'all' } } }), 400, 'query');
    const outsider = await t.outsider();
    assertError(await t.api('POST', `${b.sites}/${s.site.id}/search`, { body: { query: 'orbit', scope: { mode: 'all' } }, token: outsider.token }), 404);
  });

  test('a member finds only the spaces they can read', async () => {
    const s = await siteWithSections();
    ok(await t.api('PATCH', `/v1/spaces/${s.c.id}`, { body: { defaultLevel: null } }));
    const reader = await t.member('read');
    assert.deepEqual(spaceTitles(await searchIn(s.site.id, { query: 'orbit', scope: { mode: 'all' } }, reader.token)), ['A', 'B']);
  });

  test("the reader's search keeps out what the visitor's adaptive conditions hide", async () => {
    const s = await siteWithSections();
    ok(await t.api('PATCH', `${b.sites}/${s.site.id}/sections/${s.api.id}`, { body: { condition: 'visitor.claims.unsigned.beta == true' } }));
    const site = (await findSite(t.db, s.site.id))!;
    const search = async (claims: Record<string, unknown>) =>
      spaceTitles(await searchPublishedSite(t.app.ctx, site, visitorContext(null, claims), { query: 'orbit', scope: { mode: 'all' } }, {}));
    assert.deepEqual(await search({}), ['A', 'B']);
    assert.deepEqual(await search({ beta: true }), ['A', 'B', 'C']);
  });
});
