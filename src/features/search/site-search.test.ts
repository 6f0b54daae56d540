import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { assertError, ok } from '../../../test/assertions.ts';
import { buildPage, editLive } from '../../../test/factories.ts';
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

  /** A published site over one space: "Orbit basics" (first), "Orbit maths" hidden with a child, "Orbit lab" for beta visitors only, "Orbit glossary". */
  async function siteWithPageRules() {
    const space = await b.space('Rules');
    const basics = await buildPage(t, space.id, { title: 'Orbit basics', markdown: 'How an orbit works.' });
    const maths = await buildPage(t, space.id, { title: 'Orbit maths', markdown: 'The orbit equations.' });
    const below = await buildPage(t, space.id, { title: 'Orbit proofs', markdown: 'Proofs about the orbit.', parent: maths });
    const lab = await buildPage(t, space.id, { title: 'Orbit lab', markdown: 'Orbit experiments.' });
    await buildPage(t, space.id, { title: 'Orbit glossary', markdown: '## Apoapsis\n\nThe far point of an orbit.' });
    await editLive(t, space.id, [
      { operation: 'update_page', page: maths, hidden: true },
      { operation: 'update_page', page: lab, condition: 'visitor.claims.unsigned.beta == true' },
    ]);
    const site = await b.site();
    await b.addSpace(site.id, space.id);
    ok(await t.api('POST', `${b.sites}/${site.id}/publish`, {}));
    return { space, site, basics, maths, below, lab };
  }

  const pageTitles = (res: { items: { pages: { title: string }[] }[] }) => res.items.flatMap((s) => s.pages.map((p) => p.title)).sort();

  test("hidden pages (and the pages below them) are not in a site's search; a space search shows them to members", async () => {
    const s = await siteWithPageRules();
    assert.deepEqual(pageTitles(await searchIn(s.site.id, { query: 'orbit', scope: { mode: 'all' } })), ['Orbit basics', 'Orbit glossary', 'Orbit lab']);
    const site = (await findSite(t.db, s.site.id))!;
    const visitor = await searchPublishedSite(t.app.ctx, site, visitorContext(null, {}), { query: 'orbit', scope: { mode: 'all' } }, {});
    assert.deepEqual(pageTitles(visitor), ['Orbit basics', 'Orbit glossary']);
    assert.equal(visitor.count, 1, 'one space');
    assert.equal(visitor.items[0]!.pages.length, 2);
    const spaceSearch = ok(await t.api('GET', `/v1/spaces/${s.space.id}/search?query=orbit`));
    assert.deepEqual(spaceSearch.items.map((p: { title: string }) => p.title).sort(), ['Orbit basics', 'Orbit glossary', 'Orbit lab', 'Orbit maths', 'Orbit proofs']);
  });

  test("pages a visitor's conditions hide never appear in the reader's search", async () => {
    const s = await siteWithPageRules();
    const site = (await findSite(t.db, s.site.id))!;
    const search = async (claims: Record<string, unknown>, query = 'orbit') =>
      pageTitles(await searchPublishedSite(t.app.ctx, site, visitorContext(null, claims), { query, scope: { mode: 'all' } }, {}));
    assert.deepEqual(await search({}), ['Orbit basics', 'Orbit glossary']);
    assert.deepEqual(await search({}, 'experiments'), []);
    assert.deepEqual(await search({ beta: true }), ['Orbit basics', 'Orbit glossary', 'Orbit lab']);
  });

  test("a site's results carry each page's published URL, the reader's", async () => {
    const s = await siteWithPageRules();
    const published = ok(await t.api('GET', `${b.sites}/${s.site.id}`)).urls.published as string;
    const res = await searchIn(s.site.id, { query: 'orbit', scope: { mode: 'all' } });
    const byTitle = new Map(res.items[0].pages.map((p: { title: string }) => [p.title, p]));
    const basics = byTitle.get('Orbit basics') as { urls: { app: string; published: string }; sections: { urls: { published: string } }[] };
    // The first page of a site-space is its root; others are at their path.
    assert.equal(basics.urls.published, published);
    assert.equal(basics.sections[0]!.urls.published, published);
    assert.equal((byTitle.get('Orbit lab') as { urls: { published: string } }).urls.published, `${published}orbit-lab`);
    const glossary = byTitle.get('Orbit glossary') as { urls: { published: string }; sections: { urls: { published: string } }[] };
    assert.equal(glossary.urls.published, `${published}orbit-glossary`);
    assert.equal(glossary.sections[0]!.urls.published, `${published}orbit-glossary#apoapsis`);
    for (const url of [basics.urls.published, glossary.urls.published]) assert.equal((await t.api('GET', new URL(url).pathname)).status, 200, url);
    // A space search has no published URL: a space is not a site.
    const spaceSearch = ok(await t.api('GET', `/v1/spaces/${s.space.id}/search?query=orbit`));
    assert.equal(spaceSearch.items[0].urls.published, undefined);
  });
});
