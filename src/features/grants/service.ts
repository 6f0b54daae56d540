import type { Static } from 'typebox';
import { type AppContext, type Caller, personOf } from '../../platform/context.ts';
import { badRequest, isNotFound, notFound } from '../../platform/errors.ts';
import { isoNow } from '../../platform/clock.ts';
import { recordEvent } from '../../platform/events.ts';
import { membershipOf, type AccessNode, type GrantRow, type OrgAccess } from '../access/service.ts';
import { listGrantsReachingUsers } from '../access/queries.ts';
import type { Role } from '../access/roles.ts';
import { loadCollection } from '../collections/service.ts';
import { loadSpace } from '../spaces/service.ts';
import { findMember, listActiveMembersByUser } from '../members/queries.ts';
import { presentTeams } from '../teams/service.ts';
import { findTeam, findTeams } from '../teams/queries.ts';
import { presentUser } from '../users/present.ts';
import { assertCanManageGrants } from './policy.ts';
import type { InviteToContentBody } from './schemas.ts';
import { countGrants, deleteGrant, listTeamGrants, listUserGrants, upsertGrant, type GrantSubject, type GrantTarget } from './store.ts';

export type GrantKind = 'space' | 'collection';

/**
 * A space or collection the caller can read (404 otherwise), as a grant target, with the caller's role on it and
 * the row the access policy reads (`node`).
 */
async function loadTarget(ctx: AppContext, caller: Caller, kind: GrantKind, id: string): Promise<{ target: GrantTarget; node: AccessNode; access: OrgAccess; role: Role }> {
  if (kind === 'space') {
    const { space, access, role } = await loadSpace(ctx, caller, id);
    return { target: { type: 'space', id: space.id, organizationId: space.organization_id }, node: space, access, role };
  }
  const { collection, access, role } = await loadCollection(ctx, caller, id);
  return { target: { type: 'collection', id: collection.id, organizationId: collection.organization_id }, node: collection, access, role };
}

async function assertSubjectInOrganization(ctx: AppContext, organizationId: string, subject: GrantSubject, id: string, field: string): Promise<void> {
  const found = subject === 'user' ? await findMember(ctx.db, organizationId, id) : await findTeam(ctx.db, organizationId, id);
  if (!found) throw notFound(`${field}: no ${subject === 'user' ? 'member' : 'team'} ${id} in this organization`);
}

async function recordChange(ctx: AppContext, target: GrantTarget, db: Parameters<typeof recordEvent>[0]) {
  await recordEvent(db, ctx.clock, `${target.type}_permissions_updated`, target.organizationId, { [`${target.type}Id`]: target.id });
}

export async function listUserPermissions(ctx: AppContext, caller: Caller, kind: GrantKind, id: string, query: { page?: string; limit?: number }) {
  const { target } = await loadTarget(ctx, caller, kind, id);
  const listKey = `grants:users:${target.id}`;
  const page = ctx.cursors.open(listKey, query, ctx.config.defaultPageSize);
  const [rows, count] = await Promise.all([listUserGrants(ctx.db, target, page), countGrants(ctx.db, target, 'user')]);
  return ctx.cursors.close(
    listKey,
    page,
    rows,
    count,
    (row) => [row.created_at, row.subject_id],
    (row) => ({ permission: row.role as Role, user: presentUser(ctx.config, row) }),
  );
}

export async function listTeamPermissions(ctx: AppContext, caller: Caller, kind: GrantKind, id: string, query: { page?: string; limit?: number }) {
  const { target, access } = await loadTarget(ctx, caller, kind, id);
  const listKey = `grants:teams:${target.id}`;
  const page = ctx.cursors.open(listKey, query, ctx.config.defaultPageSize);
  const [rows, count] = await Promise.all([listTeamGrants(ctx.db, target, page), countGrants(ctx.db, target, 'team')]);
  const teams = await presentTeams(ctx, access, personOf(caller), rows.slice(0, page.limit));
  return ctx.cursors.close(
    listKey,
    page,
    rows,
    count,
    (row) => [row.granted_at, row.subject_id],
    (row) => ({ permission: row.role as Role, team: teams.get(row.id)! }),
  );
}

/** Members whose effective roles are computed for one aggregate list, at most: the list is built in memory. */
const AGGREGATE_MEMBER_LIMIT = 10_000;

/**
 * listPermissionsAggregateInSpace and listPermissionsAggregateInCollection: every member who holds a role on the
 * space or collection, whatever it comes from (their organization role, its default level or an enclosing
 * collection's, a grant to them or to a team of theirs), by the same policy that answers their requests. Grants
 * of all members are read in one query.
 */
export async function listPermissionsAggregate(ctx: AppContext, caller: Caller, kind: GrantKind, id: string, query: { page?: string; limit?: number; role?: Role | undefined }) {
  const { target, node, access } = await loadTarget(ctx, caller, kind, id);
  const members = await listActiveMembersByUser(ctx.db, target.organizationId, AGGREGATE_MEMBER_LIMIT);
  const grants = await listGrantsReachingUsers(ctx.db, target.organizationId, members.map((m) => m.user_id));
  const grantsOf = new Map<string, GrantRow[]>();
  for (const g of grants) grantsOf.set(g.user_id, [...(grantsOf.get(g.user_id) ?? []), g]);
  const holders: { row: (typeof members)[number]; role: Role }[] = [];
  for (const row of members) {
    const role = await access.peer(row.user_id, membershipOf(row), false, grantsOf.get(row.user_id) ?? []).roleOn(node);
    if (role !== null && (query.role === undefined || role === query.role)) holders.push({ row, role });
  }
  // The cursor compares ids as JavaScript does, whatever the database's collation.
  holders.sort((a, b) => (a.row.user_id < b.row.user_id ? -1 : a.row.user_id > b.row.user_id ? 1 : 0));
  const listKey = `grants:aggregate:${target.id}:${query.role ?? ''}`;
  const page = ctx.cursors.open(listKey, query, ctx.config.defaultPageSize);
  const after = page.after?.[0];
  const from = after === undefined ? holders : holders.filter((h) => h.row.user_id > String(after));
  return ctx.cursors.close(listKey, page, from.slice(0, page.limit + 1), holders.length, (h) => [h.row.user_id], (h) => ({
    permission: h.role,
    user: presentUser(ctx.config, { id: h.row.user_id, display_name: h.row.display_name, email: h.row.email, photo_url: h.row.photo_url }),
  }));
}

/** Gives a role to members and teams at once (null takes their grants away). Every one named must exist. */
export async function inviteToContent(ctx: AppContext, caller: Caller, kind: GrantKind, id: string, body: Static<typeof InviteToContentBody>): Promise<void> {
  const { target, role } = await loadTarget(ctx, caller, kind, id);
  assertCanManageGrants(role, kind);
  const users = [...new Set(body.users ?? [])];
  const teamIds = [...new Set(body.teams ?? [])];
  if (users.length === 0 && teamIds.length === 0) throw badRequest('body must name at least one of users or teams');
  for (const [i, userId] of users.entries()) await assertSubjectInOrganization(ctx, target.organizationId, 'user', userId, `body/users/${i}`);
  const teams = new Set((await findTeams(ctx.db, target.organizationId, teamIds)).map((t) => t.id));
  teamIds.forEach((teamId, i) => {
    if (!teams.has(teamId)) throw notFound(`body/teams/${i}: no team ${teamId} in this organization`);
  });
  const now = isoNow(ctx.clock);
  await ctx.db.transaction().execute(async (trx) => {
    for (const [subject, ids] of [['user', users], ['team', teamIds]] as const) {
      for (const subjectId of ids) {
        if (body.role === null) await deleteGrant(trx, target.id, subject, subjectId);
        else await upsertGrant(trx, target, subject, subjectId, body.role, now);
      }
    }
    await recordChange(ctx, target, trx);
  });
}

/** Sets the role of one member or team (null takes it away). */
export async function setGrant(ctx: AppContext, caller: Caller, kind: GrantKind, id: string, subject: GrantSubject, subjectId: string, newRole: Role | null): Promise<void> {
  const { target, role } = await loadTarget(ctx, caller, kind, id);
  assertCanManageGrants(role, kind);
  await assertSubjectInOrganization(ctx, target.organizationId, subject, subjectId, subject === 'user' ? 'userId' : 'teamId');
  await ctx.db.transaction().execute(async (trx) => {
    if (newRole === null) await deleteGrant(trx, target.id, subject, subjectId);
    else await upsertGrant(trx, target, subject, subjectId, newRole, isoNow(ctx.clock));
    await recordChange(ctx, target, trx);
  });
}

/** Takes a member's or team's grant away; succeeds when there was none. */
export async function removeGrant(ctx: AppContext, caller: Caller, kind: GrantKind, id: string, subject: GrantSubject, subjectId: string): Promise<void> {
  let loaded;
  try {
    loaded = await loadTarget(ctx, caller, kind, id);
  } catch (error) {
    // No grant can be there for this caller on a space or collection they cannot see: 204, as for a missing one.
    if (isNotFound(error)) return;
    throw error;
  }
  const { target, role } = loaded;
  assertCanManageGrants(role, kind);
  await ctx.db.transaction().execute(async (trx) => {
    if (await deleteGrant(trx, target.id, subject, subjectId)) await recordChange(ctx, target, trx);
  });
}
