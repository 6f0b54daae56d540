import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MemberRole, officialClient, rejectsWith } from './gitbook-client.ts';
import { listenOnRandomPort, startServer, type TestServer } from '../helpers.ts';
import { OfficialSpec, SpecViolation, specCheckedFetch, type CheckedExchange } from './spec-validator.ts';

/**
 * Members, teams and space/collection permissions over real HTTP with the official client; every response is
 * checked against the official spec (specCheckedFetch).
 */

const OPERATIONS = [
  'listMembersInOrganizationById',
  'getMemberInOrganizationById',
  'updateMemberInOrganizationById',
  'removeMemberFromOrganizationById',
  'updateOrganizationMemberLastSeenAt',
  'setUserAsSSOMemberForOrganization',
  'listSpacesForOrganizationMember',
  'listTeamsForOrganizationMember',
  'inviteUsersToOrganization',
  'listTeamsInOrganizationById',
  'createOrganizationTeam',
  'getTeamInOrganizationById',
  'updateTeamInOrganizationById',
  'removeTeamFromOrganizationById',
  'listTeamMembersInOrganizationById',
  'updateMembersInOrganizationTeam',
  'addMemberToOrganizationTeamById',
  'deleteMemberFromOrganizationTeamById',
  'inviteToSpace',
  'listUserPermissionsInSpace',
  'updateUserPermissionInSpace',
  'removeUserFromSpace',
  'listTeamPermissionsInSpace',
  'updateTeamPermissionInSpace',
  'removeTeamFromSpace',
  'inviteToCollection',
  'listUserPermissionsInCollection',
  'updateUserPermissionInCollection',
  'removeUserFromCollection',
  'listTeamPermissionsInCollection',
  'updateTeamPermissionInCollection',
  'removeTeamFromCollection',
];

describe('members, teams and permissions through the official client', { timeout: 300_000 }, () => {
  let t: TestServer;
  let endpoint: string;
  const spec = OfficialSpec.load();
  const log: CheckedExchange[] = [];
  const checkedFetch = specCheckedFetch(spec, log);
  const client = (token: string | null = t.admin.token) =>
    officialClient({ endpoint, ...(token ? { authToken: token } : {}), serviceBinding: { fetch: checkedFetch } });

  before(async () => {
    t = await startServer();
    endpoint = await listenOnRandomPort(t);
  });
  after(() => t.close(), { timeout: 30_000 });

  test('an admin invites people, changes their roles, marks SSO and removes them', async () => {
    const owner = await t.outsider();
    const orgId = owner.organizationId;
    const api = client(owner.token).orgs;
    const { data: invited } = await api.inviteUsersToOrganization(orgId, { emails: ['ada@example.com', { email: 'bob@example.com', role: MemberRole.Edit }], role: MemberRole.Read });
    assert.equal(invited.invited, 2);
    const { data: list } = await api.listMembersInOrganizationById(orgId, { search: 'ADA' });
    assert.equal(list.count, 1);
    const ada = list.items[0]!;
    assert.equal(ada.role, 'read');
    const { data: updated } = await api.updateMemberInOrganizationById(orgId, ada.id, { role: MemberRole.Review });
    assert.equal(updated.role, 'review');
    const { data: sso } = await api.setUserAsSsoMemberForOrganization(orgId, ada.id);
    assert.equal(sso.sso, true);
    const { data: read } = await api.getMemberInOrganizationById(orgId, ada.id);
    assert.equal(read.role, 'review');
    await rejectsWith(api.updateMemberInOrganizationById(orgId, owner.userId, { role: MemberRole.Read }), 409);
    await api.removeMemberFromOrganizationById(orgId, ada.id);
    await rejectsWith(api.getMemberInOrganizationById(orgId, ada.id), 404);
    await rejectsWith(client(null).orgs.listMembersInOrganizationById(orgId), 401);
    await rejectsWith(client((await t.member(null, orgId)).token).orgs.listMembersInOrganizationById(orgId), 403);
    await rejectsWith(api.updateMemberInOrganizationById(orgId, invited.users[1]!, { role: 'owner' as never }), 400);
  });

  test('a member pings the organization and is then listed by last-seen time', async () => {
    const member = await t.member('read');
    const { data } = await client(member.token).orgs.updateOrganizationMemberLastSeenAt(t.org.id);
    assert.equal(typeof (data as { gitbookVisitorClaims?: string }).gitbookVisitorClaims, 'string');
    const { data: seen } = await client().orgs.listMembersInOrganizationById(t.org.id, { sort: 'lastSeenAt' as never });
    assert.ok(seen.items.some((m) => m.id === member.userId));
  });

  test('teams are created, renamed, filled, listed and deleted; grants reach their members', async () => {
    const owner = await t.outsider();
    const orgId = owner.organizationId;
    const api = client(owner.token);
    const guest = await t.member(null, orgId);
    const lead = await t.member('read', orgId);
    const { data: created } = await api.orgs.createOrganizationTeam(orgId, { title: 'Docs', members: [guest.userId] });
    assert.equal(created.members, 1);
    const { data: renamed } = await api.orgs.updateTeamInOrganizationById(orgId, created.id, { title: 'Documentation' });
    assert.equal(renamed.title, 'Documentation');
    const { data: got0 } = await client(lead.token).orgs.getTeamInOrganizationById(orgId, created.id);
    assert.deepEqual(got0.permissions, { admin: false, view: true });
    await api.orgs.addMemberToOrganizationTeamById(orgId, created.id, lead.userId, { role: 'owner' as never });
    await client(lead.token).orgs.updateMembersInOrganizationTeam(orgId, created.id, { add: [owner.email], remove: [owner.userId] });
    const { data: teamMembers } = await api.orgs.listTeamMembersInOrganizationById(orgId, created.id);
    assert.deepEqual(teamMembers.items.map((m) => m.organization.id).sort(), [guest.userId, lead.userId].sort());
    const { data: owned } = await api.orgs.listTeamsInOrganizationById(orgId, { owner: lead.userId });
    assert.deepEqual(owned.items.map((x) => x.id), [created.id]);
    const { data: teamsOfLead } = await api.orgs.listTeamsForOrganizationMember(orgId, lead.userId);
    assert.equal(teamsOfLead.items[0]!.member.role, 'owner');

    const { data: space } = await api.orgs.createSpace(orgId, { title: 'Granted' });
    await api.spaces.inviteToSpace(space.id, { role: MemberRole.Edit, teams: [created.id] });
    const { data: teamGrants } = await api.spaces.listTeamPermissionsInSpace(space.id);
    assert.equal(teamGrants.items[0]!.permission, 'edit');
    assert.equal(teamGrants.items[0]!.team.spaces, 1);
    const { data: got } = await client(guest.token).spaces.getSpaceById(space.id);
    assert.equal(got.permissions.edit, true);
    const { data: spacesOfGuest } = await api.orgs.listSpacesForOrganizationMember(orgId, guest.userId);
    assert.deepEqual(spacesOfGuest.items.map((i) => [i.space.id, i.permission]), [[space.id, 'edit']]);
    await api.spaces.updateTeamPermissionInSpace(space.id, created.id, { role: MemberRole.Read });
    await api.spaces.removeTeamFromSpace(space.id, created.id);
    await rejectsWith(client(guest.token).spaces.getSpaceById(space.id), 404);

    await api.orgs.deleteMemberFromOrganizationTeamById(orgId, created.id, guest.userId);
    await api.orgs.removeTeamFromOrganizationById(orgId, created.id);
    await rejectsWith(api.orgs.getTeamInOrganizationById(orgId, created.id), 404);
    await rejectsWith(client(guest.token).orgs.listTeamsInOrganizationById(orgId), 403);
  });

  test('user permissions on spaces and collections', async () => {
    const api = client();
    const guest = await t.member(null);
    const { data: space } = await api.orgs.createSpace(t.org.id, { title: 'People' });
    await api.spaces.inviteToSpace(space.id, { role: MemberRole.Comment, users: [guest.userId] });
    await api.spaces.updateUserPermissionInSpace(space.id, guest.userId, { role: MemberRole.Review });
    const { data: users } = await api.spaces.listUserPermissionsInSpace(space.id);
    assert.deepEqual(users.items.map((i) => [i.user.id, i.permission]), [[guest.userId, 'review']]);
    await api.spaces.removeUserFromSpace(space.id, guest.userId);
    await rejectsWith(client(guest.token).spaces.listUserPermissionsInSpace(space.id), 404);

    const { data: collection } = await api.orgs.createCollection(t.org.id, { title: 'Shared' });
    const { data: team } = await api.orgs.createOrganizationTeam(t.org.id, { title: 'Collectors' });
    await api.collections.inviteToCollection(collection.id, { role: MemberRole.Read, users: [guest.userId] });
    await api.collections.updateUserPermissionInCollection(collection.id, guest.userId, { role: MemberRole.Create });
    const { data: collectionUsers } = await api.collections.listUserPermissionsInCollection(collection.id);
    assert.equal(collectionUsers.items[0]!.permission, 'create');
    const { data: seen } = await client(guest.token).collections.getCollectionById(collection.id);
    assert.equal(seen.permissions.create, true);
    await api.collections.removeUserFromCollection(collection.id, guest.userId);
    await api.collections.updateTeamPermissionInCollection(collection.id, team.id, { role: MemberRole.Edit });
    const { data: collectionTeams } = await api.collections.listTeamPermissionsInCollection(collection.id);
    assert.equal(collectionTeams.items[0]!.team.id, team.id);
    await api.collections.removeTeamFromCollection(collection.id, team.id);
    await rejectsWith(client((await t.member('read')).token).spaces.inviteToSpace(space.id, { role: MemberRole.Admin, users: [guest.userId] }), 403);
  });

  test('every operation was exercised and conformed to the official spec', () => {
    const violations = log.filter((entry) => entry.problems.length > 0);
    assert.deepEqual(violations.map((v) => new SpecViolation(v).message), []);
    const succeeded = new Set(log.filter((entry) => entry.status < 300).map((entry) => entry.operationId));
    assert.deepEqual(OPERATIONS.filter((op) => !succeeded.has(op)), [], 'operations never answered with a success');
  });
});
