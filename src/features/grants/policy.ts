import type { Role } from '../access/roles.ts';
import { assertCollectionAdmin } from '../collections/policy.ts';
import { assertSpaceAdmin } from '../spaces/policy.ts';

/**
 * Who may change who has access: the admins of the space or collection (organization admins, and members
 * granted admin there), the `admin` flag of either. Anyone who can read it may see who has access.
 */
export function assertCanManageGrants(role: Role, kind: 'space' | 'collection'): void {
  if (kind === 'space') assertSpaceAdmin(role, 'Changing permissions');
  else assertCollectionAdmin(role, 'Changing permissions');
}
