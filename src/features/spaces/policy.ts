import { atLeast, type Role } from '../access/roles.ts';

/**
 * Flags of a space for a caller holding `role` on it. Git Sync is not available on this server, so
 * `triggerGitSync` is never true; a locked space cannot be edited until an admin unlocks it.
 */
export function spacePermissions(role: Role | null, editMode: string) {
  return {
    view: atLeast(role, 'read'),
    access: atLeast(role, 'read'),
    admin: role === 'admin',
    viewInviteLinks: role === 'admin',
    edit: atLeast(role, 'edit') && editMode !== 'locked',
    triggerGitSync: false,
    comment: atLeast(role, 'comment'),
    merge: atLeast(role, 'review'),
    review: atLeast(role, 'review'),
    installIntegration: role === 'admin',
  };
}
