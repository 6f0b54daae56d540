import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { assertError } from '../../../test/assertions.ts';
import { buildCollection, buildSpace } from '../../../test/factories.ts';
import { addOrUpdateMember } from '../members/service.ts';

describe('collections', () => {
  let t: TestServer;
  before(async () => {
    t = await startServer();
  });
  after(() => t.close());

  /** A second organization the bootstrap admin administers. */
  async function secondOrganization(): Promise<string> {
    const res = await t.api('POST', '/v1/orgs', { body: { title: 'Second' } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.id;
  }

  async function spaceTitlesIn(collectionId: string): Promise<string[]> {
    const res = await t.api('GET', `/v1/collections/${collectionId}/spaces`);
    assert.equal(res.status, 200);
    return res.body.items.map((s: { title: string }) => s.title);
  }

  describe('createCollection', () => {
    test('an admin creates a collection with absolute urls and a Location header', async () => {
      const res = await t.api('POST', `/v1/orgs/${t.org.id}/collections`, { body: { title: 'Guides' } });
      assert.equal(res.status, 201);
      assert.equal(res.body.object, 'collection');
      assert.equal(res.body.title, 'Guides');
      assert.equal(res.body.organization, t.org.id);
      assert.equal(res.body.parent, undefined);
      assert.equal(res.body.defaultLevel, 'inherit');
      assert.deepEqual(res.body.permissions, { view: true, admin: true, viewInviteLinks: true, create: true });
      assert.equal(res.body.urls.location, `http://quire.test/v1/collections/${res.body.id}`);
      assert.ok(res.body.urls.app.startsWith('http://quire.test/'));
      assert.equal(res.headers.location, res.body.urls.location);
    });

    test('a collection without a title is called Untitled', async () => {
      const res = await t.api('POST', `/v1/orgs/${t.org.id}/collections`, { body: {} });
      assert.equal(res.status, 201);
      assert.equal(res.body.title, 'Untitled');
    });

    test('a title of 50 characters is accepted, 51 is a 400 naming body/title', async () => {
      assert.equal((await buildCollection(t, { title: 'x'.repeat(50) })).title, 'x'.repeat(50));
      assertError(await t.api('POST', `/v1/orgs/${t.org.id}/collections`, { body: { title: 'x'.repeat(51) } }), 400, 'body/title');
    });

    test('a collection is created inside a parent collection', async () => {
      const parent = await buildCollection(t, { title: 'Parent' });
      const child = await buildCollection(t, { title: 'Child', parent: parent.id });
      assert.equal(child.parent, parent.id);
      assert.equal((await t.api('GET', `/v1/collections/${child.id}`)).body.parent, parent.id);
    });

    test('an unknown parent, or one of another organization, is a 400 naming body/parent', async () => {
      assertError(await t.api('POST', `/v1/orgs/${t.org.id}/collections`, { body: { parent: 'nope' } }), 400, 'body/parent');
      const other = await t.outsider();
      const foreign = await buildCollection(t, {}, { token: other.token, organizationId: other.organizationId });
      assertError(await t.api('POST', `/v1/orgs/${t.org.id}/collections`, { body: { parent: foreign.id } }), 400, 'body/parent');
    });

    test('creating a collection needs the create role in the organization', async () => {
      const creator = await t.member('create');
      assert.equal((await buildCollection(t, {}, { token: creator.token })).permissions.create, true);
      for (const role of ['edit', 'read', null] as const) {
        const user = await t.member(role);
        assertError(await t.api('POST', `/v1/orgs/${t.org.id}/collections`, { token: user.token, body: {} }), 403);
      }
    });

    test('creating a collection in an organization the caller is not in is 404, without a token 401', async () => {
      const other = await t.outsider();
      assertError(await t.api('POST', `/v1/orgs/${t.org.id}/collections`, { token: other.token, body: {} }), 404);
      assertError(await t.api('POST', '/v1/orgs/unknown/collections', { body: {} }), 404);
      assertError(await t.api('POST', `/v1/orgs/${t.org.id}/collections`, { token: null, body: {} }), 401);
    });
  });

  describe('getCollectionById', () => {
    test('a member reads a collection', async () => {
      const c = await buildCollection(t, { title: 'Readable' });
      const reader = await t.member('read');
      const res = await t.api('GET', `/v1/collections/${c.id}`, { token: reader.token });
      assert.equal(res.status, 200);
      assert.equal(res.body.title, 'Readable');
      assert.deepEqual(res.body.permissions, { view: true, admin: false, viewInviteLinks: false, create: false });
    });

    test('a collection of another organization, or an unknown one, is 404; without a token 401', async () => {
      const c = await buildCollection(t);
      const other = await t.outsider();
      assertError(await t.api('GET', `/v1/collections/${c.id}`, { token: other.token }), 404);
      assertError(await t.api('GET', '/v1/collections/unknown'), 404);
      assertError(await t.api('GET', `/v1/collections/${c.id}`, { token: null }), 401);
    });

    test('a guest does not see a collection that inherits', async () => {
      const c = await buildCollection(t);
      const guest = await t.member(null);
      assertError(await t.api('GET', `/v1/collections/${c.id}`, { token: guest.token }), 404);
    });
  });

  describe('updateCollectionById', () => {
    test('an admin changes the title, description and default level', async () => {
      const c = await buildCollection(t, { title: 'Before' });
      const res = await t.api('PATCH', `/v1/collections/${c.id}`, { body: { title: 'After', description: 'About', defaultLevel: 'read' } });
      assert.equal(res.status, 200);
      assert.equal(res.body.title, 'After');
      assert.equal(res.body.description, 'About');
      assert.equal(res.body.defaultLevel, 'read');
      const again = await t.api('GET', `/v1/collections/${c.id}`);
      assert.equal(again.body.title, 'After');
      assert.equal(again.body.description, 'About');
      assert.equal(again.body.defaultLevel, 'read');
    });

    test('defaultLevel accepts null and inherit', async () => {
      const c = await buildCollection(t);
      assert.equal((await t.api('PATCH', `/v1/collections/${c.id}`, { body: { defaultLevel: null } })).body.defaultLevel, null);
      assert.equal((await t.api('PATCH', `/v1/collections/${c.id}`, { body: { defaultLevel: 'inherit' } })).body.defaultLevel, 'inherit');
      assertError(await t.api('PATCH', `/v1/collections/${c.id}`, { body: { defaultLevel: 'owner' } }), 400, 'body/defaultLevel');
    });

    test('a title over 50 is 400 naming body/title; a description over 100 is 400 naming body/description', async () => {
      const c = await buildCollection(t);
      assertError(await t.api('PATCH', `/v1/collections/${c.id}`, { body: { title: 'x'.repeat(51) } }), 400, 'body/title');
      assertError(await t.api('PATCH', `/v1/collections/${c.id}`, { body: { description: 'x'.repeat(101) } }), 400, 'body/description');
      const ok = await t.api('PATCH', `/v1/collections/${c.id}`, { body: { description: 'x'.repeat(100) } });
      assert.equal(ok.status, 200);
      assert.equal(ok.body.description.length, 100);
    });

    test('a member without the admin role on the collection gets 403', async () => {
      const c = await buildCollection(t, { title: 'Kept' });
      for (const role of ['create', 'read'] as const) {
        const user = await t.member(role);
        assertError(await t.api('PATCH', `/v1/collections/${c.id}`, { token: user.token, body: { title: 'Changed' } }), 403);
      }
      assert.equal((await t.api('GET', `/v1/collections/${c.id}`)).body.title, 'Kept');
    });

    test('an outsider and an unknown id get 404', async () => {
      const c = await buildCollection(t);
      const other = await t.outsider();
      assertError(await t.api('PATCH', `/v1/collections/${c.id}`, { token: other.token, body: { title: 'x' } }), 404);
      assertError(await t.api('PATCH', '/v1/collections/unknown', { body: { title: 'x' } }), 404);
      assertError(await t.api('PATCH', `/v1/collections/${c.id}`, { token: null, body: { title: 'x' } }), 401);
    });
  });

  describe('listCollectionsInOrganizationById', () => {
    test('nested collections are listed by default, and only the top level with nested=false', async () => {
      const owner = await t.outsider();
      const opts = { token: owner.token, organizationId: owner.organizationId };
      const top = await buildCollection(t, { title: 'Top' }, opts);
      const child = await buildCollection(t, { title: 'Child', parent: top.id }, opts);
      const grandchild = await buildCollection(t, { title: 'Grandchild', parent: child.id }, opts);
      const all = await t.api('GET', `/v1/orgs/${owner.organizationId}/collections`, { token: owner.token });
      assert.equal(all.status, 200);
      assert.equal(all.body.count, 3);
      assert.deepEqual(new Set(all.body.items.map((c: { id: string }) => c.id)), new Set([top.id, child.id, grandchild.id]));
      const explicit = await t.api('GET', `/v1/orgs/${owner.organizationId}/collections?nested=true`, { token: owner.token });
      assert.equal(explicit.body.count, 3);
      const topOnly = await t.api('GET', `/v1/orgs/${owner.organizationId}/collections?nested=false`, { token: owner.token });
      assert.equal(topOnly.status, 200);
      assert.equal(topOnly.body.count, 1);
      assert.deepEqual(topOnly.body.items.map((c: { id: string }) => c.id), [top.id]);
    });

    test('the list is paginated with next.page until every collection is seen once', async () => {
      const owner = await t.outsider();
      const ids = new Set<string>();
      for (let i = 0; i < 5; i++) ids.add((await buildCollection(t, { title: `C${i}` }, { token: owner.token, organizationId: owner.organizationId })).id);
      const seen: string[] = [];
      let page: string | undefined;
      do {
        const res = await t.api('GET', `/v1/orgs/${owner.organizationId}/collections?limit=2${page ? `&page=${page}` : ''}`, { token: owner.token });
        assert.equal(res.status, 200);
        assert.equal(res.body.count, 5);
        assert.ok(res.body.items.length <= 2);
        seen.push(...res.body.items.map((c: { id: string }) => c.id));
        page = res.body.next?.page;
      } while (page);
      assert.equal(seen.length, 5);
      assert.deepEqual(new Set(seen), ids);
    });

    test('a cursor of another list, or an edited one, is a 400', async () => {
      const first = await t.api('GET', `/v1/orgs/${t.org.id}/collections?limit=1`);
      await buildCollection(t);
      await buildCollection(t);
      const cursor = (await t.api('GET', `/v1/orgs/${t.org.id}/collections?limit=1`)).body.next.page;
      assert.equal(first.status, 200);
      assertError(await t.api('GET', `/v1/orgs/${t.org.id}/collections?nested=false&page=${cursor}`), 400, 'page');
      assertError(await t.api('GET', `/v1/orgs/${t.org.id}/collections?page=garbage`), 400, 'page');
      assertError(await t.api('GET', `/v1/orgs/${t.org.id}/collections?limit=1001`), 400, 'limit');
    });

    test('a member sees neither collections whose default level is null nor what inherits from them', async () => {
      const hidden = await buildCollection(t, { title: 'Hidden' });
      const below = await buildCollection(t, { title: 'Below', parent: hidden.id });
      const visible = await buildCollection(t, { title: 'Visible' });
      await t.api('PATCH', `/v1/collections/${hidden.id}`, { body: { defaultLevel: null } });
      const reader = await t.member('read');
      const list = await t.api('GET', `/v1/orgs/${t.org.id}/collections?limit=1000`, { token: reader.token });
      const ids = list.body.items.map((c: { id: string }) => c.id);
      assert.ok(ids.includes(visible.id));
      assert.ok(!ids.includes(hidden.id));
      assert.ok(!ids.includes(below.id));
      assert.equal(list.body.count, ids.length);
      assertError(await t.api('GET', `/v1/collections/${hidden.id}`, { token: reader.token }), 404);
      assertError(await t.api('GET', `/v1/collections/${below.id}`, { token: reader.token }), 404);
    });

    test('a guest lists no collections', async () => {
      await buildCollection(t);
      const guest = await t.member(null);
      const res = await t.api('GET', `/v1/orgs/${t.org.id}/collections`, { token: guest.token });
      assert.equal(res.status, 200);
      assert.equal(res.body.count, 0);
      assert.deepEqual(res.body.items, []);
    });

    test('an outsider and an unknown organization get 404; without a token 401', async () => {
      const other = await t.outsider();
      assertError(await t.api('GET', `/v1/orgs/${t.org.id}/collections`, { token: other.token }), 404);
      assertError(await t.api('GET', '/v1/orgs/unknown/collections'), 404);
      assertError(await t.api('GET', `/v1/orgs/${t.org.id}/collections`, { token: null }), 401);
    });
  });

  describe('listSpacesInCollectionById', () => {
    test('lists the spaces directly in the collection, in their order, page by page', async () => {
      const c = await buildCollection(t);
      const sub = await buildCollection(t, { parent: c.id });
      for (let i = 0; i < 5; i++) await buildSpace(t, { title: `S${i}`, parent: c.id });
      await buildSpace(t, { title: 'In the sub-collection', parent: sub.id });
      await buildSpace(t, { title: 'At the top' });
      const titles: string[] = [];
      let page: string | undefined;
      do {
        const res = await t.api('GET', `/v1/collections/${c.id}/spaces?limit=2${page ? `&page=${page}` : ''}`);
        assert.equal(res.status, 200);
        assert.equal(res.body.count, 5);
        titles.push(...res.body.items.map((s: { title: string }) => s.title));
        page = res.body.next?.page;
      } while (page);
      assert.deepEqual(titles, ['S0', 'S1', 'S2', 'S3', 'S4']);
    });

    test('deleted spaces are not listed', async () => {
      const c = await buildCollection(t);
      const s = await buildSpace(t, { title: 'Gone', parent: c.id });
      await buildSpace(t, { title: 'Kept', parent: c.id });
      assert.equal((await t.api('DELETE', `/v1/spaces/${s.id}`)).status, 204);
      assert.deepEqual(await spaceTitlesIn(c.id), ['Kept']);
    });

    test('an outsider and an unknown collection get 404; without a token 401', async () => {
      const c = await buildCollection(t);
      const other = await t.outsider();
      assertError(await t.api('GET', `/v1/collections/${c.id}/spaces`, { token: other.token }), 404);
      assertError(await t.api('GET', '/v1/collections/unknown/spaces'), 404);
      assertError(await t.api('GET', `/v1/collections/${c.id}/spaces`, { token: null }), 401);
    });
  });

  describe('moveCollection', () => {
    test('a collection moves into another collection and back to the top level', async () => {
      const a = await buildCollection(t, { title: 'A' });
      const b = await buildCollection(t, { title: 'B' });
      const moved = await t.api('POST', `/v1/collections/${a.id}/move`, { body: { parent: b.id } });
      assert.equal(moved.status, 200, JSON.stringify(moved.body));
      assert.equal(moved.body.parent, b.id);
      assert.equal((await t.api('GET', `/v1/collections/${a.id}`)).body.parent, b.id);
      const nestedOnly = await t.api('GET', `/v1/orgs/${t.org.id}/collections?nested=false&limit=1000`);
      assert.ok(!nestedOnly.body.items.some((c: { id: string }) => c.id === a.id));
      const back = await t.api('POST', `/v1/collections/${a.id}/move`, { body: { parent: null } });
      assert.equal(back.status, 200);
      assert.equal(back.body.parent, undefined);
    });

    test('moving a collection into itself or one of its descendants is 400', async () => {
      const top = await buildCollection(t, { title: 'Top' });
      const child = await buildCollection(t, { parent: top.id });
      const grandchild = await buildCollection(t, { parent: child.id });
      assertError(await t.api('POST', `/v1/collections/${top.id}/move`, { body: { parent: top.id } }), 400, 'body/parent');
      assertError(await t.api('POST', `/v1/collections/${top.id}/move`, { body: { parent: grandchild.id } }), 400, 'body/parent');
      const inside = await buildSpace(t, { parent: grandchild.id });
      assertError(
        await t.api('POST', `/v1/collections/${top.id}/move`, { body: { position: { before: { type: 'space', space: inside.id } } } }),
        400,
        'body/parent',
      );
      assert.equal((await t.api('GET', `/v1/collections/${top.id}`)).body.parent, undefined);
    });

    test('a move that changes nothing is 409', async () => {
      const parent = await buildCollection(t);
      const first = await buildCollection(t, { parent: parent.id });
      const last = await buildCollection(t, { parent: parent.id });
      assertError(await t.api('POST', `/v1/collections/${last.id}/move`, { body: { parent: parent.id } }), 409);
      assertError(await t.api('POST', `/v1/collections/${first.id}/move`, { body: { position: { before: { type: 'collection', collection: last.id } } } }), 409);
      assertError(await t.api('POST', `/v1/collections/${last.id}/move`, { body: { position: { after: { type: 'collection', collection: first.id } } } }), 409);
    });

    test('spaces and collections share one sibling order', async () => {
      const parent = await buildCollection(t);
      const a = await buildSpace(t, { title: 'A', parent: parent.id });
      const b = await buildSpace(t, { title: 'B', parent: parent.id });
      const x = await buildCollection(t, { title: 'X', parent: parent.id });
      // A, B, X -> A, X, B
      const moved = await t.api('POST', `/v1/collections/${x.id}/move`, { body: { position: { before: { type: 'space', space: b.id } } } });
      assert.equal(moved.status, 200, JSON.stringify(moved.body));
      assert.equal(moved.body.parent, parent.id);
      assertError(await t.api('POST', `/v1/spaces/${b.id}/move`, { body: { position: { after: { type: 'collection', collection: x.id } } } }), 409);
      assertError(await t.api('POST', `/v1/spaces/${a.id}/move`, { body: { position: { before: { type: 'collection', collection: x.id } } } }), 409);
      assert.deepEqual(await spaceTitlesIn(parent.id), ['A', 'B']);
      // A, X, B -> X, B, A: A goes after B, then X is first and right before B.
      assert.equal((await t.api('POST', `/v1/spaces/${a.id}/move`, { body: { position: { after: { type: 'space', space: b.id } } } })).status, 200);
      assert.deepEqual(await spaceTitlesIn(parent.id), ['B', 'A']);
      assertError(await t.api('POST', `/v1/collections/${x.id}/move`, { body: { position: { before: { type: 'space', space: b.id } } } }), 409);
      // X moves after A: B, A, X.
      assert.equal((await t.api('POST', `/v1/collections/${x.id}/move`, { body: { position: { after: { type: 'space', space: a.id } } } })).status, 200);
      assertError(await t.api('POST', `/v1/collections/${x.id}/move`, { body: { parent: parent.id } }), 409);
    });

    test('a position in another collection moves the collection there', async () => {
      const source = await buildCollection(t);
      const target = await buildCollection(t);
      const s = await buildSpace(t, { parent: target.id });
      const c = await buildCollection(t, { parent: source.id });
      const res = await t.api('POST', `/v1/collections/${c.id}/move`, { body: { position: { after: { type: 'space', space: s.id } } } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.parent, target.id);
    });

    test('invalid targets are 400 naming the field', async () => {
      const c = await buildCollection(t);
      const elsewhere = await buildCollection(t);
      const s = await buildSpace(t);
      assertError(await t.api('POST', `/v1/collections/${c.id}/move`, { body: {} }), 400, 'body');
      assertError(await t.api('POST', `/v1/collections/${c.id}/move`, { body: { parent: 'unknown' } }), 400, 'body/parent');
      assertError(await t.api('POST', `/v1/collections/${c.id}/move`, { body: { position: { before: { type: 'space', space: 'unknown' } } } }), 400, 'body/position');
      assertError(
        await t.api('POST', `/v1/collections/${c.id}/move`, {
          body: { position: { before: { type: 'space', space: s.id }, after: { type: 'space', space: s.id } } },
        }),
        400,
        'body/position',
      );
      assertError(await t.api('POST', `/v1/collections/${c.id}/move`, { body: { position: { before: { type: 'collection', collection: c.id } } } }), 400, 'body/position');
      assertError(
        await t.api('POST', `/v1/collections/${c.id}/move`, { body: { parent: elsewhere.id, position: { before: { type: 'space', space: s.id } } } }),
        400,
        'body/position',
      );
      assertError(await t.api('POST', `/v1/collections/${c.id}/move`, { body: { position: { before: { type: 'page', page: 'x' } } } }), 400, 'body/position');
    });

    test('moving needs the admin role on the collection: 403 for a member, 404 for an outsider', async () => {
      const c = await buildCollection(t);
      const target = await buildCollection(t);
      const creator = await t.member('create');
      assertError(await t.api('POST', `/v1/collections/${c.id}/move`, { token: creator.token, body: { parent: target.id } }), 403);
      const other = await t.outsider();
      assertError(await t.api('POST', `/v1/collections/${c.id}/move`, { token: other.token, body: { parent: target.id } }), 404);
      assertError(await t.api('POST', '/v1/collections/unknown/move', { body: { parent: target.id } }), 404);
      assertError(await t.api('POST', `/v1/collections/${c.id}/move`, { token: null, body: { parent: target.id } }), 401);
    });

    test('a collection admin cannot move it into a collection where they lack the create role', async () => {
      const member = await t.member('create');
      const c = await buildCollection(t);
      const readOnly = await buildCollection(t);
      const open = await buildCollection(t);
      await t.api('PATCH', `/v1/collections/${c.id}`, { body: { defaultLevel: 'admin' } });
      await t.api('PATCH', `/v1/collections/${readOnly.id}`, { body: { defaultLevel: 'read' } });
      assertError(await t.api('POST', `/v1/collections/${c.id}/move`, { token: member.token, body: { parent: readOnly.id } }), 403);
      const ok = await t.api('POST', `/v1/collections/${c.id}/move`, { token: member.token, body: { parent: open.id } });
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      assert.equal(ok.body.parent, open.id);
    });
  });

  describe('transferCollection', () => {
    test('a collection goes to another organization with its sub-collections and spaces', async () => {
      const target = await secondOrganization();
      const c = await buildCollection(t, { title: 'Moving' });
      const sub = await buildCollection(t, { title: 'Sub', parent: c.id });
      const s1 = await buildSpace(t, { title: 'S1', parent: c.id });
      const s2 = await buildSpace(t, { title: 'S2', parent: sub.id });
      const res = await t.api('POST', `/v1/collections/${c.id}/transfer`, { body: { organization: target } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.organization, target);
      assert.equal(res.body.parent, undefined);
      const gotSub = await t.api('GET', `/v1/collections/${sub.id}`);
      assert.equal(gotSub.body.organization, target);
      assert.equal(gotSub.body.parent, c.id);
      for (const s of [s1, s2]) assert.equal((await t.api('GET', `/v1/spaces/${s.id}`)).body.organization, target);
      assert.deepEqual(await spaceTitlesIn(c.id), ['S1']);
      const targetList = await t.api('GET', `/v1/orgs/${target}/collections`);
      assert.deepEqual(new Set(targetList.body.items.map((x: { id: string }) => x.id)), new Set([c.id, sub.id]));
      const targetSpaces = await t.api('GET', `/v1/orgs/${target}/spaces`);
      assert.deepEqual(new Set(targetSpaces.body.items.map((x: { id: string }) => x.id)), new Set([s1.id, s2.id]));
      const sourceList = await t.api('GET', `/v1/orgs/${t.org.id}/collections?limit=1000`);
      assert.ok(!sourceList.body.items.some((x: { id: string }) => x.id === c.id || x.id === sub.id));
    });

    test('a sub-collection transferred alone lands at the top level of the target', async () => {
      const target = await secondOrganization();
      const c = await buildCollection(t);
      const sub = await buildCollection(t, { parent: c.id });
      const res = await t.api('POST', `/v1/collections/${sub.id}/transfer`, { body: { organization: target } });
      assert.equal(res.status, 200);
      assert.equal(res.body.parent, undefined);
      assert.equal((await t.api('GET', `/v1/collections/${c.id}`)).body.organization, t.org.id);
    });

    test('transferring to the organization it is already in is 409', async () => {
      const c = await buildCollection(t);
      assertError(await t.api('POST', `/v1/collections/${c.id}/transfer`, { body: { organization: t.org.id } }), 409);
    });

    test('a target organization that is unknown, or that the caller is not in, is 404', async () => {
      const c = await buildCollection(t);
      const other = await t.outsider();
      assertError(await t.api('POST', `/v1/collections/${c.id}/transfer`, { body: { organization: 'unknown' } }), 404);
      assertError(await t.api('POST', `/v1/collections/${c.id}/transfer`, { body: { organization: other.organizationId } }), 404);
      assert.equal((await t.api('GET', `/v1/collections/${c.id}`)).body.organization, t.org.id);
    });

    test('a caller who is not admin of the target organization gets 403', async () => {
      const target = await secondOrganization();
      const c = await buildCollection(t);
      const user = await t.member('admin');
      // The same user, admin here but only a creator there.
      await addOrUpdateMember(t.app.ctx, t.db, target, user.userId, 'create');
      assertError(await t.api('POST', `/v1/collections/${c.id}/transfer`, { token: user.token, body: { organization: target } }), 403);
    });

    test('a member without the admin role on the collection gets 403, an outsider 404', async () => {
      const c = await buildCollection(t);
      const reader = await t.member('read');
      assertError(await t.api('POST', `/v1/collections/${c.id}/transfer`, { token: reader.token, body: { organization: t.org.id } }), 403);
      const other = await t.outsider();
      assertError(await t.api('POST', `/v1/collections/${c.id}/transfer`, { token: other.token, body: { organization: other.organizationId } }), 404);
      assertError(await t.api('POST', '/v1/collections/unknown/transfer', { body: { organization: t.org.id } }), 404);
      assertError(await t.api('POST', `/v1/collections/${c.id}/transfer`, { token: null, body: { organization: t.org.id } }), 401);
    });

    test('a transfer without an organization is 400 naming it', async () => {
      const c = await buildCollection(t);
      assertError(await t.api('POST', `/v1/collections/${c.id}/transfer`, { body: {} }), 400, 'organization');
    });
  });

  describe('deleteCollectionById', () => {
    test('deleting a collection deletes its sub-collections and sends its spaces to the trash', async () => {
      const c = await buildCollection(t);
      const sub = await buildCollection(t, { parent: c.id });
      const s1 = await buildSpace(t, { title: 'S1', parent: c.id, visibility: 'in-collection' });
      const s2 = await buildSpace(t, { title: 'S2', parent: sub.id });
      assert.equal((await t.api('DELETE', `/v1/collections/${c.id}`)).status, 204);
      assertError(await t.api('GET', `/v1/collections/${c.id}`), 404);
      assertError(await t.api('GET', `/v1/collections/${sub.id}`), 404);
      for (const s of [s1, s2]) {
        const got = await t.api('GET', `/v1/spaces/${s.id}`);
        assert.equal(got.status, 200);
        assert.ok(got.body.deletedAt);
      }
      const spaces = await t.api('GET', `/v1/orgs/${t.org.id}/spaces?limit=1000`);
      assert.ok(!spaces.body.items.some((x: { id: string }) => x.id === s1.id || x.id === s2.id));
      const collections = await t.api('GET', `/v1/orgs/${t.org.id}/collections?limit=1000`);
      assert.ok(!collections.body.items.some((x: { id: string }) => x.id === c.id || x.id === sub.id));
      // Restorable, at the top level since their collection is gone; "in-collection" no longer means anything.
      const restored = await t.api('POST', `/v1/spaces/${s1.id}/restore`);
      assert.equal(restored.status, 200, JSON.stringify(restored.body));
      assert.equal(restored.body.parent, undefined);
      assert.equal(restored.body.deletedAt, undefined);
      assert.equal(restored.body.visibility, 'private');
      assert.equal((await t.api('POST', `/v1/spaces/${s2.id}/restore`)).body.parent, undefined);
    });

    test('deleting again, or an unknown id, is 204', async () => {
      const c = await buildCollection(t);
      assert.equal((await t.api('DELETE', `/v1/collections/${c.id}`)).status, 204);
      assert.equal((await t.api('DELETE', `/v1/collections/${c.id}`)).status, 204);
      assert.equal((await t.api('DELETE', '/v1/collections/unknown')).status, 204);
    });

    test('a member without the admin role gets 403; an outsider deletes nothing', async () => {
      const c = await buildCollection(t);
      const creator = await t.member('create');
      assertError(await t.api('DELETE', `/v1/collections/${c.id}`, { token: creator.token }), 403);
      const other = await t.outsider();
      assert.equal((await t.api('DELETE', `/v1/collections/${c.id}`, { token: other.token })).status, 204);
      assert.equal((await t.api('GET', `/v1/collections/${c.id}`)).status, 200);
      assertError(await t.api('DELETE', `/v1/collections/${c.id}`, { token: null }), 401);
    });
  });
});
