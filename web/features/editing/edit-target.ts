/*
 * Where a person's edits of a space go, as GitBook decides it: a space with live edits is edited in place; one
 * whose edits go through change requests is edited in the person's own draft change request (reused while it is
 * a draft, opened when there is none); a locked space, or a person without the edit role, cannot edit.
 */

export type EditAccess = { canEdit: true; mode: 'live' | 'change-request' } | { canEdit: false; reason: string };

export function editAccess(space: { editMode?: string; permissions?: { edit?: boolean } }): EditAccess {
  if (space.editMode === 'locked') return { canEdit: false, reason: 'This space is locked: an admin must unlock it before its content can change.' };
  if (!space.permissions?.edit) return { canEdit: false, reason: 'You can read this space but not edit it: editing needs the edit role on the space.' };
  return { canEdit: true, mode: space.editMode === 'live' ? 'live' : 'change-request' };
}

export interface DraftCandidate {
  id: string;
  number: number;
  status: string;
  updatedAt: string;
  createdBy: { id: string };
}

/** The person's draft change request to keep editing in: the one they touched last. */
export function pickDraft<T extends DraftCandidate>(changeRequests: readonly T[], userId: string): T | undefined {
  return changeRequests
    .filter((cr) => cr.status === 'draft' && cr.createdBy.id === userId)
    .reduce<T | undefined>((latest, cr) => (!latest || cr.updatedAt > latest.updatedAt ? cr : latest), undefined);
}

/** Where a page's saves go, as the save path and the browser's copy of unsaved edits name it. */
export type EditTarget = { kind: 'live' } | { kind: 'change-request'; id: string; number: number };

export function targetName(target: EditTarget): string {
  return target.kind === 'live' ? 'live' : `cr-${target.id}`;
}

/** The API path of the target's content: its tree (GET) and its change batches (POST). */
export function contentPath(spaceId: string, target: EditTarget): string {
  return target.kind === 'live' ? `/spaces/${spaceId}/content` : `/spaces/${spaceId}/change-requests/${target.id}/content`;
}
