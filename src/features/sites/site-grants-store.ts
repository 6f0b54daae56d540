import { sql } from 'kysely';
import type { Executor } from '../../db/types.ts';
import { keysetPage } from '../../db/keyset.ts';
import type { PageRequest } from '../../platform/pagination.ts';

export type SiteGrantSubject = 'user' | 'team';

/** Gives `role` on a site to a member or a team, replacing what they had there. */
export async function upsertSiteGrant(db: Executor, siteId: string, subject: SiteGrantSubject, subjectId: string, role: string, now: string): Promise<void> {
  await db
    .insertInto('site_grants')
    .values({ site_id: siteId, subject_type: subject, subject_id: subjectId, role, created_at: now, updated_at: now })
    .onConflict((oc) => oc.columns(['site_id', 'subject_type', 'subject_id']).doUpdateSet({ role, updated_at: now }))
    .execute();
}

export async function deleteSiteGrant(db: Executor, siteId: string, subject: SiteGrantSubject, subjectId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('site_grants')
    .where('site_id', '=', siteId)
    .where('subject_type', '=', subject)
    .where('subject_id', '=', subjectId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The members given a role on a site, with their user record, in the order they were given it. */
export async function listSiteUserGrants(db: Executor, siteId: string, page: PageRequest) {
  const query = db
    .selectFrom('site_grants')
    .innerJoin('users', 'users.id', 'site_grants.subject_id')
    .select(['site_grants.role', 'site_grants.created_at', 'site_grants.subject_id', 'users.id', 'users.display_name', 'users.email', 'users.photo_url'])
    .where('site_grants.site_id', '=', siteId)
    .where('site_grants.subject_type', '=', 'user');
  return keysetPage(query, ['site_grants.created_at', 'site_grants.subject_id'], 'asc', page).execute();
}

/** The teams given a role on a site, with the team record, in the order they were given it. */
export async function listSiteTeamGrants(db: Executor, siteId: string, page: PageRequest) {
  const query = db
    .selectFrom('site_grants')
    .innerJoin('teams', 'teams.id', 'site_grants.subject_id')
    .selectAll('teams')
    .select(['site_grants.role', 'site_grants.created_at as granted_at', 'site_grants.subject_id'])
    .where('site_grants.site_id', '=', siteId)
    .where('site_grants.subject_type', '=', 'team');
  return keysetPage(query, ['site_grants.created_at', 'site_grants.subject_id'], 'asc', page).execute();
}

/** How many members or teams hold a grant on the site (through the same join as the list: gone subjects do not count). */
export async function countSiteGrants(db: Executor, siteId: string, subject: SiteGrantSubject): Promise<number> {
  const base = db.selectFrom('site_grants').where('site_grants.site_id', '=', siteId).where('site_grants.subject_type', '=', subject);
  const row =
    subject === 'user'
      ? await base.innerJoin('users', 'users.id', 'site_grants.subject_id').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
      : await base.innerJoin('teams', 'teams.id', 'site_grants.subject_id').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Every grant on the sites of an organization (or only the given ones) that reaches the given users: given to
 * them, or to a team of the organization they are in (`team_id` then names it). One query for a whole list.
 */
export async function listSiteGrantsReachingUsers(db: Executor, organizationId: string, userIds: readonly string[], siteIds?: readonly string[]) {
  if (userIds.length === 0 || siteIds?.length === 0) return [];
  let own = db
    .selectFrom('site_grants')
    .innerJoin('sites', 'sites.id', 'site_grants.site_id')
    .select(['site_grants.subject_id as user_id', 'site_grants.site_id', 'site_grants.role', 'site_grants.subject_type'])
    .select(sql<string | null>`null`.as('team_id'))
    .where('sites.organization_id', '=', organizationId)
    .where('site_grants.subject_type', '=', 'user')
    .where('site_grants.subject_id', 'in', userIds);
  let throughTeams = db
    .selectFrom('site_grants')
    .innerJoin('sites', 'sites.id', 'site_grants.site_id')
    .innerJoin('team_members', 'team_members.team_id', 'site_grants.subject_id')
    .innerJoin('teams', 'teams.id', 'team_members.team_id')
    .select(['team_members.user_id as user_id', 'site_grants.site_id', 'site_grants.role', 'site_grants.subject_type', 'site_grants.subject_id as team_id'])
    .where('sites.organization_id', '=', organizationId)
    .where('site_grants.subject_type', '=', 'team')
    .where('teams.organization_id', '=', organizationId)
    .where('team_members.user_id', 'in', userIds);
  if (siteIds) {
    own = own.where('site_grants.site_id', 'in', siteIds);
    throughTeams = throughTeams.where('site_grants.site_id', 'in', siteIds);
  }
  return own.unionAll(throughTeams).execute();
}

export type SiteGrantReaching = Awaited<ReturnType<typeof listSiteGrantsReachingUsers>>[number];

/** The users in a team (to narrow an aggregate list to the team's members). */
export async function userIdsInTeam(db: Executor, teamId: string): Promise<string[]> {
  const rows = await db.selectFrom('team_members').select('user_id').where('team_id', '=', teamId).execute();
  return rows.map((r) => r.user_id);
}
