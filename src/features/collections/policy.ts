import { allowIf, Policy } from '../../platform/policy.ts';
import { atLeast, type Role } from '../access/roles.ts';
import type { OrgAccess } from '../access/service.ts';
import { assertCanInOrganization } from '../organizations/policy.ts';

const role = (min: Role) => allowIf<Role | null>((r) => atLeast(r, min), `needs the ${min} role on the collection`);

/**
 * Who may do what with a collection, for a caller holding a role on it: its `permissions` and the checks of
 * the operations on it. `create` is also the check for putting a space or collection inside it.
 */
export const collectionPolicy = new Policy<Role | null, 'view' | 'admin' | 'viewInviteLinks' | 'create'>({
  view: role('read'),
  admin: role('admin'),
  viewInviteLinks: role('admin'),
  create: role('create'),
});

export function collectionPermissions(role: Role | null) {
  return collectionPolicy.flags(role);
}

/** Settings, deletion, moves and transfers of a collection: the `admin` flag. */
export function assertCollectionAdmin(role: Role | null, doing: string): void {
  collectionPolicy.assert(role, 'admin', doing);
}

/**
 * Creating a space or collection, or moving one, needs the create role where it goes: in its parent collection
 * (the collection's `create` flag) or, at the top level, in the organization (its `createContent` flag).
 */
export function assertCanCreateIn(access: OrgAccess, parent: { id: string; role: Role | null } | null): void {
  if (parent === null) assertCanInOrganization(access, 'createContent', 'Creating content in this organization');
  else collectionPolicy.assert(parent.role, 'create', `Creating content in collection ${parent.id}`);
}
