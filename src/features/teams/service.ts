import type { Static } from 'typebox';
import { type AppContext, type Caller, personOf } from '../../platform/context.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { isoNow } from '../../platform/clock.ts';
import { recordEvent } from '../../platform/events.ts';
import { OrgAccess } from '../access/service.ts';
import { assertOrganizationVisible } from '../organizations/policy.ts';
import { memberCounts } from '../members/counts.ts';
import { presentMember } from '../members/present.ts';
import { findMember, findMembersWithUsers, resolveMemberRefs } from '../members/queries.ts';
import { teamCounts } from './counts.ts';
import { assertCanAdministerTeams, assertCanListTeams, assertCanManageTeam, assertCanViewTeam, teamPermissions } from './policy.ts';
import { presentTeam } from './present.ts';
import type { CreateTeamBody, ListTeamsQuery, PutTeamMemberBody, UpdateTeamMembersBody } from './schemas.ts';
import {
  addTeamMemberKeepingRole,
  countTeamMemberships,
  countTeams,
  deleteTeam,
  deleteTeamMembers,
  findTeam,
  findTeamMember,
  insertTeam,
  listTeamMemberships,
  listTeams,
  teamRolesOfUser,
  updateTeam,
  upsertTeamMember,
  type TeamFilter,
  type TeamRow,
} from './store.ts';

/** A team of an organization the caller can see, with the caller's standing in it; 404 otherwise. */
async function loadTeam(ctx: AppContext, caller: Caller, organizationId: string, teamId: string) {
  const access = await OrgAccess.load(ctx.db, organizationId, caller);
  assertOrganizationVisible(access);
  const team = await findTeam(ctx.db, organizationId, teamId);
  if (!team) throw notFound(`No team ${teamId} in organization ${organizationId}`);
  const standing = (await findTeamMember(ctx.db, team.id, personOf(caller)))?.role;
  return { access, team, standing };
}

/** Teams as the caller sees them: exact counts and the caller's permissions on each. */
export async function presentTeams(ctx: AppContext, access: OrgAccess, callerId: string, rows: readonly TeamRow[]) {
  const ids = rows.map((r) => r.id);
  const [counts, standings] = await Promise.all([teamCounts(ctx, access, ids), teamRolesOfUser(ctx.db, callerId, ids)]);
  return new Map(rows.map((row) => [row.id, presentTeam(row, counts.get(row.id)!, teamPermissions(access, standings.get(row.id)))]));
}

async function presentOne(ctx: AppContext, access: OrgAccess, callerId: string, row: TeamRow) {
  return (await presentTeams(ctx, access, callerId, [row])).get(row.id)!;
}

function cleanTitle(title: string): string {
  const trimmed = title.trim();
  if (trimmed.length === 0) throw badRequest('body/title must NOT have fewer than 1 characters');
  return trimmed;
}

/** User ids for the user references (ids or e-mails) of a body field; each must name a member. */
async function membersNamed(ctx: AppContext, organizationId: string, field: string, refs: readonly string[]): Promise<Map<string, string>> {
  const found = await resolveMemberRefs(ctx.db, organizationId, refs);
  refs.forEach((ref, i) => {
    if (!found.has(ref)) throw badRequest(`${field}/${i}: "${ref}" is not a member of this organization`);
  });
  return found;
}

export async function listTeamsOfOrganization(ctx: AppContext, caller: Caller, organizationId: string, query: Static<typeof ListTeamsQuery>) {
  const access = await OrgAccess.load(ctx.db, organizationId, caller);
  assertCanListTeams(access);
  const filter: TeamFilter = { organizationId, title: query.title };
  let nothing = false;
  if (query.owner !== undefined) {
    // The teams a member can manage: all of them for an organization admin, the teams they own otherwise.
    const owner = await OrgAccess.loadForUser(ctx.db, organizationId, query.owner);
    if (!owner.isMember) nothing = true;
    else if (owner.orgRole !== 'admin') filter.ownedBy = query.owner;
  }
  const listKey = `teams:${organizationId}:${query.owner ?? ''}:${query.title ?? ''}`;
  const page = ctx.cursors.open(listKey, query, ctx.config.defaultPageSize);
  const [rows, count] = nothing ? [[], 0] : await Promise.all([listTeams(ctx.db, filter, page), countTeams(ctx.db, filter)]);
  const presented = await presentTeams(ctx, access, personOf(caller), rows.slice(0, page.limit));
  return ctx.cursors.close(listKey, page, rows, count, (row) => [row.created_at, row.id], (row) => presented.get(row.id)!);
}

export async function createTeam(ctx: AppContext, caller: Caller, organizationId: string, body: Static<typeof CreateTeamBody>) {
  const access = await OrgAccess.load(ctx.db, organizationId, caller);
  assertCanAdministerTeams(access);
  const title = cleanTitle(body.title);
  const refs = [...new Set(body.members ?? [])];
  const members = await membersNamed(ctx, organizationId, 'body/members', refs);
  const now = isoNow(ctx.clock);
  const row: TeamRow = { id: newId(), organization_id: organizationId, title, created_at: now, updated_at: now };
  await ctx.db.transaction().execute(async (trx) => {
    await insertTeam(trx, row);
    for (const userId of new Set(members.values())) await addTeamMemberKeepingRole(trx, { team_id: row.id, user_id: userId, role: 'member', added_at: now });
    await recordEvent(trx, ctx.clock, 'team_created', organizationId, { teamId: row.id });
  });
  return presentOne(ctx, access, personOf(caller), row);
}

export async function getTeam(ctx: AppContext, caller: Caller, organizationId: string, teamId: string) {
  const { access, team, standing } = await loadTeam(ctx, caller, organizationId, teamId);
  assertCanViewTeam(access, standing);
  return presentOne(ctx, access, personOf(caller), team);
}

export async function renameTeam(ctx: AppContext, caller: Caller, organizationId: string, teamId: string, title: string) {
  const { access, team, standing } = await loadTeam(ctx, caller, organizationId, teamId);
  assertCanManageTeam(access, standing);
  const changes = { title: cleanTitle(title), updated_at: isoNow(ctx.clock) };
  await ctx.db.transaction().execute(async (trx) => {
    await updateTeam(trx, team.id, changes);
    await recordEvent(trx, ctx.clock, 'team_updated', organizationId, { teamId: team.id });
  });
  return presentOne(ctx, access, personOf(caller), { ...team, ...changes });
}

/** Deletes a team with its memberships and grants; its members lose what the team gave them. */
export async function removeTeam(ctx: AppContext, caller: Caller, organizationId: string, teamId: string): Promise<void> {
  const access = await OrgAccess.load(ctx.db, organizationId, caller);
  // In an organization the caller cannot see there is no team for them to delete: 204, as for any missing target.
  if (!access.isMember) return;
  assertCanAdministerTeams(access);
  const team = await findTeam(ctx.db, organizationId, teamId);
  if (!team) return;
  await ctx.db.transaction().execute(async (trx) => {
    await deleteTeam(trx, organizationId, team.id);
    await recordEvent(trx, ctx.clock, 'team_deleted', organizationId, { teamId: team.id });
  });
}

export async function listMembersOfTeam(ctx: AppContext, caller: Caller, organizationId: string, teamId: string, query: { page?: string; limit?: number }) {
  const { access, team, standing } = await loadTeam(ctx, caller, organizationId, teamId);
  assertCanViewTeam(access, standing);
  const listKey = `team-members:${team.id}`;
  const page = ctx.cursors.open(listKey, query, ctx.config.defaultPageSize);
  const [rows, count] = await Promise.all([listTeamMemberships(ctx.db, organizationId, team.id, page), countTeamMemberships(ctx.db, organizationId, team.id)]);
  const members = await findMembersWithUsers(ctx.db, organizationId, rows.slice(0, page.limit).map((r) => r.user_id));
  const counts = await memberCounts(ctx, access, members);
  const memberOf = new Map(members.map((m) => [m.user_id, m]));
  return ctx.cursors.close(
    listKey,
    page,
    rows,
    count,
    (r) => [r.added_at, r.user_id],
    (r) => ({
      organization: presentMember(ctx.config, memberOf.get(r.user_id)!, counts.get(r.user_id)!),
      team: { role: r.role as 'owner' | 'member' },
      permissions: { view: true },
    }),
  );
}

/**
 * Adds, updates and removes team members in one go. References are user ids or e-mails of organization
 * members. `memberships` sets roles (adding who is not in the team yet); a user both added and removed is
 * removed.
 */
export async function updateMembersOfTeam(ctx: AppContext, caller: Caller, organizationId: string, teamId: string, body: Static<typeof UpdateTeamMembersBody>) {
  const { access, team, standing } = await loadTeam(ctx, caller, organizationId, teamId);
  assertCanManageTeam(access, standing);
  const add = await membersNamed(ctx, organizationId, 'body/add', body.add ?? []);
  const remove = await membersNamed(ctx, organizationId, 'body/remove', body.remove ?? []);
  const membershipRefs = Object.keys(body.memberships ?? {});
  const roles = await resolveMemberRefs(ctx.db, organizationId, membershipRefs);
  for (const ref of membershipRefs) if (!roles.has(ref)) throw badRequest(`body/memberships/${ref}: not a member of this organization`);
  const roleOf = new Map<string, 'owner' | 'member'>();
  for (const ref of membershipRefs) roleOf.set(roles.get(ref)!, body.memberships![ref]!.role);
  const removed = new Set(remove.values());
  const now = isoNow(ctx.clock);
  await ctx.db.transaction().execute(async (trx) => {
    for (const userId of new Set(add.values())) {
      if (removed.has(userId) || roleOf.has(userId)) continue;
      await addTeamMemberKeepingRole(trx, { team_id: team.id, user_id: userId, role: 'member', added_at: now });
    }
    for (const [userId, role] of roleOf) if (!removed.has(userId)) await upsertTeamMember(trx, { team_id: team.id, user_id: userId, role, added_at: now });
    await deleteTeamMembers(trx, team.id, [...removed]);
    await recordEvent(trx, ctx.clock, 'team_members_updated', organizationId, { teamId: team.id });
  });
}

/** Adds a member of the organization to the team, or changes their role there. */
export async function putTeamMember(ctx: AppContext, caller: Caller, organizationId: string, teamId: string, userId: string, body: Static<typeof PutTeamMemberBody>) {
  const { access, team, standing } = await loadTeam(ctx, caller, organizationId, teamId);
  assertCanManageTeam(access, standing);
  if (!(await findMember(ctx.db, organizationId, userId))) throw notFound(`No member ${userId} in organization ${organizationId}`);
  const row = { team_id: team.id, user_id: userId, role: body.role ?? 'member', added_at: isoNow(ctx.clock) };
  await ctx.db.transaction().execute(async (trx) => {
    if (body.role) await upsertTeamMember(trx, row);
    else await addTeamMemberKeepingRole(trx, row);
    await recordEvent(trx, ctx.clock, 'team_members_updated', organizationId, { teamId: team.id });
  });
}

export async function removeTeamMember(ctx: AppContext, caller: Caller, organizationId: string, teamId: string, userId: string): Promise<void> {
  const access = await OrgAccess.load(ctx.db, organizationId, caller);
  // Deleting what does not exist (for this caller: in an organization they cannot see) succeeds.
  if (!access.isMember) return;
  const team = await findTeam(ctx.db, organizationId, teamId);
  if (!team) return;
  assertCanManageTeam(access, (await findTeamMember(ctx.db, team.id, personOf(caller)))?.role);
  await ctx.db.transaction().execute(async (trx) => {
    await deleteTeamMembers(trx, team.id, [userId]);
    await recordEvent(trx, ctx.clock, 'team_members_updated', organizationId, { teamId: team.id });
  });
}
