import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildSpaceWithPages } from '../factories.ts';
import { rejectsWith } from './gitbook-client.ts';
import { e2eSession } from './e2e-session.ts';

/**
 * bulkUpsertSiteRedirects (0.202.0) through the official client: creations, updates, deletions and publications
 * of drafts in one request, applied whole or not at all, and what the published site then answers.
 */

const OPERATIONS = ['bulkUpsertSiteRedirects', 'createSiteRedirect'];

interface Listed {
  count: number;
  items: { id: string; source: string; draft: boolean; permanent: boolean; destination: unknown }[];
}

describe('site redirects in bulk through the official client', { timeout: 120_000 }, () => {
  const session = e2eSession();

  async function publishedSite() {
    const { t } = session;
    const org = t.org.id;
    const { space, pages } = await buildSpaceWithPages(t, 'Install', 'Upgrade');
    const { data: site } = await session.client().orgs.createSite(org, { title: 'Docs', spaces: [space.id] } as never);
    await t.api('PATCH', `/v1/orgs/${org}/sites/${site.id}`, { body: { visibility: 'public' } });
    await session.client().orgs.publishSite(org, site.id);
    const structure = (await t.api('GET', `/v1/orgs/${org}/sites/${site.id}/structure`)).body as { structure: { id: string }[] };
    return { org, site, space, pages, variant: structure.structure[0]!.id };
  }

  test('creates, updates, deletes and publishes in one request, and the reader follows the result', async () => {
    const { t, endpoint } = session;
    const { org, site, space, pages, variant } = await publishedSite();
    const api = session.latest().orgs;
    const toVariant = { kind: 'site-space' as const, siteSpaceId: variant };

    const { data: first } = await api.bulkUpsertSiteRedirects(org, site.id, {
      redirects: [
        { source: '/old', destination: toVariant },
        { source: '/gone', destination: toVariant },
        { source: '/guides/*', destination: { kind: 'path', spaceId: space.id, path: 'upgrade' }, permanent: true },
        { source: '/next', intent: 'draft', destination: { kind: 'external', url: 'https://example.com/next' }, captureWildcard: false },
      ],
    });
    assert.deepEqual(first.results.map((r) => [r.status, r.source, r.draft]), [
      ['created', '/old', false], ['created', '/gone', false], ['created', '/guides/*', false], ['created', '/next', true],
    ]);
    const ids = first.results.map((r) => ('id' in r ? r.id : ''));

    const { data: second } = await api.bulkUpsertSiteRedirects(org, site.id, {
      redirects: [
        { source: '/old', destination: { kind: 'site-page', siteSpaceId: variant, pageId: pages[0]! } },
        { source: '/gone', destination: null },
        { source: '/next', intent: 'publish' },
      ],
    });
    assert.deepEqual(second.results, [
      { status: 'updated', source: '/old', draft: false, id: ids[0] },
      { status: 'deleted', source: '/gone', draft: false },
      { status: 'published', source: '/next', draft: false, id: ids[3] },
    ]);

    // Listed directly: the pinned spec, which judges listSiteRedirects, has neither wildcards nor external URLs.
    const list = async (query = '') => (await t.api('GET', `/v1/orgs/${org}/sites/${site.id}/redirects${query}`)).body as unknown as Listed;
    const live = await list();
    assert.deepEqual(live.items.map((r) => [r.source, r.draft, r.permanent]).sort(), [['/guides/*', false, true], ['/next', false, false], ['/old', false, false]]);
    const drafts = await list('?draft=true');
    assert.equal(drafts.count, 0);
    const guides = live.items.find((r) => r.source === '/guides/*')!;
    assert.deepEqual(guides.destination, { kind: 'site-page', siteSpaceId: variant, pageId: pages[1] });

    const get = (path: string) => fetch(`${endpoint}/sites/${site.id}${path}`, { redirect: 'manual' });
    const old = await get('/old');
    assert.equal(old.status, 302);
    // The first page is the variant's front page.
    assert.equal(new URL(old.headers.get('location')!, endpoint).pathname, `/sites/${site.id}/`);
    assert.equal((await get('/gone')).status, 404);
    const guide = await get('/guides/anything');
    assert.equal(guide.status, 308);
    assert.equal(new URL(guide.headers.get('location')!, endpoint).pathname, `/sites/${site.id}/upgrade`);
    assert.equal((await get('/next')).headers.get('location'), 'https://example.com/next');
  });

  test('a bad item refuses the whole request, naming it; only admins of the site write, others do not see it', async () => {
    const { t } = session;
    const { org, site, variant } = await publishedSite();
    const api = session.latest().orgs;
    const toVariant = { kind: 'site-space' as const, siteSpaceId: variant };
    const { data: kept } = await api.createSiteRedirect(org, site.id, { source: '/kept', destination: toVariant });

    await rejectsWith(
      api.bulkUpsertSiteRedirects(org, site.id, { redirects: [{ source: '/a', destination: toVariant }, { source: '/kept', destination: null }, { source: '/b', destination: { kind: 'site-space', siteSpaceId: 'nope' } }] }),
      400, 'body/redirects/2/destination/siteSpaceId',
    );
    await rejectsWith(api.bulkUpsertSiteRedirects(org, site.id, { redirects: [{ source: '/a', destination: toVariant }, { source: 'bad path', destination: toVariant }] }), 400, 'body/redirects/1');
    await rejectsWith(api.bulkUpsertSiteRedirects(org, site.id, { redirects: [{ source: '/a', destination: toVariant }, { source: '/a/', destination: toVariant }] }), 400, 'body/redirects/1/source');
    await rejectsWith(api.bulkUpsertSiteRedirects(org, site.id, { redirects: [{ source: '/none', intent: 'publish' }] }), 400, 'body/redirects/0/source');
    await rejectsWith(api.bulkUpsertSiteRedirects(org, site.id, { redirects: [{ source: '/none', destination: null }] }), 400, 'body/redirects/0/source');
    await rejectsWith(api.bulkUpsertSiteRedirects(org, site.id, { redirects: [] }), 400, 'body/redirects');
    // Nothing of the refused requests was written.
    const list = (await t.api('GET', `/v1/orgs/${org}/sites/${site.id}/redirects`)).body as unknown as Listed;
    assert.deepEqual(list.items.map((r) => r.id), [kept.id]);

    const reader = await t.member('read');
    await rejectsWith(session.latest(reader.token).orgs.bulkUpsertSiteRedirects(org, site.id, { redirects: [{ source: '/r', destination: toVariant }] }), 403);
    const outsider = await t.outsider();
    await rejectsWith(session.latest(outsider.token).orgs.bulkUpsertSiteRedirects(org, site.id, { redirects: [{ source: '/r', destination: toVariant }] }), 404);
  });

  test('every exchange conformed to the official spec', () => session.assertConformed(OPERATIONS));
});
