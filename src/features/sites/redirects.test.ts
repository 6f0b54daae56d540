import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { buildSpaceWithPages } from '../../../test/factories.ts';
import { assertError, ok, siteBuilders } from './sites.test-support.ts';

describe('site redirects', () => {
  let t: TestServer;
  let b: ReturnType<typeof siteBuilders>;
  before(async () => {
    t = await startServer();
    b = siteBuilders(t);
  });
  after(() => t.close());

  /** A site of two sections (Guide with pages Install and Upgrade, then API), its section and variant ids. */
  async function siteWithPages() {
    const { space, pages } = await buildSpaceWithPages(t, 'Install', 'Upgrade');
    const api = await b.space('API');
    const site = await b.site({ visibility: 'public' });
    const guide = await b.section(site.id, space.id, 'Guide');
    const reference = await b.section(site.id, api.id, 'API');
    return { site, guide, reference, variant: guide.siteSpaces[0].id as string, pages, redirects: `${b.sites}/${site.id}/redirects` };
  }

  test('created, listed and searched, read by source with its target URL, changed and deleted; each change persists', async () => {
    const { site, reference, variant, pages, redirects } = await siteWithPages();
    const toPage = { kind: 'site-page', siteSpaceId: variant, pageId: pages[1] };
    const created = ok(await t.api('POST', redirects, { body: { source: '/old/upgrading', destination: toPage } }), 201);
    assert.deepEqual(created, {
      object: 'site-redirect', id: created.id, source: '/old/upgrading', draft: false, captureWildcard: false, permanent: false, destination: toPage, createdAt: created.createdAt,
    });
    t.clock.advance(1000); // listed in creation order
    ok(await t.api('POST', redirects, { body: { source: '/reference', destination: { kind: 'site-section', siteSectionId: reference.id } } }), 201);

    const all = ok(await t.api('GET', redirects));
    assert.equal(all.count, 2);
    assert.deepEqual(all.items.map((r: { source: string }) => r.source), ['/old/upgrading', '/reference']);
    const found = ok(await t.api('GET', `${redirects}?search=UPGRAD`));
    assert.deepEqual(found.items.map((r: { id: string }) => r.id), [created.id]);

    const bySource = ok(await t.api('GET', `${b.sites}/${site.id}/redirect?source=/old/upgrading`));
    assert.deepEqual(bySource.redirect, created);
    assert.equal(bySource.target, `http://quire.test/sites/${site.id}/upgrade`);
    const toSection = ok(await t.api('GET', `${b.sites}/${site.id}/redirect?source=/reference`));
    assert.equal(toSection.target, `http://quire.test/sites/${site.id}/api/`);

    t.clock.advance(1000);
    const moved = ok(await t.api('PATCH', `${redirects}/${created.id}`, { body: { source: '/old/upgrade', destination: { kind: 'site-space', siteSpaceId: variant } } }));
    assert.equal(moved.source, '/old/upgrade');
    assert.ok(moved.updatedAt > moved.createdAt);
    assert.deepEqual(moved.destination, { kind: 'site-space', siteSpaceId: variant });
    assert.deepEqual(ok(await t.api('GET', `${b.sites}/${site.id}/redirect?source=/old/upgrade`)).redirect, moved);
    assertError(await t.api('GET', `${b.sites}/${site.id}/redirect?source=/old/upgrading`), 404);

    assert.equal((await t.api('DELETE', `${redirects}/${created.id}`)).status, 205);
    assert.equal((await t.api('DELETE', `${redirects}/${created.id}`)).status, 204);
    assert.equal(ok(await t.api('GET', redirects)).count, 1);
    for (const type of ['site_redirect_created', 'site_redirect_updated', 'site_redirect_deleted']) {
      assert.ok((await b.eventsOfType(type)).some((e) => e.siteRedirectId === created.id), type);
    }
  });

  test('sources follow the official pattern and are unique per site; destinations must be of the site', async () => {
    const { site, variant, redirects } = await siteWithPages();
    const other = await siteWithPages();
    const toVariant = { kind: 'site-space', siteSpaceId: variant };
    assertError(await t.api('POST', redirects, { body: { source: 'no-slash', destination: toVariant } }), 400, 'body/source');
    assertError(await t.api('POST', redirects, { body: { source: '/a b', destination: toVariant } }), 400, 'body/source');
    assertError(await t.api('POST', redirects, { body: { source: '/x', destination: { kind: 'site-space' } } }), 400, 'body/destination');
    assertError(await t.api('POST', redirects, { body: { source: '/x', destination: { kind: 'site-section', siteSectionId: other.guide.id } } }), 400, 'siteSectionId');
    assertError(await t.api('POST', redirects, { body: { source: '/x', destination: { kind: 'site-space', siteSpaceId: other.variant } } }), 400, 'siteSpaceId');
    assertError(await t.api('POST', redirects, { body: { source: '/x', destination: { kind: 'site-page', siteSpaceId: variant, pageId: other.pages[0] } } }), 400, 'pageId');
    const first = ok(await t.api('POST', redirects, { body: { source: '/x', destination: toVariant } }), 201);
    assertError(await t.api('POST', redirects, { body: { source: '/x', destination: toVariant } }), 409, 'body/source');
    const second = ok(await t.api('POST', redirects, { body: { source: '/y', destination: toVariant } }), 201);
    assertError(await t.api('PATCH', `${redirects}/${second.id}`, { body: { source: '/x' } }), 409);
    assertError(await t.api('PATCH', `${redirects}/${first.id}`, { body: {} }), 400);
    assertError(await t.api('PATCH', `${redirects}/nope`, { body: { source: '/z' } }), 404);
    assertError(await t.api('GET', `${b.sites}/${site.id}/redirect`), 400, 'source');
    // The same source in another site is another redirect.
    ok(await t.api('POST', other.redirects, { body: { source: '/x', destination: { kind: 'site-space', siteSpaceId: other.variant } } }), 201);
  });

  test('readers of the site may list them, only admins change them, and other organizations see no site', async () => {
    const { site, variant, redirects } = await siteWithPages();
    ok(await t.api('POST', redirects, { body: { source: '/x', destination: { kind: 'site-space', siteSpaceId: variant } } }), 201);
    const reader = await t.member('read');
    assert.equal(ok(await t.api('GET', redirects, { token: reader.token })).count, 1);
    assertError(await t.api('POST', redirects, { token: reader.token, body: { source: '/y', destination: { kind: 'site-space', siteSpaceId: variant } } }), 403);
    const outsider = await t.outsider();
    assertError(await t.api('GET', redirects, { token: outsider.token }), 404);
    assertError(await t.api('GET', `${b.sites}/${site.id}/redirect?source=/x`, { token: outsider.token }), 404);
  });

  test('the published site answers a redirected path with a 302 to its section, variant or page, and a page that exists wins', async () => {
    const { site, reference, variant, pages, redirects } = await siteWithPages();
    ok(await t.api('POST', `${b.sites}/${site.id}/publish`));
    const add = async (source: string, destination: unknown) => ok(await t.api('POST', redirects, { body: { source, destination } }), 201);
    const toPage = await add('/old/upgrading', { kind: 'site-page', siteSpaceId: variant, pageId: pages[1] });
    await add('/reference', { kind: 'site-section', siteSectionId: reference.id });
    await add('/docs', { kind: 'site-space', siteSpaceId: variant });
    await add('/install', { kind: 'site-section', siteSectionId: reference.id });
    const get = (path: string) => t.app.inject({ method: 'GET', url: `/sites/${site.id}${path}` });

    const page = await get('/old/upgrading');
    assert.equal(page.statusCode, 302);
    assert.equal(page.headers.location, `/sites/${site.id}/upgrade`);
    assert.equal((await get('/old/upgrading/')).headers.location, `/sites/${site.id}/upgrade`);
    assert.equal((await get('/reference')).headers.location, `/sites/${site.id}/api/`);
    assert.equal((await get('/docs')).headers.location, `/sites/${site.id}/`);
    assert.equal((await get('/install')).statusCode, 200, 'a page at the path is served, not redirected');
    assert.equal((await get(`/upgrade`)).statusCode, 200);

    assert.equal((await t.api('DELETE', `${redirects}/${toPage.id}`)).status, 205);
    assert.equal((await get('/old/upgrading')).statusCode, 404);
  });

  test('a wildcard source sends everything under it, with the rest of the path when it captures it; the longest source wins', async () => {
    const { site, reference, variant, pages, redirects } = await siteWithPages();
    ok(await t.api('POST', `${b.sites}/${site.id}/publish`));
    const add = async (body: Record<string, unknown>) => ok(await t.api('POST', redirects, { body }), 201);
    await add({ source: '/old/*', destination: { kind: 'site-section', siteSectionId: reference.id } });
    await add({ source: '/old/guide/*', destination: { kind: 'site-space', siteSpaceId: variant }, captureWildcard: true });
    await add({ source: '/blog*', destination: { kind: 'external', url: 'https://blog.example.com/posts' }, captureWildcard: true });
    await add({ source: '/moved', destination: { kind: 'site-page', siteSpaceId: variant, pageId: pages[1] }, permanent: true });
    const get = (path: string) => t.app.inject({ method: 'GET', url: `/sites/${site.id}${path}` });

    assert.equal((await get('/old/anything/at/all')).headers.location, `/sites/${site.id}/api/`);
    assert.equal((await get('/old')).headers.location, `/sites/${site.id}/api/`);
    assert.equal((await get('/old/guide/upgrade')).headers.location, `/sites/${site.id}/upgrade`);
    assert.equal((await get('/blog/2024/hello')).headers.location, 'https://blog.example.com/posts/2024/hello');
    assert.equal((await get('/elsewhere')).statusCode, 404);
    // Permanent: 308 to public live traffic (this public, published site), 302 for the others.
    const moved = await get('/moved');
    assert.equal(moved.statusCode, 308);
    assert.equal(moved.headers.location, `/sites/${site.id}/upgrade`);
    assert.equal((await get('/old/x')).statusCode, 302);
  });

  test('a permanent redirect of a site that is not public answers 307; a draft is not applied until published', async () => {
    const { site, variant, redirects } = await siteWithPages();
    ok(await t.api('PATCH', `${b.sites}/${site.id}`, { body: { visibility: 'share-link' } }));
    ok(await t.api('POST', `${b.sites}/${site.id}/publish`));
    const link = ok(await t.api('POST', `${b.sites}/${site.id}/share-links`, { body: { name: 'Team' } }), 201);
    ok(await t.api('POST', redirects, { body: { source: '/forever', destination: { kind: 'site-space', siteSpaceId: variant }, permanent: true } }), 201);
    const draft = ok(await t.api('POST', redirects, { body: { source: '/soon', destination: { kind: 'site-space', siteSpaceId: variant }, draft: true } }), 201);
    assert.equal(draft.draft, true);
    const key = new URL(link.urls.published as string).searchParams.get('share');
    const get = (path: string) => t.app.inject({ method: 'GET', url: `/sites/${site.id}${path}?share=${key}` });
    assert.equal((await get('/forever')).statusCode, 307);
    assert.equal((await get('/soon')).statusCode, 404);
    // Drafts are listed apart from live redirects.
    assert.deepEqual(ok(await t.api('GET', `${redirects}?draft=true`)).items.map((r: { id: string }) => r.id), [draft.id]);
    assert.equal(ok(await t.api('GET', redirects)).count, 1);
    ok(await t.api('PATCH', `${redirects}/${draft.id}`, { body: { draft: false } }));
    assert.equal((await get('/soon')).statusCode, 302);
  });
});
