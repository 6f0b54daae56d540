import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MemberRole, officialClient, rejectsWith } from './gitbook-client.ts';
import { listenOnRandomPort, startServer, type TestServer } from '../helpers.ts';
import { buildChangeRequest, buildSpace } from '../factories.ts';
import { ok } from '../assertions.ts';
import { OfficialSpec, SpecViolation, specCheckedFetch, type CheckedExchange } from './spec-validator.ts';

/**
 * The official operations the web app needs that issue 26 added (organization invite links and joining with
 * one, an organization's change requests, a space's aggregated permissions), over real HTTP with the official
 * client; every response is checked against the official spec. Signing in itself is ours (`/v1/auth`).
 */

const OPERATIONS = [
  'createOrganizationInvite',
  'listOrganizationInviteLinks',
  'getOrganizationInviteLink',
  'updateOrganizationInviteById',
  'deleteOrganizationInviteById',
  'joinOrganizationWithInvite',
  'listChangeRequestsForOrganization',
  'listPermissionsAggregateInSpace',
];

describe('invite links, organization change requests and aggregated permissions through the official client', { timeout: 300_000 }, () => {
  let t: TestServer;
  let endpoint: string;
  const spec = OfficialSpec.load();
  const log: CheckedExchange[] = [];
  const checkedFetch = specCheckedFetch(spec, log);
  const client = (token: string | null = t.admin.token) => officialClient({ endpoint, ...(token ? { authToken: token } : {}), serviceBinding: { fetch: checkedFetch } });

  before(async () => {
    t = await startServer();
    endpoint = await listenOnRandomPort(t);
  });
  after(() => t.close(), { timeout: 30_000 });

  test('an admin makes an invite link; someone with an account joins with its role; only admins manage links', async () => {
    const owner = await t.outsider();
    const orgId = owner.organizationId;
    const api = client(owner.token).orgs;
    const { data: invite } = await api.createOrganizationInvite(orgId, { role: MemberRole.Edit });
    assert.equal(invite.object, 'invite');
    assert.equal('role' in invite && invite.role, 'edit');
    assert.equal(invite.redundant, true, 'the admin already has more than edit');
    const { data: list } = await api.listOrganizationInviteLinks(orgId);
    assert.deepEqual(list.items.map((i) => i.id), [invite.id]);
    const { data: got } = await api.getOrganizationInviteLink(orgId, invite.id);
    assert.deepEqual(got, invite);
    const { data: updated } = await api.updateOrganizationInviteById(orgId, invite.id, { role: MemberRole.Comment });
    assert.equal('role' in updated && updated.role, 'comment');

    const newcomer = await t.outsider();
    await rejectsWith(client(newcomer.token).orgs.getOrganizationInviteLink(orgId, invite.id), 404);
    await rejectsWith(client(newcomer.token).orgs.createOrganizationInvite(orgId, { role: MemberRole.Admin }), 404);
    await client(newcomer.token).orgs.joinOrganizationWithInvite(orgId, invite.id);
    const member = ok(await t.api('GET', `/v1/orgs/${orgId}/members/${newcomer.userId}`, { token: owner.token }));
    assert.equal(member.role, 'comment');
    await rejectsWith(client(newcomer.token).orgs.createOrganizationInvite(orgId, { role: MemberRole.Admin }), 403);
    await rejectsWith(client(newcomer.token).orgs.joinOrganizationWithInvite(orgId, 'no-such-invite'), 404);

    // Joining again with a lower role keeps the higher one.
    const { data: reader } = await api.createOrganizationInvite(orgId, { role: MemberRole.Read });
    await client(newcomer.token).orgs.joinOrganizationWithInvite(orgId, reader.id);
    assert.equal(ok(await t.api('GET', `/v1/orgs/${orgId}/members/${newcomer.userId}`, { token: owner.token })).role, 'comment');

    const deleted = await api.deleteOrganizationInviteById(orgId, invite.id);
    assert.equal(deleted.status, 205);
    await rejectsWith(client(newcomer.token).orgs.joinOrganizationWithInvite(orgId, invite.id), 404);
  });

  test('an organization’s change requests are those of the spaces the caller can read, newest first', async () => {
    const owner = await t.outsider();
    const orgId = owner.organizationId;
    const open = await buildSpace(t, { title: 'Open' }, { token: owner.token, organizationId: orgId });
    const secret = await buildSpace(t, { title: 'Secret' }, { token: owner.token, organizationId: orgId });
    ok(await t.api('PATCH', `/v1/spaces/${secret.id}`, { token: owner.token, body: { defaultLevel: null } }));
    const first = await buildChangeRequest(t, open.id, { subject: 'First', token: owner.token });
    t.clock.advance(1000);
    const second = await buildChangeRequest(t, open.id, { subject: 'Second', token: owner.token });
    t.clock.advance(1000);
    const hidden = await buildChangeRequest(t, secret.id, { subject: 'Hidden', token: owner.token });

    const { data: all } = await client(owner.token).orgs.listChangeRequestsForOrganization(orgId);
    assert.deepEqual(all.items.map((cr) => cr.id), [hidden.id, second.id, first.id]);
    const { data: paged } = await client(owner.token).orgs.listChangeRequestsForOrganization(orgId, { limit: 2 });
    assert.equal(paged.items.length, 2);
    assert.ok(paged.next);
    const { data: rest } = await client(owner.token).orgs.listChangeRequestsForOrganization(orgId, { limit: 2, page: paged.next!.page });
    assert.deepEqual(rest.items.map((cr) => cr.id), [first.id]);

    const reader = await t.member('read', orgId);
    const { data: seen } = await client(reader.token).orgs.listChangeRequestsForOrganization(orgId);
    assert.deepEqual(seen.items.map((cr) => cr.id), [second.id, first.id]);
    await rejectsWith(client((await t.outsider()).token).orgs.listChangeRequestsForOrganization(orgId), 404);
  });

  test('a space’s aggregated permissions name every member with a role on it, whatever it comes from', async () => {
    const owner = await t.outsider();
    const orgId = owner.organizationId;
    const space = await buildSpace(t, { title: 'Docs' }, { token: owner.token, organizationId: orgId });
    const reader = await t.member('read', orgId);
    const guest = await t.member(null, orgId);
    const stranger = await t.member(null, orgId);
    ok(await t.api('POST', `/v1/spaces/${space.id}/permissions`, { token: owner.token, body: { role: 'edit', users: [guest.userId] } }), 204);
    const { data } = await client(owner.token).spaces.listPermissionsAggregateInSpace(space.id);
    const roles = new Map(data.items.map((p) => [p.user.id, p.permission]));
    assert.equal(roles.get(owner.userId), 'admin');
    assert.equal(roles.get(reader.userId), 'read');
    assert.equal(roles.get(guest.userId), 'edit');
    assert.equal(roles.has(stranger.userId), false);
    assert.equal(data.count, 3);
    const { data: editors } = await client(owner.token).spaces.listPermissionsAggregateInSpace(space.id, { role: MemberRole.Edit });
    assert.deepEqual(editors.items.map((p) => p.user.id), [guest.userId]);
    const { data: first } = await client(owner.token).spaces.listPermissionsAggregateInSpace(space.id, { limit: 2 });
    const { data: second } = await client(owner.token).spaces.listPermissionsAggregateInSpace(space.id, { limit: 2, page: first.next!.page });
    assert.deepEqual([...first.items, ...second.items].map((p) => p.user.id).sort(), [...roles.keys()].sort());
    await rejectsWith(client(stranger.token).spaces.listPermissionsAggregateInSpace(space.id), 404);
  });

  test('every operation was exercised and conformed to the official spec', () => {
    const violations = log.filter((entry) => entry.problems.length > 0);
    assert.deepEqual(violations.map((v) => new SpecViolation(v).message), []);
    const succeeded = new Set(log.filter((entry) => entry.status < 300).map((entry) => entry.operationId));
    assert.deepEqual(OPERATIONS.filter((op) => !succeeded.has(op)), [], 'operations never answered with a success');
  });
});
