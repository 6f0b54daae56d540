import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../../test/helpers.ts';
import { assertError } from '../../../test/assertions.ts';
import { buildOrganization, buildSpace, buildTeam } from '../../../test/factories.ts';

describe('teams', () => {
  let t: TestServer;
  before(async () => {
    t = await startServer();
  });
  after(() => t.close());

  const teamMembers = async (orgId: string, teamId: string, token?: string) => {
    const res = await t.api('GET', `/v1/orgs/${orgId}/teams/${teamId}/members`, token ? { token } : {});
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return new Map<string, string>(res.body.items.map((i: { organization: { id: string }; team: { role: string } }) => [i.organization.id, i.team.role]));
  };

  describe('createOrganizationTeam', () => {
    test('an admin creates a team with initial members; counts are exact', async () => {
      const { owner, id: orgId } = await buildOrganization(t);
      const a = await t.member('read', orgId);
      const b = await t.member(null, orgId);
      const res = await t.api('PUT', `/v1/orgs/${orgId}/teams`, { token: owner.token, body: { title: '  Writers  ', members: [a.userId, b.email, a.userId] } });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(res.body.object, 'team');
      assert.equal(res.body.title, 'Writers');
      assert.equal(res.body.members, 2);
      assert.equal(res.body.spaces, 0);
      assert.ok(!Number.isNaN(Date.parse(res.body.createdAt)));
      assert.deepEqual(res.body.permissions, { admin: true, view: true });
      assert.deepEqual(await teamMembers(orgId, res.body.id, owner.token), new Map([[a.userId, 'member'], [b.userId, 'member']]));
    });

    test('a title has 1 to 64 characters', async () => {
      const { owner, id: orgId } = await buildOrganization(t);
      const put = (title: unknown) => t.api('PUT', `/v1/orgs/${orgId}/teams`, { token: owner.token, body: { title } });
      assertError(await put(''), 400, 'body/title');
      assertError(await put('   '), 400, 'body/title');
      assertError(await put('x'.repeat(65)), 400, 'body/title');
      assertError(await put(7), 400, 'body/title');
      assertError(await t.api('PUT', `/v1/orgs/${orgId}/teams`, { token: owner.token, body: {} }), 400, 'title');
      assert.equal((await put('x')).status, 201);
      assert.equal((await put('y'.repeat(64))).body.title, 'y'.repeat(64));
    });

    test('initial members must be members of the organization', async () => {
      const { owner, id: orgId } = await buildOrganization(t);
      const stranger = await t.outsider();
      assertError(await t.api('PUT', `/v1/orgs/${orgId}/teams`, { token: owner.token, body: { title: 'T', members: [stranger.userId] } }), 400, 'body/members/0');
      assert.equal((await t.api('GET', `/v1/orgs/${orgId}/teams`, { token: owner.token })).body.count, 0);
    });

    test('only admins create teams (403); outsiders 404; no token 401', async () => {
      assertError(await t.api('PUT', `/v1/orgs/${t.org.id}/teams`, { token: (await t.member('create')).token, body: { title: 'T' } }), 403);
      assertError(await t.api('PUT', `/v1/orgs/${t.org.id}/teams`, { token: (await t.outsider()).token, body: { title: 'T' } }), 404);
      assertError(await t.api('PUT', `/v1/orgs/${t.org.id}/teams`, { token: null, body: { title: 'T' } }), 401);
    });
  });

  describe('listTeamsInOrganizationById', () => {
    test('lists teams in creation order, filtered by title and by who can manage them', async () => {
      const { owner, id: orgId } = await buildOrganization(t);
      const lead = await t.member('read', orgId);
      const alpha = await buildTeam(t, { title: 'Alpha squad' }, { organizationId: orgId, token: owner.token });
      t.clock.advance(1000);
      const beta = await buildTeam(t, { title: 'Beta' }, { organizationId: orgId, token: owner.token });
      await t.api('PUT', `/v1/orgs/${orgId}/teams/${beta.id}/members/${lead.userId}`, { token: owner.token, body: { role: 'owner' } });
      const list = (q: string) => t.api('GET', `/v1/orgs/${orgId}/teams${q}`, { token: lead.token });
      const all = await list('');
      assert.equal(all.status, 200);
      assert.deepEqual(all.body.items.map((x: { id: string }) => x.id), [alpha.id, beta.id]);
      assert.deepEqual(all.body.items.map((x: { permissions: object }) => x.permissions), [{ admin: false, view: true }, { admin: true, view: true }]);
      assert.deepEqual((await list('?title=SQUAD')).body.items.map((x: { id: string }) => x.id), [alpha.id]);
      assert.deepEqual((await list(`?owner=${lead.userId}`)).body.items.map((x: { id: string }) => x.id), [beta.id]);
      assert.equal((await list(`?owner=${owner.userId}`)).body.count, 2, 'an admin can manage every team');
      assert.equal((await list('?owner=noSuchUser0000000000')).body.count, 0);
      const page = await list('?limit=1');
      assert.equal(page.body.count, 2);
      const next = await list(`?limit=1&page=${encodeURIComponent(page.body.next.page)}`);
      assert.deepEqual(next.body.items.map((x: { id: string }) => x.id), [beta.id]);
    });

    test('guests may not list teams (403); outsiders 404; no token 401', async () => {
      assertError(await t.api('GET', `/v1/orgs/${t.org.id}/teams`, { token: (await t.member(null)).token }), 403);
      assertError(await t.api('GET', `/v1/orgs/${t.org.id}/teams`, { token: (await t.outsider()).token }), 404);
      assertError(await t.api('GET', `/v1/orgs/${t.org.id}/teams`, { token: null }), 401);
      assertError(await t.api('GET', `/v1/orgs/${t.org.id}/teams?limit=5000`), 400, 'limit');
    });
  });

  describe('getTeamInOrganizationById', () => {
    test('members with a role see a team; guests only the teams they are in', async () => {
      const { owner, id: orgId } = await buildOrganization(t);
      const guest = await t.member(null, orgId);
      const reader = await t.member('read', orgId);
      const mine = await buildTeam(t, { members: [guest.userId] }, { organizationId: orgId, token: owner.token });
      const other = await buildTeam(t, {}, { organizationId: orgId, token: owner.token });
      const read = await t.api('GET', `/v1/orgs/${orgId}/teams/${other.id}`, { token: reader.token });
      assert.equal(read.status, 200);
      assert.deepEqual(read.body.permissions, { admin: false, view: true });
      assert.equal((await t.api('GET', `/v1/orgs/${orgId}/teams/${mine.id}`, { token: guest.token })).status, 200);
      assertError(await t.api('GET', `/v1/orgs/${orgId}/teams/${other.id}`, { token: guest.token }), 403);
    });

    test('an unknown team, a team of another organization, an outsider, no token', async () => {
      const { owner, id: orgId } = await buildOrganization(t);
      const theirs = await buildTeam(t, {}, { organizationId: orgId, token: owner.token });
      assertError(await t.api('GET', `/v1/orgs/${t.org.id}/teams/noSuchTeam000000000`), 404);
      assertError(await t.api('GET', `/v1/orgs/${t.org.id}/teams/${theirs.id}`), 404);
      assertError(await t.api('GET', `/v1/orgs/${orgId}/teams/${theirs.id}`), 404);
      assertError(await t.api('GET', `/v1/orgs/${orgId}/teams/${theirs.id}`, { token: null }), 401);
    });
  });

  describe('updateTeamInOrganizationById', () => {
    test('admins and team owners rename a team; plain members may not', async () => {
      const { owner, id: orgId } = await buildOrganization(t);
      const lead = await t.member('read', orgId);
      const plain = await t.member('edit', orgId);
      const x = await buildTeam(t, {}, { organizationId: orgId, token: owner.token });
      await t.api('PUT', `/v1/orgs/${orgId}/teams/${x.id}/members`, { token: owner.token, body: { memberships: { [lead.userId]: { role: 'owner' } }, add: [plain.userId] } });
      const byOwner = await t.api('PATCH', `/v1/orgs/${orgId}/teams/${x.id}`, { token: lead.token, body: { title: 'Renamed by owner' } });
      assert.equal(byOwner.status, 200);
      assert.equal(byOwner.body.title, 'Renamed by owner');
      assert.equal(byOwner.body.members, 2);
      assertError(await t.api('PATCH', `/v1/orgs/${orgId}/teams/${x.id}`, { token: plain.token, body: { title: 'Nope' } }), 403);
      assert.equal((await t.api('PATCH', `/v1/orgs/${orgId}/teams/${x.id}`, { token: owner.token, body: { title: 'Admin' } })).body.title, 'Admin');
    });

    test('validation, unknown teams, outsiders, no token', async () => {
      const { owner, id: orgId } = await buildOrganization(t);
      const x = await buildTeam(t, {}, { organizationId: orgId, token: owner.token });
      assertError(await t.api('PATCH', `/v1/orgs/${orgId}/teams/${x.id}`, { token: owner.token, body: { title: '' } }), 400, 'body/title');
      assertError(await t.api('PATCH', `/v1/orgs/${orgId}/teams/${x.id}`, { token: owner.token, body: {} }), 400, 'title');
      assertError(await t.api('PATCH', `/v1/orgs/${orgId}/teams/noSuchTeam000000000`, { token: owner.token, body: { title: 'T' } }), 404);
      assertError(await t.api('PATCH', `/v1/orgs/${orgId}/teams/${x.id}`, { body: { title: 'T' } }), 404);
      assertError(await t.api('PATCH', `/v1/orgs/${orgId}/teams/${x.id}`, { token: null, body: { title: 'T' } }), 401);
    });
  });

  describe('removeTeamFromOrganizationById', () => {
    test('deleting a team takes away what it was granted; deleting again is 204', async () => {
      const { owner, id: orgId } = await buildOrganization(t);
      const guest = await t.member(null, orgId);
      const x = await buildTeam(t, { members: [guest.userId] }, { organizationId: orgId, token: owner.token });
      const s = await buildSpace(t, { title: 'S' }, { organizationId: orgId, token: owner.token });
      assert.equal((await t.api('PATCH', `/v1/spaces/${s.id}/permissions/teams/${x.id}`, { token: owner.token, body: { role: 'read' } })).status, 204);
      assert.equal((await t.api('GET', `/v1/spaces/${s.id}`, { token: guest.token })).status, 200);
      assert.equal((await t.api('DELETE', `/v1/orgs/${orgId}/teams/${x.id}`, { token: owner.token })).status, 204);
      assertError(await t.api('GET', `/v1/spaces/${s.id}`, { token: guest.token }), 404);
      assertError(await t.api('GET', `/v1/orgs/${orgId}/teams/${x.id}`, { token: owner.token }), 404);
      assert.equal((await t.api('DELETE', `/v1/orgs/${orgId}/teams/${x.id}`, { token: owner.token })).status, 204);
    });

    test('only admins delete teams, even owners may not (403); for outsiders there is nothing to delete (204); no token 401', async () => {
      const { owner, id: orgId } = await buildOrganization(t);
      const lead = await t.member('read', orgId);
      const x = await buildTeam(t, {}, { organizationId: orgId, token: owner.token });
      await t.api('PUT', `/v1/orgs/${orgId}/teams/${x.id}/members/${lead.userId}`, { token: owner.token, body: { role: 'owner' } });
      assertError(await t.api('DELETE', `/v1/orgs/${orgId}/teams/${x.id}`, { token: lead.token }), 403);
      assert.equal((await t.api('DELETE', `/v1/orgs/${orgId}/teams/${x.id}`)).status, 204);
      assertError(await t.api('DELETE', `/v1/orgs/${orgId}/teams/${x.id}`, { token: null }), 401);
      assert.equal((await t.api('GET', `/v1/orgs/${orgId}/teams/${x.id}`, { token: owner.token })).status, 200);
    });
  });

  describe('listTeamMembersInOrganizationById', () => {
    test('lists team members as organization members with their team role', async () => {
      const { owner, id: orgId } = await buildOrganization(t);
      const a = await t.member('edit', orgId);
      const x = await buildTeam(t, { members: [a.userId] }, { organizationId: orgId, token: owner.token });
      const res = await t.api('GET', `/v1/orgs/${orgId}/teams/${x.id}/members`, { token: a.token });
      assert.equal(res.status, 200);
      assert.equal(res.body.count, 1);
      const [item] = res.body.items;
      assert.equal(item.organization.object, 'member');
      assert.equal(item.organization.id, a.userId);
      assert.equal(item.organization.role, 'edit');
      assert.equal(item.organization.teams, 1);
      assert.deepEqual(item.team, { role: 'member' });
      assert.deepEqual(item.permissions, { view: true });
    });

    test('guests outside the team 403; unknown team 404; outsiders 404; no token 401', async () => {
      const { owner, id: orgId } = await buildOrganization(t);
      const guest = await t.member(null, orgId);
      const x = await buildTeam(t, {}, { organizationId: orgId, token: owner.token });
      assertError(await t.api('GET', `/v1/orgs/${orgId}/teams/${x.id}/members`, { token: guest.token }), 403);
      assertError(await t.api('GET', `/v1/orgs/${orgId}/teams/noSuchTeam000000000/members`, { token: owner.token }), 404);
      assertError(await t.api('GET', `/v1/orgs/${orgId}/teams/${x.id}/members`), 404);
      assertError(await t.api('GET', `/v1/orgs/${orgId}/teams/${x.id}/members`, { token: null }), 401);
    });
  });

  describe('updateMembersInOrganizationTeam', () => {
    test('adds by id or e-mail, removes, and sets roles; a user both added and removed is removed', async () => {
      const { owner, id: orgId } = await buildOrganization(t);
      const [a, b, c, d] = [await t.member('read', orgId), await t.member('read', orgId), await t.member(null, orgId), await t.member('edit', orgId)];
      const x = await buildTeam(t, { members: [d.userId] }, { organizationId: orgId, token: owner.token });
      const res = await t.api('PUT', `/v1/orgs/${orgId}/teams/${x.id}/members`, {
        token: owner.token,
        body: { add: [a.userId, b.email.toUpperCase(), c.userId], remove: [c.email, d.userId], memberships: { [b.userId]: { role: 'owner' } } },
      });
      assert.equal(res.status, 204, JSON.stringify(res.body));
      assert.deepEqual(await teamMembers(orgId, x.id, owner.token), new Map([[a.userId, 'member'], [b.userId, 'owner']]));
      assert.equal((await t.api('GET', `/v1/orgs/${orgId}/teams/${x.id}`, { token: owner.token })).body.members, 2);
      // Adding who is already in the team keeps their role.
      await t.api('PUT', `/v1/orgs/${orgId}/teams/${x.id}/members`, { token: owner.token, body: { add: [b.userId] } });
      assert.equal((await teamMembers(orgId, x.id, owner.token)).get(b.userId), 'owner');
    });

    test('team owners manage members; plain team members and other members may not', async () => {
      const { owner, id: orgId } = await buildOrganization(t);
      const lead = await t.member(null, orgId);
      const plain = await t.member('read', orgId);
      const newcomer = await t.member('read', orgId);
      const x = await buildTeam(t, { members: [plain.userId] }, { organizationId: orgId, token: owner.token });
      await t.api('PUT', `/v1/orgs/${orgId}/teams/${x.id}/members/${lead.userId}`, { token: owner.token, body: { role: 'owner' } });
      assert.equal((await t.api('PUT', `/v1/orgs/${orgId}/teams/${x.id}/members`, { token: lead.token, body: { add: [newcomer.userId] } })).status, 204);
      assertError(await t.api('PUT', `/v1/orgs/${orgId}/teams/${x.id}/members`, { token: plain.token, body: { remove: [newcomer.userId] } }), 403);
      assertError(await t.api('PUT', `/v1/orgs/${orgId}/teams/${x.id}/members`, { token: newcomer.token, body: { remove: [plain.userId] } }), 403);
      assert.equal((await teamMembers(orgId, x.id, owner.token)).size, 3);
    });

    test('users outside the organization are refused with the field named; unknown team 404; outsiders 404; no token 401', async () => {
      const { owner, id: orgId } = await buildOrganization(t);
      const x = await buildTeam(t, {}, { organizationId: orgId, token: owner.token });
      const stranger = await t.outsider();
      const put = (body: unknown, token: string | null = owner.token) => t.api('PUT', `/v1/orgs/${orgId}/teams/${x.id}/members`, { token, body });
      assertError(await put({ add: [stranger.userId] }), 400, 'body/add/0');
      assertError(await put({ remove: ['nobody@example.com'] }), 400, 'body/remove/0');
      assertError(await put({ memberships: { [stranger.email]: { role: 'owner' } } }), 400, 'body/memberships');
      assertError(await put({ memberships: { [owner.userId]: { role: 'boss' } } }), 400, 'memberships');
      assertError(await put({ add: 'x' }), 400, 'body/add');
      assertError(await t.api('PUT', `/v1/orgs/${orgId}/teams/noSuchTeam000000000/members`, { token: owner.token, body: {} }), 404);
      assertError(await put({ add: [] }, stranger.token), 404);
      assertError(await put({ add: [] }, null), 401);
    });
  });

  describe('addMemberToOrganizationTeamById and deleteMemberFromOrganizationTeamById', () => {
    test('adds a member, changes their role, and removes them; removing again is 204', async () => {
      const { owner, id: orgId } = await buildOrganization(t);
      const a = await t.member('read', orgId);
      const x = await buildTeam(t, {}, { organizationId: orgId, token: owner.token });
      const url = `/v1/orgs/${orgId}/teams/${x.id}/members/${a.userId}`;
      assert.equal((await t.api('PUT', url, { token: owner.token })).status, 204);
      assert.equal((await teamMembers(orgId, x.id, owner.token)).get(a.userId), 'member');
      assert.equal((await t.api('PUT', url, { token: owner.token, body: { role: 'owner' } })).status, 204);
      assert.equal((await teamMembers(orgId, x.id, owner.token)).get(a.userId), 'owner');
      assert.equal((await t.api('PUT', url, { token: owner.token, body: {} })).status, 204);
      assert.equal((await teamMembers(orgId, x.id, owner.token)).get(a.userId), 'owner', 'no role keeps the role');
      assert.equal((await t.api('DELETE', url, { token: owner.token })).status, 204);
      assert.equal((await teamMembers(orgId, x.id, owner.token)).size, 0);
      assert.equal((await t.api('DELETE', url, { token: owner.token })).status, 204);
      assert.equal((await t.api('DELETE', `/v1/orgs/${orgId}/teams/noSuchTeam000000000/members/${a.userId}`, { token: owner.token })).status, 204);
    });

    test('errors: a non-member 404, a bad role 400, not a manager 403, outsiders 404 (204 on DELETE), no token 401', async () => {
      const { owner, id: orgId } = await buildOrganization(t);
      const a = await t.member('read', orgId);
      const x = await buildTeam(t, {}, { organizationId: orgId, token: owner.token });
      const stranger = await t.outsider();
      assertError(await t.api('PUT', `/v1/orgs/${orgId}/teams/${x.id}/members/${stranger.userId}`, { token: owner.token }), 404, 'member');
      assertError(await t.api('PUT', `/v1/orgs/${orgId}/teams/${x.id}/members/${a.userId}`, { token: owner.token, body: { role: 'admin' } }), 400, 'body/role');
      assertError(await t.api('PUT', `/v1/orgs/${orgId}/teams/${x.id}/members/${a.userId}`, { token: a.token }), 403);
      assertError(await t.api('DELETE', `/v1/orgs/${orgId}/teams/${x.id}/members/${a.userId}`, { token: a.token }), 403);
      assertError(await t.api('PUT', `/v1/orgs/${orgId}/teams/${x.id}/members/${a.userId}`, { token: stranger.token }), 404);
      assert.equal((await t.api('DELETE', `/v1/orgs/${orgId}/teams/${x.id}/members/${a.userId}`, { token: stranger.token })).status, 204);
      assertError(await t.api('PUT', `/v1/orgs/${orgId}/teams/${x.id}/members/${a.userId}`, { token: null }), 401);
      assertError(await t.api('DELETE', `/v1/orgs/${orgId}/teams/${x.id}/members/${a.userId}`, { token: null }), 401);
    });
  });

  describe('what teams mean elsewhere', () => {
    test("a team owner's organization permissions say ownTeam, and only while they own one", async () => {
      const { owner, id: orgId } = await buildOrganization(t);
      const lead = await t.member('read', orgId);
      const org = () => t.api('GET', `/v1/orgs/${orgId}`, { token: lead.token });
      assert.equal((await org()).body.permissions.ownTeam, false);
      const x = await buildTeam(t, { members: [lead.userId] }, { organizationId: orgId, token: owner.token });
      assert.equal((await org()).body.permissions.ownTeam, false, 'a plain member owns nothing');
      await t.api('PUT', `/v1/orgs/${orgId}/teams/${x.id}/members/${lead.userId}`, { token: owner.token, body: { role: 'owner' } });
      assert.equal((await org()).body.permissions.ownTeam, true);
      // The flag is true to its word: the owner manages the team's members.
      assert.equal((await t.api('PUT', `/v1/orgs/${orgId}/teams/${x.id}/members/${owner.userId}`, { token: lead.token })).status, 204);
      await t.api('DELETE', `/v1/orgs/${orgId}/teams/${x.id}`, { token: owner.token });
      assert.equal((await org()).body.permissions.ownTeam, false);
    });

    test('a team counts the spaces it reaches: granted directly or inside a granted collection', async () => {
      const { owner, id: orgId } = await buildOrganization(t);
      const x = await buildTeam(t, {}, { organizationId: orgId, token: owner.token });
      const post = async (path: string, body: object) => (await t.api('POST', `/v1/orgs/${orgId}/${path}`, { token: owner.token, body })).body;
      const direct = await post('spaces', { title: 'Direct' });
      const collection = await post('collections', { title: 'C' });
      const inner = await post('collections', { title: 'Inner', parent: collection.id });
      await post('spaces', { title: 'In C', parent: collection.id });
      await post('spaces', { title: 'In inner', parent: inner.id });
      await post('spaces', { title: 'Elsewhere' });
      const deleted = await post('spaces', { title: 'Deleted' });
      for (const [kind, id] of [['spaces', direct.id], ['collections', collection.id], ['spaces', deleted.id]]) {
        assert.equal((await t.api('PATCH', `/v1/${kind}/${id}/permissions/teams/${x.id}`, { token: owner.token, body: { role: 'edit' } })).status, 204);
      }
      await t.api('DELETE', `/v1/spaces/${deleted.id}`, { token: owner.token });
      const res = await t.api('GET', `/v1/orgs/${orgId}/teams/${x.id}`, { token: owner.token });
      assert.equal(res.body.spaces, 3);
    });
  });
});
