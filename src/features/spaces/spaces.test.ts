import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { assertError } from '../../../test/assertions.ts';
import { buildCollection, buildSpace } from '../../../test/factories.ts';
import { addOrUpdateMember } from '../members/service.ts';
import { DAY_MS } from '../../platform/clock.ts';

describe('spaces', () => {
  let t: TestServer;
  before(async () => {
    t = await startServer();
  });
  after(() => t.close());

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

  async function listedIds(organizationId = t.org.id, token?: string): Promise<string[]> {
    const res = await t.api('GET', `/v1/orgs/${organizationId}/spaces?limit=1000`, token ? { token } : {});
    assert.equal(res.status, 200);
    return res.body.items.map((s: { id: string }) => s.id);
  }

  describe('createSpace', () => {
    test('an admin creates a space: 201, Location, defaults and absolute urls', async () => {
      const res = await t.api('POST', `/v1/orgs/${t.org.id}/spaces`, { body: { title: 'Handbook', emoji: '📘' } });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const s = res.body;
      assert.equal(s.object, 'space');
      assert.equal(s.title, 'Handbook');
      assert.equal(s.emoji, '📘');
      assert.equal(s.visibility, 'private');
      assert.equal(s.editMode, 'live');
      assert.equal(s.defaultLevel, 'inherit');
      assert.equal(s.organization, t.org.id);
      assert.equal(s.parent, undefined);
      assert.equal(s.deletedAt, undefined);
      assert.equal(typeof s.revision, 'string');
      assert.ok(s.revision.length > 0);
      assert.deepEqual([s.comments, s.changeRequests, s.changeRequestsOpen, s.changeRequestsDraft], [0, 0, 0, 0]);
      assert.equal(s.urls.location, `http://quire.test/v1/spaces/${s.id}`);
      assert.ok(s.urls.app.startsWith('http://quire.test/'));
      for (const url of Object.values(s.urls)) assert.ok(String(url).startsWith('http://quire.test/'), String(url));
      assert.equal(res.headers.location, s.urls.location);
      assert.equal(s.permissions.admin, true);
      assert.equal(s.createdAt, t.clock.now().toISOString());
    });

    test('a space without a title is Untitled; emoji, editMode and visibility are taken', async () => {
      const res = await t.api('POST', `/v1/orgs/${t.org.id}/spaces`, { body: { editMode: 'locked', visibility: 'unlisted', emoji: '1f389' } });
      assert.equal(res.status, 201);
      assert.equal(res.body.title, 'Untitled');
      assert.equal(res.body.editMode, 'locked');
      assert.equal(res.body.visibility, 'unlisted');
      assert.equal(res.body.emoji, '1f389');
    });

    test('a title of 50 characters is accepted, 51 is a 400 naming body/title', async () => {
      assert.equal((await buildSpace(t, { title: 'y'.repeat(50) })).title, 'y'.repeat(50));
      assertError(await t.api('POST', `/v1/orgs/${t.org.id}/spaces`, { body: { title: 'y'.repeat(51) } }), 400, 'body/title');
    });

    test('invalid emoji, visibility and editMode are 400 naming the field', async () => {
      assertError(await t.api('POST', `/v1/orgs/${t.org.id}/spaces`, { body: { emoji: 'not an emoji' } }), 400, 'body/emoji');
      assertError(await t.api('POST', `/v1/orgs/${t.org.id}/spaces`, { body: { visibility: 'secret' } }), 400, 'body/visibility');
      assertError(await t.api('POST', `/v1/orgs/${t.org.id}/spaces`, { body: { editMode: 'draft' } }), 400, 'body/editMode');
    });

    test('"in-collection" is only for spaces in a collection', async () => {
      assertError(await t.api('POST', `/v1/orgs/${t.org.id}/spaces`, { body: { visibility: 'in-collection' } }), 400, 'body/visibility');
      const c = await buildCollection(t);
      const s = await buildSpace(t, { parent: c.id, visibility: 'in-collection' });
      assert.equal(s.visibility, 'in-collection');
      assert.equal(s.parent, c.id);
    });

    test('an unknown parent is a 400 naming body/parent', async () => {
      assertError(await t.api('POST', `/v1/orgs/${t.org.id}/spaces`, { body: { parent: 'unknown' } }), 400, 'body/parent');
    });

    test('creating a space needs the create role in the organization, or in the parent collection', async () => {
      const creator = await t.member('create');
      assert.equal((await buildSpace(t, {}, { token: creator.token })).organization, t.org.id);
      for (const role of ['edit', 'comment', 'read', null] as const) {
        const user = await t.member(role);
        assertError(await t.api('POST', `/v1/orgs/${t.org.id}/spaces`, { token: user.token, body: {} }), 403);
      }
      const editor = await t.member('edit');
      const open = await buildCollection(t);
      await t.api('PATCH', `/v1/collections/${open.id}`, { body: { defaultLevel: 'create' } });
      assert.equal((await buildSpace(t, { parent: open.id }, { token: editor.token })).parent, open.id);
      const closed = await buildCollection(t);
      await t.api('PATCH', `/v1/collections/${closed.id}`, { body: { defaultLevel: 'read' } });
      assertError(await t.api('POST', `/v1/orgs/${t.org.id}/spaces`, { token: creator.token, body: { parent: closed.id } }), 403);
    });

    test('an outsider and an unknown organization get 404; without a token 401', async () => {
      const other = await t.outsider();
      assertError(await t.api('POST', `/v1/orgs/${t.org.id}/spaces`, { token: other.token, body: {} }), 404);
      assertError(await t.api('POST', '/v1/orgs/unknown/spaces', { body: {} }), 404);
      assertError(await t.api('POST', `/v1/orgs/${t.org.id}/spaces`, { token: null, body: {} }), 401);
    });
  });

  describe('getSpaceById', () => {
    test('a member reads a space', async () => {
      const s = await buildSpace(t, { title: 'Readable' });
      const reader = await t.member('read');
      const res = await t.api('GET', `/v1/spaces/${s.id}`, { token: reader.token });
      assert.equal(res.status, 200);
      assert.equal(res.body.title, 'Readable');
      assert.equal(res.body.permissions.view, true);
      assert.equal(res.body.permissions.admin, false);
    });

    test('a space of another organization, or an unknown one, is 404; without a token 401', async () => {
      const s = await buildSpace(t);
      const other = await t.outsider();
      assertError(await t.api('GET', `/v1/spaces/${s.id}`, { token: other.token }), 404);
      assertError(await t.api('GET', '/v1/spaces/unknown'), 404);
      assertError(await t.api('GET', `/v1/spaces/${s.id}`, { token: null }), 401);
    });
  });

  describe('updateSpaceById', () => {
    test('an admin changes title, emoji, editMode, defaultLevel and visibility', async () => {
      const s = await buildSpace(t, { title: 'Before' });
      t.clock.advance(1000);
      const res = await t.api('PATCH', `/v1/spaces/${s.id}`, {
        body: { title: 'After', emoji: '🎉', editMode: 'locked', defaultLevel: 'comment', visibility: 'public' },
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.title, 'After');
      assert.equal(res.body.emoji, '🎉');
      assert.equal(res.body.editMode, 'locked');
      assert.equal(res.body.defaultLevel, 'comment');
      assert.equal(res.body.visibility, 'public');
      assert.notEqual(res.body.updatedAt, s.updatedAt);
      const again = await t.api('GET', `/v1/spaces/${s.id}`);
      assert.deepEqual(
        [again.body.title, again.body.emoji, again.body.editMode, again.body.defaultLevel, again.body.visibility],
        ['After', '🎉', 'locked', 'comment', 'public'],
      );
    });

    test('a locked space cannot be edited, not even by an admin, until it is live again', async () => {
      const s = await buildSpace(t);
      assert.equal(s.permissions.edit, true);
      assert.equal((await t.api('PATCH', `/v1/spaces/${s.id}`, { body: { editMode: 'locked' } })).body.permissions.edit, false);
      assert.equal((await t.api('PATCH', `/v1/spaces/${s.id}`, { body: { editMode: 'live' } })).body.permissions.edit, true);
    });

    test('icon, language and merge rules are kept; a null icon removes it', async () => {
      const s = await buildSpace(t);
      const res = await t.api('PATCH', `/v1/spaces/${s.id}`, {
        body: { icon: 'https://example.com/icon.png', language: 'fr', mergeRules: { type: 'none' } },
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.urls.icon, 'https://example.com/icon.png');
      assert.equal(res.body.language, 'fr');
      assert.deepEqual(res.body.mergeRules, { type: 'none' });
      const again = await t.api('GET', `/v1/spaces/${s.id}`);
      assert.deepEqual([again.body.urls.icon, again.body.language, again.body.mergeRules], ['https://example.com/icon.png', 'fr', { type: 'none' }]);
      assert.equal((await t.api('PATCH', `/v1/spaces/${s.id}`, { body: { icon: null } })).body.urls.icon, undefined);
      assertError(await t.api('PATCH', `/v1/spaces/${s.id}`, { body: { icon: 'not a url' } }), 400, 'body/icon');
      assertError(await t.api('PATCH', `/v1/spaces/${s.id}`, { body: { language: 'xx' } }), 400, 'body/language');
    });

    test('a null emoji removes it', async () => {
      const s = await buildSpace(t, { emoji: '📘' });
      assert.equal((await t.api('PATCH', `/v1/spaces/${s.id}`, { body: { emoji: null } })).body.emoji, '');
    });

    test('invalid fields are 400 naming them', async () => {
      const s = await buildSpace(t);
      assertError(await t.api('PATCH', `/v1/spaces/${s.id}`, { body: { title: 'z'.repeat(51) } }), 400, 'body/title');
      assertError(await t.api('PATCH', `/v1/spaces/${s.id}`, { body: { defaultLevel: 'owner' } }), 400, 'body/defaultLevel');
      assertError(await t.api('PATCH', `/v1/spaces/${s.id}`, { body: { editMode: 'frozen' } }), 400, 'body/editMode');
      assertError(await t.api('PATCH', `/v1/spaces/${s.id}`, { body: { visibility: 'in-collection' } }), 400, 'body/visibility');
    });

    test('"in-collection" is accepted for a space in a collection', async () => {
      const c = await buildCollection(t);
      const s = await buildSpace(t, { parent: c.id });
      assert.equal((await t.api('PATCH', `/v1/spaces/${s.id}`, { body: { visibility: 'in-collection' } })).body.visibility, 'in-collection');
    });

    test('a member without the admin role gets 403; an outsider and an unknown id 404', async () => {
      const s = await buildSpace(t, { title: 'Kept' });
      for (const role of ['create', 'read'] as const) {
        const user = await t.member(role);
        assertError(await t.api('PATCH', `/v1/spaces/${s.id}`, { token: user.token, body: { title: 'Changed' } }), 403);
      }
      const other = await t.outsider();
      assertError(await t.api('PATCH', `/v1/spaces/${s.id}`, { token: other.token, body: { title: 'Changed' } }), 404);
      assertError(await t.api('PATCH', '/v1/spaces/unknown', { body: { title: 'Changed' } }), 404);
      assertError(await t.api('PATCH', `/v1/spaces/${s.id}`, { token: null, body: { title: 'Changed' } }), 401);
      assert.equal((await t.api('GET', `/v1/spaces/${s.id}`)).body.title, 'Kept');
    });
  });

  describe('deleteSpaceById and restoreSpace', () => {
    test('a deleted space shows deletedAt, leaves the lists, and DELETE again is 204', async () => {
      const c = await buildCollection(t);
      const s = await buildSpace(t, { parent: c.id });
      assert.equal((await t.api('DELETE', `/v1/spaces/${s.id}`)).status, 204);
      const got = await t.api('GET', `/v1/spaces/${s.id}`);
      assert.equal(got.status, 200);
      assert.equal(got.body.deletedAt, t.clock.now().toISOString());
      assert.ok(!(await listedIds()).includes(s.id));
      assert.equal((await t.api('GET', `/v1/collections/${c.id}/spaces`)).body.count, 0);
      assert.equal((await t.api('DELETE', `/v1/spaces/${s.id}`)).status, 204);
      assert.equal((await t.api('DELETE', '/v1/spaces/unknown')).status, 204);
    });

    test('a deleted space cannot be changed until restored', async () => {
      const s = await buildSpace(t);
      await t.api('DELETE', `/v1/spaces/${s.id}`);
      assertError(await t.api('PATCH', `/v1/spaces/${s.id}`, { body: { title: 'x' } }), 404);
      assertError(await t.api('POST', `/v1/spaces/${s.id}/move`, { body: { parent: null } }), 404);
      assertError(await t.api('POST', `/v1/spaces/${s.id}/duplicate`), 404);
    });

    test('a deleted space can be restored within 7 days', async () => {
      const c = await buildCollection(t);
      const s = await buildSpace(t, { title: 'Back', parent: c.id });
      await buildSpace(t, { title: 'Sibling', parent: c.id });
      await t.api('DELETE', `/v1/spaces/${s.id}`);
      t.clock.advance(6 * DAY_MS);
      const res = await t.api('POST', `/v1/spaces/${s.id}/restore`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.deletedAt, undefined);
      assert.equal(res.body.parent, c.id);
      assert.equal((await t.api('GET', `/v1/spaces/${s.id}`)).body.deletedAt, undefined);
      assert.ok((await listedIds()).includes(s.id));
      assert.deepEqual(await spaceTitlesIn(c.id), ['Sibling', 'Back']);
    });

    test('restoring a space that is not deleted is 409', async () => {
      const s = await buildSpace(t);
      assertError(await t.api('POST', `/v1/spaces/${s.id}/restore`), 409);
    });

    test('a space deleted more than 7 days ago cannot be restored: 404', async () => {
      const s = await buildSpace(t);
      await t.api('DELETE', `/v1/spaces/${s.id}`);
      t.clock.advance(7 * DAY_MS + 1000);
      assertError(await t.api('POST', `/v1/spaces/${s.id}/restore`), 404);
      assertError(await t.api('GET', `/v1/spaces/${s.id}`), 404);
      assert.equal((await t.api('DELETE', `/v1/spaces/${s.id}`)).status, 204);
    });

    test('the purge sweep removes spaces deleted more than 7 days ago from the database', async () => {
      const gone = await buildSpace(t);
      const recent = await buildSpace(t);
      await t.api('DELETE', `/v1/spaces/${gone.id}`);
      t.clock.advance(8 * DAY_MS);
      await t.api('DELETE', `/v1/spaces/${recent.id}`);
      await t.app.jobs.runDue();
      assert.equal(await t.db.selectFrom('spaces').select('id').where('id', '=', gone.id).executeTakeFirst(), undefined);
      assert.equal(await t.db.selectFrom('revisions').select('id').where('space_id', '=', gone.id).executeTakeFirst(), undefined);
      assert.ok(await t.db.selectFrom('spaces').select('id').where('id', '=', recent.id).executeTakeFirst());
      assertError(await t.api('GET', `/v1/spaces/${gone.id}`), 404);
      assert.equal((await t.api('POST', `/v1/spaces/${recent.id}/restore`)).status, 200);
    });

    test('deleting and restoring need the admin role: 403 for a member, nothing for an outsider', async () => {
      const s = await buildSpace(t);
      const creator = await t.member('create');
      assertError(await t.api('DELETE', `/v1/spaces/${s.id}`, { token: creator.token }), 403);
      const other = await t.outsider();
      assert.equal((await t.api('DELETE', `/v1/spaces/${s.id}`, { token: other.token })).status, 204);
      assert.equal((await t.api('GET', `/v1/spaces/${s.id}`)).body.deletedAt, undefined);
      assertError(await t.api('DELETE', `/v1/spaces/${s.id}`, { token: null }), 401);
      await t.api('DELETE', `/v1/spaces/${s.id}`);
      assertError(await t.api('POST', `/v1/spaces/${s.id}/restore`, { token: creator.token }), 403);
      assertError(await t.api('POST', `/v1/spaces/${s.id}/restore`, { token: other.token }), 404);
      assertError(await t.api('POST', '/v1/spaces/unknown/restore'), 404);
      assertError(await t.api('POST', `/v1/spaces/${s.id}/restore`, { token: null }), 401);
    });
  });

  describe('duplicateSpace', () => {
    test('a duplicate is a new space titled "(copy)", next to the original, with a new revision', async () => {
      const c = await buildCollection(t);
      const s = await buildSpace(t, { title: 'Original', emoji: '📘', parent: c.id, visibility: 'in-collection' });
      await buildSpace(t, { title: 'Other', parent: c.id });
      const res = await t.api('POST', `/v1/spaces/${s.id}/duplicate`);
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const copy = res.body;
      assert.notEqual(copy.id, s.id);
      assert.equal(copy.title, 'Original (copy)');
      assert.equal(copy.emoji, '📘');
      assert.equal(copy.visibility, 'in-collection');
      assert.equal(copy.parent, c.id);
      assert.notEqual(copy.revision, s.revision);
      assert.equal(res.headers.location, copy.urls.location);
      assert.equal(copy.urls.location, `http://quire.test/v1/spaces/${copy.id}`);
      assert.equal((await t.api('GET', `/v1/spaces/${copy.id}`)).status, 200);
      assert.deepEqual(await spaceTitlesIn(c.id), ['Original', 'Other', 'Original (copy)']);
    });

    test('the copy of a 50-character title stays within 50 characters', async () => {
      const s = await buildSpace(t, { title: 'w'.repeat(50) });
      const copy = await t.api('POST', `/v1/spaces/${s.id}/duplicate`);
      assert.equal(copy.status, 201);
      assert.ok(copy.body.title.length <= 50);
    });

    test('duplicating needs the create role where the copy goes; an outsider and an unknown id get 404', async () => {
      const s = await buildSpace(t);
      const reader = await t.member('read');
      assertError(await t.api('POST', `/v1/spaces/${s.id}/duplicate`, { token: reader.token }), 403);
      const creator = await t.member('create');
      assert.equal((await t.api('POST', `/v1/spaces/${s.id}/duplicate`, { token: creator.token })).status, 201);
      const other = await t.outsider();
      assertError(await t.api('POST', `/v1/spaces/${s.id}/duplicate`, { token: other.token }), 404);
      assertError(await t.api('POST', '/v1/spaces/unknown/duplicate'), 404);
      assertError(await t.api('POST', `/v1/spaces/${s.id}/duplicate`, { token: null }), 401);
    });
  });

  describe('moveSpace', () => {
    test('a space moves into a collection and back to the top level', async () => {
      const c = await buildCollection(t);
      const s = await buildSpace(t);
      const moved = await t.api('POST', `/v1/spaces/${s.id}/move`, { body: { parent: c.id } });
      assert.equal(moved.status, 200, JSON.stringify(moved.body));
      assert.equal(moved.body.parent, c.id);
      assert.equal((await t.api('GET', `/v1/spaces/${s.id}`)).body.parent, c.id);
      const back = await t.api('POST', `/v1/spaces/${s.id}/move`, { body: { parent: null } });
      assert.equal(back.status, 200);
      assert.equal(back.body.parent, undefined);
      assert.equal((await t.api('GET', `/v1/collections/${c.id}/spaces`)).body.count, 0);
    });

    test('an "in-collection" space moved to the top level becomes private', async () => {
      const c = await buildCollection(t);
      const s = await buildSpace(t, { parent: c.id, visibility: 'in-collection' });
      const res = await t.api('POST', `/v1/spaces/${s.id}/move`, { body: { parent: null } });
      assert.equal(res.status, 200);
      assert.equal(res.body.visibility, 'private');
    });

    test('before and after order the spaces of a collection', async () => {
      const c = await buildCollection(t);
      const a = await buildSpace(t, { title: 'A', parent: c.id });
      const b = await buildSpace(t, { title: 'B', parent: c.id });
      const d = await buildSpace(t, { title: 'D', parent: c.id });
      assert.deepEqual(await spaceTitlesIn(c.id), ['A', 'B', 'D']);
      assert.equal((await t.api('POST', `/v1/spaces/${d.id}/move`, { body: { position: { before: { type: 'space', space: a.id } } } })).status, 200);
      assert.deepEqual(await spaceTitlesIn(c.id), ['D', 'A', 'B']);
      assert.equal((await t.api('POST', `/v1/spaces/${d.id}/move`, { body: { position: { after: { type: 'space', space: a.id } } } })).status, 200);
      assert.deepEqual(await spaceTitlesIn(c.id), ['A', 'D', 'B']);
      assert.equal((await t.api('POST', `/v1/spaces/${a.id}/move`, { body: { parent: c.id } })).status, 200);
      assert.deepEqual(await spaceTitlesIn(c.id), ['D', 'B', 'A']);
      // A position next to a space of another collection moves the space there.
      const other = await buildCollection(t);
      const o = await buildSpace(t, { title: 'O', parent: other.id });
      const res = await t.api('POST', `/v1/spaces/${b.id}/move`, { body: { position: { before: { type: 'space', space: o.id } } } });
      assert.equal(res.body.parent, other.id);
      assert.deepEqual(await spaceTitlesIn(other.id), ['B', 'O']);
      assert.deepEqual(await spaceTitlesIn(c.id), ['D', 'A']);
    });

    test('a move that changes nothing is 409', async () => {
      const c = await buildCollection(t);
      const a = await buildSpace(t, { parent: c.id });
      const b = await buildSpace(t, { parent: c.id });
      assertError(await t.api('POST', `/v1/spaces/${b.id}/move`, { body: { parent: c.id } }), 409);
      assertError(await t.api('POST', `/v1/spaces/${a.id}/move`, { body: { position: { before: { type: 'space', space: b.id } } } }), 409);
      assertError(await t.api('POST', `/v1/spaces/${b.id}/move`, { body: { position: { after: { type: 'space', space: a.id } } } }), 409);
      const top = await buildSpace(t);
      assertError(await t.api('POST', `/v1/spaces/${top.id}/move`, { body: { parent: null } }), 409);
    });

    test('invalid targets are 400 naming the field', async () => {
      const s = await buildSpace(t);
      const c = await buildCollection(t);
      const inside = await buildSpace(t, { parent: c.id });
      assertError(await t.api('POST', `/v1/spaces/${s.id}/move`, { body: {} }), 400, 'body');
      assertError(await t.api('POST', `/v1/spaces/${s.id}/move`, { body: { parent: 'unknown' } }), 400, 'body/parent');
      assertError(await t.api('POST', `/v1/spaces/${s.id}/move`, { body: { position: { after: { type: 'space', space: s.id } } } }), 400, 'body/position');
      assertError(await t.api('POST', `/v1/spaces/${s.id}/move`, { body: { parent: null, position: { after: { type: 'space', space: inside.id } } } }), 400, 'body/position');
      const other = await t.outsider();
      const foreign = await buildCollection(t, {}, { token: other.token, organizationId: other.organizationId });
      assertError(await t.api('POST', `/v1/spaces/${s.id}/move`, { body: { parent: foreign.id } }), 400, 'body/parent');
    });

    test('moving needs the admin role on the space and the create role where it goes', async () => {
      const s = await buildSpace(t);
      const target = await buildCollection(t);
      const creator = await t.member('create');
      assertError(await t.api('POST', `/v1/spaces/${s.id}/move`, { token: creator.token, body: { parent: target.id } }), 403);
      // Admin of the space by its default level, but only a reader in the target collection.
      await t.api('PATCH', `/v1/spaces/${s.id}`, { body: { defaultLevel: 'admin' } });
      await t.api('PATCH', `/v1/collections/${target.id}`, { body: { defaultLevel: 'read' } });
      assertError(await t.api('POST', `/v1/spaces/${s.id}/move`, { token: creator.token, body: { parent: target.id } }), 403);
      const open = await buildCollection(t);
      const ok = await t.api('POST', `/v1/spaces/${s.id}/move`, { token: creator.token, body: { parent: open.id } });
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      const other = await t.outsider();
      assertError(await t.api('POST', `/v1/spaces/${s.id}/move`, { token: other.token, body: { parent: null } }), 404);
      assertError(await t.api('POST', '/v1/spaces/unknown/move', { body: { parent: null } }), 404);
      assertError(await t.api('POST', `/v1/spaces/${s.id}/move`, { token: null, body: { parent: null } }), 401);
    });
  });

  describe('transferSpace', () => {
    test('a space goes to the top level of another organization the caller administers', async () => {
      const target = await secondOrganization();
      const c = await buildCollection(t);
      const s = await buildSpace(t, { parent: c.id, visibility: 'in-collection' });
      const res = await t.api('POST', `/v1/spaces/${s.id}/transfer`, { body: { organization: target } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.organization, target);
      assert.equal(res.body.parent, undefined);
      assert.equal(res.body.visibility, 'private');
      assert.ok(res.body.urls.app.startsWith('http://quire.test/'));
      assert.ok((await listedIds(target)).includes(s.id));
      assert.ok(!(await listedIds()).includes(s.id));
      assert.equal((await t.api('GET', `/v1/collections/${c.id}/spaces`)).body.count, 0);
    });

    test("the old organization's grants do not come back when the space is transferred back", async () => {
      const target = await secondOrganization();
      const guest = await t.member(null);
      const s = await buildSpace(t);
      assert.equal((await t.api('POST', `/v1/spaces/${s.id}/permissions`, { body: { role: 'edit', users: [guest.userId] } })).status, 204);
      assert.equal((await t.api('GET', `/v1/spaces/${s.id}`, { token: guest.token })).status, 200);
      assert.equal((await t.api('POST', `/v1/spaces/${s.id}/transfer`, { body: { organization: target } })).status, 200);
      assert.equal((await t.api('POST', `/v1/spaces/${s.id}/transfer`, { body: { organization: t.org.id } })).status, 200);
      assertError(await t.api('GET', `/v1/spaces/${s.id}`, { token: guest.token }), 404);
      assert.equal((await t.api('GET', `/v1/spaces/${s.id}/permissions/users`)).body.count, 0);
    });

    test("a collection's transfer forgets the grants on it and on its spaces", async () => {
      const target = await secondOrganization();
      const guest = await t.member(null);
      const c = await buildCollection(t);
      const s = await buildSpace(t, { parent: c.id });
      assert.equal((await t.api('POST', `/v1/collections/${c.id}/permissions`, { body: { role: 'read', users: [guest.userId] } })).status, 204);
      assert.equal((await t.api('POST', `/v1/spaces/${s.id}/permissions`, { body: { role: 'edit', users: [guest.userId] } })).status, 204);
      assert.equal((await t.api('POST', `/v1/collections/${c.id}/transfer`, { body: { organization: target } })).status, 200);
      assert.equal((await t.api('POST', `/v1/collections/${c.id}/transfer`, { body: { organization: t.org.id } })).status, 200);
      assertError(await t.api('GET', `/v1/collections/${c.id}`, { token: guest.token }), 404);
      assertError(await t.api('GET', `/v1/spaces/${s.id}`, { token: guest.token }), 404);
      assert.equal((await t.api('GET', `/v1/spaces/${s.id}/permissions/users`)).body.count, 0);
    });

    test('transferring to the organization it is in is 409', async () => {
      const s = await buildSpace(t);
      assertError(await t.api('POST', `/v1/spaces/${s.id}/transfer`, { body: { organization: t.org.id } }), 409);
    });

    test('an unknown target organization, or one the caller is not in, is 404', async () => {
      const s = await buildSpace(t);
      const other = await t.outsider();
      assertError(await t.api('POST', `/v1/spaces/${s.id}/transfer`, { body: { organization: 'unknown' } }), 404);
      assertError(await t.api('POST', `/v1/spaces/${s.id}/transfer`, { body: { organization: other.organizationId } }), 404);
      assert.equal((await t.api('GET', `/v1/spaces/${s.id}`)).body.organization, t.org.id);
    });

    test('a caller who is not admin of the target organization gets 403', async () => {
      const target = await secondOrganization();
      const s = await buildSpace(t);
      const user = await t.member('admin');
      await addOrUpdateMember(t.app.ctx, t.db, target, user.userId, 'edit');
      assertError(await t.api('POST', `/v1/spaces/${s.id}/transfer`, { token: user.token, body: { organization: target } }), 403);
    });

    test('a member without the admin role on the space gets 403; an outsider and an unknown space 404', async () => {
      const s = await buildSpace(t);
      const reader = await t.member('read');
      assertError(await t.api('POST', `/v1/spaces/${s.id}/transfer`, { token: reader.token, body: { organization: t.org.id } }), 403);
      const other = await t.outsider();
      assertError(await t.api('POST', `/v1/spaces/${s.id}/transfer`, { token: other.token, body: { organization: other.organizationId } }), 404);
      assertError(await t.api('POST', '/v1/spaces/unknown/transfer', { body: { organization: t.org.id } }), 404);
      assertError(await t.api('POST', `/v1/spaces/${s.id}/transfer`, { token: null, body: { organization: t.org.id } }), 401);
      assertError(await t.api('POST', `/v1/spaces/${s.id}/transfer`, { body: {} }), 400, 'organization');
    });
  });

  describe('listSpacesInOrganizationById', () => {
    test('the list is paginated with next.page until every space is seen once', async () => {
      const owner = await t.outsider();
      const ids = new Set<string>();
      const c = await buildCollection(t, {}, { token: owner.token, organizationId: owner.organizationId });
      for (let i = 0; i < 4; i++) ids.add((await buildSpace(t, { title: `S${i}` }, { token: owner.token, organizationId: owner.organizationId })).id);
      ids.add((await buildSpace(t, { parent: c.id }, { token: owner.token, organizationId: owner.organizationId })).id);
      const seen: string[] = [];
      let page: string | undefined;
      do {
        const res = await t.api('GET', `/v1/orgs/${owner.organizationId}/spaces?limit=2${page ? `&page=${page}` : ''}`, { token: owner.token });
        assert.equal(res.status, 200);
        assert.equal(res.body.count, 5);
        assert.ok(res.body.items.length <= 2);
        seen.push(...res.body.items.map((s: { id: string }) => s.id));
        page = res.body.next?.page;
      } while (page);
      assert.equal(seen.length, 5);
      assert.deepEqual(new Set(seen), ids);
    });

    test('bad cursors and limits are 400 naming the parameter', async () => {
      await buildSpace(t);
      await buildSpace(t);
      const cursor = (await t.api('GET', `/v1/orgs/${t.org.id}/spaces?limit=1`)).body.next.page;
      const c = await buildCollection(t);
      assertError(await t.api('GET', `/v1/collections/${c.id}/spaces?page=${cursor}`), 400, 'page');
      assertError(await t.api('GET', `/v1/orgs/${t.org.id}/spaces?page=nonsense`), 400, 'page');
      assertError(await t.api('GET', `/v1/orgs/${t.org.id}/spaces?limit=0`), 400, 'limit');
      assertError(await t.api('GET', `/v1/orgs/${t.org.id}/spaces?limit=1001`), 400, 'limit');
    });

    test('a member lists what they can read; a guest lists nothing', async () => {
      const open = await buildSpace(t);
      const hidden = await buildSpace(t);
      await t.api('PATCH', `/v1/spaces/${hidden.id}`, { body: { defaultLevel: null } });
      const reader = await t.member('read');
      const ids = await listedIds(t.org.id, reader.token);
      assert.ok(ids.includes(open.id));
      assert.ok(!ids.includes(hidden.id));
      const guest = await t.member(null);
      const res = await t.api('GET', `/v1/orgs/${t.org.id}/spaces`, { token: guest.token });
      assert.equal(res.status, 200);
      assert.equal(res.body.count, 0);
    });

    test('an outsider and an unknown organization get 404; without a token 401', async () => {
      const other = await t.outsider();
      assertError(await t.api('GET', `/v1/orgs/${t.org.id}/spaces`, { token: other.token }), 404);
      assertError(await t.api('GET', '/v1/orgs/unknown/spaces'), 404);
      assertError(await t.api('GET', `/v1/orgs/${t.org.id}/spaces`, { token: null }), 401);
    });
  });
});
