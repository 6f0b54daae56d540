import type { ExpressionBuilder } from 'kysely';
import type { Database, Executor } from '../../db/types.ts';

/**
 * `owns_team`: whether the user owns a team of the organization (its id, or a column holding it), as a
 * selection of any query over members or organizations.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function ownsTeamIn(eb: ExpressionBuilder<Database, any>, userId: string, organization: string | { column: 'organizations.id' }) {
  let teams = eb
    .selectFrom('team_members')
    .innerJoin('teams', 'teams.id', 'team_members.team_id')
    .select('team_members.team_id')
    .where('team_members.user_id', '=', userId)
    .where('team_members.role', '=', 'owner');
  teams = typeof organization === 'string' ? teams.where('teams.organization_id', '=', organization) : teams.whereRef('teams.organization_id', '=', organization.column);
  return eb.exists(teams).as('owns_team');
}

/** A user's membership of an organization, and whether they own one of its teams (for `permissions.ownTeam`). */
export async function findMemberRole(db: Executor, organizationId: string, userId: string) {
  return db
    .selectFrom('members')
    .select(['role', 'disabled'])
    .select((eb) => ownsTeamIn(eb, userId, organizationId))
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** The whole collection tree of an organization, as far as access is concerned (small: ids and levels). */
export async function listCollectionLevels(db: Executor, organizationId: string) {
  return db.selectFrom('collections').select(['id', 'parent_id', 'default_level']).where('organization_id', '=', organizationId).execute();
}

/** Every grant a user holds in an organization: given to them, or to a team of the organization they are in. */
export async function listGrantsReachingUser(db: Executor, organizationId: string, userId: string) {
  return db
    .selectFrom('content_grants')
    .select(['target_type', 'target_id', 'role'])
    .where('organization_id', '=', organizationId)
    .where((eb) =>
      eb.or([
        eb.and([eb('subject_type', '=', 'user'), eb('subject_id', '=', userId)]),
        eb.and([
          eb('subject_type', '=', 'team'),
          eb(
            'subject_id',
            'in',
            eb
              .selectFrom('team_members')
              .innerJoin('teams', 'teams.id', 'team_members.team_id')
              .select('team_members.team_id')
              .where('team_members.user_id', '=', userId)
              .where('teams.organization_id', '=', organizationId),
          ),
        ]),
      ]),
    )
    .execute();
}

/**
 * The grants reaching each of several users of an organization (theirs, and their teams'), in one query: the
 * counts of a member list page read them at once instead of once per member.
 */
export async function listGrantsReachingUsers(db: Executor, organizationId: string, userIds: readonly string[]) {
  if (userIds.length === 0) return [];
  const own = db
    .selectFrom('content_grants')
    .select(['content_grants.subject_id as user_id', 'content_grants.target_type', 'content_grants.target_id', 'content_grants.role'])
    .where('content_grants.organization_id', '=', organizationId)
    .where('content_grants.subject_type', '=', 'user')
    .where('content_grants.subject_id', 'in', userIds);
  const throughTeams = db
    .selectFrom('content_grants')
    .innerJoin('team_members', 'team_members.team_id', 'content_grants.subject_id')
    .innerJoin('teams', 'teams.id', 'team_members.team_id')
    .select(['team_members.user_id as user_id', 'content_grants.target_type', 'content_grants.target_id', 'content_grants.role'])
    .where('content_grants.organization_id', '=', organizationId)
    .where('content_grants.subject_type', '=', 'team')
    .where('teams.organization_id', '=', organizationId)
    .where('team_members.user_id', 'in', userIds);
  return own.unionAll(throughTeams).execute();
}

/**
 * The spaces and sites an installation is on, or undefined when it no longer exists (uninstalled). Read for
 * every request of an installation token: two small indexed reads.
 */
export async function findInstallationReach(db: Executor, installationId: string) {
  const installation = await db
    .selectFrom('integration_installations')
    .select(['space_selection', 'site_selection'])
    .where('id', '=', installationId)
    .executeTakeFirst();
  if (!installation) return undefined;
  const [spaces, sites] = await Promise.all([
    db.selectFrom('integration_space_installations').select('space_id').where('installation_id', '=', installationId).execute(),
    db.selectFrom('integration_site_installations').select('site_id').where('installation_id', '=', installationId).execute(),
  ]);
  return {
    allSpaces: installation.space_selection === 'all',
    allSites: installation.site_selection === 'all',
    spaces: spaces.map((r) => r.space_id),
    sites: sites.map((r) => r.site_id),
  };
}
