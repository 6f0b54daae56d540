/*
 * Why each member can open a space or collection. The aggregate list (listPermissionsAggregateIn…) says who
 * holds which role, by the server's policy; it does not say why. The reasons are read back from what the share
 * dialog lists beside it: the grants to members and to teams here, the members of those teams, the member's
 * organization role and the default level of the space or collection (src/features/access/levels.ts).
 */

export type Level = 'admin' | 'create' | 'review' | 'edit' | 'comment' | 'read';
/** A default level: a role for every member, null for nobody, `inherit` to follow the collection above. */
export type DefaultLevel = Level | null | 'inherit';

const RANK: Record<Level, number> = { read: 1, comment: 2, edit: 3, review: 4, create: 5, admin: 6 };
export const LEVELS: Level[] = ['read', 'comment', 'edit', 'review', 'create', 'admin'];

export interface AccessInput {
  /** Who holds a role (the aggregate list). */
  holders: { userId: string; permission: Level }[];
  /** Grants to members on this space or collection. */
  userGrants: { userId: string; permission: Level }[];
  /** Grants to teams on it, with the ids of their members. */
  teamGrants: { teamId: string; title: string; permission: Level; members: string[] }[];
  /** Organization role of each member (null: a guest). */
  orgRoles: Map<string, Level | null>;
  defaultLevel: DefaultLevel;
  /** The collection this one is in, for what `inherit` follows. */
  parentTitle?: string;
}

export interface Reason {
  kind: 'admin' | 'direct' | 'team' | 'default' | 'collection' | 'organization';
  permission: Level;
  text: string;
}

/** The reasons of each holder, strongest first; the role a holder has comes from at least one of them. */
export function accessReasons(input: AccessInput): Map<string, Reason[]> {
  const direct = new Map(input.userGrants.map((g) => [g.userId, g.permission]));
  const result = new Map<string, Reason[]>();
  for (const holder of input.holders) {
    const reasons: Reason[] = [];
    const orgRole = input.orgRoles.get(holder.userId) ?? null;
    if (orgRole === 'admin') reasons.push({ kind: 'admin', permission: 'admin', text: 'Organization admin' });
    const own = direct.get(holder.userId);
    if (own) reasons.push({ kind: 'direct', permission: own, text: `Given directly (${own})` });
    for (const team of input.teamGrants) {
      if (team.members.includes(holder.userId)) reasons.push({ kind: 'team', permission: team.permission, text: `Team ${team.title} (${team.permission})` });
    }
    const strongest = Math.max(0, ...reasons.map((r) => RANK[r.permission]));
    // What the grants above do not explain comes from the default level, or from above it.
    if (RANK[holder.permission] > strongest) reasons.push(inherited(holder.permission, orgRole, input));
    reasons.sort((a, b) => RANK[b.permission] - RANK[a.permission]);
    result.set(holder.userId, reasons);
  }
  return result;
}

function inherited(permission: Level, orgRole: Level | null, input: AccessInput): Reason {
  if (input.defaultLevel !== 'inherit' && input.defaultLevel !== null) {
    return { kind: 'default', permission, text: `Default level for members (${input.defaultLevel})` };
  }
  if (input.parentTitle) return { kind: 'collection', permission, text: `Inherited from the collection ${input.parentTitle} (${permission})` };
  return { kind: 'organization', permission, text: `Organization role (${orgRole ?? permission})` };
}

/** How a default level reads in a menu. */
export function defaultLevelLabel(level: DefaultLevel, inCollection: boolean): string {
  if (level === 'inherit') return inCollection ? 'As the collection says' : "Each member's organization role";
  if (level === null) return 'No access unless given';
  return `Every member can ${level}`;
}
