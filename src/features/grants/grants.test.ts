import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { assertError } from '../../../test/assertions.ts';
import { buildCollection, buildSpace, buildTeam } from '../../../test/factories.ts';

/**
 * Space and collection permissions: grants to users and teams, and that a grant really gives what it names
 * (reading, listing, the `permissions` flags and the actions behind them).
 */
describe('space and collection permissions', () => {
  let t: TestServer;
  before(async () => {
    t = await startServer();
  });
  after(() => t.close());

  async function grant(kind: 'spaces' | 'collections', id: string, subject: 'users' | 'teams', subjectId: string, role: string | null, token?: string) {
    const res = await t.api('PATCH', `/v1/${kind}/${id}/permissions/${subject}/${subjectId}`, { body: { role }, ...(token ? { token } : {}) });
    assert.equal(res.status, 204, JSON.stringify(res.body));
  }
  const listed = async (token: string, path = 'spaces') => {
    const res = await t.api('GET', `/v1/orgs/${t.org.id}/${path}?limit=1000`, { token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.items.map((x: { id: string }) => x.id) as string[];
  };

  describe('a grant gives access', () => {
    test('a guest granted edit on a space reads it, sees it listed, and may edit, but not administrate', async () => {
      const guest = await t.member(null);
      const s = await buildSpace(t);
      assertError(await t.api('GET', `/v1/spaces/${s.id}`, { token: guest.token }), 404);
      assert.ok(!(await listed(guest.token)).includes(s.id));
      await grant('spaces', s.id, 'users', guest.userId, 'edit');
      const got = await t.api('GET', `/v1/spaces/${s.id}`, { token: guest.token });
      assert.equal(got.status, 200);
      assert.equal(got.body.permissions.view, true);
      assert.equal(got.body.permissions.edit, true);
      assert.equal(got.body.permissions.comment, true);
      assert.equal(got.body.permissions.review, false);
      assert.equal(got.body.permissions.admin, false);
      assert.deepEqual(await listed(guest.token), [s.id]);
      // edit is true to its word: a change request can be opened; admin is false to its word.
      assert.equal((await t.api('POST', `/v1/spaces/${s.id}/change-requests`, { token: guest.token, body: { subject: 'By a guest' } })).status, 201);
      assertError(await t.api('PATCH', `/v1/spaces/${s.id}`, { token: guest.token, body: { title: 'Nope' } }), 403);
    });

    test('a grant to a team reaches its members, and stops when they leave the team', async () => {
      const guest = await t.member(null);
      const s = await buildSpace(t);
      const x = await buildTeam(t, { members: [guest.userId] });
      await grant('spaces', s.id, 'teams', x.id, 'comment');
      const got = await t.api('GET', `/v1/spaces/${s.id}`, { token: guest.token });
      assert.equal(got.status, 200);
      assert.equal(got.body.permissions.comment, true);
      assert.equal(got.body.permissions.edit, false);
      assert.equal((await t.api('DELETE', `/v1/orgs/${t.org.id}/teams/${x.id}/members/${guest.userId}`)).status, 204);
      assertError(await t.api('GET', `/v1/spaces/${s.id}`, { token: guest.token }), 404);
    });

    test('a grant on a collection reaches everything inside it, whatever their default levels', async () => {
      const guest = await t.member(null);
      const c = await buildCollection(t);
      const inner = await buildCollection(t, { parent: c.id });
      const closed = await buildSpace(t, { parent: inner.id });
      assert.equal((await t.api('PATCH', `/v1/spaces/${closed.id}`, { body: { defaultLevel: null } })).status, 200);
      const open = await buildSpace(t, { parent: c.id });
      const outside = await buildSpace(t);
      await grant('collections', c.id, 'users', guest.userId, 'review');
      assert.equal((await t.api('GET', `/v1/spaces/${closed.id}`, { token: guest.token })).body.permissions.review, true);
      assert.equal((await t.api('GET', `/v1/spaces/${open.id}`, { token: guest.token })).body.permissions.merge, true);
      assertError(await t.api('GET', `/v1/spaces/${outside.id}`, { token: guest.token }), 404);
      assert.deepEqual((await listed(guest.token)).sort(), [closed.id, open.id].sort());
      assert.deepEqual((await listed(guest.token, 'collections')).sort(), [c.id, inner.id].sort());
      const spacesOfInner = await t.api('GET', `/v1/collections/${inner.id}/spaces`, { token: guest.token });
      assert.deepEqual(spacesOfInner.body.items.map((x: { id: string }) => x.id), [closed.id]);
    });

    test('a grant adds to the default level and never lowers it; the highest grant wins', async () => {
      const creator = await t.member('create');
      const s = await buildSpace(t);
      const x = await buildTeam(t, { members: [creator.userId] });
      await grant('spaces', s.id, 'users', creator.userId, 'read');
      assert.equal((await t.api('GET', `/v1/spaces/${s.id}`, { token: creator.token })).body.permissions.review, true);
      await grant('spaces', s.id, 'teams', x.id, 'admin');
      const got = await t.api('GET', `/v1/spaces/${s.id}`, { token: creator.token });
      assert.equal(got.body.permissions.admin, true);
      assert.equal((await t.api('PATCH', `/v1/spaces/${s.id}`, { token: creator.token, body: { title: 'Renamed by grant' } })).status, 200);
    });

    test('a space admin by grant manages the grants of that space', async () => {
      const reader = await t.member('read');
      const other = await t.member(null);
      const s = await buildSpace(t);
      await grant('spaces', s.id, 'users', reader.userId, 'admin');
      await grant('spaces', s.id, 'users', other.userId, 'read', reader.token);
      assert.equal((await t.api('GET', `/v1/spaces/${s.id}`, { token: other.token })).status, 200);
    });

    test('grants of a removed member are gone, even when they come back', async () => {
      const guest = await t.member(null);
      const s = await buildSpace(t);
      await grant('spaces', s.id, 'users', guest.userId, 'edit');
      assert.equal((await t.api('DELETE', `/v1/orgs/${t.org.id}/members/${guest.userId}`)).status, 204);
      await t.api('POST', `/v1/orgs/${t.org.id}/invites`, { body: { emails: [guest.email], role: null } });
      assertError(await t.api('GET', `/v1/spaces/${s.id}`, { token: guest.token }), 404);
    });
  });

  describe('inviteToSpace', () => {
    test('gives a role to users and teams at once; null takes it away', async () => {
      const a = await t.member(null);
      const b = await t.member('read');
      const x = await buildTeam(t);
      const s = await buildSpace(t);
      const res = await t.api('POST', `/v1/spaces/${s.id}/permissions`, { body: { role: 'comment', users: [a.userId, b.userId], teams: [x.id] } });
      assert.equal(res.status, 204, JSON.stringify(res.body));
      const users = await t.api('GET', `/v1/spaces/${s.id}/permissions/users`);
      assert.deepEqual(new Set(users.body.items.map((i: { user: { id: string }; permission: string }) => `${i.user.id}:${i.permission}`)), new Set([`${a.userId}:comment`, `${b.userId}:comment`]));
      const teams = await t.api('GET', `/v1/spaces/${s.id}/permissions/teams`);
      assert.deepEqual(teams.body.items.map((i: { team: { id: string }; permission: string }) => [i.team.id, i.permission]), [[x.id, 'comment']]);
      assert.equal((await t.api('POST', `/v1/spaces/${s.id}/permissions`, { body: { role: null, users: [a.userId] } })).status, 204);
      assert.equal((await t.api('GET', `/v1/spaces/${s.id}/permissions/users`)).body.count, 1);
      assertError(await t.api('GET', `/v1/spaces/${s.id}`, { token: a.token }), 404);
    });

    test('refuses a body naming nobody (400), someone outside the organization (404), a bad role (400)', async () => {
      const s = await buildSpace(t);
      const stranger = await t.outsider();
      assertError(await t.api('POST', `/v1/spaces/${s.id}/permissions`, { body: { role: 'read' } }), 400, 'users or teams');
      assertError(await t.api('POST', `/v1/spaces/${s.id}/permissions`, { body: { role: 'read', users: [] } }), 400, 'body/users');
      assertError(await t.api('POST', `/v1/spaces/${s.id}/permissions`, { body: { users: [t.admin.userId] } }), 400, 'role');
      assertError(await t.api('POST', `/v1/spaces/${s.id}/permissions`, { body: { role: 'owner', users: [t.admin.userId] } }), 400, 'body/role');
      assertError(await t.api('POST', `/v1/spaces/${s.id}/permissions`, { body: { role: 'read', users: [stranger.userId] } }), 404, 'body/users/0');
      assertError(await t.api('POST', `/v1/spaces/${s.id}/permissions`, { body: { role: 'read', teams: ['noSuchTeam000000000'] } }), 404, 'body/teams/0');
      assert.equal((await t.api('GET', `/v1/spaces/${s.id}/permissions/users`)).body.count, 0);
    });

    test('needs the admin role on the space (403); unreadable spaces 404; no token 401', async () => {
      const editor = await t.member('edit');
      const s = await buildSpace(t);
      const body = { role: 'admin', users: [editor.userId] };
      assertError(await t.api('POST', `/v1/spaces/${s.id}/permissions`, { token: editor.token, body }), 403);
      assertError(await t.api('POST', `/v1/spaces/${s.id}/permissions`, { token: (await t.member(null)).token, body }), 404);
      assertError(await t.api('POST', `/v1/spaces/${s.id}/permissions`, { token: (await t.outsider()).token, body }), 404);
      assertError(await t.api('POST', '/v1/spaces/noSuchSpace000000000/permissions', { body }), 404);
      assertError(await t.api('POST', `/v1/spaces/${s.id}/permissions`, { token: null, body }), 401);
      assert.equal((await t.api('GET', `/v1/spaces/${s.id}`, { token: editor.token })).body.permissions.admin, false);
    });
  });

  describe('listUserPermissionsInSpace and listTeamPermissionsInSpace', () => {
    test('list grants in the order they were given, page by page, with user and team objects', async () => {
      const s = await buildSpace(t);
      const first = await t.member('read');
      const second = await t.member(null);
      await grant('spaces', s.id, 'users', first.userId, 'edit');
      t.clock.advance(1000);
      await grant('spaces', s.id, 'users', second.userId, 'read');
      const page1 = await t.api('GET', `/v1/spaces/${s.id}/permissions/users?limit=1`, { token: first.token });
      assert.equal(page1.status, 200);
      assert.equal(page1.body.count, 2);
      assert.deepEqual(page1.body.items, [{ permission: 'edit', user: { object: 'user', id: first.userId, displayName: page1.body.items[0].user.displayName, email: first.email, urls: { location: `http://quire.test/v1/users/${first.userId}` } } }]);
      const page2 = await t.api('GET', `/v1/spaces/${s.id}/permissions/users?limit=1&page=${encodeURIComponent(page1.body.next.page)}`, { token: first.token });
      assert.deepEqual(page2.body.items.map((i: { user: { id: string } }) => i.user.id), [second.userId]);
      assert.equal(page2.body.next, undefined);
      const x = await buildTeam(t, { members: [first.userId] });
      await grant('spaces', s.id, 'teams', x.id, 'review');
      const teams = await t.api('GET', `/v1/spaces/${s.id}/permissions/teams`);
      assert.equal(teams.body.count, 1);
      assert.equal(teams.body.items[0].permission, 'review');
      assert.equal(teams.body.items[0].team.object, 'team');
      assert.equal(teams.body.items[0].team.members, 1);
      assert.equal(teams.body.items[0].team.spaces, 1);
    });

    test('whoever reads the space may list; others 404; no token 401', async () => {
      const s = await buildSpace(t);
      assert.equal((await t.api('GET', `/v1/spaces/${s.id}/permissions/users`, { token: (await t.member('read')).token })).status, 200);
      assertError(await t.api('GET', `/v1/spaces/${s.id}/permissions/teams`, { token: (await t.member(null)).token }), 404);
      assertError(await t.api('GET', `/v1/spaces/${s.id}/permissions/users`, { token: (await t.outsider()).token }), 404);
      assertError(await t.api('GET', `/v1/spaces/${s.id}/permissions/users`, { token: null }), 401);
      assertError(await t.api('GET', `/v1/spaces/${s.id}/permissions/users?limit=0`), 400, 'limit');
    });
  });

  describe('updating and removing user and team permissions', () => {
    test('PATCH sets a role, null removes it; DELETE removes it and is 204 when there is none', async () => {
      const member = await t.member(null);
      const x = await buildTeam(t, { members: [member.userId] });
      const s = await buildSpace(t);
      await grant('spaces', s.id, 'users', member.userId, 'read');
      await grant('spaces', s.id, 'users', member.userId, 'edit');
      assert.equal((await t.api('GET', `/v1/spaces/${s.id}`, { token: member.token })).body.permissions.edit, true);
      await grant('spaces', s.id, 'users', member.userId, null);
      assertError(await t.api('GET', `/v1/spaces/${s.id}`, { token: member.token }), 404);
      await grant('spaces', s.id, 'teams', x.id, 'read');
      assert.equal((await t.api('GET', `/v1/spaces/${s.id}`, { token: member.token })).status, 200);
      assert.equal((await t.api('DELETE', `/v1/spaces/${s.id}/permissions/teams/${x.id}`)).status, 204);
      assertError(await t.api('GET', `/v1/spaces/${s.id}`, { token: member.token }), 404);
      assert.equal((await t.api('DELETE', `/v1/spaces/${s.id}/permissions/teams/${x.id}`)).status, 204);
      assert.equal((await t.api('DELETE', `/v1/spaces/${s.id}/permissions/users/${member.userId}`)).status, 204);
    });

    test('errors: unknown user or team 404, bad role 400, not a space admin 403, unreadable 404 (204 on DELETE), no token 401', async () => {
      const reader = await t.member('read');
      const stranger = await t.outsider();
      const s = await buildSpace(t);
      assertError(await t.api('PATCH', `/v1/spaces/${s.id}/permissions/users/${stranger.userId}`, { body: { role: 'read' } }), 404, 'member');
      assertError(await t.api('PATCH', `/v1/spaces/${s.id}/permissions/teams/noSuchTeam000000000`, { body: { role: 'read' } }), 404, 'team');
      assertError(await t.api('PATCH', `/v1/spaces/${s.id}/permissions/users/${reader.userId}`, { body: { role: 'boss' } }), 400, 'body/role');
      assertError(await t.api('PATCH', `/v1/spaces/${s.id}/permissions/users/${reader.userId}`, { body: {} }), 400, 'role');
      assertError(await t.api('PATCH', `/v1/spaces/${s.id}/permissions/users/${reader.userId}`, { token: reader.token, body: { role: 'admin' } }), 403);
      assertError(await t.api('DELETE', `/v1/spaces/${s.id}/permissions/users/${t.admin.userId}`, { token: reader.token }), 403);
      assertError(await t.api('PATCH', `/v1/spaces/${s.id}/permissions/users/${reader.userId}`, { token: stranger.token, body: { role: 'admin' } }), 404);
      assert.equal((await t.api('DELETE', `/v1/spaces/${s.id}/permissions/teams/x`, { token: stranger.token })).status, 204);
      assertError(await t.api('PATCH', `/v1/spaces/${s.id}/permissions/users/${reader.userId}`, { token: null, body: { role: 'admin' } }), 401);
      assertError(await t.api('DELETE', `/v1/spaces/${s.id}/permissions/users/${reader.userId}`, { token: null }), 401);
    });
  });

  describe('collection permissions', () => {
    test('invite, list, update and remove work on collections as on spaces', async () => {
      const guest = await t.member(null);
      const x = await buildTeam(t);
      const c = await buildCollection(t);
      assert.equal((await t.api('POST', `/v1/collections/${c.id}/permissions`, { body: { role: 'read', users: [guest.userId], teams: [x.id] } })).status, 204);
      const users = await t.api('GET', `/v1/collections/${c.id}/permissions/users`);
      assert.deepEqual(users.body.items.map((i: { user: { id: string }; permission: string }) => [i.user.id, i.permission]), [[guest.userId, 'read']]);
      assert.equal((await t.api('GET', `/v1/collections/${c.id}/permissions/teams`)).body.items[0].team.id, x.id);
      assert.equal((await t.api('GET', `/v1/collections/${c.id}`, { token: guest.token })).body.permissions.view, true);
      await grant('collections', c.id, 'users', guest.userId, 'create');
      const asCreator = await t.api('GET', `/v1/collections/${c.id}`, { token: guest.token });
      assert.equal(asCreator.body.permissions.create, true);
      assert.equal((await t.api('POST', `/v1/orgs/${t.org.id}/spaces`, { token: guest.token, body: { parent: c.id } })).status, 201);
      assert.equal((await t.api('DELETE', `/v1/collections/${c.id}/permissions/users/${guest.userId}`)).status, 204);
      assertError(await t.api('GET', `/v1/collections/${c.id}`, { token: guest.token }), 404);
      assert.equal((await t.api('DELETE', `/v1/collections/${c.id}/permissions/teams/${x.id}`)).status, 204);
    });

    test('needs the admin role on the collection (403); unreadable collections 404; no token 401', async () => {
      const creator = await t.member('create');
      const c = await buildCollection(t);
      assertError(await t.api('POST', `/v1/collections/${c.id}/permissions`, { token: creator.token, body: { role: 'admin', users: [creator.userId] } }), 403);
      assertError(await t.api('PATCH', `/v1/collections/${c.id}/permissions/users/${creator.userId}`, { token: creator.token, body: { role: 'admin' } }), 403);
      assertError(await t.api('GET', `/v1/collections/${c.id}/permissions/users`, { token: (await t.outsider()).token }), 404);
      assertError(await t.api('GET', `/v1/collections/${c.id}/permissions/teams`, { token: null }), 401);
    });
  });
});
