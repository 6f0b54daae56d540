import { sql } from 'kysely';
import type { Executor, TeamsTable } from '../../db/types.ts';
import { keysetPage } from '../../db/keyset.ts';
import type { PageRequest } from '../../platform/pagination.ts';
import { containsPattern } from '../../db/dialect.ts';

export type TeamRow = TeamsTable;

export interface TeamFilter {
  organizationId: string;
  /** Case-insensitive substring of the title. */
  title?: string | undefined;
  /** Only the teams this user owns. */
  ownedBy?: string | undefined;
  /** Only the teams this user is in (any role). */
  memberId?: string | undefined;
}

export async function findTeam(db: Executor, organizationId: string, id: string): Promise<TeamRow | undefined> {
  return db.selectFrom('teams').selectAll().where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
}

export async function findTeams(db: Executor, organizationId: string, ids: readonly string[]): Promise<TeamRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('teams').selectAll().where('organization_id', '=', organizationId).where('id', 'in', ids).execute();
}

export async function insertTeam(db: Executor, row: TeamRow): Promise<void> {
  await db.insertInto('teams').values(row).execute();
}

export async function updateTeam(db: Executor, id: string, changes: Partial<TeamRow>): Promise<void> {
  await db.updateTable('teams').set(changes).where('id', '=', id).execute();
}

/** A team goes with its memberships (cascade) and the grants given to it (on content and on sites). */
export async function deleteTeam(db: Executor, organizationId: string, id: string): Promise<void> {
  await db.deleteFrom('content_grants').where('organization_id', '=', organizationId).where('subject_type', '=', 'team').where('subject_id', '=', id).execute();
  await db.deleteFrom('site_grants').where('subject_type', '=', 'team').where('subject_id', '=', id).execute();
  await db.deleteFrom('teams').where('id', '=', id).execute();
}

function filtered(db: Executor, filter: TeamFilter) {
  let q = db.selectFrom('teams').where('teams.organization_id', '=', filter.organizationId);
  if (filter.title !== undefined && filter.title !== '') {
    q = q.where(sql<boolean>`lower(teams.title) like ${containsPattern(filter.title)} escape '\\'`);
  }
  if (filter.ownedBy !== undefined) {
    const userId = filter.ownedBy;
    q = q.where('teams.id', 'in', (eb) =>
      eb.selectFrom('team_members').select('team_members.team_id').where('team_members.user_id', '=', userId).where('team_members.role', '=', 'owner'),
    );
  }
  if (filter.memberId !== undefined) {
    const userId = filter.memberId;
    q = q.where('teams.id', 'in', (eb) => eb.selectFrom('team_members').select('team_members.team_id').where('team_members.user_id', '=', userId));
  }
  return q;
}

/** Teams in creation order. */
export async function listTeams(db: Executor, filter: TeamFilter, page: PageRequest): Promise<TeamRow[]> {
  return keysetPage(filtered(db, filter).selectAll('teams'), ['teams.created_at', 'teams.id'], 'asc', page).execute();
}

export async function countTeams(db: Executor, filter: TeamFilter): Promise<number> {
  const row = await filtered(db, filter)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Members of each team. */
export async function countMembersOfTeams(db: Executor, teamIds: readonly string[]): Promise<Map<string, number>> {
  if (teamIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('team_members')
    .innerJoin('teams', 'teams.id', 'team_members.team_id')
    .innerJoin('members', (join) => join.onRef('members.user_id', '=', 'team_members.user_id').onRef('members.organization_id', '=', 'teams.organization_id'))
    .select(['team_members.team_id'])
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('team_members.team_id', 'in', teamIds)
    .groupBy('team_members.team_id')
    .execute();
  return new Map(rows.map((r) => [r.team_id, Number(r.n)]));
}

/** The role of one user in each of the given teams (teams they are not in are absent). */
export async function teamRolesOfUser(db: Executor, userId: string, teamIds: readonly string[]): Promise<Map<string, string>> {
  if (teamIds.length === 0) return new Map();
  const rows = await db.selectFrom('team_members').select(['team_id', 'role']).where('user_id', '=', userId).where('team_id', 'in', teamIds).execute();
  return new Map(rows.map((r) => [r.team_id, r.role]));
}

export async function findTeamMember(db: Executor, teamId: string, userId: string) {
  return db.selectFrom('team_members').selectAll().where('team_id', '=', teamId).where('user_id', '=', userId).executeTakeFirst();
}

/** Adds a user to a team, or changes their role there. */
export async function upsertTeamMember(db: Executor, row: { team_id: string; user_id: string; role: string; added_at: string }): Promise<void> {
  await db
    .insertInto('team_members')
    .values(row)
    .onConflict((oc) => oc.columns(['team_id', 'user_id']).doUpdateSet({ role: row.role }))
    .execute();
}

/** Adds a user to a team with `role`; one already in it keeps the role they have. */
export async function addTeamMemberKeepingRole(db: Executor, row: { team_id: string; user_id: string; role: string; added_at: string }): Promise<void> {
  await db
    .insertInto('team_members')
    .values(row)
    .onConflict((oc) => oc.columns(['team_id', 'user_id']).doNothing())
    .execute();
}

export async function deleteTeamMembers(db: Executor, teamId: string, userIds: readonly string[]): Promise<void> {
  if (userIds.length === 0) return;
  await db.deleteFrom('team_members').where('team_id', '=', teamId).where('user_id', 'in', userIds).execute();
}

/** Members of a team in the order they were added (only organization members: guests included, leavers not). */
function membershipsOf(db: Executor, organizationId: string, teamId: string) {
  return db
    .selectFrom('team_members')
    .innerJoin('members', (join) => join.onRef('members.user_id', '=', 'team_members.user_id').on('members.organization_id', '=', organizationId))
    .where('team_members.team_id', '=', teamId);
}

export async function listTeamMemberships(db: Executor, organizationId: string, teamId: string, page: PageRequest) {
  const query = membershipsOf(db, organizationId, teamId).select(['team_members.user_id', 'team_members.role', 'team_members.added_at']);
  return keysetPage(query, ['team_members.added_at', 'team_members.user_id'], 'asc', page).execute();
}

export async function countTeamMemberships(db: Executor, organizationId: string, teamId: string): Promise<number> {
  const row = await membershipsOf(db, organizationId, teamId)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
