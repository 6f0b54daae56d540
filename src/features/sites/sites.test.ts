import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { assertError, ok, siteBuilders } from './sites.test-support.ts';

describe('sites', () => {
  let t: TestServer;
  let b: ReturnType<typeof siteBuilders>;
  before(async () => {
    t = await startServer();
    b = siteBuilders(t);
  });
  after(() => t.close());

  describe('createSite', () => {
    test('an admin creates a basic, unpublished site with its spaces as root site-spaces, the first the default', async () => {
      const one = await b.space('Guide');
      const two = await b.space('API Reference');
      const site = await b.site({ title: 'Product docs', spaces: [one.id, two.id] });
      assert.equal(site.object, 'site');
      assert.equal(site.type, 'basic');
      assert.equal(site.title, 'Product docs');
      assert.equal(site.visibility, 'public');
      assert.equal(site.published, false);
      assert.equal(site.siteSpaces, 2);
      assert.equal(site.urls.location, `http://quire.test/v1/orgs/${t.org.id}/sites/${site.id}`);
      assert.equal(site.urls.published, undefined, 'only a published site has a published URL');
      const list = ok(await t.api('GET', `${b.sites}/${site.id}/site-spaces`));
      assert.deepEqual(list.items.map((ss: { path: string; default: boolean }) => [ss.path, ss.default]), [['guide', true], ['api-reference', false]]);
      assert.equal(list.items[0].space.id, one.id);
      assert.equal((await b.eventsOfType('site_created')).some((e) => e.siteId === site.id), true);
    });

    test('a space of another organization, or none, is refused naming the field', async () => {
      const outsider = await t.outsider();
      const theirs = ok(await t.api('POST', `/v1/orgs/${outsider.organizationId}/spaces`, { body: { title: 'Theirs' }, token: outsider.token }), 201);
      assertError(await t.api('POST', b.sites, { body: { title: 'Docs', spaces: [theirs.id] } }), 400, 'body/spaces/0');
      assertError(await t.api('POST', b.sites, { body: { title: 'Docs', spaces: ['nope'] } }), 400, 'body/spaces/0');
      assertError(await t.api('POST', b.sites, { body: { title: 'D' } }), 400, 'body/title');
      assertError(await t.api('POST', b.sites, { body: { visibility: 'private' } }), 400, 'body/visibility');
    });

    test('only organization admins create sites', async () => {
      const editor = await t.member('edit');
      assertError(await t.api('POST', b.sites, { body: { title: 'Mine' }, token: editor.token }), 403);
      const outsider = await t.outsider();
      assertError(await t.api('POST', b.sites, { body: { title: 'Mine' }, token: outsider.token }), 404);
    });
  });

  describe('listSites', () => {
    test('filters by space, title, published status and type; siteSpaces counts are true', async () => {
      const space = await b.space('Filtered');
      const a = await b.site({ title: 'Alpha handbook', spaces: [space.id] });
      const c = await b.site({ title: 'Gamma handbook' });
      ok(await t.api('POST', `${b.sites}/${c.id}/publish`));
      const ids = async (query: string) => ok(await t.api('GET', `${b.sites}?${query}`)).items.map((s: { id: string }) => s.id);
      assert.deepEqual(await ids(`space=${space.id}`), [a.id]);
      assert.deepEqual(await ids('title=HANDBOOK'), [a.id, c.id]);
      assert.ok((await ids('published=true')).includes(c.id));
      assert.ok(!(await ids('published=true')).includes(a.id));
      assert.ok((await ids('type=basic')).includes(a.id));
      assert.deepEqual(await ids('type=premium'), []);
      const listed = ok(await t.api('GET', `${b.sites}?space=${space.id}`)).items[0];
      assert.equal(listed.siteSpaces, 1);
    });

    test('pages with an opaque cursor', async () => {
      for (let i = 0; i < 3; i++) await b.site({ title: `Paged ${i}` });
      const first = ok(await t.api('GET', `${b.sites}?title=paged&limit=2`));
      assert.equal(first.count, 3);
      assert.equal(first.items.length, 2);
      const second = ok(await t.api('GET', `${b.sites}?title=paged&limit=2&page=${first.next.page}`));
      assert.deepEqual(second.items.map((s: { title: string }) => s.title), ['Paged 2']);
      assertError(await t.api('GET', `${b.sites}?title=other&page=${first.next.page}`), 400, 'querystring/page');
    });

    test('members see the sites whose spaces they can read; guests and outsiders see none', async () => {
      const readable = await b.space('Readable');
      const hidden = ok(await t.api('POST', `/v1/orgs/${t.org.id}/spaces`, { body: { title: 'Hidden' } }), 201);
      ok(await t.api('PATCH', `/v1/spaces/${hidden.id}`, { body: { defaultLevel: null } }));
      const seen = await b.site({ title: 'Seen', spaces: [readable.id] });
      const unseen = await b.site({ title: 'Unseen', spaces: [hidden.id] });
      const empty = await b.site({ title: 'Empty' });
      const reader = await t.member('read');
      const readerIds = ok(await t.api('GET', b.sites, { token: reader.token })).items.map((s: { id: string }) => s.id);
      assert.ok(readerIds.includes(seen.id));
      assert.ok(!readerIds.includes(unseen.id));
      assert.ok(!readerIds.includes(empty.id));
      ok(await t.api('GET', `${b.sites}/${seen.id}`, { token: reader.token }));
      assertError(await t.api('GET', `${b.sites}/${unseen.id}`, { token: reader.token }), 404);
      assertError(await t.api('PATCH', `${b.sites}/${seen.id}`, { token: reader.token, body: { title: 'Mine' } }), 403);
      const guest = await t.member(null);
      assert.deepEqual(ok(await t.api('GET', b.sites, { token: guest.token })).items, []);
      const outsider = await t.outsider();
      assertError(await t.api('GET', b.sites, { token: outsider.token }), 404);
    });
  });

  describe('updateSiteById', () => {
    test('title, visibility, basename, adaptive content, agents context and proxy are updated', async () => {
      const site = await b.site();
      const updated = ok(
        await t.api('PATCH', `${b.sites}/${site.id}`, {
          body: { title: 'Renamed', visibility: 'unlisted', basename: 'handbook', adaptiveContent: { enabled: true }, agentsContext: 'excluded', proxy: 'example.com/docs' },
        }),
      );
      assert.equal(updated.title, 'Renamed');
      assert.equal(updated.visibility, 'unlisted');
      assert.equal(updated.basename, 'handbook');
      assert.deepEqual(updated.adaptiveContent, { enabled: true });
      assert.equal(updated.agentsContext, 'excluded');
      assert.equal(updated.proxy.origin, 'example.com/docs');
      const read = ok(await t.api('GET', `${b.sites}/${site.id}`));
      assert.deepEqual(read, updated);
      assert.equal(ok(await t.api('PATCH', `${b.sites}/${site.id}`, { body: { proxy: null } })).proxy, undefined);
    });

    test('a basename is URL-safe and unique on the server', async () => {
      const site = await b.site();
      assertError(await t.api('PATCH', `${b.sites}/${site.id}`, { body: { basename: 'has space' } }), 400, 'body/basename');
      ok(await t.api('PATCH', `${b.sites}/${site.id}`, { body: { basename: 'unique-name' } }));
      const other = await b.site();
      assertError(await t.api('PATCH', `${b.sites}/${other.id}`, { body: { basename: 'unique-name' } }), 409, 'body/basename');
      assertError(await t.api('PATCH', `${b.sites}/${other.id}`, { body: { proxy: 'not a proxy' } }), 400, 'body/proxy');
    });

    test('defaultSiteSpace and defaultSiteSection change the defaults; unknown ids are 400', async () => {
      const [one, two] = [await b.space('One'), await b.space('Two')];
      const site = await b.site({ spaces: [one.id, two.id] });
      const items = ok(await t.api('GET', `${b.sites}/${site.id}/site-spaces`)).items;
      ok(await t.api('PATCH', `${b.sites}/${site.id}`, { body: { defaultSiteSpace: items[1].id } }));
      const defaults = ok(await t.api('GET', `${b.sites}/${site.id}/site-spaces?default=true`)).items;
      assert.deepEqual(defaults.map((ss: { id: string }) => ss.id), [items[1].id]);
      assertError(await t.api('PATCH', `${b.sites}/${site.id}`, { body: { defaultSiteSpace: 'nope' } }), 400, 'body/defaultSiteSpace');
      assertError(await t.api('PATCH', `${b.sites}/${site.id}`, { body: { defaultSiteSection: 'nope' } }), 400, 'body/defaultSiteSection');
    });
  });

  describe('publish, unpublish and published content', () => {
    test('publishing gives a working URL under PUBLIC_URL and records events', async () => {
      const space = await b.space('Published guide');
      const site = await b.site({ spaces: [space.id] });
      const published = ok(await t.api('POST', `${b.sites}/${site.id}/publish`));
      assert.equal(published.published, true);
      assert.equal(published.urls.published, `http://quire.test/sites/${site.id}/`);
      const content = await b.published(site.id);
      assert.equal(content.object, 'published-content-site');
      assert.equal(content.structure.type, 'siteSpaces');
      assert.equal(content.structure.structure[0].urls.published, `http://quire.test/sites/${site.id}/`);
      assert.deepEqual(Object.keys(content.customizations.siteSpaces), [content.structure.structure[0].id]);
      assert.deepEqual(content.scripts, []);
      const unpublished = ok(await t.api('POST', `${b.sites}/${site.id}/unpublish`));
      assert.equal(unpublished.published, false);
      assert.equal(unpublished.urls.published, undefined);
      assert.ok((await b.eventsOfType('site_published')).some((e) => e.siteId === site.id));
      assert.ok((await b.eventsOfType('site_unpublished')).some((e) => e.siteId === site.id));
    });

    test('a basename names the site in its URL; a share key is carried by published URLs when it is active', async () => {
      const space = await b.space('Shared');
      const site = await b.site({ spaces: [space.id], visibility: 'share-link' });
      ok(await t.api('PATCH', `${b.sites}/${site.id}`, { body: { basename: 'shared-docs' } }));
      ok(await t.api('POST', `${b.sites}/${site.id}/publish`));
      const link = ok(await t.api('POST', `${b.sites}/${site.id}/share-links`, { body: { name: 'Partners' } }), 201);
      const key = new URL(link.urls.published).searchParams.get('share');
      assert.ok(key && key.length >= 32);
      assert.equal(link.urls.published, `http://quire.test/sites/shared-docs/?share=${key}`);
      const content = await b.published(site.id, `?shareKey=${key}`);
      assert.equal(content.structure.structure[0].urls.published, `http://quire.test/sites/shared-docs/?share=${key}`);
      assertError(await t.api('GET', `${b.sites}/${site.id}/published?shareKey=wrong`), 400, 'querystring/shareKey');
      ok(await t.api('PATCH', `${b.sites}/${site.id}/share-links/${link.id}`, { body: { active: false } }));
      assertError(await t.api('GET', `${b.sites}/${site.id}/published?shareKey=${key}`), 400, 'querystring/shareKey');
    });

    test('only admins publish', async () => {
      const space = await b.space('Readable');
      const site = await b.site({ spaces: [space.id] });
      const reader = await t.member('read');
      assertError(await t.api('POST', `${b.sites}/${site.id}/publish`, { token: reader.token }), 403);
      assertError(await t.api('POST', `${b.sites}/nope/publish`), 404);
    });
  });

  describe('deleteSiteById', () => {
    test('deletes the site with its structure; deleting again is 204', async () => {
      const space = await b.space('Doomed');
      const site = await b.site({ spaces: [space.id] });
      assert.equal((await t.api('DELETE', `${b.sites}/${site.id}`)).status, 204);
      assertError(await t.api('GET', `${b.sites}/${site.id}`), 404);
      assert.equal((await t.api('DELETE', `${b.sites}/${site.id}`)).status, 204);
      const left = await t.db.selectFrom('site_spaces').select('id').where('site_id', '=', site.id).execute();
      assert.deepEqual(left, []);
      ok(await t.api('GET', `/v1/spaces/${space.id}`));
    });

    test('a reader who sees the site cannot delete it', async () => {
      const space = await b.space('Kept');
      const site = await b.site({ spaces: [space.id] });
      const reader = await t.member('read');
      assertError(await t.api('DELETE', `${b.sites}/${site.id}`, { token: reader.token }), 403);
    });
  });

  describe('spaces and sites', () => {
    test('a space can be in many sites, and deleting it removes its site-spaces at once (restoring brings them back)', async () => {
      const space = await b.space('Everywhere');
      const other = await b.space('Stays');
      const first = await b.site({ spaces: [space.id, other.id] });
      const second = await b.site({ spaces: [space.id] });
      assert.equal(ok(await t.api('GET', `${b.sites}?space=${space.id}`)).count, 2);
      assert.equal((await t.api('DELETE', `/v1/spaces/${space.id}`)).status, 204);
      assert.equal(ok(await t.api('GET', `${b.sites}/${first.id}`)).siteSpaces, 1);
      assert.equal(ok(await t.api('GET', `${b.sites}/${second.id}`)).siteSpaces, 0);
      const remaining = ok(await t.api('GET', `${b.sites}/${first.id}/site-spaces`)).items;
      assert.deepEqual(remaining.map((ss: { space: { id: string }; default: boolean }) => [ss.space.id, ss.default]), [[other.id, true]]);
      ok(await t.api('POST', `/v1/spaces/${space.id}/restore`));
      assert.equal(ok(await t.api('GET', `${b.sites}/${first.id}`)).siteSpaces, 2);
    });

    test('a purged space takes its site-spaces with it', async () => {
      const space = await b.space('Purged');
      const site = await b.site({ spaces: [space.id] });
      ok(await t.api('DELETE', `/v1/spaces/${space.id}`), 204);
      t.clock.advance(8 * 24 * 60 * 60 * 1000);
      const { purgeDeletedSpaces } = await import('../spaces/service.ts');
      await purgeDeletedSpaces(t.app.ctx);
      t.clock.advance(-8 * 24 * 60 * 60 * 1000);
      assert.deepEqual(await t.db.selectFrom('site_spaces').select('id').where('site_id', '=', site.id).execute(), []);
    });
  });

  describe('creates under a site', () => {
    test('each answers 201 with the location of what it created, under the site of its path', async () => {
      const created = async (path: string, body: unknown) => {
        const res = await t.api('POST', path, { body });
        return { body: ok(res, 201), location: res.headers.location };
      };
      const [one, two] = [await b.space('Located one'), await b.space('Located two')];
      const site = await created(b.sites, { title: 'Located' });
      const at = `http://quire.test${b.sites}/${site.body.id}`;
      assert.equal(site.location, at);
      const siteSpace = await created(`${b.sites}/${site.body.id}/site-spaces`, { spaceId: one.id });
      assert.equal(siteSpace.location, `${at}/site-spaces/${siteSpace.body.id}`);
      const section = await created(`${b.sites}/${site.body.id}/sections`, { spaceId: two.id, title: 'Two' });
      assert.equal(section.location, `${at}/sections/${section.body.id}`);
      const group = await created(`${b.sites}/${site.body.id}/section-groups`, { title: 'Group' });
      assert.equal(group.location, `${at}/section-groups/${group.body.id}`);
      const grown = await created(`${b.sites}/${site.body.id}/section-groups/${group.body.id}/sections`, { sectionId: section.body.id });
      assert.equal(grown.location, `${at}/section-groups/${group.body.id}`);
      const link = await created(`${b.sites}/${site.body.id}/share-links`, { name: 'Located' });
      assert.equal(link.location, `${at}/share-links/${link.body.id}`);
      const redirect = await created(`${b.sites}/${site.body.id}/redirects`, { source: '/located', destination: { kind: 'site-space', siteSpaceId: siteSpace.body.id } });
      assert.equal(redirect.location, `${at}/redirects/${redirect.body.id}`);
    });
  });
});
