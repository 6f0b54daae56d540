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

/**
 * The roles granted on a node and on every collection above it (a grant on a collection reaches everything
 * inside it, whatever the default levels in between say).
 */
export function grantsOnPath(
  nodeId: string,
  node: ContentNode,
  parentOf: (id: string) => ContentNode | undefined,
  grantsOn: (id: string) => readonly Role[],
): Role[] {
  const roles = [...grantsOn(nodeId)];
  const seen = new Set([nodeId]);
  let parentId = node.parentId;
  // Bounded like defaultRole: a corrupt parent cycle must not hang a request.
  while (parentId !== null && !seen.has(parentId) && seen.size < 1000) {
    seen.add(parentId);
    roles.push(...grantsOn(parentId));
    parentId = parentOf(parentId)?.parentId ?? null;
  }
  return roles;
}
