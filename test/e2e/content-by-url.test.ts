import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeJwt, SignJWT } from 'jose';
import { buildChangeRequest, buildCollection, buildOpenAPISpec, buildSpaceWithPages, writeContent, markdown } from '../factories.ts';
import { rejectsWith } from './gitbook-client.ts';
import { e2eSession } from './e2e-session.ts';

/**
 * Content by URL (0.202.0 `urls`) and computed content through the official client: a published URL resolves to
 * what its visitor may read there, with a short-lived read token for that content and nothing else; a URL of
 * the app to the collection, space, change request or page it shows; an OpenAPI specification to the pages and
 * documents the reader generates from it.
 */

const OPERATIONS = ['getContentByUrl', 'getPublishedContentByUrl', 'resolvePublishedContentByUrl', 'getComputedDocument', 'getComputedRevision'];

const SPEC = JSON.stringify({
  openapi: '3.1.0',
  info: { title: 'Pets API', version: '2.0' },
  paths: {
    '/pets': {
      get: { tags: ['Pets'], operationId: 'listPets', responses: { '200': { description: 'The pets' } } },
      post: { tags: ['Pets'], operationId: 'addPet', responses: { '201': { description: 'Added' } } },
    },
    '/stores': { get: { tags: ['Stores'], operationId: 'listStores', responses: { '200': { description: 'The stores' } } } },
  },
  components: { schemas: { Pet: { type: 'object', properties: { name: { type: 'string' } } } } },
});

describe('content by URL and computed content through the official client', { timeout: 120_000 }, () => {
  const session = e2eSession();

  /** A published site: its first section publishes `guide` (Welcome, Install), a second one `reference`. */
  async function publishedSite(visibility?: string) {
    const { t } = session;
    const api = session.client().orgs;
    const org = t.org.id;
    const { space: guide } = await buildSpaceWithPages(t, 'Welcome', 'Install');
    const { space: reference } = await buildSpaceWithPages(t, 'Endpoints');
    const { data: site } = await api.createSite(org, { title: 'Docs', spaces: [guide.id], ...(visibility ? { visibility } : {}) } as never);
    const { data: section } = await api.addSectionToSite(org, site.id, { spaceId: reference.id, title: 'Reference' });
    await api.publishSite(org, site.id);
    return { site, section, guide, reference };
  }

  test('a published URL resolves to its site, section, variant and space, with a read token for their content only', async () => {
    const { t, endpoint } = session;
    const urls = session.latest().urls;
    const { site, section, guide, reference } = await publishedSite();
    const org = t.org.id;

    const { data: root } = await urls.resolvePublishedContentByUrl({ url: `${endpoint}/sites/${site.id}/` });
    assert.ok('space' in root);
    assert.equal(root.site, site.id);
    assert.equal(root.space, guide.id);
    assert.equal(root.organization, org);
    assert.equal(root.pathname, '');
    assert.equal(root.basePath, `/sites/${site.id}/`);
    assert.equal(root.siteBasePath, `/sites/${site.id}/`);
    // The site has another section a further segment could name.
    assert.equal(root.complete, false);
    assert.equal(root.canonicalUrl, `${endpoint}/sites/${site.id}/`);

    const { data: install } = await urls.resolvePublishedContentByUrl({ url: `${endpoint}/sites/${site.id}/${section.path}/endpoints?utm=x` });
    assert.ok('space' in install);
    assert.equal(install.siteSection, section.id);
    assert.equal(install.siteSpace, section.siteSpaces[0]!.id);
    assert.equal(install.space, reference.id);
    assert.equal(install.basePath, `/sites/${site.id}/${section.path}/`);
    assert.equal(install.pathname, 'endpoints');
    assert.equal(install.complete, true);
    // The section's first page is its root.
    assert.equal(install.canonicalUrl, `${endpoint}/sites/${site.id}/${section.path}/`);

    // The deprecated GET answers the same.
    const { data: viaGet } = await urls.getPublishedContentByUrl({ url: `${endpoint}/sites/${site.id}/install` });
    assert.ok('space' in viaGet);
    assert.equal(viaGet.pathname, 'install');
    assert.equal(viaGet.canonicalUrl, `${endpoint}/sites/${site.id}/install`);

    // The read token: a JWT whose exp says when it ends, read by the content reads of the site's spaces.
    const claims = decodeJwt(install.apiToken);
    assert.equal(claims.exp! - claims.iat!, 3600);
    assert.equal(claims.exp, Math.floor(t.clock.now().getTime() / 1000) + 3600);
    const reader = session.latest(install.apiToken);
    const { data: page } = await reader.spaces.getPageByPath(reference.id, 'endpoints');
    assert.equal(page.title, 'Endpoints');
    const { data: revision } = await reader.spaces.getCurrentRevision(guide.id);
    assert.deepEqual(revision.pages.map((p) => p.title), ['Welcome', 'Install']);
    await reader.spaces.getSpaceById(guide.id);

    // Nothing else: another space is not there, other operations and writes are refused.
    const { space: elsewhere } = await buildSpaceWithPages(t, 'Private');
    await rejectsWith(reader.spaces.getSpaceById(elsewhere.id), 404);
    await rejectsWith(reader.spaces.getCurrentRevision(elsewhere.id), 404);
    await rejectsWith(reader.orgs.getOrganizationById(org), 403, 'apiToken');
    await rejectsWith(reader.orgs.listSpacesInOrganizationById(org), 403);
    await rejectsWith(reader.spaces.updateSpaceById(guide.id, { title: 'Taken' }), 403);
    await rejectsWith(reader.spaces.createChangeRequest(guide.id, { subject: 'Mine' }), 403);
    // Its own site, as the renderer reads it next; no other.
    const { data: published } = await reader.orgs.getPublishedContentSite(org, site.id);
    assert.equal(published.site.id, site.id);
    // The fields 0.202.0 requires, which GitBook's renderer reads unguarded (it answered 500 without socialAccounts).
    const settings = published.customizations.site as unknown as { socialAccounts: unknown[]; styling: { codeTheme: unknown }; pageActions: { items: string[] } };
    assert.deepEqual(settings.socialAccounts, []);
    assert.deepEqual(settings.styling.codeTheme, { default: { light: 'default-light', dark: 'default-dark' }, openapi: { light: 'default-light', dark: 'default-dark' } });
    assert.deepEqual(settings.pageActions.items, ['markdown', 'external-ai', 'mcp']);
    // And the page's meta links, which the renderer reads for every page (a 403 made it answer 500).
    const { data: current } = await reader.spaces.getCurrentRevision(guide.id);
    const firstPage = (current.pages as { id: string }[])[0]!;
    await reader.spaces.listRevisionPageMetaLinks(guide.id, current.id, firstPage.id);
    const { site: otherSite } = await publishedSite();
    await rejectsWith(reader.orgs.getPublishedContentSite(org, otherSite.id), 404);
    await rejectsWith(reader.user.getAuthenticatedUser(), 403);
    await rejectsWith(reader.urls.resolvePublishedContentByUrl({ url: `${endpoint}/sites/${site.id}/` }), 403);
  });

  test('a read token ends: when it expires, when it is not this server’s, and when its site is unpublished', async () => {
    const { t, endpoint } = session;
    const urls = session.latest().urls;
    const api = session.client().orgs;
    const { site, guide } = await publishedSite();
    const { data: resolved } = await urls.resolvePublishedContentByUrl({ url: `${endpoint}/sites/${site.id}/` });
    assert.ok('space' in resolved);
    const read = (token: string) => t.api('GET', `/v1/spaces/${guide.id}/content`, { token });
    assert.equal((await read(resolved.apiToken)).status, 200);

    // Signed with another key (the same claims): refused.
    const claims = decodeJwt(resolved.apiToken);
    const forged = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(new TextEncoder().encode('not the server secret'));
    assert.equal((await read(forged)).status, 401);
    await rejectsWith(session.latest(forged).spaces.getSpaceById(guide.id), 401);

    // An hour later it has expired.
    t.clock.advance(3600 * 1000 + 1000);
    await rejectsWith(session.latest(resolved.apiToken).spaces.getCurrentRevision(guide.id), 401);
    const { data: fresh } = await urls.resolvePublishedContentByUrl({ url: `${endpoint}/sites/${site.id}/` });
    assert.ok('space' in fresh);
    assert.equal((await read(fresh.apiToken)).status, 200);

    // Unpublishing the site ends its tokens at once.
    await api.unpublishSite(t.org.id, site.id);
    assert.equal((await read(fresh.apiToken)).status, 401);
    await rejectsWith(urls.resolvePublishedContentByUrl({ url: `${endpoint}/sites/${site.id}/` }), 404);
  });

  test("a site's visibility decides: a share link's key, a visitor's token, redirects", async () => {
    const { t, endpoint } = session;
    const urls = session.latest().urls;
    const api = session.client().orgs;
    const org = t.org.id;

    const { site: shared } = await publishedSite('share-link');
    await rejectsWith(urls.resolvePublishedContentByUrl({ url: `${endpoint}/sites/${shared.id}/` }), 404);
    const { data: link } = await api.createSiteShareLink(org, shared.id, { name: 'Partners' });
    const key = new URL((link.urls as { published: string }).published).searchParams.get('share')!;
    const { data: withKey } = await urls.resolvePublishedContentByUrl({ url: `${endpoint}/sites/${shared.id}/install?share=${key}` });
    assert.ok('space' in withKey);
    assert.equal(withKey.shareKey, key);
    assert.equal(withKey.pathname, 'install');

    const { site: guarded } = await publishedSite('visitor-auth');
    await api.updateSitePublishingAuthById(org, guarded.id, { backend: 'custom', fallbackURL: 'https://login.example.com/' } as never);
    const { data: auth } = await api.getSitePublishingAuthById(org, guarded.id);
    const url = `${endpoint}/sites/${guarded.id}/install`;
    await rejectsWith(urls.resolvePublishedContentByUrl({ url }), 404, 'visitor token');
    const { data: toLogin } = await urls.resolvePublishedContentByUrl({ url, redirectOnError: true });
    assert.deepEqual(toLogin, { target: 'external', site: guarded.id, redirect: `https://login.example.com/?location=${encodeURIComponent(url)}` });
    const now = Math.floor(t.clock.now().getTime() / 1000);
    const visitorToken = await new SignJWT({ plan: 'pro' }).setProtectedHeader({ alg: 'HS256' }).setAudience(guarded.id).setExpirationTime(now + 600).sign(new TextEncoder().encode(auth.privateKey));
    const { data: signedIn } = await urls.resolvePublishedContentByUrl({ url, visitor: { jwtToken: visitorToken, unsignedClaims: { beta: true } } });
    assert.ok('space' in signedIn);
    assert.equal(signedIn.pathname, 'install');
    assert.ok(signedIn.contextId, 'an authenticated visitor has a context id');
    const { data: viaQuery } = await urls.getPublishedContentByUrl({ url, visitorAuthToken: visitorToken });
    assert.ok('space' in viaQuery);
    assert.equal(viaQuery.contextId, (await urls.resolvePublishedContentByUrl({ url, visitor: { jwtToken: visitorToken } })).data['contextId' as never]);

    // A variant shown to some visitors only: resolved, and read with the token, by those alone.
    const { site, section } = await publishedSite();
    const { space: beta } = await buildSpaceWithPages(t, 'Beta features');
    const { data: variant } = await api.addSpaceToSite(org, site.id, { spaceId: beta.id, sectionId: section.id });
    await api.updateSiteSpaceById(org, site.id, variant.id, { path: 'beta', condition: 'visitor.claims.unsigned.tester == true' });
    const betaUrl = `${endpoint}/sites/${site.id}/${section.path}/beta/`;
    const { data: anyone } = await urls.resolvePublishedContentByUrl({ url: betaUrl });
    assert.ok('space' in anyone);
    assert.notEqual(anyone.space, beta.id);
    assert.equal(anyone.pathname, 'beta');
    assert.equal((await t.api('GET', `/v1/spaces/${beta.id}/content`, { token: anyone.apiToken })).status, 404);
    for (const { data: tester } of [await urls.resolvePublishedContentByUrl({ url: betaUrl, visitor: { unsignedClaims: { tester: true } } }), await urls.resolvePublishedContentByUrl({ url: `${betaUrl}?visitor.tester=true` })]) {
      assert.ok('space' in tester);
      assert.equal(tester.space, beta.id);
      assert.equal(tester.siteSpace, variant.id);
      assert.equal(tester.pathname, '');
      assert.equal((await t.api('GET', `/v1/spaces/${beta.id}/content`, { token: tester.apiToken })).status, 200);
    }

    // A site redirect answers where it goes.
    await api.createSiteRedirect(org, site.id, { source: '/old-reference', destination: { kind: 'site-section', siteSectionId: section.id } } as never);
    const { data: moved } = await urls.resolvePublishedContentByUrl({ url: `${endpoint}/sites/${site.id}/old-reference` });
    assert.deepEqual(moved, { target: 'content', redirect: `${endpoint}/sites/${site.id}/${section.path}/` });
  });

  test('a site on its own hostname resolves there; a preview URL resolves an unpublished site, as a preview', async () => {
    const { t, endpoint } = session;
    const urls = session.latest().urls;
    const api = session.client().orgs;
    const { site, guide } = await publishedSite();
    await t.api('PATCH', `/v1/orgs/${t.org.id}/sites/${site.id}`, { body: { hostname: 'docs.urls.example' } });
    const { data: onHost } = await urls.resolvePublishedContentByUrl({ url: 'http://docs.urls.example/install' });
    assert.ok('space' in onHost);
    assert.equal(onHost.space, guide.id);
    assert.equal(onHost.siteBasePath, '/');
    assert.equal(onHost.basePath, '/');
    assert.equal(onHost.canonicalUrl, 'http://docs.urls.example/install');
    // Its /sites/ URL is answered where the reader sends it.
    const { data: away } = await urls.resolvePublishedContentByUrl({ url: `${endpoint}/sites/${site.id}/install?x=1` });
    assert.deepEqual(away, { target: 'content', redirect: 'http://docs.urls.example/install?x=1' });

    const { space } = await buildSpaceWithPages(t, 'Soon');
    const { data: draft } = await api.createSite(t.org.id, { title: 'Not yet', spaces: [space.id] });
    const { data: preview } = await session.latest().orgs.getSitePublishingPreviewById(t.org.id, draft.id);
    const { data: previewed } = await urls.resolvePublishedContentByUrl({ url: preview.url });
    assert.ok('space' in previewed);
    assert.equal(previewed.preview, true);
    assert.equal(previewed.space, space.id);
    assert.equal((await t.api('GET', `/v1/spaces/${space.id}/content`, { token: previewed.apiToken })).status, 200);
  });

  test('a URL that is no published content is a 404 saying so; one that is no URL a 400 naming the field', async () => {
    const { endpoint, t } = session;
    const urls = session.latest().urls;
    await rejectsWith(urls.resolvePublishedContentByUrl({ url: 'https://nowhere.example.com/docs/' }), 404, 'No published content');
    await rejectsWith(urls.resolvePublishedContentByUrl({ url: `${endpoint}/v1/spaces` }), 404, 'No published content');
    await rejectsWith(urls.resolvePublishedContentByUrl({ url: `${endpoint}/sites/no-such-site/` }), 404);
    await rejectsWith(urls.resolvePublishedContentByUrl({ url: 'not a url' }), 400, 'body/url');
    await rejectsWith(urls.getPublishedContentByUrl({ url: 'not a url' }), 400, 'querystring/url');
    // An unpublished site is not there.
    const { space } = await buildSpaceWithPages(t, 'Draft');
    const { data: draft } = await session.client().orgs.createSite(t.org.id, { title: 'Draft', spaces: [space.id] });
    await rejectsWith(urls.resolvePublishedContentByUrl({ url: `${endpoint}/sites/${draft.id}/` }), 404);
    await rejectsWith(session.latest(null).urls.resolvePublishedContentByUrl({ url: `${endpoint}/sites/${draft.id}/` }), 401);
  });

  test('a URL of the app or of a published site names the collection, space, change request and page the caller may read', async () => {
    const { t, endpoint } = session;
    const urls = session.latest().urls;
    const { site, guide } = await publishedSite();
    const { data: pages } = await session.client().spaces.listPages(guide.id);
    const install = pages.pages.find((p) => p.title === 'Install')!;

    const { data: bySpace } = await urls.getContentByUrl({ url: guide.urls.app });
    assert.ok('space' in bySpace);
    assert.equal(bySpace.space.id, guide.id);
    assert.equal(bySpace.page, undefined);

    const { data: byPage } = await urls.getContentByUrl({ url: `${endpoint}/app/s/${guide.id}/install` });
    assert.ok('space' in byPage);
    assert.equal(byPage.page?.id, install.id);

    const cr = await buildChangeRequest(t, guide.id, { subject: 'Edits' });
    await writeContent(t, guide.id, cr.id, [{ operation: 'insert_page', title: 'Upcoming', document: markdown('Soon.') }]);
    const { data: byChange } = await urls.getContentByUrl({ url: cr.urls.app });
    assert.ok('space' in byChange);
    assert.equal(byChange.changeRequest?.id, cr.id);

    const collection = await buildCollection(t, { title: 'Handbooks' });
    const { data: byCollection } = await urls.getContentByUrl({ url: collection.urls.app });
    assert.ok('collection' in byCollection);
    assert.equal(byCollection.collection.id, collection.id);

    const { data: byPublished } = await urls.getContentByUrl({ url: `${endpoint}/sites/${site.id}/install` });
    assert.ok('space' in byPublished);
    assert.equal(byPublished.space.id, guide.id);
    assert.equal(byPublished.page?.id, install.id);

    // Whoever cannot read it does not learn it exists; what is no content of this server is a 404 too.
    const outsider = await t.outsider();
    await rejectsWith(session.latest(outsider.token).urls.getContentByUrl({ url: guide.urls.app }), 404);
    await rejectsWith(session.latest(outsider.token).urls.getContentByUrl({ url: collection.urls.app }), 404);
    await rejectsWith(urls.getContentByUrl({ url: 'https://elsewhere.example.com/page' }), 404, 'No content');
    await rejectsWith(urls.getContentByUrl({ url: 'nope' }), 400, 'querystring/url');
  });

  test('computed content: the pages and documents an OpenAPI specification generates, as the reader shows them', async () => {
    const { t } = session;
    const spaces = session.latest().spaces;
    await buildOpenAPISpec(t, 'pets', { text: SPEC });
    const { space } = await buildSpaceWithPages(t, 'Home');
    const source = { type: 'builtin:openapi' as const, dependencies: { spec: { ref: { kind: 'openapi' as const, spec: 'pets' } } } };

    const { data: revision } = await spaces.getComputedRevision(space.id, { source: { ...source, props: { models: true } }, seed: 'api' });
    assert.deepEqual(revision.pages.map((p) => [p.id, p.title]), [['api-pets', 'Pets'], ['api-stores', 'Stores'], ['api-models', 'Models']]);
    assert.deepEqual(revision.files, []);
    const pets = revision.pages[0] as { document?: { nodes: { type: string; data: { method: string; path: string } }[] } };
    assert.deepEqual(pets.document?.nodes.map((n) => [n.type, n.data.method, n.data.path]), [['openapi-operation', 'get', '/pets'], ['openapi-operation', 'post', '/pets']]);
    const { data: withoutModels } = await spaces.getComputedRevision(space.id, { source: { ...source, props: { models: false } }, seed: 'api' });
    assert.equal(withoutModels.pages.length, 2);

    const { data: operation } = await spaces.getComputedDocument(space.id, { source: { ...source, props: { doc: 'operation', page: '/pets', method: 'post' } }, seed: 's' });
    assert.deepEqual(operation.nodes.map((n) => (n as { type: string }).type), ['openapi-operation']);
    const { data: tag } = await spaces.getComputedDocument(space.id, { source: { ...source, props: { doc: 'tag', page: 'Stores' } }, seed: 's' });
    assert.equal(tag.nodes.length, 1);
    const { data: info } = await spaces.getComputedDocument(space.id, { source: { ...source, props: { doc: 'info', page: 'pets' } }, seed: 's' });
    assert.match(JSON.stringify(info.nodes[0]), /Pets API, version 2\.0/);
    const { data: models } = await spaces.getComputedDocument(space.id, { source: { ...source, props: { doc: 'models' } }, seed: 's' });
    assert.deepEqual(models.nodes.map((n) => (n as { type: string }).type), ['openapi-schemas']);

    // What this server does not compute, or what is not there, is a 400 naming the field.
    await rejectsWith(spaces.getComputedRevision(space.id, { source: { type: 'builtin:translation', props: {}, dependencies: { translation: { ref: { kind: 'translation', translation: 'x' } } } }, seed: 's' }), 400, 'body/source/type');
    await rejectsWith(spaces.getComputedRevision(space.id, { source: { type: 'integration:acme:pages', props: {} }, seed: 's' }), 400, 'body/source/type');
    await rejectsWith(spaces.getComputedRevision(space.id, { source: { ...source, props: { models: true, grouping: 'by-operation' } }, seed: 's' }), 400, 'body/source/props/grouping');
    await rejectsWith(spaces.getComputedRevision(space.id, { source: { ...source, dependencies: { spec: { ref: { kind: 'openapi', spec: 'nope' } } }, props: { models: false } }, seed: 's' }), 400, 'body/source/dependencies/spec/ref/spec');
    await rejectsWith(spaces.getComputedDocument(space.id, { source: { ...source, props: { doc: 'operation', page: '/pets', method: 'delete' } }, seed: 's' }), 400, 'body/source/props');
    await rejectsWith(spaces.getComputedDocument(space.id, { source: { ...source, props: { doc: 'tag', page: 'Birds' } }, seed: 's' }), 400, 'body/source/props/page');
    // Whoever cannot read the space does not learn it exists.
    const outsider = await t.outsider();
    await rejectsWith(session.latest(outsider.token).spaces.getComputedRevision(space.id, { source: { ...source, props: { models: true } }, seed: 's' }), 404);
    await rejectsWith(session.latest(outsider.token).spaces.getComputedDocument(space.id, { source: { ...source, props: { doc: 'models' } }, seed: 's' }), 404);
  });

  test('every operation was exercised and conformed to the official spec', () => session.assertConformed(OPERATIONS));
});
