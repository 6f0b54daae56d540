import type { Document } from '../../../src/features/content/document/types.ts';
import { allPages, api } from '../../api/client.ts';
import type { ChangeRequest, Revision } from '../../api/types.ts';
import { contentPath, pickDraft, type EditTarget } from './edit-target.ts';

/** The answer of a change batch (updateChangeRequestContent with compat=false, or updateSpaceContent). */
export interface BatchAnswer {
  revision: string;
  changes: { object: string; ref?: string; page: string | { id: string } }[];
  insertedFiles: { id: string; name: string; downloadURL: string }[];
  merged: { page: string; document: Document }[];
}

/**
 * A change request named in the address (`?changeRequest=<id>`): the person edits in it with whoever else is
 * editing there (editing together), instead of in a draft of their own.
 */
export async function readChangeRequestTarget(spaceId: string, changeRequestId: string): Promise<EditTarget> {
  const changeRequest = await api<ChangeRequest>('GET', `/spaces/${spaceId}/change-requests/${encodeURIComponent(changeRequestId)}`);
  return { kind: 'change-request', id: changeRequest.id, number: changeRequest.number };
}

/** The signed-in person's draft change request of the space, reused, or opened (and kept a draft) when there is none. */
export async function openDraftChangeRequest(spaceId: string, user: { id: string; displayName?: string }): Promise<EditTarget> {
  const drafts = await allPages<ChangeRequest>(`/spaces/${spaceId}/change-requests`, { status: 'draft', creator: user.id });
  const found = pickDraft(drafts as unknown as { id: string; number: number; status: string; updatedAt: string; createdBy: { id: string } }[], user.id);
  if (found) return { kind: 'change-request', id: found.id, number: found.number };
  const created = await api<ChangeRequest>('POST', `/spaces/${spaceId}/change-requests`, { body: { subject: `Edits by ${user.displayName ?? 'me'}` } });
  await api('PATCH', `/spaces/${spaceId}/change-requests/${created.id}`, { body: { status: 'draft' } });
  return { kind: 'change-request', id: created.id, number: created.number };
}

/** The target's current revision: its page tree and the revision id edits are based on. */
export function readTargetRevision(spaceId: string, target: EditTarget, signal?: AbortSignal): Promise<Revision> {
  return api<Revision>('GET', contentPath(spaceId, target), { signal });
}

/** A page as it is at a revision, with its document: what an edit starts from. */
export function readPageAt(spaceId: string, revisionId: string, pageId: string, signal?: AbortSignal) {
  return api<{ id: string; title: string; description?: string; emoji?: string; cover?: { ref?: { kind: string; file?: string } }; document?: Document }>(
    'GET',
    `/spaces/${spaceId}/revisions/${revisionId}/page/${pageId}`,
    { query: { format: 'document' }, signal },
  );
}

/** A batch of changes to the target, as one revision. */
export function writeChanges(spaceId: string, target: EditTarget, changes: unknown[], options: { keepalive?: boolean } = {}): Promise<BatchAnswer> {
  const query = target.kind === 'live' ? {} : { compat: false };
  return api<BatchAnswer>('POST', contentPath(spaceId, target), { body: { changes }, query, ...(options.keepalive ? { keepalive: true } : {}) });
}

/** A file of the space (or of the change request), uploaded in one batch; resolves to its id. */
export async function uploadFile(spaceId: string, target: EditTarget, file: File): Promise<{ id: string; downloadURL: string }> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  const answer = await writeChanges(spaceId, target, [{ operation: 'insert_files', files: [{ name: file.name, contentType: file.type || undefined, base64: btoa(binary) }] }]);
  const inserted = answer.insertedFiles[0];
  if (!inserted) throw new Error('The server stored no file');
  return inserted;
}
