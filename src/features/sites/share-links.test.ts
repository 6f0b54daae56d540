import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { assertError, ok, siteBuilders } from './sites.test-support.ts';

describe('share links', () => {
  let t: TestServer;
  let b: ReturnType<typeof siteBuilders>;
  before(async () => {
    t = await startServer();
    b = siteBuilders(t);
  });
  after(() => t.close());

  test('created active with a secret key in urls.published; listed, renamed, deactivated and deleted', async () => {
    const site = await b.site({ visibility: 'share-link' });
    const links = `${b.sites}/${site.id}/share-links`;
    const link = ok(await t.api('POST', links, { body: { name: 'Reviewers' } }), 201);
    assert.equal(link.object, 'share-link');
    assert.equal(link.name, 'Reviewers');
    assert.equal(link.active, true);
    assert.match(link.urls.published, new RegExp(`^http://quire\\.test/sites/${site.id}/\\?share=[A-Za-z0-9_-]{32}$`));
    const second = ok(await t.api('POST', links, { body: { name: '' } }), 201);
    assert.notEqual(second.urls.published, link.urls.published);
    const list = ok(await t.api('GET', links));
    assert.equal(list.count, 2);
    assert.deepEqual(list.items.map((l: { id: string }) => l.id).sort(), [link.id, second.id].sort());
    const renamed = ok(await t.api('PATCH', `${links}/${link.id}`, { body: { name: 'Partners', active: false } }));
    assert.equal(renamed.name, 'Partners');
    assert.equal(renamed.active, false);
    assert.equal(renamed.urls.published, link.urls.published, 'the key does not change');
    assert.equal(ok(await t.api('PATCH', `${links}/${link.id}`, { body: { active: true } })).active, true);
    assert.equal((await t.api('DELETE', `${links}/${link.id}`)).status, 204);
    assert.equal((await t.api('DELETE', `${links}/${link.id}`)).status, 204);
    assert.equal(ok(await t.api('GET', links)).count, 1);
    assert.ok((await b.eventsOfType('site_share_link_created')).some((e) => e.shareLinkId === link.id));
  });

  test('bodies are checked; unknown links are 404', async () => {
    const site = await b.site();
    const links = `${b.sites}/${site.id}/share-links`;
    assertError(await t.api('POST', links, { body: {} }), 400, 'body');
    assertError(await t.api('POST', links, { body: { name: 'x'.repeat(51) } }), 400, 'body/name');
    assertError(await t.api('PATCH', `${links}/nope`, { body: { name: 'x' } }), 404);
    const link = ok(await t.api('POST', links, { body: { name: 'Ok' } }), 201);
    assertError(await t.api('PATCH', `${links}/${link.id}`, { body: {} }), 400);
    assertError(await t.api('PATCH', `${links}/${link.id}`, { body: { active: 'yes' } }), 400, 'body/active');
  });

  test('keys are for admins: a reader who sees the site cannot list or create them', async () => {
    const space = await b.space('Readable');
    const site = await b.site({ spaces: [space.id] });
    const reader = await t.member('read');
    assertError(await t.api('GET', `${b.sites}/${site.id}/share-links`, { token: reader.token }), 403);
    assertError(await t.api('POST', `${b.sites}/${site.id}/share-links`, { token: reader.token, body: { name: 'Mine' } }), 403);
  });

  test("getSpaceById gives the space's published URL, carrying a share key of a site that publishes it", async () => {
    const space = await b.space('Shared space');
    const site = await b.site({ visibility: 'share-link', spaces: [space.id] });
    assert.equal(ok(await t.api('GET', `/v1/spaces/${space.id}`)).urls.published, undefined, 'not published yet');
    ok(await t.api('POST', `${b.sites}/${site.id}/publish`));
    assert.equal(ok(await t.api('GET', `/v1/spaces/${space.id}`)).urls.published, `http://quire.test/sites/${site.id}/`);
    const link = ok(await t.api('POST', `${b.sites}/${site.id}/share-links`, { body: { name: 'Key' } }), 201);
    const key = new URL(link.urls.published).searchParams.get('share');
    assert.equal(ok(await t.api('GET', `/v1/spaces/${space.id}?shareKey=${key}`)).urls.published, `http://quire.test/sites/${site.id}/?share=${key}`);
    assert.equal(ok(await t.api('GET', `/v1/spaces/${space.id}?shareKey=unknown`)).urls.published, `http://quire.test/sites/${site.id}/`);
  });
});
