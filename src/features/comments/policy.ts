import { allOf, allowIf, Policy } from '../../platform/policy.ts';
import { atLeast, type Role } from '../access/roles.ts';

/** What the rules of a comment or reply decide on: the caller's role on the space, the caller and the author. */
interface CommentSubject {
  role: Role | null;
  callerId: string;
  authorId: string;
}

const takesPart = allowIf<CommentSubject>((s) => atLeast(s.role, 'comment'), 'needs the comment role on the space');

/**
 * Who may do what with a discussion: the `permissions` of a comment or reply and the checks of the operations
 * on them. Reading needs only to see the space; taking part (posting, replying, reacting, resolving) needs the
 * comment role; a comment or reply is edited by its author alone, and deleted by its author or a space admin.
 */
export const commentPolicy = new Policy<CommentSubject, 'view' | 'edit' | 'reply' | 'delete'>({
  view: allowIf((s) => atLeast(s.role, 'read'), 'needs the read role on the space'),
  edit: allOf(takesPart, allowIf((s) => s.callerId === s.authorId, 'is only for the author')),
  reply: takesPart,
  delete: allowIf((s) => (atLeast(s.role, 'read') && s.callerId === s.authorId) || s.role === 'admin', 'is only for the author or a space admin'),
});

export function commentPermissions(role: Role | null, callerId: string, authorId: string) {
  return commentPolicy.flags({ role, callerId, authorId });
}

/** Posting, replying, reacting, resolving: the `reply` rule, which does not depend on the author. */
export function assertCanTakePart(role: Role | null, doing: string): void {
  commentPolicy.assert({ role, callerId: '', authorId: '' }, 'reply', doing);
}

export function assertCanEdit(role: Role | null, callerId: string, authorId: string, what: string): void {
  commentPolicy.assert({ role, callerId, authorId }, 'edit', `Editing ${what}`);
}

export function assertCanDelete(role: Role | null, callerId: string, authorId: string, what: string): void {
  commentPolicy.assert({ role, callerId, authorId }, 'delete', `Deleting ${what}`);
}
