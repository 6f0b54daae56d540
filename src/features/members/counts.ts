import type { AppContext } from '../../platform/context.ts';
import { cachedReadMany, readCache } from '../../platform/read-cache.ts';
import { membershipOf, spaceInScope, type GrantRow, type OrgAccess } from '../access/service.ts';
import { listGrantsReachingUsers } from '../access/queries.ts';
import { listSpaceLevels } from '../spaces/queries.ts';
import type { MemberCounts } from './present.ts';
import { countTeamsOfUsers, type MemberRow } from './store.ts';

/**
 * The true counts of members: the spaces where each holds a role (by the same policy that answers their
 * requests) and the teams they are in. `access` is the caller's; its collection tree is shared. A fixed number
 * of queries whatever the number of rows: teams, grants and the organization's spaces are read once for all.
 */
export async function memberCounts(ctx: AppContext, access: OrgAccess, rows: readonly MemberRow[]): Promise<Map<string, MemberCounts>> {
  // Cached per member (platform/read-cache.ts), emptied by any write to what decides them.
  const cache = readCache<MemberCounts>(ctx.db, 'members:counts', { max: 10_000, ttlMs: 'shared', dependsOn: COUNTED_TABLES });
  const byUser = new Map(rows.map((row) => [row.user_id, row]));
  const counted = await cachedReadMany(cache, [...byUser.keys()].map((id) => `${access.organizationId} ${id}`), async (missing) => {
    const fresh = await readMemberCounts(ctx, access, missing.map((key) => byUser.get(key.slice(access.organizationId.length + 1))!));
    return new Map(missing.map((key) => [key, fresh.get(key.slice(access.organizationId.length + 1))!]));
  });
  return new Map(rows.map((row) => [row.user_id, counted.get(`${access.organizationId} ${row.user_id}`)!]));
}

/** What the counts of a member are read from: memberships, teams, grants, collections and spaces. */
export const COUNTED_TABLES = ['members', 'teams', 'team_members', 'content_grants', 'collections', 'spaces', 'organizations', 'users'];

async function readMemberCounts(ctx: AppContext, access: OrgAccess, rows: readonly MemberRow[]): Promise<Map<string, MemberCounts>> {
  const out = new Map<string, MemberCounts>();
  if (rows.length === 0) return out;
  const organizationId = access.organizationId;
  const userIds = rows.map((r) => r.user_id);
  const [teams, grants, spaces] = await Promise.all([
    countTeamsOfUsers(ctx.db, organizationId, userIds),
    listGrantsReachingUsers(ctx.db, organizationId, userIds),
    listSpaceLevels(ctx.db, organizationId),
  ]);
  const grantsOf = new Map<string, GrantRow[]>();
  for (const g of grants) grantsOf.set(g.user_id, [...(grantsOf.get(g.user_id) ?? []), g]);
  for (const row of rows) {
    const membership = membershipOf(row);
    let count = 0;
    if (membership.member) {
      const scope = await access.peer(row.user_id, membership, false, grantsOf.get(row.user_id) ?? []).readableScope();
      for (const space of spaces) if (spaceInScope(scope, space)) count += 1;
    }
    out.set(row.user_id, { spaces: count, teams: teams.get(row.user_id) ?? 0 });
  }
  return out;
}
