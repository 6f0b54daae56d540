import { atLeast, type Role } from '../access/roles.ts';

/** Flags of a collection for a caller holding `role` on it. */
export function collectionPermissions(role: Role | null) {
  return {
    view: atLeast(role, 'read'),
    admin: role === 'admin',
    viewInviteLinks: role === 'admin',
    create: atLeast(role, 'create'),
  };
}
