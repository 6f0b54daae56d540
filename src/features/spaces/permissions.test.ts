import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer, type TestUser } from '../../../test/helpers.ts';
import { buildCollection, buildSpace } from '../../../test/factories.ts';
import type { Role } from '../access/roles.ts';

/**
 * The `permissions` object of spaces and collections, for each kind of member, and a check that every flag
 * is told truthfully: what a true flag names is allowed, and a false `admin` is refused.
 * `edit`, `comment`, `merge` and `review` name content and change-request operations, tested with them.
 */
describe('permissions of spaces and collections', () => {
  let t: TestServer;
  before(async () => {
    t = await startServer();
  });
  after(() => t.close());

  async function setLevel(kind: 'spaces' | 'collections', id: string, defaultLevel: Role | null | 'inherit') {
    const res = await t.api('PATCH', `/v1/${kind}/${id}`, { body: { defaultLevel } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  }

  const SPACE_FLAGS: Record<Role, Record<string, boolean>> = {
    admin: { view: true, access: true, admin: true, viewInviteLinks: true, edit: true, triggerGitSync: true, comment: true, merge: true, review: true, installIntegration: true },
    create: { view: true, access: true, admin: false, viewInviteLinks: false, edit: true, triggerGitSync: true, comment: true, merge: true, review: true, installIntegration: false },
    review: { view: true, access: true, admin: false, viewInviteLinks: false, edit: true, triggerGitSync: true, comment: true, merge: true, review: true, installIntegration: false },
    edit: { view: true, access: true, admin: false, viewInviteLinks: false, edit: true, triggerGitSync: true, comment: true, merge: false, review: false, installIntegration: false },
    comment: { view: true, access: true, admin: false, viewInviteLinks: false, edit: false, triggerGitSync: false, comment: true, merge: false, review: false, installIntegration: false },
    read: { view: true, access: true, admin: false, viewInviteLinks: false, edit: false, triggerGitSync: false, comment: false, merge: false, review: false, installIntegration: false },
  };

  const COLLECTION_FLAGS: Record<Role, Record<string, boolean>> = {
    admin: { view: true, admin: true, viewInviteLinks: true, create: true },
    create: { view: true, admin: false, viewInviteLinks: false, create: true },
    review: { view: true, admin: false, viewInviteLinks: false, create: false },
    edit: { view: true, admin: false, viewInviteLinks: false, create: false },
    comment: { view: true, admin: false, viewInviteLinks: false, create: false },
    read: { view: true, admin: false, viewInviteLinks: false, create: false },
  };

  /** Checks the flags a user sees on a space, and acts on `view` and `admin`. */
  async function checkSpaceFlags(user: TestUser, spaceId: string, expected: Record<string, boolean>) {
    const got = await t.api('GET', `/v1/spaces/${spaceId}`, { token: user.token });
    assert.equal(got.status, 200, JSON.stringify(got.body));
    assert.deepEqual(got.body.permissions, expected);
    const patch = await t.api('PATCH', `/v1/spaces/${spaceId}`, { token: user.token, body: { title: 'Renamed' } });
    if (expected.admin) {
      assert.equal(patch.status, 200, JSON.stringify(patch.body));
      assert.equal(patch.body.title, 'Renamed');
    } else {
      assert.equal(patch.status, 403, JSON.stringify(patch.body));
      assert.equal((await t.api('DELETE', `/v1/spaces/${spaceId}`, { token: user.token })).status, 403);
      assert.equal((await t.api('GET', `/v1/spaces/${spaceId}`)).body.deletedAt, undefined);
    }
  }

  /** Checks the flags a user sees on a collection, and acts on `view`, `admin` and `create`. */
  async function checkCollectionFlags(user: TestUser, collectionId: string, expected: Record<string, boolean>) {
    const got = await t.api('GET', `/v1/collections/${collectionId}`, { token: user.token });
    assert.equal(got.status, 200, JSON.stringify(got.body));
    assert.deepEqual(got.body.permissions, expected);
    const listed = await t.api('GET', `/v1/orgs/${t.org.id}/collections?limit=1000`, { token: user.token });
    assert.ok(listed.body.items.some((c: { id: string }) => c.id === collectionId));
    const created = await t.api('POST', `/v1/orgs/${t.org.id}/spaces`, { token: user.token, body: { parent: collectionId } });
    assert.equal(created.status, expected.create ? 201 : 403, JSON.stringify(created.body));
    const patch = await t.api('PATCH', `/v1/collections/${collectionId}`, { token: user.token, body: { description: 'Changed' } });
    assert.equal(patch.status, expected.admin ? 200 : 403, JSON.stringify(patch.body));
    if (!expected.admin) assert.equal((await t.api('DELETE', `/v1/collections/${collectionId}`, { token: user.token })).status, 403);
  }

  describe('by organization role, on content that inherits', () => {
    for (const role of ['admin', 'create', 'review', 'edit', 'comment', 'read'] as const) {
      test(`a ${role} member of the organization`, async () => {
        const user = role === 'admin' ? t.admin : await t.member(role);
        const s = await buildSpace(t);
        await checkSpaceFlags(user, s.id, SPACE_FLAGS[role]);
        const c = await buildCollection(t);
        await checkCollectionFlags(user, c.id, COLLECTION_FLAGS[role]);
        const inside = await buildSpace(t, { parent: c.id });
        await checkSpaceFlags(user, inside.id, SPACE_FLAGS[role]);
      });
    }

    test('the permissions returned with a created space are those of its creator', async () => {
      const creator = await t.member('create');
      const s = await buildSpace(t, {}, { token: creator.token });
      assert.deepEqual(s.permissions, SPACE_FLAGS.create);
    });
  });

  describe('spaces whose default level is null', () => {
    test('are invisible to every member but organization admins: 404', async () => {
      const s = await buildSpace(t);
      await setLevel('spaces', s.id, null);
      for (const role of ['create', 'edit', 'read', null] as const) {
        const user = await t.member(role);
        assert.equal((await t.api('GET', `/v1/spaces/${s.id}`, { token: user.token })).status, 404);
        assert.equal((await t.api('PATCH', `/v1/spaces/${s.id}`, { token: user.token, body: { title: 'x' } })).status, 404);
        assert.equal((await t.api('POST', `/v1/spaces/${s.id}/duplicate`, { token: user.token })).status, 404);
        assert.equal((await t.api('POST', `/v1/spaces/${s.id}/move`, { token: user.token, body: { parent: null } })).status, 404);
        assert.equal((await t.api('DELETE', `/v1/spaces/${s.id}`, { token: user.token })).status, 204);
      }
      const got = await t.api('GET', `/v1/spaces/${s.id}`);
      assert.equal(got.status, 200);
      assert.equal(got.body.deletedAt, undefined);
      assert.deepEqual(got.body.permissions, SPACE_FLAGS.admin);
    });
  });

  describe('spaces whose default level is a role', () => {
    for (const level of ['edit', 'comment', 'admin'] as const) {
      test(`${level} gives a read member ${level}`, async () => {
        const reader = await t.member('read');
        const s = await buildSpace(t);
        await setLevel('spaces', s.id, level);
        await checkSpaceFlags(reader, s.id, SPACE_FLAGS[level]);
      });
    }

    test('a level below the organization role gives that lower role', async () => {
      const creator = await t.member('create');
      const s = await buildSpace(t);
      await setLevel('spaces', s.id, 'read');
      await checkSpaceFlags(creator, s.id, SPACE_FLAGS.read);
    });

    test('a guest gets nothing from a default level', async () => {
      const guest = await t.member(null);
      const s = await buildSpace(t);
      await setLevel('spaces', s.id, 'edit');
      assert.equal((await t.api('GET', `/v1/spaces/${s.id}`, { token: guest.token })).status, 404);
    });

    test('an admin by default level may delete and restore the space', async () => {
      const reader = await t.member('read');
      const s = await buildSpace(t);
      await setLevel('spaces', s.id, 'admin');
      assert.equal((await t.api('DELETE', `/v1/spaces/${s.id}`, { token: reader.token })).status, 204);
      const restored = await t.api('POST', `/v1/spaces/${s.id}/restore`, { token: reader.token });
      assert.equal(restored.status, 200, JSON.stringify(restored.body));
    });
  });

  describe('collections and what inherits from them', () => {
    test('a collection whose default level is null hides itself and the spaces that inherit from it', async () => {
      const c = await buildCollection(t);
      const inheriting = await buildSpace(t, { parent: c.id });
      const own = await buildSpace(t, { parent: c.id });
      await setLevel('spaces', own.id, 'comment');
      await setLevel('collections', c.id, null);
      const member = await t.member('create');
      assert.equal((await t.api('GET', `/v1/collections/${c.id}`, { token: member.token })).status, 404);
      assert.equal((await t.api('GET', `/v1/collections/${c.id}/spaces`, { token: member.token })).status, 404);
      assert.equal((await t.api('GET', `/v1/spaces/${inheriting.id}`, { token: member.token })).status, 404);
      await checkSpaceFlags(member, own.id, SPACE_FLAGS.comment);
      const listed = await t.api('GET', `/v1/orgs/${t.org.id}/spaces?limit=1000`, { token: member.token });
      const ids = listed.body.items.map((s: { id: string }) => s.id);
      assert.ok(!ids.includes(inheriting.id));
      assert.ok(ids.includes(own.id));
      const adminView = await t.api('GET', `/v1/collections/${c.id}`);
      assert.deepEqual(adminView.body.permissions, COLLECTION_FLAGS.admin);
    });

    test('a parent collection the member cannot see is answered like an unknown one', async () => {
      const c = await buildCollection(t);
      await setLevel('collections', c.id, null);
      const creator = await t.member('create');
      const res = await t.api('POST', `/v1/orgs/${t.org.id}/spaces`, { token: creator.token, body: { parent: c.id } });
      // Answered like an unknown collection, so that its existence does not leak.
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.match(res.body.error.message, /body\/parent/);
      const s = await buildSpace(t, {}, { token: creator.token });
      await setLevel('spaces', s.id, 'admin');
      assert.equal((await t.api('POST', `/v1/spaces/${s.id}/move`, { token: creator.token, body: { parent: c.id } })).status, 400);
      assert.equal((await t.api('GET', `/v1/collections/${c.id}/spaces`)).body.count, 0);
    });

    test('a collection level of create lets a read member create spaces there, and nowhere else', async () => {
      const reader = await t.member('read');
      const c = await buildCollection(t);
      await setLevel('collections', c.id, 'create');
      await checkCollectionFlags(reader, c.id, COLLECTION_FLAGS.create);
      assert.equal((await t.api('POST', `/v1/orgs/${t.org.id}/spaces`, { token: reader.token, body: {} })).status, 403);
    });

    test('levels flow down nested collections to their spaces', async () => {
      const reader = await t.member('read');
      const top = await buildCollection(t);
      const middle = await buildCollection(t, { parent: top.id });
      const s = await buildSpace(t, { parent: middle.id });
      await setLevel('collections', top.id, 'edit');
      await checkCollectionFlags(reader, middle.id, COLLECTION_FLAGS.edit);
      await checkSpaceFlags(reader, s.id, SPACE_FLAGS.edit);
      await setLevel('collections', middle.id, 'admin');
      await checkCollectionFlags(reader, middle.id, COLLECTION_FLAGS.admin);
      await checkSpaceFlags(reader, s.id, SPACE_FLAGS.admin);
    });

    test('a collection admin by default level sees the admin flags and may move the collection', async () => {
      const reader = await t.member('read');
      const c = await buildCollection(t);
      await setLevel('collections', c.id, 'admin');
      const got = await t.api('GET', `/v1/collections/${c.id}`, { token: reader.token });
      assert.deepEqual(got.body.permissions, COLLECTION_FLAGS.admin);
      const target = await buildCollection(t);
      await setLevel('collections', target.id, 'create');
      const moved = await t.api('POST', `/v1/collections/${c.id}/move`, { token: reader.token, body: { parent: target.id } });
      assert.equal(moved.status, 200, JSON.stringify(moved.body));
      assert.equal((await t.api('DELETE', `/v1/collections/${c.id}`, { token: reader.token })).status, 204);
      assert.equal((await t.api('GET', `/v1/collections/${c.id}`)).status, 404);
    });
  });

  describe('a locked space', () => {
    test('does not offer edit, to anyone', async () => {
      const s = await buildSpace(t, { editMode: 'locked' });
      assert.equal(s.permissions.edit, false);
      const editor = await t.member('edit');
      const got = await t.api('GET', `/v1/spaces/${s.id}`, { token: editor.token });
      assert.deepEqual(got.body.permissions, { ...SPACE_FLAGS.edit, edit: false, triggerGitSync: false });
    });
  });
});
