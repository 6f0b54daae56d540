import { forbidden } from '../../platform/errors.ts';
import type { Role } from '../access/roles.ts';

/**
 * Who may change who has access: the admins of the space or collection (organization admins, and members
 * granted admin there). Anyone who can read it may see who has access.
 */
export function assertCanManageGrants(role: Role, kind: 'space' | 'collection'): void {
  if (role !== 'admin') throw forbidden(`Changing permissions needs the admin role on the ${kind}`);
}
