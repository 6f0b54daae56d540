import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type ApiResponse, type TestServer, type TestUser } from '../../../test/helpers.ts';
import { assertError } from '../../../test/assertions.ts';
import { buildOrganization, buildSpace, buildTeam } from '../../../test/factories.ts';
import { verifyVisitorClaims } from './visitor-claims.ts';

describe('organization members', () => {
  let t: TestServer;
  before(async () => {
    t = await startServer();
  });
  after(() => t.close());

  const members = (orgId: string, query = '', token?: string) => t.api('GET', `/v1/orgs/${orgId}/members${query}`, token ? { token } : {});
  const ids = (res: ApiResponse) => res.body.items.map((m: { id: string }) => m.id);

  describe('listMembersInOrganizationById', () => {
    test('lists members with their user, role and true counts', async () => {
      const { owner, id: orgId } = await buildOrganization(t);
      const reader = await t.member('read', orgId);
      await buildSpace(t, {}, { organizationId: orgId, token: owner.token });
      await buildSpace(t, {}, { organizationId: orgId, token: owner.token });
      await buildTeam(t, { title: 'Readers', members: [reader.userId] }, { organizationId: orgId, token: owner.token });
      const res = await members(orgId, '', owner.token);
      assert.equal(res.status, 200);
      assert.equal(res.body.count, 2);
      const item = res.body.items.find((m: { id: string }) => m.id === reader.userId);
      assert.equal(item.object, 'member');
      assert.equal(item.role, 'read');
      assert.equal(item.user.id, reader.userId);
      assert.equal(item.user.email, reader.email);
      assert.equal(item.disabled, false);
      assert.equal(item.sso, false);
      assert.ok(!Number.isNaN(Date.parse(item.joinedAt)));
      assert.equal(item.lastSeenAt, undefined);
      assert.equal(item.spaces, 2);
      assert.equal(item.teams, 1);
      const admin = res.body.items.find((m: { id: string }) => m.id === owner.userId);
      assert.equal(admin.role, 'admin');
      assert.equal(admin.spaces, 2);
      assert.equal(admin.teams, 0);
    });

    test('a guest counts only the spaces granted to them', async () => {
      const { owner, id: orgId } = await buildOrganization(t);
      const guest = await t.member(null, orgId);
      const granted = await buildSpace(t, {}, { organizationId: orgId, token: owner.token });
      await buildSpace(t, {}, { organizationId: orgId, token: owner.token });
      assert.equal((await t.api('PATCH', `/v1/spaces/${granted.id}/permissions/users/${guest.userId}`, { token: owner.token, body: { role: 'read' } })).status, 204);
      const res = await t.api('GET', `/v1/orgs/${orgId}/members/${guest.userId}`, { token: owner.token });
      assert.equal(res.body.spaces, 1);
    });

    test('filters by role, guests included', async () => {
      const { owner, id: orgId } = await buildOrganization(t);
      const editor = await t.member('edit', orgId);
      const guest = await t.member(null, orgId);
      assert.deepEqual(ids(await members(orgId, '?role=edit', owner.token)), [editor.userId]);
      assert.deepEqual(ids(await members(orgId, '?role=guest', owner.token)), [guest.userId]);
      assert.deepEqual(ids(await members(orgId, '?role=admin', owner.token)), [owner.userId]);
      assert.equal((await members(orgId, '?role=review', owner.token)).body.count, 0);
    });

    test('search matches display names and e-mails, case-insensitively, with wildcards taken literally', async () => {
      const { owner, id: orgId } = await buildOrganization(t);
      const invited = await t.api('POST', `/v1/orgs/${orgId}/invites`, { token: owner.token, body: { emails: ['Zelda.Hyrule@Example.org', 'link_100%@example.org'] } });
      assert.equal(invited.status, 200, JSON.stringify(invited.body));
      const [zelda, link] = invited.body.users;
      assert.deepEqual(ids(await members(orgId, '?search=ZELDA', owner.token)), [zelda]);
      assert.deepEqual(ids(await members(orgId, '?search=hyrule%40example', owner.token)), [zelda]);
      assert.deepEqual(ids(await members(orgId, '?search=100%25', owner.token)), [link]);
      assert.deepEqual(ids(await members(orgId, '?search=k_1', owner.token)), [link]);
      assert.equal((await members(orgId, '?search=%25', owner.token)).body.count, 1, 'a % matches a %, not everything');
      assert.equal((await members(orgId, '?search=_', owner.token)).body.count, 1, 'an _ matches an _, not any character');
      assert.equal((await members(orgId, '?search=nobody', owner.token)).body.count, 0);
    });

    test('sorts by joining time, newest first unless asked otherwise, and pages through', async () => {
      const { owner, id: orgId } = await buildOrganization(t);
      const joined: TestUser[] = [];
      for (let i = 0; i < 3; i++) {
        t.clock.advance(1000);
        joined.push(await t.member('read', orgId));
      }
      const newestFirst = [...joined.map((m) => m.userId)].reverse().concat(owner.userId);
      assert.deepEqual(ids(await members(orgId, '', owner.token)), newestFirst);
      assert.deepEqual(ids(await members(orgId, '?sort=joinedAt&order=asc', owner.token)), [...newestFirst].reverse());
      const first = await members(orgId, '?limit=2', owner.token);
      assert.equal(first.body.count, 4);
      assert.deepEqual(ids(first), newestFirst.slice(0, 2));
      const second = await members(orgId, `?limit=2&page=${encodeURIComponent(first.body.next.page)}`, owner.token);
      assert.deepEqual(ids(second), newestFirst.slice(2));
      assert.equal(second.body.next, undefined);
      assertError(await members(orgId, `?limit=2&order=asc&page=${encodeURIComponent(first.body.next.page)}`, owner.token), 400, 'page');
    });

    test('sorted by last-seen time, only members seen at least once are listed', async () => {
      const { owner, id: orgId } = await buildOrganization(t);
      const early = await t.member('read', orgId);
      const late = await t.member('read', orgId);
      await t.member('read', orgId); // never seen
      assert.equal((await t.api('POST', `/v1/orgs/${orgId}/ping`, { token: late.token })).status, 200);
      t.clock.advance(60_000);
      assert.equal((await t.api('POST', `/v1/orgs/${orgId}/ping`, { token: early.token })).status, 200);
      const res = await members(orgId, '?sort=lastSeenAt', owner.token);
      assert.equal(res.body.count, 2);
      assert.deepEqual(ids(res), [early.userId, late.userId]);
      assert.deepEqual(ids(await members(orgId, '?sort=lastSeenAt&order=asc', owner.token)), [late.userId, early.userId]);
    });

    test('members with a role list members; guests may not (403); outsiders get 404; no token 401', async () => {
      const reader = await t.member('read');
      assert.equal((await members(t.org.id, '', reader.token)).status, 200);
      assertError(await members(t.org.id, '', (await t.member(null)).token), 403);
      assertError(await members(t.org.id, '', (await t.outsider()).token), 404);
      assertError(await t.api('GET', `/v1/orgs/${t.org.id}/members`, { token: null }), 401);
      assertError(await members('noSuchOrganization00'), 404);
    });

    test('invalid filters are refused with the field named', async () => {
      assertError(await members(t.org.id, '?role=owner'), 400, 'role');
      assertError(await members(t.org.id, '?sort=name'), 400, 'sort');
      assertError(await members(t.org.id, '?order=up'), 400, 'order');
      assertError(await members(t.org.id, '?limit=0'), 400, 'limit');
    });
  });

  describe('getMemberInOrganizationById', () => {
    test('a member reads another; a guest reads only themselves', async () => {
      const reader = await t.member('read');
      const guest = await t.member(null);
      const res = await t.api('GET', `/v1/orgs/${t.org.id}/members/${guest.userId}`, { token: reader.token });
      assert.equal(res.status, 200);
      assert.equal(res.body.id, guest.userId);
      assert.equal(res.body.role, null);
      assert.equal((await t.api('GET', `/v1/orgs/${t.org.id}/members/${guest.userId}`, { token: guest.token })).status, 200);
      assertError(await t.api('GET', `/v1/orgs/${t.org.id}/members/${reader.userId}`, { token: guest.token }), 403);
    });

    test('an unknown member, an outsider and no token', async () => {
      assertError(await t.api('GET', `/v1/orgs/${t.org.id}/members/noSuchUser0000000000`), 404);
      const outsider = await t.outsider();
      assertError(await t.api('GET', `/v1/orgs/${t.org.id}/members/${outsider.userId}`), 404, 'member');
      assertError(await t.api('GET', `/v1/orgs/${t.org.id}/members/${t.admin.userId}`, { token: outsider.token }), 404);
      assertError(await t.api('GET', `/v1/orgs/${t.org.id}/members/${t.admin.userId}`, { token: null }), 401);
    });
  });

  describe('updateMemberInOrganizationById', () => {
    test('an admin changes a role, and null makes a guest', async () => {
      const member = await t.member('read');
      const res = await t.api('PATCH', `/v1/orgs/${t.org.id}/members/${member.userId}`, { body: { role: 'edit' } });
      assert.equal(res.status, 200);
      assert.equal(res.body.role, 'edit');
      assert.equal((await t.api('GET', `/v1/orgs/${t.org.id}`, { token: member.token })).body.permissions.createContent, false);
      const guest = await t.api('PATCH', `/v1/orgs/${t.org.id}/members/${member.userId}`, { body: { role: null } });
      assert.equal(guest.body.role, null);
      assertError(await members(t.org.id, '', member.token), 403);
      const promoted = await t.api('PATCH', `/v1/orgs/${t.org.id}/members/${member.userId}`, { body: { role: 'create' } });
      assert.equal(promoted.body.role, 'create');
      assert.equal((await t.api('GET', `/v1/orgs/${t.org.id}`, { token: member.token })).body.permissions.createContent, true);
    });

    test('an empty body changes nothing', async () => {
      const member = await t.member('comment');
      const res = await t.api('PATCH', `/v1/orgs/${t.org.id}/members/${member.userId}`, { body: {} });
      assert.equal(res.status, 200);
      assert.equal(res.body.role, 'comment');
    });

    test('the last admin cannot be demoted (409); with a second admin they can', async () => {
      const { owner, id: orgId } = await buildOrganization(t);
      assertError(await t.api('PATCH', `/v1/orgs/${orgId}/members/${owner.userId}`, { token: owner.token, body: { role: 'read' } }), 409, 'last admin');
      const second = await t.member('admin', orgId);
      const res = await t.api('PATCH', `/v1/orgs/${orgId}/members/${owner.userId}`, { token: second.token, body: { role: 'read' } });
      assert.equal(res.status, 200);
      assertError(await t.api('PATCH', `/v1/orgs/${orgId}/members/${second.userId}`, { token: second.token, body: { role: null } }), 409);
    });

    test('disabled (an extension) shuts a member out until enabled again; the last admin cannot be disabled', async () => {
      const { owner, id: orgId } = await buildOrganization(t);
      const member = await t.member('edit', orgId);
      const space = await buildSpace(t, {}, { organizationId: orgId, token: owner.token });
      assert.equal((await t.api('GET', `/v1/spaces/${space.id}`, { token: member.token })).status, 200);
      const off = await t.api('PATCH', `/v1/orgs/${orgId}/members/${member.userId}`, { token: owner.token, body: { disabled: true } });
      assert.equal(off.status, 200);
      assert.deepEqual([off.body.disabled, off.body.role], [true, 'edit']);
      assertError(await t.api('GET', `/v1/spaces/${space.id}`, { token: member.token }), 404);
      assertError(await t.api('GET', `/v1/orgs/${orgId}`, { token: member.token }), 404);
      assert.equal((await members(orgId, '', owner.token)).body.items.find((m: { id: string }) => m.id === member.userId).disabled, true);
      const on = await t.api('PATCH', `/v1/orgs/${orgId}/members/${member.userId}`, { token: owner.token, body: { disabled: false } });
      assert.equal(on.body.disabled, false);
      assert.equal((await t.api('GET', `/v1/spaces/${space.id}`, { token: member.token })).status, 200);
      assertError(await t.api('PATCH', `/v1/orgs/${orgId}/members/${owner.userId}`, { token: owner.token, body: { disabled: true } }), 409, 'last admin');
      assertError(await t.api('PATCH', `/v1/orgs/${orgId}/members/${member.userId}`, { token: owner.token, body: { disabled: 'yes' } }), 400, 'body/disabled');
      assertError(await t.api('PATCH', `/v1/orgs/${orgId}/members/${member.userId}`, { token: member.token, body: { disabled: true } }), 403);
    });

    test('only admins change roles: 403 for others, 404 for outsiders and unknown members, 400 for a bad role', async () => {
      const creator = await t.member('create');
      const target = await t.member('read');
      assertError(await t.api('PATCH', `/v1/orgs/${t.org.id}/members/${target.userId}`, { token: creator.token, body: { role: 'admin' } }), 403);
      assertError(await t.api('PATCH', `/v1/orgs/${t.org.id}/members/${creator.userId}`, { token: creator.token, body: { role: 'admin' } }), 403);
      assertError(await t.api('PATCH', `/v1/orgs/${t.org.id}/members/${target.userId}`, { token: (await t.outsider()).token, body: { role: 'edit' } }), 404);
      assertError(await t.api('PATCH', `/v1/orgs/${t.org.id}/members/noSuchUser0000000000`, { body: { role: 'edit' } }), 404);
      assertError(await t.api('PATCH', `/v1/orgs/${t.org.id}/members/${target.userId}`, { body: { role: 'owner' } }), 400, 'body/role');
      assertError(await t.api('PATCH', `/v1/orgs/${t.org.id}/members/${target.userId}`, { token: null, body: { role: 'edit' } }), 401);
      assert.equal((await t.api('GET', `/v1/orgs/${t.org.id}/members/${target.userId}`)).body.role, 'read');
    });
  });

  describe('removeMemberFromOrganizationById', () => {
    test('a removed member loses access, their content stays, and a second removal is 204 too', async () => {
      const { owner, id: orgId } = await buildOrganization(t);
      const creator = await t.member('create', orgId);
      const made = await buildSpace(t, {}, { organizationId: orgId, token: creator.token });
      const team = await buildTeam(t, { members: [creator.userId] }, { organizationId: orgId, token: owner.token });
      assert.equal((await t.api('DELETE', `/v1/orgs/${orgId}/members/${creator.userId}`, { token: owner.token })).status, 204);
      assertError(await t.api('GET', `/v1/orgs/${orgId}`, { token: creator.token }), 404);
      assertError(await t.api('GET', `/v1/spaces/${made.id}`, { token: creator.token }), 404);
      assert.equal((await t.api('GET', `/v1/spaces/${made.id}`, { token: owner.token })).status, 200);
      assert.equal((await t.api('GET', `/v1/orgs/${orgId}/teams/${team.id}`, { token: owner.token })).body.members, 0);
      assertError(await t.api('GET', `/v1/orgs/${orgId}/members/${creator.userId}`, { token: owner.token }), 404);
      assert.equal((await t.api('DELETE', `/v1/orgs/${orgId}/members/${creator.userId}`, { token: owner.token })).status, 204);
      // Their token still works elsewhere.
      assert.equal((await t.api('GET', '/v1/user', { token: creator.token })).status, 200);
    });

    test('a member may leave; the last admin may not (409)', async () => {
      const { owner, id: orgId } = await buildOrganization(t);
      const reader = await t.member('read', orgId);
      assert.equal((await t.api('DELETE', `/v1/orgs/${orgId}/members/${reader.userId}`, { token: reader.token })).status, 204);
      assertError(await t.api('DELETE', `/v1/orgs/${orgId}/members/${owner.userId}`, { token: owner.token }), 409, 'last admin');
      assert.equal((await t.api('GET', `/v1/orgs/${orgId}`, { token: owner.token })).status, 200);
    });

    test('others may not remove members (403); for outsiders there is nothing to remove (204); no token 401', async () => {
      const editor = await t.member('edit');
      const target = await t.member('read');
      assertError(await t.api('DELETE', `/v1/orgs/${t.org.id}/members/${target.userId}`, { token: editor.token }), 403);
      assert.equal((await t.api('DELETE', `/v1/orgs/${t.org.id}/members/${target.userId}`, { token: (await t.outsider()).token })).status, 204);
      assertError(await t.api('DELETE', `/v1/orgs/${t.org.id}/members/${target.userId}`, { token: null }), 401);
      assert.equal((await t.api('GET', `/v1/orgs/${t.org.id}/members/${target.userId}`)).status, 200);
    });
  });

  describe('updateOrganizationMemberLastSeenAt', () => {
    test('records the last-seen time and answers signed claims of the member', async () => {
      const guest = await t.member(null);
      const res = await t.api('POST', `/v1/orgs/${t.org.id}/ping`, { token: guest.token });
      assert.equal(res.status, 200);
      assert.equal(typeof res.body.serviceVisitorClaims, 'string');
      assert.equal(res.body.gitbookVisitorClaims, res.body.serviceVisitorClaims);
      const claims = await verifyVisitorClaims(t.app.ctx, res.body.serviceVisitorClaims, t.org.id);
      assert.ok(claims);
      assert.equal(claims.sub, guest.userId);
      assert.equal(claims.email, guest.email);
      assert.equal(claims.organization, t.org.id);
      assert.equal(claims.role, null);
      const member = await t.api('GET', `/v1/orgs/${t.org.id}/members/${guest.userId}`);
      assert.equal(member.body.lastSeenAt, t.clock.now().toISOString());
    });

    test('claims are refused for another organization, when tampered with, and once expired', async () => {
      const reader = await t.member('read');
      const res = await t.api('POST', `/v1/orgs/${t.org.id}/ping`, { token: reader.token });
      const token: string = res.body.serviceVisitorClaims;
      assert.equal(await verifyVisitorClaims(t.app.ctx, token, 'anotherOrganization0'), null);
      const [header, payload, signature] = token.split('.');
      const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), role: 'admin' })).toString('base64url');
      assert.equal(await verifyVisitorClaims(t.app.ctx, `${header}.${forged}.${signature}`, t.org.id), null);
      t.clock.advance(2 * 60 * 60 * 1000);
      assert.equal(await verifyVisitorClaims(t.app.ctx, token, t.org.id), null);
    });

    test('outsiders get 404 and no token 401', async () => {
      assertError(await t.api('POST', `/v1/orgs/${t.org.id}/ping`, { token: (await t.outsider()).token }), 404);
      assertError(await t.api('POST', `/v1/orgs/${t.org.id}/ping`, { token: null }), 401);
    });
  });

  describe('setUserAsSSOMemberForOrganization', () => {
    test('an admin marks a member as SSO', async () => {
      const member = await t.member('read');
      const res = await t.api('POST', `/v1/orgs/${t.org.id}/members/${member.userId}/sso`);
      assert.equal(res.status, 200);
      assert.equal(res.body.sso, true);
      assert.equal((await t.api('GET', `/v1/orgs/${t.org.id}/members/${member.userId}`)).body.sso, true);
    });

    test('only admins (403), only members (404), outsiders 404, no token 401', async () => {
      const member = await t.member('edit');
      assertError(await t.api('POST', `/v1/orgs/${t.org.id}/members/${member.userId}/sso`, { token: member.token }), 403);
      assertError(await t.api('POST', `/v1/orgs/${t.org.id}/members/noSuchUser0000000000/sso`), 404);
      assertError(await t.api('POST', `/v1/orgs/${t.org.id}/members/${member.userId}/sso`, { token: (await t.outsider()).token }), 404);
      assertError(await t.api('POST', `/v1/orgs/${t.org.id}/members/${member.userId}/sso`, { token: null }), 401);
      assert.equal((await t.api('GET', `/v1/orgs/${t.org.id}/members/${member.userId}`)).body.sso, false);
    });
  });

  describe('listSpacesForOrganizationMember', () => {
    test('lists the spaces where the member holds a role, with that role, newest first', async () => {
      const { owner, id: orgId } = await buildOrganization(t);
      const reader = await t.member('read', orgId);
      const older = await buildSpace(t, {}, { organizationId: orgId, token: owner.token });
      t.clock.advance(1000);
      const newer = await buildSpace(t, {}, { organizationId: orgId, token: owner.token });
      const hidden = await buildSpace(t, {}, { organizationId: orgId, token: owner.token });
      assert.equal((await t.api('PATCH', `/v1/spaces/${hidden.id}`, { token: owner.token, body: { defaultLevel: null } })).status, 200);
      await t.api('PATCH', `/v1/spaces/${newer.id}/permissions/users/${reader.userId}`, { token: owner.token, body: { role: 'edit' } });
      const res = await t.api('GET', `/v1/orgs/${orgId}/members/${reader.userId}/spaces`, { token: owner.token });
      assert.equal(res.status, 200);
      assert.equal(res.body.count, 2);
      assert.deepEqual(
        res.body.items.map((i: { permission: string; space: { id: string } }) => [i.space.id, i.permission]),
        [
          [newer.id, 'edit'],
          [older.id, 'read'],
        ],
      );
      // The space is presented for the caller: the admin sees admin permissions.
      assert.equal(res.body.items[0].space.object, 'space');
      assert.equal(res.body.items[0].space.permissions.admin, true);
      const asc = await t.api('GET', `/v1/orgs/${orgId}/members/${reader.userId}/spaces?order=asc`, { token: reader.token });
      assert.deepEqual(asc.body.items.map((i: { space: { id: string } }) => i.space.id), [older.id, newer.id]);
      assert.equal(asc.body.items[1].space.permissions.edit, true);
    });

    test("only the member and admins list a member's spaces; unknown members 404; outsiders 404", async () => {
      const reader = await t.member('read');
      const other = await t.member('create');
      assertError(await t.api('GET', `/v1/orgs/${t.org.id}/members/${other.userId}/spaces`, { token: reader.token }), 403);
      assertError(await t.api('GET', `/v1/orgs/${t.org.id}/members/noSuchUser0000000000/spaces`), 404);
      assertError(await t.api('GET', `/v1/orgs/${t.org.id}/members/${reader.userId}/spaces`, { token: (await t.outsider()).token }), 404);
      assertError(await t.api('GET', `/v1/orgs/${t.org.id}/members/${reader.userId}/spaces`, { token: null }), 401);
      assertError(await t.api('GET', `/v1/orgs/${t.org.id}/members/${reader.userId}/spaces?order=sideways`), 400, 'order');
    });
  });

  describe('listTeamsForOrganizationMember', () => {
    test("lists the member's teams with their role there, filtered by title", async () => {
      const { owner, id: orgId } = await buildOrganization(t);
      const member = await t.member('read', orgId);
      const inOrg = { organizationId: orgId, token: owner.token };
      const writers = await buildTeam(t, { title: 'Writers', members: [member.userId] }, inOrg);
      t.clock.advance(1000);
      const reviewers = await buildTeam(t, { title: 'Reviewers' }, inOrg);
      await t.api('PUT', `/v1/orgs/${orgId}/teams/${reviewers.id}/members/${member.userId}`, { token: owner.token, body: { role: 'owner' } });
      await buildTeam(t, { title: 'Others' }, inOrg);
      const res = await t.api('GET', `/v1/orgs/${orgId}/members/${member.userId}/teams`, { token: member.token });
      assert.equal(res.status, 200);
      assert.equal(res.body.count, 2);
      assert.deepEqual(
        res.body.items.map((i: { team: { id: string }; member: { role: string } }) => [i.team.id, i.member.role]),
        [
          [writers.id, 'member'],
          [reviewers.id, 'owner'],
        ],
      );
      assert.equal(res.body.items[0].team.object, 'team');
      assert.equal(res.body.items[0].team.members, 1);
      const filtered = await t.api('GET', `/v1/orgs/${orgId}/members/${member.userId}/teams?title=VIEW`, { token: owner.token });
      assert.deepEqual(filtered.body.items.map((i: { team: { id: string } }) => i.team.id), [reviewers.id]);
    });

    test('guests list only their own teams; unknown members 404; outsiders 404; no token 401', async () => {
      const guest = await t.member(null);
      assert.equal((await t.api('GET', `/v1/orgs/${t.org.id}/members/${guest.userId}/teams`, { token: guest.token })).status, 200);
      assertError(await t.api('GET', `/v1/orgs/${t.org.id}/members/${t.admin.userId}/teams`, { token: guest.token }), 403);
      assertError(await t.api('GET', `/v1/orgs/${t.org.id}/members/noSuchUser0000000000/teams`), 404);
      assertError(await t.api('GET', `/v1/orgs/${t.org.id}/members/${guest.userId}/teams`, { token: (await t.outsider()).token }), 404);
      assertError(await t.api('GET', `/v1/orgs/${t.org.id}/members/${guest.userId}/teams`, { token: null }), 401);
    });
  });

  describe('inviteUsersToOrganization', () => {
    test('creates missing users and makes every new address a member with its role', async () => {
      const { owner, id: orgId } = await buildOrganization(t);
      const existing = await t.outsider();
      const res = await t.api('POST', `/v1/orgs/${orgId}/invites`, {
        token: owner.token,
        body: { emails: ['New.Person@Example.com', { email: existing.email, role: 'edit' }, { email: 'guest@example.com', role: null }], role: 'comment' },
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.invited, 3);
      assert.equal(res.body.users.length, 3);
      assert.ok(res.body.users.includes(existing.userId));
      const roles = new Map(
        (await members(orgId, '', owner.token)).body.items.map((m: { user: { email: string }; role: string | null }) => [m.user.email, m.role]),
      );
      assert.equal(roles.get('new.person@example.com'), 'comment');
      assert.equal(roles.get(existing.email), 'edit');
      assert.equal(roles.get('guest@example.com'), null);
      // The invited user can use the organization at once with a token.
      assert.equal((await t.api('GET', `/v1/orgs/${orgId}`, { token: existing.token })).status, 200);
    });

    test("addresses without a role get the organization's default role; members stay as they are; sso marks SSO members", async () => {
      const { owner, id: orgId } = await buildOrganization(t);
      await t.api('PATCH', `/v1/orgs/${orgId}`, { token: owner.token, body: { defaultRole: 'review' } });
      const reader = await t.member('read', orgId);
      const res = await t.api('POST', `/v1/orgs/${orgId}/invites`, { token: owner.token, body: { emails: ['sso.user@example.com', reader.email, 'SSO.user@example.com'], sso: true } });
      assert.equal(res.body.invited, 1);
      const [added] = res.body.users;
      const member = await t.api('GET', `/v1/orgs/${orgId}/members/${added}`, { token: owner.token });
      assert.equal(member.body.role, 'review');
      assert.equal(member.body.sso, true);
      assert.equal((await t.api('GET', `/v1/orgs/${orgId}/members/${reader.userId}`, { token: owner.token })).body.role, 'read');
    });

    test('a malformed address is a 400 naming it, and nothing is created', async () => {
      const { owner, id: orgId } = await buildOrganization(t);
      assertError(await t.api('POST', `/v1/orgs/${orgId}/invites`, { token: owner.token, body: { emails: ['ok@example.com', 'not-an-address'] } }), 400, 'body/emails/1');
      assertError(await t.api('POST', `/v1/orgs/${orgId}/invites`, { token: owner.token, body: { emails: [] } }), 400, 'emails');
      assertError(await t.api('POST', `/v1/orgs/${orgId}/invites`, { token: owner.token, body: {} }), 400, 'emails');
      assertError(await t.api('POST', `/v1/orgs/${orgId}/invites`, { token: owner.token, body: { emails: [{ email: 'x@example.com', role: 'owner' }] } }), 400);
      assert.equal((await members(orgId, '', owner.token)).body.count, 1);
    });

    test('only admins invite (403); outsiders 404; no token 401', async () => {
      const creator = await t.member('create');
      assertError(await t.api('POST', `/v1/orgs/${t.org.id}/invites`, { token: creator.token, body: { emails: ['a@example.com'] } }), 403);
      assertError(await t.api('POST', `/v1/orgs/${t.org.id}/invites`, { token: (await t.outsider()).token, body: { emails: ['a@example.com'] } }), 404);
      assertError(await t.api('POST', `/v1/orgs/${t.org.id}/invites`, { token: null, body: { emails: ['a@example.com'] } }), 401);
    });
  });
});
