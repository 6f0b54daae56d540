import type { AppContext, Caller } from '../../platform/context.ts';
import { ApiError } from '../../platform/errors.ts';
import { loadChangeRequest } from '../change-requests/service.ts';
import { assertCanReadDocumentPage, assertCanWriteChangeRequest, readPageNow, type ContentSource, type PageNow } from '../content/service.ts';
import { assertCanEditContent } from '../spaces/policy.ts';
import { loadSpace } from '../spaces/service.ts';
import type { CollaborationDocument } from './document-name.ts';

/** Whether the person edits the page or follows it read-only; `refused` covers "no such page" and "not yours to see" alike. */
export type CollaborationAccess = 'edit' | 'view' | 'refused';

export const sourceOf = (document: CollaborationDocument): ContentSource =>
  document.target.kind === 'live'
    ? { kind: 'space', spaceId: document.spaceId }
    : { kind: 'change-request', spaceId: document.spaceId, changeRequestId: document.target.changeRequestId };

/**
 * What the caller may do in a collaboration document, decided by the same rules as the API's writes: `edit` where
 * update_page would be accepted (the space's edit permission, a live space taking live edits or a change request
 * still open to edits), `view` where the page can be read, and nothing else. Asked on every document a connection
 * opens (with the page read, to seed it) and again every few seconds while it stays open (`document: false`: the
 * page's document is not read, only whether it can be).
 */
export async function accessTo(ctx: AppContext, caller: Caller, document: CollaborationDocument, options: { document?: boolean } = {}): Promise<{ access: CollaborationAccess; page?: PageNow }> {
  let page: PageNow | undefined;
  try {
    if (options.document === false) await assertCanReadDocumentPage(ctx, caller, sourceOf(document), document.pageId);
    else page = await readPageNow(ctx, caller, sourceOf(document), document.pageId);
  } catch (error) {
    if (error instanceof ApiError) return { access: 'refused' };
    throw error;
  }
  return { access: (await mayEdit(ctx, caller, document)) ? 'edit' : 'view', ...(page ? { page } : {}) };
}

async function mayEdit(ctx: AppContext, caller: Caller, document: CollaborationDocument): Promise<boolean> {
  try {
    if (document.target.kind === 'live') {
      const { space, role } = await loadSpace(ctx, caller, document.spaceId);
      assertCanEditContent(role, space.edit_mode);
      return space.edit_mode === 'live';
    }
    const { space, role, cr } = await loadChangeRequest(ctx, caller, document.spaceId, document.target.changeRequestId);
    assertCanWriteChangeRequest(role, space, cr);
    return true;
  } catch (error) {
    if (error instanceof ApiError) return false;
    throw error;
  }
}
