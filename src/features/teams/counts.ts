import type { AppContext } from '../../platform/context.ts';
import type { OrgAccess } from '../access/service.ts';
import { listGrantsOfTeams } from '../grants/queries.ts';
import { countSpaces } from '../spaces/queries.ts';
import type { TeamCounts } from './present.ts';
import { countMembersOfTeams } from './store.ts';

/**
 * The true counts of teams: their members, and the spaces they reach through grants (on the space, or on a
 * collection above it). `access` lends the organization's collection tree.
 */
export async function teamCounts(ctx: AppContext, access: OrgAccess, teamIds: readonly string[]): Promise<Map<string, TeamCounts>> {
  const organizationId = access.organizationId;
  const [members, grants] = await Promise.all([countMembersOfTeams(ctx.db, teamIds), listGrantsOfTeams(ctx.db, organizationId, teamIds)]);
  const out = new Map<string, TeamCounts>();
  for (const teamId of teamIds) {
    const own = grants.filter((g) => g.subject_id === teamId);
    let spaces = 0;
    if (own.length > 0) {
      const grantedSpaces = own.filter((g) => g.target_type === 'space').map((g) => g.target_id);
      const grantedCollections = new Set<string>();
      for (const g of own) if (g.target_type === 'collection') for (const id of await access.subtreeOf(g.target_id)) grantedCollections.add(id);
      spaces = await countSpaces(ctx.db, {
        organizationId,
        scope: { everything: false, readableCollections: [], topLevel: false, explicitLevels: false, grantedSpaces, grantedCollections: [...grantedCollections] },
      });
    }
    out.set(teamId, { members: members.get(teamId) ?? 0, spaces });
  }
  return out;
}
