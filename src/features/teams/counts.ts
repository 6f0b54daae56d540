import type { AppContext } from '../../platform/context.ts';
import { spaceInScope, type OrgAccess } from '../access/service.ts';
import { listGrantsOfTeams } from '../grants/queries.ts';
import { listSpaceLevels } from '../spaces/queries.ts';
import type { TeamCounts } from './present.ts';
import { countMembersOfTeams } from './store.ts';

/**
 * The true counts of teams: their members, and the spaces they reach through grants (on the space, or on a
 * collection above it). `access` lends the organization's collection tree. A fixed number of queries whatever
 * the number of teams: members, grants and the organization's spaces are read once for all, and each team's
 * spaces counted in memory by the same rule as the SQL filter of spaces (`spaceInScope`).
 */
export async function teamCounts(ctx: AppContext, access: OrgAccess, teamIds: readonly string[]): Promise<Map<string, TeamCounts>> {
  const out = new Map<string, TeamCounts>();
  if (teamIds.length === 0) return out;
  const organizationId = access.organizationId;
  const [members, grants] = await Promise.all([countMembersOfTeams(ctx.db, teamIds), listGrantsOfTeams(ctx.db, organizationId, teamIds)]);
  // Only teams with grants reach spaces: an organization whose teams have none is not read.
  const spaces = grants.length > 0 ? await listSpaceLevels(ctx.db, organizationId) : [];
  for (const teamId of teamIds) {
    const own = grants.filter((g) => g.subject_id === teamId);
    let count = 0;
    if (own.length > 0) {
      const grantedSpaces = own.filter((g) => g.target_type === 'space').map((g) => g.target_id);
      const grantedCollections = new Set<string>();
      for (const g of own) if (g.target_type === 'collection') for (const id of await access.subtreeOf(g.target_id)) grantedCollections.add(id);
      const scope = { everything: false, readableCollections: [], topLevel: false, explicitLevels: false, grantedSpaces, grantedCollections: [...grantedCollections] };
      for (const space of spaces) if (spaceInScope(scope, space)) count += 1;
    }
    out.set(teamId, { members: members.get(teamId) ?? 0, spaces: count });
  }
  return out;
}
