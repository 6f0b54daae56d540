import { sql } from 'kysely';
import type { Role } from '../access/roles.ts';
import type { Executor, MembersTable, UsersTable } from '../../db/types.ts';
import { containsPattern, isPostgres } from '../../db/dialect.ts';
import { keysetPage } from '../../db/keyset.ts';
import type { PageRequest } from '../../platform/pagination.ts';

/** A membership with its user, as members are presented. */
export type MemberRow = MembersTable & Pick<UsersTable, 'display_name' | 'email' | 'photo_url'>;

export interface MemberFilter {
  organizationId: string;
  /** A role, or 'guest' for members without one. */
  role?: Role | 'guest' | undefined;
  /** Case-insensitive substring of the display name or the e-mail. */
  search?: string | undefined;
  /** Only members seen at least once (the list sorted by last-seen time). */
  seenOnly?: boolean;
}

export const MEMBER_SORT_COLUMNS = {
  joinedAt: ['members.joined_at', 'members.user_id'],
  lastSeenAt: ['members.last_seen_at', 'members.user_id'],
} as const;

export async function findMember(db: Executor, organizationId: string, userId: string) {
  return db.selectFrom('members').selectAll().where('organization_id', '=', organizationId).where('user_id', '=', userId).executeTakeFirst();
}

/** The ids among `userIds` that are members of the organization (guests included). */
export async function memberIdsAmong(db: Executor, organizationId: string, userIds: readonly string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db.selectFrom('members').select('user_id').where('organization_id', '=', organizationId).where('user_id', 'in', [...userIds]).execute();
  return new Set(rows.map((row) => row.user_id));
}

export async function insertMemberRow(db: Executor, row: { organization_id: string; user_id: string; role: Role | null; joined_at: string; sso?: number }) {
  await db.insertInto('members').values({ disabled: 0, sso: 0, last_seen_at: null, ...row }).execute();
}

export async function setMemberRole(db: Executor, organizationId: string, userId: string, role: Role | null) {
  await db.updateTable('members').set({ role }).where('organization_id', '=', organizationId).where('user_id', '=', userId).execute();
}

export async function updateMember(db: Executor, organizationId: string, userId: string, changes: Partial<Pick<MembersTable, 'role' | 'sso' | 'last_seen_at' | 'disabled'>>) {
  await db.updateTable('members').set(changes).where('organization_id', '=', organizationId).where('user_id', '=', userId).execute();
}

/**
 * Removes a membership with what only made sense inside the organization: the user's places in its teams and
 * the grants given to them there. What they wrote stays.
 */
export async function deleteMember(db: Executor, organizationId: string, userId: string): Promise<boolean> {
  await db
    .deleteFrom('team_members')
    .where('user_id', '=', userId)
    .where('team_id', 'in', db.selectFrom('teams').select('id').where('organization_id', '=', organizationId))
    .execute();
  await db.deleteFrom('content_grants').where('organization_id', '=', organizationId).where('subject_type', '=', 'user').where('subject_id', '=', userId).execute();
  await db
    .deleteFrom('site_grants')
    .where('subject_type', '=', 'user')
    .where('subject_id', '=', userId)
    .where('site_id', 'in', db.selectFrom('sites').select('id').where('organization_id', '=', organizationId))
    .execute();
  const result = await db.deleteFrom('members').where('organization_id', '=', organizationId).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Active admins of an organization, for the rule that the last one stays. */
export async function countAdmins(db: Executor, organizationId: string): Promise<number> {
  const row = await db
    .selectFrom('members')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('organization_id', '=', organizationId)
    .where('role', '=', 'admin')
    .where('disabled', '=', 0)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Serializes changes to an organization's admins: on PostgreSQL two transactions could otherwise each demote
 * one of the last two admins. SQLite runs one write transaction at a time already.
 */
export async function lockOrganizationMembership(db: Executor, organizationId: string): Promise<void> {
  if (isPostgres(db)) await db.selectFrom('organizations').select('id').where('id', '=', organizationId).forUpdate().execute();
}

function memberQuery(db: Executor) {
  return db
    .selectFrom('members')
    .innerJoin('users', 'users.id', 'members.user_id')
    .selectAll('members')
    .select(['users.display_name', 'users.email', 'users.photo_url']);
}

export async function findMemberWithUser(db: Executor, organizationId: string, userId: string): Promise<MemberRow | undefined> {
  return memberQuery(db).where('members.organization_id', '=', organizationId).where('members.user_id', '=', userId).executeTakeFirst();
}

export async function findMembersWithUsers(db: Executor, organizationId: string, userIds: readonly string[]): Promise<MemberRow[]> {
  if (userIds.length === 0) return [];
  return memberQuery(db).where('members.organization_id', '=', organizationId).where('members.user_id', 'in', userIds).execute();
}

/**
 * Every active member of an organization with their user, by user id (bounded): for lists
 * computed from each member's effective role, which SQL cannot filter on.
 */
export async function listActiveMembersByUser(db: Executor, organizationId: string, limit: number): Promise<MemberRow[]> {
  return memberQuery(db).where('members.organization_id', '=', organizationId).where('members.disabled', '=', 0).orderBy('members.user_id').limit(limit).execute();
}

function filtered(db: Executor, filter: MemberFilter) {
  let q = memberQuery(db).where('members.organization_id', '=', filter.organizationId);
  if (filter.role === 'guest') q = q.where('members.role', 'is', null);
  else if (filter.role !== undefined) q = q.where('members.role', '=', filter.role);
  if (filter.seenOnly) q = q.where('members.last_seen_at', 'is not', null);
  if (filter.search !== undefined && filter.search !== '') {
    const pattern = containsPattern(filter.search);
    q = q.where(sql<boolean>`(lower(users.display_name) like ${pattern} escape '\\' or lower(users.email) like ${pattern} escape '\\')`);
  }
  return q;
}

export async function listMembers(
  db: Executor,
  filter: MemberFilter,
  sort: keyof typeof MEMBER_SORT_COLUMNS,
  order: 'asc' | 'desc',
  page: PageRequest,
): Promise<MemberRow[]> {
  return keysetPage(filtered(db, filter), MEMBER_SORT_COLUMNS[sort], order, page).execute();
}

export async function countMembers(db: Executor, filter: MemberFilter): Promise<number> {
  const row = await filtered(db, filter)
    .clearSelect()
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** How many teams of the organization each user is in. */
export async function countTeamsOfUsers(db: Executor, organizationId: string, userIds: readonly string[]): Promise<Map<string, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('team_members')
    .innerJoin('teams', 'teams.id', 'team_members.team_id')
    .select(['team_members.user_id'])
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('teams.organization_id', '=', organizationId)
    .where('team_members.user_id', 'in', userIds)
    .groupBy('team_members.user_id')
    .execute();
  return new Map(rows.map((r) => [r.user_id, Number(r.n)]));
}

/** Members of an organization named by user id or e-mail: the user id of each reference that names one. */
export async function resolveMemberRefs(db: Executor, organizationId: string, refs: readonly string[]): Promise<Map<string, string>> {
  if (refs.length === 0) return new Map();
  const emails = refs.filter((r) => r.includes('@')).map((r) => r.trim().toLowerCase());
  const ids = refs.filter((r) => !r.includes('@'));
  const rows = await db
    .selectFrom('members')
    .innerJoin('users', 'users.id', 'members.user_id')
    .select(['members.user_id', 'users.email'])
    .where('members.organization_id', '=', organizationId)
    .where((eb) => {
      const any = [];
      if (ids.length > 0) any.push(eb('members.user_id', 'in', ids));
      if (emails.length > 0) any.push(eb('users.email', 'in', emails));
      return eb.or(any);
    })
    .execute();
  const byId = new Map(rows.map((r) => [r.user_id, r.user_id]));
  const byEmail = new Map(rows.filter((r) => r.email).map((r) => [r.email!, r.user_id]));
  const out = new Map<string, string>();
  for (const ref of refs) {
    const userId = ref.includes('@') ? byEmail.get(ref.trim().toLowerCase()) : byId.get(ref);
    if (userId) out.set(ref, userId);
  }
  return out;
}

/**
 * An e-mail invitation waiting for its account's owner to prove the address (the account exists and its address
 * is unproven: whoever made it may not own the mailbox). Invited again, the newer role wins.
 */
export async function savePendingInvitation(db: Executor, row: { organization_id: string; user_id: string; role: Role | null; sso: number; invited_by: string | null; created_at: string }) {
  await db
    .insertInto('pending_invitations')
    .values(row)
    .onConflict((oc) => oc.columns(['organization_id', 'user_id']).doUpdateSet({ role: row.role, sso: row.sso, invited_by: row.invited_by, created_at: row.created_at }))
    .execute();
}

export async function findPendingInvitation(db: Executor, organizationId: string, userId: string) {
  return db.selectFrom('pending_invitations').selectAll().where('organization_id', '=', organizationId).where('user_id', '=', userId).executeTakeFirst();
}

/** Takes the person's waiting invitations off the table and answers them (their address is now proven). */
export async function takePendingInvitationsOf(db: Executor, userId: string) {
  const rows = await db.selectFrom('pending_invitations').selectAll().where('user_id', '=', userId).orderBy('created_at').execute();
  if (rows.length > 0) await db.deleteFrom('pending_invitations').where('user_id', '=', userId).execute();
  return rows;
}
