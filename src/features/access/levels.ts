import { highest, type DefaultLevel, type Role } from './roles.ts';

/** A caller's standing in an organization: not a member at all, a guest (role null), or a member with a role. */
export type Membership = { member: false } | { member: true; role: Role | null };

/** A space or collection and the collections above it, nearest first, as far as access is concerned. */
export interface ContentNode {
  defaultLevel: DefaultLevel;
  parentId: string | null;
}

/**
 * The role a caller holds on a piece of content.
 * - Organization admins are admin everywhere in their organization.
 * - Guests get nothing by default.
 * - Otherwise the node's default level decides: a role gives members that role, null gives nothing, and
 *   `inherit` defers to the parent collection, up to the member's organization role at the top.
 * - Direct grants (user or team, on the node or a collection above it) add to that: the highest wins.
 */
export function effectiveRole(
  membership: Membership,
  node: ContentNode,
  parentOf: (id: string) => ContentNode | undefined,
  grants: readonly Role[] = [],
): Role | null {
  if (!membership.member) return null;
  if (membership.role === 'admin') return 'admin';
  const byDefault = membership.role === null ? null : defaultRole(membership.role, node, parentOf);
  return highest(byDefault, ...grants);
}

function defaultRole(orgRole: Role, node: ContentNode, parentOf: (id: string) => ContentNode | undefined): Role | null {
  let current: ContentNode | undefined = node;
  // Bounded walk: a corrupt parent cycle must not hang a request.
  for (let depth = 0; current && depth < 1000; depth++) {
    if (current.defaultLevel !== 'inherit') return current.defaultLevel;
    current = current.parentId ? parentOf(current.parentId) : undefined;
  }
  return orgRole;
}
