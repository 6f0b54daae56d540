/*
 * A collaboration document is one page where edits go: a space's live content or a change request's. Its name
 * says which, so the server can check the person's rights on each document a connection opens:
 * `spaces/<space>/live/<page>` or `spaces/<space>/change-requests/<change request>/<page>`.
 */

export type EditTarget = { kind: 'live' } | { kind: 'change-request'; changeRequestId: string };

export interface CollaborationDocument {
  spaceId: string;
  target: EditTarget;
  pageId: string;
}

const ID = /^[A-Za-z0-9_-]{1,64}$/;

export function collaborationDocumentName(document: CollaborationDocument): string {
  const target = document.target.kind === 'live' ? 'live' : `change-requests/${document.target.changeRequestId}`;
  return `spaces/${document.spaceId}/${target}/${document.pageId}`;
}

/** The document a name names, or null for anything else (a name is what a client sends: anything at all). */
export function parseCollaborationDocumentName(name: string): CollaborationDocument | null {
  const parts = name.split('/');
  if (parts[0] !== 'spaces' || !parts.slice(1).every((part) => ID.test(part))) return null;
  if (parts.length === 4 && parts[2] === 'live') return { spaceId: parts[1]!, target: { kind: 'live' }, pageId: parts[3]! };
  if (parts.length === 5 && parts[2] === 'change-requests') {
    return { spaceId: parts[1]!, target: { kind: 'change-request', changeRequestId: parts[3]! }, pageId: parts[4]! };
  }
  return null;
}
