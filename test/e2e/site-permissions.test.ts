import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as gitbookLatest from '@gitbook/api-latest';
import { latestClient, rejectsWith, type GitBookAPIError, type Latest } from './gitbook-client.ts';
import { e2eSession } from './e2e-session.ts';
import { OfficialSpec, specCheckedFetch } from './spec-validator.ts';

/**
 * Who may see a site: a role given on a site to members and teams (the official site-permissions operations of
 * @gitbook/api 0.202.0) is enforced by the site's policy, so the tests call site operations as the member before
 * and after; every response is checked against the official spec.
 */

const OPERATIONS = [
  'inviteToSite', 'listPermissionsAggregateInSite', 'listUserPermissionsInSite', 'updateUserPermissionInSite', 'removeUserFromSite',
  'listTeamPermissionsInSite', 'updateTeamPermissionInSite', 'removeTeamFromSite',
];

/** The roles as the newest client types them. */
const { MemberRole } = gitbookLatest as unknown as Latest;

/** A call the server refused with `status`, with a message naming `field`. */
async function rejectsNaming(call: Promise<unknown>, status: number, field: string): Promise<void> {
  await assert.rejects(call, (error: unknown) => {
    if (!(error instanceof Error) || !('code' in error)) throw error;
    const { code, errorMessage } = error as InstanceType<typeof GitBookAPIError>;
    assert.equal(code, status, `expected ${status}, got ${code}: ${errorMessage}`);
    assert.match(errorMessage, new RegExp(field.replace(/[/]/g, '\\/')), `the message names ${field}`);
    return true;
  });
}

describe('site permissions through the official client', { timeout: 300_000 }, () => {
  const session = e2eSession();
  const { client } = session;
  /**
   * listPermissionsAggregateInSite is already in 0.143.2, where a role's origin is a space or the organization
   * only. A role given on the site has the origin 0.202.0 added for it (`{ type: 'site', reason }`), which
   * 0.143.2 cannot express: those answers are judged by the 0.202.0 spec, through its client.
   */
  const newest = (token?: string) => {
    const checked = specCheckedFetch(OfficialSpec.loadLatest(), session.log);
    return latestClient({ endpoint: session.endpoint, authToken: token ?? session.t.admin.token, serviceBinding: { fetch: checked } }).orgs;
  };

  /** A site publishing a new space that every `read` member reads (its default level inherits). */
  async function siteWithSpace(title: string) {
    const api = client().orgs;
    const org = session.t.org.id;
    const { data: space } = await api.createSpace(org, { title: `${title} space` });
    const { data: site } = await api.createSite(org, { title });
    await api.addSpaceToSite(org, site.id, { spaceId: space.id });
    return { site, space };
  }

  test('a member given a role on a site sees it, given admin manages it, and loses both when it is taken away', async () => {
    const { t } = session;
    const org = t.org.id;
    const member = await t.member(null);
    // A site without spaces: only the organization's admins see it.
    const { data: site } = await client().orgs.createSite(org, { title: 'Partner portal' });
    await rejectsWith(client(member.token).orgs.getSiteById(org, site.id), 404);

    await session.latest().orgs.inviteToSite(org, site.id, { role: MemberRole.Read, users: [member.userId] });
    const { data: seen } = await client(member.token).orgs.getSiteById(org, site.id);
    assert.equal(seen.id, site.id);
    const { data: listed } = await client(member.token).orgs.listSites(org);
    assert.deepEqual(listed.items.map((s) => s.id), [site.id]);
    await rejectsWith(client(member.token).orgs.updateSiteById(org, site.id, { title: 'Taken over' }), 403);
    await rejectsWith(session.latest(member.token).orgs.inviteToSite(org, site.id, { role: MemberRole.Admin, users: [member.userId] }), 403);

    await session.latest().orgs.updateUserPermissionInSite(org, site.id, member.userId, { role: MemberRole.Admin });
    const { data: renamed } = await client(member.token).orgs.updateSiteById(org, site.id, { title: 'Partner hub' });
    assert.equal(renamed.title, 'Partner hub');
    // A site admin decides who has access, as an organization admin does.
    const colleague = await t.member(null);
    await session.latest(member.token).orgs.inviteToSite(org, site.id, { role: MemberRole.Read, users: [colleague.userId] });
    const { data: users } = await session.latest(member.token).orgs.listUserPermissionsInSite(org, site.id);
    assert.equal(users.count, 2);
    const byId = (a: [string, string], b: [string, string]) => (a[0] < b[0] ? -1 : 1);
    assert.deepEqual(users.items.map((i): [string, string] => [i.user.id, i.permission!]).sort(byId), ([[member.userId, 'admin'], [colleague.userId, 'read']] as [string, string][]).sort(byId));

    const removed = await session.latest().orgs.removeUserFromSite(org, site.id, member.userId);
    assert.equal(removed.status, 205);
    const again = await session.latest().orgs.removeUserFromSite(org, site.id, member.userId);
    assert.equal(again.status, 204);
    await rejectsWith(client(member.token).orgs.getSiteById(org, site.id), 404);
    await rejectsWith(client(member.token).orgs.updateSiteById(org, site.id, { title: 'Once more' }), 404);
    const { data: left } = await session.latest().orgs.listUserPermissionsInSite(org, site.id);
    assert.deepEqual(left.items.map((i) => i.user.id), [colleague.userId]);
    // null takes a role away too.
    await session.latest().orgs.inviteToSite(org, site.id, { role: null, users: [colleague.userId] });
    await rejectsWith(client(colleague.token).orgs.getSiteById(org, site.id), 404);
  });

  test("a team's role on a site is its members' role there", async () => {
    const { t } = session;
    const org = t.org.id;
    const [inTeam, outside] = [await t.member(null), await t.member(null)];
    const { data: team } = await client().orgs.createOrganizationTeam(org, { title: 'Partners', members: [inTeam.userId] });
    const { data: site } = await client().orgs.createSite(org, { title: 'Team portal' });

    await session.latest().orgs.inviteToSite(org, site.id, { role: MemberRole.Edit, teams: [team.id] });
    const { data: teams } = await session.latest().orgs.listTeamPermissionsInSite(org, site.id);
    assert.deepEqual(teams.items.map((i) => [i.team.id, i.permission, i.team.members]), [[team.id, 'edit', 1]]);
    assert.equal((await client(inTeam.token).orgs.getSiteById(org, site.id)).data.id, site.id);
    await rejectsWith(client(outside.token).orgs.getSiteById(org, site.id), 404);
    await rejectsWith(client(inTeam.token).orgs.publishSite(org, site.id), 403);

    await session.latest().orgs.updateTeamPermissionInSite(org, site.id, team.id, { role: MemberRole.Admin });
    const { data: published } = await client(inTeam.token).orgs.publishSite(org, site.id);
    assert.equal((published as { published: boolean }).published, true);

    assert.equal((await session.latest().orgs.removeTeamFromSite(org, site.id, team.id)).status, 205);
    assert.equal((await session.latest().orgs.removeTeamFromSite(org, site.id, team.id)).status, 204);
    await rejectsWith(client(inTeam.token).orgs.getSiteById(org, site.id), 404);
    assert.equal((await session.latest().orgs.listTeamPermissionsInSite(org, site.id)).data.count, 0);
  });

  test('the aggregate lists everyone holding a role on the site, with the role and where it comes from', async () => {
    const { t } = session;
    const org = t.org.id;
    const { site, space } = await siteWithSpace('Everyone');
    const reader = await t.member('read');
    // Without a role given on the site, the origins are the ones 0.143.2 knows too: the pinned client's check holds.
    const { data: before } = await client().orgs.listPermissionsAggregateInSite(org, site.id, { limit: 1000 });
    const beforeOf = new Map(before.items.map((i) => [i.user.id, i]));
    assert.deepEqual(beforeOf.get(t.admin.userId)?.origin, { type: 'organization', organization: org });
    assert.equal(beforeOf.get(t.admin.userId)?.permission, 'admin');
    assert.deepEqual(beforeOf.get(reader.userId)?.origin, { type: 'space', space: space.id });
    assert.equal(beforeOf.get(reader.userId)?.permission, 'read');

    const [guest, teamMate] = [await t.member(null), await t.member(null)];
    const { data: team } = await client().orgs.createOrganizationTeam(org, { title: 'Aggregated', members: [teamMate.userId] });
    await session.latest().orgs.inviteToSite(org, site.id, { role: MemberRole.Comment, users: [guest.userId] });
    await session.latest().orgs.inviteToSite(org, site.id, { role: MemberRole.Admin, teams: [team.id] });
    const { data: all } = await newest().listPermissionsAggregateInSite(org, site.id, { limit: 1000 });
    const of = new Map(all.items.map((i) => [i.user.id, i]));
    assert.equal(all.count, all.items.length);
    assert.deepEqual([of.get(guest.userId)?.permission, of.get(guest.userId)?.origin], ['comment', { type: 'site', site: site.id, reason: 'member' }]);
    assert.deepEqual([of.get(teamMate.userId)?.permission, of.get(teamMate.userId)?.origin], ['admin', { type: 'site', site: site.id, reason: 'team', team: team.id }]);
    assert.equal(of.get(reader.userId)?.permission, 'read');
    assert.equal(of.get(guest.userId)?.disabled, false);

    // Filters: by role, by team, by name or e-mail; pages follow one another without repeats.
    const { data: admins } = await newest().listPermissionsAggregateInSite(org, site.id, { role: MemberRole.Admin, limit: 1000 });
    assert.ok(admins.items.every((i) => i.permission === 'admin'));
    assert.ok(admins.items.some((i) => i.user.id === teamMate.userId));
    const { data: ofTeam } = await newest().listPermissionsAggregateInSite(org, site.id, { team: team.id });
    assert.deepEqual(ofTeam.items.map((i) => i.user.id), [teamMate.userId]);
    const { data: found } = await newest().listPermissionsAggregateInSite(org, site.id, { search: guest.email.toUpperCase() });
    assert.deepEqual(found.items.map((i) => i.user.id), [guest.userId]);
    const seen: string[] = [];
    let page: string | undefined;
    do {
      const { data } = await newest().listPermissionsAggregateInSite(org, site.id, { limit: 2, sort: 'name', order: 'asc', ...(page ? { page } : {}) });
      seen.push(...data.items.map((i) => i.user.id));
      page = data.next?.page;
    } while (page);
    assert.deepEqual([...seen].sort(), all.items.map((i) => i.user.id).sort());
    assert.equal(new Set(seen).size, seen.length);

    // What the aggregate says is what the policy does: the team's admin role manages the site.
    await client(teamMate.token).orgs.updateSiteById(org, site.id, { title: 'Everyone, renamed' });
    await rejectsWith(client(guest.token).orgs.updateSiteById(org, site.id, { title: 'Not mine' }), 403);
  });

  test('bad input names its field; a reader without a role on the site is refused; an outsider sees nothing', async () => {
    const { t } = session;
    const org = t.org.id;
    const { site } = await siteWithSpace('Guarded');
    const member = await t.member(null);
    const api = session.latest().orgs;
    await rejectsNaming(api.inviteToSite(org, site.id, { role: 'owner' as never, users: [member.userId] }), 400, 'body/role');
    await rejectsNaming(api.inviteToSite(org, site.id, { role: MemberRole.Read, users: [member.userId, 'no-such-user'] }), 400, 'body/users/1');
    await rejectsNaming(api.inviteToSite(org, site.id, { role: MemberRole.Read, teams: ['no-such-team'] }), 400, 'body/teams/0');
    await rejectsNaming(api.updateUserPermissionInSite(org, site.id, member.userId, { role: 'owner' as never }), 400, 'body/role');
    await rejectsNaming(api.listPermissionsAggregateInSite(org, site.id, { team: 'no-such-team' }), 400, 'querystring/team');
    // Nothing was written by the refused invitation, though its first user exists.
    assert.equal((await api.listUserPermissionsInSite(org, site.id)).data.count, 0);
    await rejectsWith(api.updateUserPermissionInSite(org, site.id, 'no-such-user', { role: MemberRole.Read }), 404);
    await rejectsWith(api.updateTeamPermissionInSite(org, site.id, 'no-such-team', { role: MemberRole.Read }), 404);

    // A reader sees the site (they read its space) but may not change who has access.
    const reader = await t.member('read');
    const asReader = session.latest(reader.token).orgs;
    assert.equal((await asReader.listUserPermissionsInSite(org, site.id)).data.count, 0);
    await rejectsWith(asReader.inviteToSite(org, site.id, { role: MemberRole.Admin, users: [reader.userId] }), 403);
    await rejectsWith(asReader.updateUserPermissionInSite(org, site.id, member.userId, { role: MemberRole.Read }), 403);
    await rejectsWith(asReader.removeUserFromSite(org, site.id, member.userId), 403);

    const outsider = await t.outsider();
    const asOutsider = session.latest(outsider.token).orgs;
    await rejectsWith(asOutsider.inviteToSite(org, site.id, { role: MemberRole.Admin, users: [outsider.userId] }), 404);
    await rejectsWith(asOutsider.listUserPermissionsInSite(org, site.id), 404);
    await rejectsWith(asOutsider.listTeamPermissionsInSite(org, site.id), 404);
    await rejectsWith(client(outsider.token).orgs.listPermissionsAggregateInSite(org, site.id), 404);
    await rejectsWith(asOutsider.updateUserPermissionInSite(org, site.id, member.userId, { role: MemberRole.Admin }), 404);
    // What an outsider cannot see holds no grant, for them.
    assert.equal((await asOutsider.removeUserFromSite(org, site.id, member.userId)).status, 204);
    // A member of another organization cannot be given a role here.
    await rejectsNaming(api.inviteToSite(org, site.id, { role: MemberRole.Read, users: [outsider.userId] }), 400, 'body/users/0');
  });

  test('every operation was exercised and conformed to the official spec', () => {
    session.assertConformed(OPERATIONS);
  });
});
