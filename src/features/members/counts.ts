import type { AppContext } from '../../platform/context.ts';
import { membershipOf, type OrgAccess } from '../access/service.ts';
import { countSpaces } from '../spaces/queries.ts';
import type { MemberCounts } from './present.ts';
import { countTeamsOfUsers, type MemberRow } from './store.ts';

/**
 * The true counts of members: the spaces where each holds a role (by the same policy that answers their
 * requests) and the teams they are in. `access` is the caller's; its collection tree is shared.
 */
export async function memberCounts(ctx: AppContext, access: OrgAccess, rows: readonly MemberRow[]): Promise<Map<string, MemberCounts>> {
  const organizationId = access.organizationId;
  const teams = await countTeamsOfUsers(ctx.db, organizationId, rows.map((r) => r.user_id));
  let allSpaces: Promise<number> | undefined;
  const out = new Map<string, MemberCounts>();
  for (const row of rows) {
    const membership = membershipOf(row);
    let spaces = 0;
    if (membership.member && membership.role === 'admin') {
      allSpaces ??= countSpaces(ctx.db, { organizationId, scope: { everything: true } });
      spaces = await allSpaces;
    } else if (membership.member) {
      spaces = await countSpaces(ctx.db, { organizationId, scope: await access.peer(row.user_id, membership).readableScope() });
    }
    out.set(row.user_id, { spaces, teams: teams.get(row.user_id) ?? 0 });
  }
  return out;
}
