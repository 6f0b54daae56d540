import { forbidden } from '../../platform/errors.ts';
import { atLeast, type Role } from '../access/roles.ts';

/**
 * Who may do what with a discussion, given the caller's role on the space. Reading needs only to see the space;
 * taking part (posting, replying, reacting, resolving) needs the comment role; a comment or reply is edited by
 * its author alone, and deleted by its author or a space admin.
 */
export function commentPermissions(role: Role | null, callerId: string, authorId: string) {
  const takesPart = atLeast(role, 'comment');
  return {
    view: atLeast(role, 'read'),
    edit: takesPart && callerId === authorId,
    reply: takesPart,
    delete: (atLeast(role, 'read') && callerId === authorId) || role === 'admin',
  };
}

export function assertCanTakePart(role: Role | null, what: string): void {
  if (!atLeast(role, 'comment')) throw forbidden(`${what} needs the comment role on the space`);
}

export function assertCanEdit(role: Role | null, callerId: string, authorId: string, what: string): void {
  assertCanTakePart(role, `Editing ${what}`);
  if (callerId !== authorId) throw forbidden(`Only the author can edit ${what}`);
}

export function assertCanDelete(role: Role | null, callerId: string, authorId: string, what: string): void {
  if (!commentPermissions(role, callerId, authorId).delete) throw forbidden(`Only the author or a space admin can delete ${what}`);
}
